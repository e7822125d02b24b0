// The node-definition catalogue read from the corpus's NodeDefinition.json (TotK).

#include <algorithm>

#include <doctest/doctest.h>

#include "ainb/formats/node_definitions.hpp"
#include "corpus.hpp"

using ainb::formats::NodeCatalogue;

TEST_CASE("the TotK node definitions: classes per category, tags, inputs and defaults") {
  const auto dir = ainb::test::corpus_dir();
  if (dir.empty()) return;
  const auto catalogue = NodeCatalogue::from_json_file(dir / "nodedefs/NodeDefinition.json");
  CHECK(catalogue.count("AI") == 7130);
  CHECK(catalogue.count("Logic") == 708);
  CHECK(catalogue.count("Sequence") == 508);
  CHECK(catalogue.classes().size() == 8346);

  const auto* selector = catalogue.find("AI", "CycleCheckBoolSelector");
  REQUIRE(selector != nullptr);
  CHECK(selector->has_tag("Selector"));
  REQUIRE(selector->inputs.size() == 6);
  CHECK(selector->inputs[0].name == "Bool");
  CHECK(selector->inputs[0].type == "Bool");
  CHECK(std::get<bool>(selector->inputs[0].default_value) == false);
  const auto timer = std::find_if(selector->inputs.begin(), selector->inputs.end(),
                                  [](const auto& i) { return i.name == "TimerMax"; });
  REQUIRE(timer != selector->inputs.end());
  CHECK(std::get<std::int64_t>(timer->default_value) == 35);
  CHECK(catalogue.find("Logic", "CycleCheckBoolSelector") == nullptr);

  std::size_t queries = 0, floats = 0, vectors = 0;
  for (const auto& c : catalogue.classes()) {
    queries += c.has_tag("Query");
    for (const auto& i : c.inputs) {
      floats += i.type == "Float";
      vectors += i.type == "Vector3";
    }
  }
  CHECK(queries == 2459);
  CHECK(floats == 1930);
  CHECK(vectors == 1110);
}

TEST_CASE("node definitions: bad JSON and shapes are LoadErrors") {
  CHECK_THROWS_AS(NodeCatalogue::from_json("{\"AI\": ", "x.json"), ainb::LoadError);
  CHECK_THROWS_WITH(NodeCatalogue::from_json(
                        R"({"AI": {"N": {"Inputs": {"Int": {"a": {"default": "x"}}}}}})", "x.json"),
                    "x.json: node definitions at offset 0x0: AI/N: input a of type Int: "
                    "unexpected default \"x\"");
  const auto one = NodeCatalogue::from_json(
      R"({"AI": {"N": {"Inputs": {"Float": {"f": {"default": "0.5"}}, "Vector3": {"v": {"default": [1, 2, 3]}}}, "Tags": ["Query"]}}})",
      "y.json");
  const auto* n = one.find("AI", "N");
  REQUIRE(n != nullptr);
  CHECK(std::get<double>(n->inputs[0].default_value) == 0.5);
  CHECK(std::get<std::array<double, 3>>(n->inputs[1].default_value)[2] == 3.0);
}
