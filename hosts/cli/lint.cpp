// `ainb lint`: the user nodes of a file against node definitions.

#include <ostream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "ainb/gamedata/catalogue.hpp"
#include "ainb/gamedata/romfs.hpp"
#include "commands.hpp"
#include "registration.hpp"

namespace ainb::cli {

int run_lint(const LintRequest& request, std::ostream& out, std::ostream& err) {
  // Without node definitions only the built-in nodes are checked.
  const bool classes = !request.defs.empty() || !request.source.romfs.empty();
  std::shared_ptr<const Model> model;
  formats::NodeCatalogue catalogue;
  try {
    const auto dictionaries =
        gamedata::load_dictionaries(request.source.romfs, request.source.zsdic);
    if (classes)
      catalogue =
          gamedata::load_node_definitions(request.defs, request.source.romfs, &dictionaries);
    if (classes && request.defs.empty() && catalogue.classes().empty()) {
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
  const auto findings =
      classes ? gamedata::lint(*model, catalogue) : gamedata::lint_builtins(*model);
  std::size_t checked = 0;
  for (const auto& n : model->nodes) {
    if (n.type == NodeType::UserDefined && !n.is_module()) ++checked;
  }
  if (!classes) checked = 0;
  std::vector<gamedata::LintFinding> real, notes;
  for (const auto& f : findings)
    (f.is_note() ? notes : real).push_back(f);
  const auto listed = [](const std::vector<gamedata::LintFinding>& list) {
    auto json = nlohmann::ordered_json::array();
    for (const auto& f : list) {
      json.push_back({{"node", f.node},
                      {"class", f.node_class},
                      {"kind", gamedata::lint_kind_name(f.kind)},
                      {"parameter", f.parameter},
                      {"message", f.message}});
    }
    return json;
  };
  if (request.format == "json") {
    auto json = nlohmann::ordered_json::object();
    json["file"] = model->name;
    json["category"] = std::string(model->header.category_name);
    json["checked_nodes"] = checked;
    json["findings"] = listed(real);
    json["notes"] = listed(notes);
    out << json.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) << '\n';
  } else {
    for (const auto& f : findings) {
      out << fmt::format("{}: node {} {}: {}{}: {}\n", model->name, f.node, f.node_class,
                         gamedata::lint_kind_name(f.kind), f.is_note() ? " (note)" : "", f.message);
    }
    const auto noted = notes.empty()
                           ? std::string()
                           : fmt::format(", {} note{}", notes.size(), notes.size() == 1 ? "" : "s");
    if (classes) {
      out << fmt::format("{}: {} finding{} in {} user node{} ({} category){}\n", model->name,
                         real.size(), real.size() == 1 ? "" : "s", checked, checked == 1 ? "" : "s",
                         model->header.category_name, noted);
    } else {
      out << fmt::format(
          "{}: {} finding{} in the built-in nodes{}; user nodes not checked (no "
          "node definitions: --defs FILE or --romfs DIR)\n",
          model->name, real.size(), real.size() == 1 ? "" : "s", noted);
    }
  }
  return real.empty() ? kExitOk : kExitFindings;
}

Command add_lint_command(CLI::App& app) {
  auto request = std::make_shared<LintRequest>();
  auto* lint = app.add_subcommand(
      "lint",
      "Check the user nodes of a file against node definitions: unknown classes, wrong file "
      "category, missing, extra or mistyped parameters (exit 0 clean, 1 findings, 2 error)");
  lint->add_option("FILE", request->file, "AINB file, or PACK:MEMBER")->required();
  lint->add_option("--defs", request->defs,
                   "Node definitions (repeatable): NodeDefinition.json, or a BYML table "
                   "Node.Product.<N>.aidefn.byml[.zs] (category from its romfs folder, its name's "
                   "first part, or CATEGORY=FILE); default with --romfs: the romfs's newest of "
                   "each category");
  lint->add_option("--format", request->format, "Output format")
      ->check(CLI::IsMember({"text", "json"}))
      ->capture_default_str();
  add_file_lookup(*lint, request->source,
                  "A romfs-like folder where FILE (or PACK:MEMBER) is also looked up; without "
                  "--defs, its newest {AI,Logic,Sequence}/NodeDefinition/ tables are the "
                  "definitions");
  return {lint,
          [request](std::ostream& out, std::ostream& err) { return run_lint(*request, out, err); }};
}

}  // namespace ainb::cli
