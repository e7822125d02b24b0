// `ainb diff`: the structural difference of two AI files, nodes paired by GUID as `ainb regress`
// pairs them (simulation::diff_files), as text grouped by node or as JSON; with --git, git's
// external diff driver (docs/diff.md).

#include <memory>
#include <ostream>
#include <string>
#include <string_view>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "ainb/formats/sarc.hpp"
#include "ainb/loader.hpp"
#include "ainb/simulation/diff.hpp"
#include "commands.hpp"
#include "registration.hpp"
#include "terminal.hpp"

namespace ainb::cli {

namespace {

using json = nlohmann::ordered_json;
using simulation::Edit;
using simulation::FileDiff;

// One side of a comparison: its name as shown, and its model (none: git's /dev/null, a file
// added or deleted).
struct Side {
  std::string name;
  std::shared_ptr<const Model> model;
};

// Text with colours where they are wanted: a heading bold, what a file had red, what it has
// green.
class Painter {
 public:
  static constexpr std::string_view kBold = "\x1b[1m", kRed = "\x1b[31m", kGreen = "\x1b[32m";

  Painter(std::ostream& out, bool colour) : out_(out), colour_(colour) {}
  void put(std::string_view colour, std::string_view text) {
    if (colour_) write_control(out_, colour);
    out_ << text;
    if (colour_) write_control(out_, "\x1b[m");
  }
  std::ostream& out() { return out_; }

