// Properties not honoured (runtime/unhonoured.hpp): which values each real file sets, and how
// `ainb run` reports them.

#include <map>

#include <doctest/doctest.h>

#include "ainb/loader.hpp"
#include "ainb/runtime/unhonoured.hpp"
#include "cli_run.hpp"
#include "corpus.hpp"
#include "runtime_probe.hpp"

using namespace ainb;

TEST_CASE("properties not honoured: every value the real files set but the runtime does not run") {
  const auto files = test::all_real_ainb_files();
  if (files.empty()) return;
  std::map<std::string, std::size_t> counts;  // "Element_Sequential BusyPolicy 2" -> nodes
  std::size_t files_with = 0;
  for (const auto& path : files) {
    const auto model = load_file(path);
    const auto found = runtime::unhonoured_properties(*model);
    files_with += found.empty() ? 0 : 1;
    for (const auto& p : found) {
      CHECK(model->nodes[p.node].type == p.type);
      ++counts[std::string(node_type_name(p.type)) + " " + runtime::describe(p)];
    }
  }
  // docs/semantics.md, "Properties not honoured", lists the same.
  CHECK(counts == std::map<std::string, std::size_t>{
                      {"Element_BoolSelector CalculateTiming 1", 273},
                      {"Element_F32Selector CalculateTiming 1", 14},
                      {"Element_F32Selector PlugJudgeType 1", 2},
                      {"Element_F32Selector PlugJudgeType 2", 2},
                      {"Element_S32Selector CalculateTiming 1", 52},
                      {"Element_S32Selector IsNoSelectIfSameInstance true", 8},
                      {"Element_Sequential BusyPolicy 2", 96},
                      {"Element_Sequential PlayPolicy 1", 23},
                      {"Element_Sequential ResultPolicy 1", 32},
                      {"Element_Simultaneous ResultPolicy 1", 83},
                      {"Element_StringSelector CalculateTiming 1", 3},
                  });
  CHECK(files_with == 218);
}

TEST_CASE("ainb run: the summary names each node whose properties are not honoured") {
  const auto dir = test::corpus_dir();
  if (dir.empty()) return;
  const auto r = test::ainb_cli({"run", (dir / "ainb/Toby.action.basicattack.module.ainb").string(),
                                 "--frames", "3", "--stub-missing-modules"});
  CHECK(r.code == 0);
  const auto at = r.out.find("not honoured");
  REQUIRE(at != std::string::npos);
  CHECK(r.out.substr(at) ==
        "not honoured, the run behaves as for 0 or false (docs/semantics.md, \"Properties not "
        "honoured\"):\n"
        "  Toby.action.basicattack.module.ainb #23 Element_Sequential: BusyPolicy 2, PlayPolicy 1, "
        "ResultPolicy 1\n"
        "  Toby.action.basicattack.module.ainb #119 Element_Simultaneous: ResultPolicy 1\n");
}

TEST_CASE("ainb regress: the edited side's properties not honoured follow the verdict") {
  const auto dir = test::corpus_dir();
  if (dir.empty()) return;
  const auto file = (dir / "ainb/Toby.action.basicattack.module.ainb").string();
  const auto r = test::ainb_cli(
      {"regress", file, file, "--frames", "3", "--stub-missing-modules", "--strict"});
  CHECK(r.code == 0);  // not notes of the edit: --strict passes
  CHECK(r.out.starts_with("equal: "));
  CHECK(r.out.ends_with(
      "not honoured, the run behaves as for 0 or false (docs/semantics.md, \"Properties not "
      "honoured\"):\n"
      "  Toby.action.basicattack.module.ainb #23 Element_Sequential: BusyPolicy 2, PlayPolicy 1, "
      "ResultPolicy 1\n"
      "  Toby.action.basicattack.module.ainb #119 Element_Simultaneous: ResultPolicy 1\n"));
}

TEST_CASE(
    "--simultaneous-ends-first: a Simultaneous with ResultPolicy 1 ends with its first child") {
  // Simultaneous (ResultPolicy 1) [Move: Running twice then the script's result, Guard: runs on].
  auto run = [](bool reading, runtime::Result move_result) {
    test::AinbSpec spec;
    spec.commands = {{"Root", 0, {}}};
    test::BuildNode both{.type = NodeType::Simultaneous};
    both.properties = {{ParamType::Int, "EndPolicy", std::int32_t{0}},
                       {ParamType::Int, "ResultPolicy", std::int32_t{1}}};
    both.plugs = {{PlugKind::Child, 1, ""}, {PlugKind::Child, 2, ""}};
    spec.nodes = {both, test::user("Move"), test::user("Guard")};
    test::Harness h;
    h.options.simultaneous_ends_first = reading;
    h.probe("Move", {test::R, test::R, move_result});
    h.probe("Guard", {test::R});
    h.load(spec);
    h.instance->start("Root");
    h.tick();
    h.tick();
    return std::pair{h.tick(), h.instance->state()};
  };
  // Not honoured (the default): the node runs while Guard does.
  CHECK(run(false, test::S) == std::pair{test::Log{"update Move", "leave Move", "update Guard"},
                                         runtime::CommandState::Running});
  // Read: Move's finish ends the node, Guard is left, and Move's result is the node's.
  CHECK(run(true, test::S) == std::pair{test::Log{"update Move", "leave Move", "leave Guard"},
                                        runtime::CommandState::Succeeded});
  CHECK(run(true, test::F).second == runtime::CommandState::Failed);
}
