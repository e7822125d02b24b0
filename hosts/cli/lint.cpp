// `ainb lint`: the user nodes of a file against node definitions.

#include <ostream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "ainb/gamedata/catalogue.hpp"
#include "ainb/gamedata/romfs.hpp"
#include "commands.hpp"

namespace ainb::cli {

int run_lint(const LintRequest& request, std::ostream& out, std::ostream& err) {
  if (request.defs.empty() && request.source.romfs.empty()) {
    err << "error: lint needs node definitions: --defs FILE, or --romfs DIR holding "
           "{AI,Logic,Sequence}/NodeDefinition/Node.Product.<N>.aidefn.byml.zs\n";
    return kExitLintError;
  }
  std::shared_ptr<const Model> model;
  formats::NodeCatalogue catalogue;
  try {
    const auto dictionaries =
        gamedata::load_dictionaries(request.source.romfs, request.source.zsdic);
    catalogue = gamedata::load_node_definitions(request.defs, request.source.romfs, &dictionaries);
    if (request.defs.empty() && catalogue.classes().empty()) {
      err << "error: " << request.source.romfs
          << ": no node definitions (no {AI,Logic,Sequence}/NodeDefinition/"
             "Node.Product.<N>.aidefn.byml.zs); give them with --defs FILE\n";
      return kExitLintError;
    }
    model = open_model(request.file, request.source);
  } catch (const LoadError& e) {
    err << "error: " << e.what() << '\n';
    return kExitLintError;
  }
  const auto findings = gamedata::lint(*model, catalogue);
  std::size_t checked = 0;
  for (const auto& n : model->nodes) {
    if (n.type == NodeType::UserDefined && !n.is_module()) ++checked;
  }
  if (request.format == "json") {
    auto json = nlohmann::ordered_json::object();
    json["file"] = model->name;
    json["category"] = std::string(model->header.category_name);
    json["checked_nodes"] = checked;
    auto list = nlohmann::ordered_json::array();
    for (const auto& f : findings) {
      list.push_back({{"node", f.node},
                      {"class", f.node_class},
                      {"kind", gamedata::lint_kind_name(f.kind)},
                      {"parameter", f.parameter},
                      {"message", f.message}});
    }
    json["findings"] = std::move(list);
    out << json.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) << '\n';
  } else {
    for (const auto& f : findings) {
      out << fmt::format("{}: node {} {}: {}: {}\n", model->name, f.node, f.node_class,
                         gamedata::lint_kind_name(f.kind), f.message);
    }
    out << fmt::format("{}: {} finding{} in {} user node{} ({} category)\n", model->name,
                       findings.size(), findings.size() == 1 ? "" : "s", checked,
                       checked == 1 ? "" : "s", model->header.category_name);
  }
  return findings.empty() ? kExitOk : kExitFindings;
}

}  // namespace ainb::cli
