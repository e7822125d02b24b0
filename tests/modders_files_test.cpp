// Real files as modders ship them (the wide corpus's modded files and the public files as the
// modders' two Python tools write them back): what loads, how it reads, what lint says, and the
// refusals that stay (tests/corpus-refusals.txt). docs/loader.md, "Files modders' tools write".

#include <doctest/doctest.h>
#include <fmt/format.h>

#include "ainb/gamedata/catalogue.hpp"
#include "ainb/load_error.hpp"
#include "ainb/loader.hpp"
#include "ainb/runtime/instance.hpp"
#include "ainb/runtime/query_cycles.hpp"
#include "ainb/writer/text_form.hpp"
#include "ainb/writer/writer.hpp"
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
  for (const auto& [name, reason] : refusals) {
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
            "reads all its sources (docs/loader.md, \"Multi-source marks\")",
            "0 multi-source-mark note: generic plug MultiBool holds the multi-source mark -100 "
            "where the game's files name a source node (as dt-12345/AINB writes it); the input "
            "reads all its sources (docs/loader.md, \"Multi-source marks\")"});
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