 private:
  std::ostream& out_;
  bool colour_;
};

std::string guid_of(const Node& node) {
  return node.guid == Guid{} ? std::string() : node.guid.to_string();
}

const Node& node_at(const Model& m, std::int64_t i) {
  return m.nodes[static_cast<std::size_t>(i)];
}

// "node #3 Patrol, #2 in the edited file (guid …)": the original's number first, as regress
// names nodes; a new node by its number in the edited file.
std::string heading(const Model& a, const Model& b, const Edit& e) {
  const bool original = e.original_node >= 0;
  const auto& node = original ? node_at(a, e.original_node) : node_at(b, e.edited_node);
  auto s =
      fmt::format("node #{} {}", original ? e.original_node : e.edited_node, node_class_name(node));
  if (original && e.edited_node >= 0 && e.edited_node != e.original_node)
    s += fmt::format(", #{} in the edited file", e.edited_node);
  if (const auto guid = guid_of(node); !guid.empty()) s += " (guid " + guid + ")";
  return s;
}

// What an added or removed part held, when it says it briefly: an entry's value, a command's
// root, a reference to a node, a plain value.
std::string brief(const json& v) {
  if (v.is_object() && !v.contains("node")) {
    for (const auto* key : {"value", "default"}) {
      if (v.contains(key)) return simulation::shown_value(v[key]);
    }
    if (v.contains("root")) return "root " + simulation::shown_value(v["root"]);
    return {};
  }
  return simulation::shown_value(v);
}

void print_change(Painter& p, const Edit& e) {
  auto& out = p.out();
  out << "  " << e.subject << ": ";
  if (e.change == "added" || e.change == "removed") {
    const bool added = e.change == "added";
    p.put(added ? Painter::kGreen : Painter::kRed, e.change);
    if (const auto value = brief(added ? e.after : e.before); !value.empty()) out << ", " << value;
  } else {
    if (e.change == "reordered") out << "reordered, ";
    p.put(Painter::kRed, simulation::shown_value(e.before));
    out << " -> ";
    p.put(Painter::kGreen, simulation::shown_value(e.after));
  }
  out << '\n';
}

// The edits grouped as they come (the file's, then node by node): a heading, then a line each.
void print_text(const Model& a, const Model& b, const FileDiff& diff, Painter& p) {
  auto& out = p.out();
  for (std::size_t i = 0; i < diff.edits.size();) {
    const auto& first = diff.edits[i];
    if (first.kind == "node") {  // a node added or deleted: one line
      p.put(first.change == "added" ? Painter::kGreen : Painter::kRed,
            heading(a, b, first) + ": " + first.what);
      out << '\n';
      ++i;
      continue;
    }
    p.put(Painter::kBold, first.original_node < 0 && first.edited_node < 0 ? std::string("file")
                                                                           : heading(a, b, first));
    out << '\n';
    for (; i < diff.edits.size() && diff.edits[i].original_node == first.original_node &&
           diff.edits[i].edited_node == first.edited_node && diff.edits[i].kind != "node";
         ++i) {
      print_change(p, diff.edits[i]);
    }
  }
}

json node_number(std::int64_t node) {
  return node < 0 ? json() : json(node);
}

json to_json(const Side& a, const Side& b, const FileDiff* diff) {
  json j = json::object();
  j["same"] = diff != nullptr && diff->same();
  j["files"] = {{"original", a.model ? json(a.name) : json()},
                {"edited", b.model ? json(b.name) : json()}};
  j["nodes"] = {{"original", a.model ? json(a.model->nodes.size()) : json()},
                {"edited", b.model ? json(b.model->nodes.size()) : json()}};
  j["changes"] = json::array();
  if (diff == nullptr) return j;
  for (const auto& e : diff->edits) {
    json c = json::object();
    c["original_node"] = node_number(e.original_node);
    c["edited_node"] = node_number(e.edited_node);
    const auto* node = e.original_node >= 0 ? &node_at(*a.model, e.original_node)
                       : e.edited_node >= 0 ? &node_at(*b.model, e.edited_node)
                                            : nullptr;
    c["class"] = node != nullptr ? json(std::string(node_class_name(*node))) : json();
    c["guid"] = node != nullptr && node->guid != Guid{} ? json(guid_of(*node)) : json();
    c["kind"] = e.kind;
    c["change"] = e.change;
    c["subject"] = e.subject;
    if (e.change != "added") c["before"] = e.before;
    if (e.change != "removed") c["after"] = e.after;
    c["text"] = e.what;
    j["changes"].push_back(std::move(c));
  }
  return j;
}

void print_json(const json& j, std::ostream& out) {
  out << j.dump(2, ' ', false, json::error_handler_t::replace) << '\n';
}

// A file git gives (a temporary copy, the working tree's file, or /dev/null), named by its path
// in the repository.
Side git_side(const std::string& file, const std::string& path, std::string_view prefix) {
  if (file == "/dev/null") return {file, nullptr};
  return {std::string(prefix) + path, load(formats::read_binary_file(file), path)};
}

std::string file_summary(const Model& m) {
  return fmt::format("{} node{}, {} command{}", m.nodes.size(), m.nodes.size() == 1 ? "" : "s",
                     m.commands.size(), m.commands.size() == 1 ? "" : "s");
}

// git's external diff: PATH OLD-FILE OLD-HEX OLD-MODE NEW-FILE NEW-HEX NEW-MODE, or PATH alone
// for an unmerged path. Exits 0 whether the sides differ or not, which is what git expects of a
// driver.
int git_diff(const DiffRequest& request, std::ostream& out, std::ostream& err) {
  const auto& f = request.files;
  if (f.size() == 1) {
    out << "* Unmerged path " << f[0] << '\n';
    return kExitOk;
  }
  if (f.size() != 7) {
    err << fmt::format(
        "error: --git takes the 7 arguments git gives an external diff (PATH OLD-FILE OLD-HEX "
        "OLD-MODE NEW-FILE NEW-HEX NEW-MODE), or PATH alone; got {}\n",
        f.size());
    return kExitDiffError;
  }
  const auto& path = f[0];
  const auto a = git_side(f[1], path, "a/"), b = git_side(f[4], path, "b/");
  std::unique_ptr<FileDiff> diff;
  if (a.model && b.model)
    diff = std::make_unique<FileDiff>(simulation::diff_files(*a.model, *b.model));
  if (request.format == "json") {
    json j = {{"path", path}};
    j.update(to_json(a, b, diff.get()));
    print_json(j, out);
    return kExitOk;
  }
  const bool same_bytes = diff && a.model->bytes == b.model->bytes;
  if (same_bytes && f[3] == f[6]) return kExitOk;  // nothing to say
  Painter p(out, colour_wanted(request.color, out));
  p.put(Painter::kBold, fmt::format("diff --ainb a/{} b/{}", path, path));
  out << '\n';
  if (diff && f[3] != f[6]) out << "old mode " << f[3] << "\nnew mode " << f[6] << '\n';
  if (!a.model) {
    p.put(Painter::kGreen, "new file: " + file_summary(*b.model));
    out << '\n';
  } else if (!b.model) {
    p.put(Painter::kRed, "deleted file: " + file_summary(*a.model));
    out << '\n';
  } else if (diff->same()) {
    if (!same_bytes) out << "no structural difference: the bytes differ in their layout only\n";
  } else {
    print_text(*a.model, *b.model, *diff, p);
  }
  return kExitOk;
}

}  // namespace

void write_diff_text(const Model& original, const Model& edited, const FileDiff& diff,
                     std::ostream& out) {
  Painter p(out, false);
  print_text(original, edited, diff, p);
}

int run_diff(const DiffRequest& request, std::ostream& out, std::ostream& err) {
  // Every error exits 2, never the run()'s 1, which here would say "different".
  try {
    if (request.git) return git_diff(request, out, err);
    if (request.files.size() != 2) {
      err << fmt::format("error: diff compares 2 files (ORIGINAL EDITED), got {}\n",
                         request.files.size());
      return kExitDiffError;
    }
    const Side a{request.files[0], open_model(request.files[0], request.source)};
    const Side b{request.files[1], open_model(request.files[1], request.source)};
    const auto diff = simulation::diff_files(*a.model, *b.model);
    if (request.format == "json") {
      print_json(to_json(a, b, &diff), out);
    } else {
      Painter p(out, colour_wanted(request.color, out));
      print_text(*a.model, *b.model, diff, p);
    }
    return diff.same() ? kExitOk : kExitDifferent;
  } catch (const std::exception& e) {
    err << "error: " << e.what() << '\n';
  }
  return kExitDiffError;
}

Command add_diff_command(CLI::App& app) {
  auto request = std::make_shared<DiffRequest>();
  auto* diff = app.add_subcommand(
      "diff",
      "Show what changed between two versions of an AI file, node by node (nodes paired by GUID, "
      "as regress pairs them); --git: git's external diff driver (exit 0 same, 1 different, 2 "
      "error)");
  diff->add_option("FILES", request->files,
                   "ORIGINAL and EDITED: AINB files, or PACK:MEMBER (with --git: the 7 arguments "
                   "git gives, PATH OLD-FILE OLD-HEX OLD-MODE NEW-FILE NEW-HEX NEW-MODE)")
      ->required();
  diff->add_flag("--git", request->git,
                 "Run as git's external diff driver: git config diff.ainb.command \"ainb diff "
                 "--git\" (docs/diff.md); exits 0 whether the files differ or not");
  diff->add_option("--format", request->format, "Output format")
      ->check(CLI::IsMember({"text", "json"}))
      ->capture_default_str();
  diff->add_option("--color", request->color,
                   "Colour the text: always, never, or auto (when standard output is a terminal "
                   "and NO_COLOR is not set)")
      ->check(CLI::IsMember({"auto", "always", "never"}))
      ->capture_default_str();
  add_file_lookup(*diff, request->source,
                  "A romfs-like folder where ORIGINAL and EDITED (or PACK:MEMBER) are also looked "
                  "up");
  return {diff,
          [request](std::ostream& out, std::ostream& err) { return run_diff(*request, out, err); }};
}

}  // namespace ainb::cli
