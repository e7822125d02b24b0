// The registration table of the generic classes: each concept's file adds its own.

#include "ainb/gamedata/generic_nodes.hpp"

#include <algorithm>

#include "internal.hpp"

namespace ainb::gamedata {

namespace {

generic::ClassList generic_classes(const GenericNodeOptions& options) {
  generic::ClassList classes;
  generic::add_math_queries(classes);
  generic::add_choice_queries(classes);
  generic::add_blackboard(classes);
  generic::add_results(classes);
  generic::add_selectors(classes);
  generic::add_readings(classes, options);
  return classes;
}

}  // namespace

void add_generic_nodes(runtime::NodeRegistry& registry, const GenericNodeOptions& options) {
  for (auto& [name, node_class] : generic_classes(options)) {
    if (!registry.find(name)) registry.add(name, std::move(node_class));
  }
}

std::vector<std::string> generic_node_names(const GenericNodeOptions& options) {
  std::vector<std::string> names;
  for (const auto& entry : generic_classes(options))
    names.push_back(entry.first);
  std::sort(names.begin(), names.end());
  return names;
}

}  // namespace ainb::gamedata
