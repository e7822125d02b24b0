// Real files as modders ship them (the wide corpus's modded files and the public files as the
// modders' two Python tools write them back): what loads, how it reads, what lint says, and the
// refusals that stay (tests/corpus-refusals.txt). docs/loader.md, "Files modders' tools write".

#include <map>
#include <set>
#include <string>

#include <doctest/doctest.h>
#include <fmt/format.h>

#include "ainb/gamedata/catalogue.hpp"
#include "ainb/load_error.hpp"
#include "ainb/loader.hpp"
#include "ainb/runtime/instance.hpp"
#include "ainb/runtime/query_cycles.hpp"
#include "ainb/writer/text_form.hpp"
#include "ainb/writer/writer.hpp"
#include "cli_run.hpp"
#include "corpus.hpp"
#include "runtime_corpus.hpp"

using namespace ainb;

namespace {

std::filesystem::path wide(const std::string& name) {
  return test::corpus_dir() / "wide" / "ainb" / name;
}

std::vector<std::string> lint_lines(const Model& model) {
  std::vector<std::string> lines;
  for (const auto& f : gamedata::lint_builtins(model)) {
    if (f.kind == gamedata::LintFinding::Kind::NotHonoured) continue;
    lines.push_back(fmt::format("{} {} {}: {}", f.node, gamedata::lint_kind_name(f.kind),
                                f.is_note() ? "note" : "finding", f.message));
  }
  return lines;
}

}  // namespace

TEST_CASE("corpus refusals: each file listed is refused with its reason, no other") {
  if (test::corpus_dir().empty()) return;
  const auto refusals = test::corpus_refusals();
  CHECK(refusals.size() == 1);
  for (const auto& refusal : refusals) {
    const auto& name = refusal.first;
    const auto& reason = refusal.second;
    CAPTURE(name);
    std::filesystem::path path;
    for (const auto* folder : {"ainb", "bulk/ainb", "wide/ainb"}) {
      if (std::filesystem::exists(test::corpus_dir() / folder / name))
        path = test::corpus_dir() / folder / name;
    }
    REQUIRE_FALSE(path.empty());
    try {
      load_file(path);
      FAIL("loaded");
    } catch (const LoadError& e) {
      // The reason starts with the loader's message (section at offset: problem).
      CHECK(reason.starts_with(
          fmt::format("{} at offset {:#x}: {}", e.section(), e.offset(), e.reason())));
    }
  }
}

TEST_CASE("modders' files: multi-source marks on generic plugs load, write back and lint") {
  if (test::corpus_dir().empty()) return;
  // dt-12345/AINB writes a generic plug per source of a multi-source input, holding the input's
  // mark (-100) where the game's files name a source node.
  const auto model = load_file(wide("Enemy_Bublin_Senior_5.root.ainb"));
  const auto plugs = model->plugs_of(model->nodes[0], PlugKind::Generic);
  REQUIRE(plugs.size() == 2);
  for (const auto& p : plugs) {
    CHECK(p.multi_source_mark == -100);
    CHECK_FALSE(p.target.has_value());
    CHECK(p.name == "MultiBool");
  }
  const auto& input = model->inputs_of(model->nodes[0], ParamType::Bool)[0];
  REQUIRE(input.is_multi_source());
  CHECK(model->sources_of(input).size() == 2);  // the input still reads both its sources
  CHECK(writer::write(*model) == model->bytes);
  CHECK(lint_lines(*model) ==
        std::vector<std::string>{
            "0 multi-source-mark note: generic plug MultiBool holds the multi-source mark -100 "
            "where the game's files name a source node (as dt-12345/AINB writes it); the input "
            "reads all its sources (docs/loader.md, \"Files modders' tools write\")",
            "0 multi-source-mark note: generic plug MultiBool holds the multi-source mark -100 "
            "where the game's files name a source node (as dt-12345/AINB writes it); the input "
            "reads all its sources (docs/loader.md, \"Files modders' tools write\")"});
}

