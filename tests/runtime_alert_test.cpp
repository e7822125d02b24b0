// Element_Alert: its message reaches the observer as an alert event, and its Result property is its
// result.

#include <doctest/doctest.h>

#include "runtime_probe.hpp"

using namespace ainb;
using namespace ainb::runtime;
using namespace ainb::test;

TEST_CASE("Element_Alert emits an alert event and returns its Result") {
  struct Alerts : Observer {
    std::vector<std::string> messages;
    void on_alert(const Instance&, std::uint32_t, std::string_view message) override {
      messages.emplace_back(message);
    }
  } alerts;
  AinbSpec spec;
  spec.commands = {{"Root", 0, {}}};
  BuildNode alert{.type = NodeType::Alert};
  alert.properties = {{ParamType::Int, "Result", std::int32_t{3}}};
  alert.inputs = {{ParamType::String, "Message", -1, 0, 0, std::string("unexpected form")}};
  spec.nodes = {alert};
  auto graph = std::make_shared<Graph>(ainb::load(build(spec), "alert.ainb"), NodeRegistry{});
  Instance instance(graph, InstanceOptions{0, nullptr, &alerts});
  instance.start("Root");
  instance.tick();
  CHECK(alerts.messages == std::vector<std::string>{"unexpected form"});
  CHECK(instance.state() == CommandState::Failed);  // Result 3 = Failure
}
