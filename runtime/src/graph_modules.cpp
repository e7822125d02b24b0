// Module calls, a step of a graph's build: each module node's file found by the resolver, built
// as a graph of its own (once per file), and linked to its caller's parameters and child plugs.

#include "graph_build.hpp"

#include <stdexcept>

#include <fmt/format.h>

namespace ainb::runtime {

void Graph::build_modules(const NodeRegistry& registry, Build& build) {
  const auto& m = *model_;
  const auto& options = build.options;
  for (std::uint32_t i = 0; i < m.nodes.size(); ++i) {
    const auto& n = m.nodes[i];
    if (!n.is_module()) continue;
    const auto path = std::string(n.name) + ".ainb";
    auto fail = [&](const std::string& why) {
      throw LoadError(m.name, "nodes", n.entry_offset,
                      fmt::format("node {} calls module \"{}\", {}", i, path, why));
    };
    std::shared_ptr<const Graph> called;
    if (const auto it = build.done.find(path); it != build.done.end()) {
      called = it->second;
    } else {
      std::string chain;  // the files being built, callers first, then this one
      for (const auto& file : build.chain)
        chain += file + " -> ";
      chain += path;
      if (std::find(build.chain.begin(), build.chain.end(), path) != build.chain.end()) {
        fail("which calls itself: " + chain);
      }
      // The chain holds the top-level file and the modules above this call.
      if (build.chain.size() > options.max_module_depth) {
        fail(fmt::format("nested deeper than the limit of {} modules: {}", options.max_module_depth,
                         chain));
      }
      auto model = options.modules ? options.modules->find(path) : nullptr;
      if (!model) {
        const auto where = options.modules ? options.modules->where()
                                           : std::string("no module resolver was given");
        if (options.missing_modules == MissingModulePolicy::Error) {
          fail(fmt::format("which was not found ({})", where));
        }
        if (listening(options.log)) {
          const auto message =
              fmt::format("module \"{}\" not found ({}); node {} runs as a stub", path, where, i);
          (*options.log)(LogEvent{.level = LogLevel::Warning,
                                  .kind = LogKind::MissingModule,
                                  .file = m.name,
                                  .node = i,
                                  .subject = path,
                                  .detail = where,
                                  .message = message});
        }
        build.done.emplace(path, nullptr);  // warn once per file
      } else {
        build.chain.push_back(path);
        called = std::shared_ptr<const Graph>(new Graph(std::move(model), registry, build));
        build.chain.pop_back();
        build.done.emplace(path, called);
      }
    }
    if (!called) {
      nodes_[i].is_stub = true;
      continue;
    }
    nodes_[i].module = static_cast<std::int32_t>(module_calls_.size());
    ModuleCall call{i, called, std::vector<std::int32_t>(called->nodes().size(), -1), {}};
    const auto& cm = called->model();
    for (std::uint32_t j = 0; j < cm.nodes.size(); ++j) {
      const auto& inner = called->nodes()[j];
      const auto type = inner.value_type;
      auto index_named = [&](auto list) {
        for (std::size_t k = 0; k < list.size(); ++k) {
          if (list[k].name == inner.parameter) return static_cast<std::int32_t>(k);
        }
        return -1;
      };
      if (is_module_input(inner.type)) {
        call.links[j] = index_named(m.inputs_of(n, type));
      } else if (is_module_output(inner.type)) {
        call.links[j] = index_named(m.outputs_of(n, type));
      } else if (inner.type == NodeType::ModuleIFChild) {
        const auto plugs = child_plugs(i);
        const auto kids = children(i);
        for (std::size_t k = 0; k < plugs.size(); ++k) {
          // An empty plug of the caller: the module's ModuleIF_Child runs nothing, as for none.
          if (m.plugs[plugs[k]].name == inner.parameter && kids[k] != kNoChild)
            call.links[j] = static_cast<std::int32_t>(k);
        }
      }
    }
    for (std::size_t t = 0; t < kParamTypeCount; ++t) {
      const auto type = static_cast<ParamType>(t);
      if (type == ParamType::Pointer) continue;
      for (std::uint32_t k = n.properties[t].base; k < n.properties[t].end(); ++k) {
        const auto& entries = cm.blackboard.entries;
        for (std::uint32_t e = 0; e < entries.size(); ++e) {
          if (entries[e].type == blackboard_type_for(type, ParamFlags{}) &&
              entries[e].name == m.properties[t][k].name) {
            call.arguments.push_back({type, k, e});
          }
        }
      }
    }
    module_calls_.push_back(std::move(call));
  }
  module_instances_ = 0;
  for (const auto& call : module_calls_)
    module_instances_ += 1 + call.graph->module_instances_;  // each at most the limit: no overflow
  if (module_instances_ > options.max_module_instances) {
    std::string chain;  // from the top-level file down to this one, when it is a module
    if (build.chain.size() > 1) {
      for (const auto& file : build.chain)
        chain += (chain.empty() ? " (the chain: " : " -> ") + file;
    }
    throw LoadError(m.name, "modules", m.header.offsets[header_slot::kModules],
                    fmt::format("an actor of this file would hold {} module instances (one per "
                                "call, in every module called), past the limit of {}{}",
                                module_instances_, options.max_module_instances,
                                chain.empty() ? "" : chain + ")"));
  }
}

std::vector<const Graph*> Graph::module_graphs() const {
  std::vector<const Graph*> graphs;
  for (const auto& call : module_calls_)
    graphs.push_back(call.graph.get());
  return graphs;
}

const Graph* Graph::module_graph(std::uint32_t node) const {
  if (node >= nodes_.size() || nodes_[node].module < 0) return nullptr;
  return module_calls_[static_cast<std::size_t>(nodes_[node].module)].graph.get();
}

}  // namespace ainb::runtime