TEST_CASE("modders' files: a module the module array does not list is found by name") {
  if (test::corpus_dir().empty()) return;
  const auto model = load_file(wide("Mogurudo_Baby.action.root.ainb"));
  CHECK(model->nodes[56].name == "Bokoblin.action.interruptsmash.module");
  const auto lines = lint_lines(*model);
  CHECK(std::count(lines.begin(), lines.end(),
                   "56 unlisted-module finding: calls Bokoblin.action.interruptsmash.module, which "
                   "the file's module array does not list (the game may not load it for this "
                   "file; the run finds it by name)") == 1);
  // The run looks the module up by name like any other (the corpus lacks it and some of the
  // file's listed modules: they run as stubs here; a scan of the mod's packs finds them).
  const runtime::DirectoryResolver resolver(test::real_ainb_folders());
  runtime::NodeRegistry registry;
  const runtime::Graph graph(model, registry, test::corpus_options(resolver));
  CHECK(runtime::detail::arrays(graph).nodes()[56].is_stub);
  CHECK_THROWS_WITH(
      runtime::Graph(model, registry,
                     runtime::GraphOptions{.modules = &resolver,
                                           .missing_modules = runtime::MissingModulePolicy::Error}),
      doctest::Contains(
          "calls module \"Bokoblin.action.search.module.ainb\", which was not found"));
}

TEST_CASE("modders' files: empty property tables at offset 0, an empty string at the pool's end") {
  if (test::corpus_dir().empty()) return;
  for (const auto* name : {"Enemy_Bublin_Senior_4.brain.setordertoblackbord.module.ainb",
                           "Enemy_Bublin_Senior_12.module.ainb"}) {
    CAPTURE(name);
    const auto model = load_file(wide(name));
    for (const auto& list : model->properties)
      CHECK(list.empty());
    CHECK(writer::write(*model) == model->bytes);
    CHECK(writer::capture_layout(*model).zero_property_offsets == 0x3F);
    CHECK(writer::from_text(writer::to_text(*model)) == model->bytes);
  }
  const auto model = load_file(wide("Enemy_Bublin_Senior_3.actionseq.root.ainb"));
  const auto& variation = model->inputs_of(model->nodes[0], ParamType::String)[0];
  CHECK(variation.name == "ActionVerbVariation");
  CHECK(std::get<std::string_view>(variation.default_value).empty());
  CHECK(writer::capture_layout(*model).empty_string_at_pool_end);
  CHECK(writer::from_text(writer::to_text(*model)) == model->bytes);
}

TEST_CASE("the game's query cycle: Ganondorf_Miasma.utility.root builds, runs and lints") {
  if (test::corpus_dir().empty()) return;
  const auto model = load_file(wide("Ganondorf_Miasma.utility.root.ainb"));
  CHECK(runtime::query_cycles(*model) == std::vector<std::vector<std::uint32_t>>{{14, 27, 28}});
  CHECK(lint_lines(*model) ==
        std::vector<std::string>{
            "14 query-cycle note: nodes 14, 27 and 28 are each other's queries (a query cycle): "
            "a query met again while it is calculated gives the outputs it holds "
            "(docs/semantics.md, \"Query cycles\")"});
  runtime::NodeRegistry registry;
  const auto graph = std::make_shared<runtime::Graph>(model, registry, runtime::GraphOptions{});
  // The selector (node 29) calculates 27's queries first: 13 (with 105 and 12), then 28, whose
  // query 14 comes before it; 14's query 27 is on the path, so 14 reads what 27 holds.
  std::vector<std::uint32_t> order;
  for (const auto& step : runtime::detail::arrays(*graph).query_plan(29))
    order.push_back(step.node);
  CHECK(order == std::vector<std::uint32_t>{27, 13, 105, 12, 13, 28, 14, 28, 27});
  runtime::Instance instance(graph, runtime::InstanceOptions{});
  instance.start("Root");
  for (int frame = 0; frame < 10; ++frame)
    instance.tick();
  CHECK(instance.fault() == nullptr);
}

namespace {

// The original of a rewritten file (same name, in ainb/ or bulk/ainb/).
std::filesystem::path original_of(const std::filesystem::path& rewritten) {
  const auto name = rewritten.filename();
  const auto first = test::corpus_dir() / "ainb" / name;
  return std::filesystem::exists(first) ? first : test::corpus_dir() / "bulk" / "ainb" / name;
}

const Plug& child_plug(const Model& m, std::uint32_t node, std::size_t k) {
  return m.plugs_of(m.nodes[node], PlugKind::Child)[k];
}

}  // namespace

TEST_CASE(
    "rewritten files: each loads and behaves as its original, or the tool's damage says why") {
  // ../shared/corpus/rewritten/: every public file as the modders' two Python tools write it back.
  // dt-12345/AINB (ainb2/): all behave as their originals. The old converter (legacy/) loses
  // what its JSON does not keep (the corpus README's quirks): each file that differs is named
  // here with the field the tool lost, checked on both models.
  const auto ainb2 = test::corpus_rewritten_files("ainb2");
  const auto legacy = test::corpus_rewritten_files("legacy");
  if (ainb2.empty()) return;
  CHECK(ainb2.size() == 120);
  CHECK(legacy.size() == 120);
  const std::map<std::string, std::string> refused = {
      // The EXB string pool is dropped: an instruction's string names offset 0 of an empty pool.
      {"Toby.action.turn.module.ainb",
       "EXB instructions at offset 0xc84: immediate string offset 0x0 lies outside the EXB string "
       "pool (size 0x0)"},
      // The child replacement table is rebuilt from the JSON's marks, with garbage types.
      {"Toby.action.throw.module.ainb",
       "child replacement table at offset 0x3d53: replacement 1 has unknown type 42"},
      {"Toby.utility.root.ainb",
       "child replacement table at offset 0xb172: replacement 1 has unknown type 123"},
  };
  const std::set<std::string> differ = {
      "Horablin.action.jumpattack.module.ainb", "Toby.action.fall.module.ainb",
      "_LocalModule_7015cc6e1fe7.module.ainb", "Toby.action.landwalk.module.ainb"};
  std::size_t equal = 0;
  for (const auto* tool : {"ainb2", "legacy"}) {
    for (const auto& path : tool == std::string("ainb2") ? ainb2 : legacy) {
      const auto name = path.filename().string();
      CAPTURE(tool);
      CAPTURE(name);
      const bool from_legacy = tool == std::string("legacy");
      if (from_legacy && refused.contains(name)) {
        try {
          load_file(path);
          FAIL("loaded");
        } catch (const LoadError& e) {
          CHECK(fmt::format("{} at offset {:#x}: {}", e.section(), e.offset(), e.reason()) ==
                refused.at(name));
        }
        continue;
      }
      const auto original = original_of(path);
      const auto run =
          test::ainb_cli({"regress", original.string(), path.string(), "--generic-nodes",
                          "--stub-children", "--restart", "--stub-missing-modules", "--frames",
                          "300", "--modules", original.parent_path().string()});
      const bool expect_equal = !(from_legacy && differ.contains(name));
      CHECK_MESSAGE((run.code == 0) == expect_equal, run.out << run.err);
      equal += run.code == 0 ? 1 : 0;
    }
  }
  CHECK(equal == 120 + 113);
  // The differences are the tool's: the field it lost, present in the original only.
  const auto pair = [](const std::string& name) {
    const auto rewritten = test::corpus_dir() / "rewritten" / "legacy" / name;
    return std::pair{load_file(original_of(rewritten)), load_file(rewritten)};
  };
  {  // An F32Selector plug's upper bound from the blackboard (ForwardDirTargetTime) is lost.
    const auto [a, b] = pair("Horablin.action.jumpattack.module.ainb");
    CHECK(std::get<F32Condition>(child_plug(*a, 47, 0).data).max.blackboard.used);
    CHECK_FALSE(std::get<F32Condition>(child_plug(*b, 47, 0).data).max.blackboard.used);
  }
  {  // The child replacement entry is lost: the removed child runs.
    const auto [a, b] = pair("Toby.action.fall.module.ainb");
    CHECK(a->replacements->entries.size() == 1);
    CHECK((!b->replacements || b->replacements->entries.empty()));
  }
  {  // A selector plug's condition from the blackboard (LoopAS) becomes its constant.
    const auto [a, b] = pair("_LocalModule_7015cc6e1fe7.module.ainb");
    const auto used = [](const Plug& p) {
      return std::visit(
          [](const auto& d) {
            if constexpr (requires { d.blackboard; }) return d.blackboard.used;
            return false;
          },
          p.data);
    };
    CHECK(used(child_plug(*a, 3, 0)));
    CHECK_FALSE(used(child_plug(*b, 3, 0)));
  }
  {  // The EXB static memory shrinks from 8 to 4 bytes and its strings are mangled: the
     // expression's second store lands outside its block.
    const auto [a, b] = pair("Toby.action.landwalk.module.ainb");
    CHECK(a->expressions->functions[0].static_size == 8);
    CHECK(b->expressions->functions[0].static_size == 4);
  }
}
