// `ainb review BASE HEAD`: two versions of a mod compared file by file, for a pull request: each
// AI file added, removed or changed, its `ainb diff`, the verdict of `ainb regress --explore` with
// the first difference, and what the runtime does not model on the changed nodes, as one Markdown
// summary, and with -o DIR an HTML index linking each changed file's page (docs/review.md).

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <memory>
#include <optional>
#include <ostream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "ainb/formats/sarc.hpp"
#include "ainb/loader.hpp"
#include "ainb/report/page.hpp"
#include "ainb/report/review.hpp"
#include "ainb/runtime/graph.hpp"
#include "ainb/runtime/graph_view.hpp"
#include "ainb/runtime/unhonoured.hpp"
#include "ainb/simulation/diff.hpp"
#include "ainb/simulation/explore.hpp"
#include "ainb/simulation/regress.hpp"
#include "commands.hpp"
#include "registration.hpp"
#include "review_sources.hpp"
#include "warnings.hpp"

namespace ainb::cli {

namespace {

namespace fs = std::filesystem;

using report::ReviewedFile;
using report::ReviewOutcome;

// How a message names a version's file: a copy (a pack's member, a revision's blob) by the
// version and its path there rather than by the temporary folder it was copied to.
std::string shown_path(const Version& v, const std::string& path) {
  return v.kind == "folder" ? v.files.at(path).string() : v.name + ":" + path;
}

std::string without_copies(std::string message, const Version& v) {
  if (v.copies.empty()) return message;
  const auto replace = [&](const std::string& from, const std::string& to) {
    for (auto at = message.find(from); at != std::string::npos;
         at = message.find(from, at + to.size()))
      message.replace(at, from.size(), to);
  };
  replace(v.copies.string() + "/", v.name + ":");
  replace(v.copies.string(), v.name);
  return message;
}

// The error's first line: a verdict is one line.
std::string first_line(const std::string& text) {
  return text.substr(0, text.find('\n'));
}

// The file as loaded, or (in `error`) why it does not load.
std::shared_ptr<const Model> load_side(const Version& v, const std::string& path,
                                       std::string& error) {
  try {
    return load(formats::read_binary_file(v.files.at(path)), shown_path(v, path));
  } catch (const std::exception& e) {
    error = first_line(e.what());
    return nullptr;
  }
}

// The changed nodes of the edited file that it runs as stubs (their class is not modelled), and
// the properties they set that the runtime does not honour (runtime/unhonoured.hpp).
std::vector<std::string> unmodelled(const runtime::Graph& graph, const simulation::FileDiff& diff) {
  std::set<std::uint32_t> changed;
  for (const auto& edit : diff.edits) {
    if (edit.edited_node >= 0) changed.insert(static_cast<std::uint32_t>(edit.edited_node));
  }
  const runtime::GraphView view(graph);
  const auto& model = graph.model();
  std::vector<std::string> lines;
  for (const auto node : changed) {
    if (node >= view.node_count()) continue;
    const auto name = fmt::format("node #{} {}", node, node_class_name(model.nodes[node]));
    if (view.is_stub(node)) lines.push_back(name + ": runs as a stub (its class is not modelled)");
    std::string properties;
    for (const auto& p : runtime::unhonoured_properties(model)) {
      if (p.node == node) properties += (properties.empty() ? "" : ", ") + runtime::describe(p);
    }
    if (!properties.empty()) lines.push_back(name + ": not honoured: " + properties);
  }
  return lines;
}

// "differs at frame 3: ...", as regress's first difference says it.
std::string difference_verdict(const simulation::Difference& d) {
  if (!d.original && !d.edited) return "differs before the first event: " + d.explanation;
  return fmt::format("differs at frame {}: {}", d.original ? d.original->frame : d.edited->frame,
                     d.explanation);
}

// Where a file's page goes under -o DIR: its path in one name.
std::string page_name(const std::string& path) {
  std::string name = path;
  std::replace(name.begin(), name.end(), '/', '_');
  return "files/" + name + ".html";
}

ReviewedFile review_changed(const std::string& path, const Version& base, const Version& head,
                            const ReviewRequest& request, const WarningReport& warnings,
                            std::ostream& err) {
  ReviewedFile r;
  r.path = path;
  r.change = "changed";
  std::string base_error, head_error;
  const auto a = load_side(base, path, base_error), b = load_side(head, path, head_error);
  if (!a || !b) {
    r.outcome = ReviewOutcome::Error;
    r.verdict = "does not load: " + (a ? head_error : base_error);
    if (!a && !b) r.verdict += "; nor in " + head.name + ": " + head_error;
    return r;
  }
  const auto diff = simulation::diff_files(*a, *b);
  r.edits = diff.edits.size();
  std::ostringstream text;
  write_diff_text(*a, *b, diff, text);
  r.diff = diff.same() ? "no structural difference: the bytes differ in their layout only\n"
                       : text.str();
  simulation::ExploreOptions options;
  options.run = request.run.options;
  options.run.log = warnings.sink();
  options.runs = request.explore;
  options.seed = request.run.options.seed;
  options.jobs = request.jobs;
  options.against = head.files.at(path);
  r.exploration = fmt::format("regress --explore {}: {} frames a scenario, seed {}",
                              request.explore, options.run.frames, options.seed);
  try {
    const auto result = simulation::explore(base.files.at(path), options);
    if (result.edited_graph) r.unmodelled = unmodelled(*result.edited_graph, diff);
    if (result.difference && result.difference->regress.difference) {
      const auto& d = *result.difference->regress.difference;
      r.outcome = ReviewOutcome::Different;
      r.verdict = without_copies(difference_verdict(d), head);
      std::ostringstream shown;
      simulation::print_difference(d, shown);
      // The shrunk scenario replays it: `ainb regress BASE HEAD --scenario` on it.
      r.regress = without_copies(shown.str(), head) +
                  "the scenario: " + result.difference->scenario.dump() + '\n';
    } else {
      r.verdict = "same behaviour";
      r.regress = fmt::format("no difference in {} runs\n", result.runs);
    }
    if (!request.output.empty()) {
      // As `regress --explore --html` writes it: the difference's regression, else the coverage.
      const report::PageOptions page{.title = path, .dot = {}};
      const auto written = fs::path(request.output) / page_name(path);
      fs::create_directories(written.parent_path());
      if (!write_page(written.string(),
                      result.difference ? difference_page(base.files.at(path), head.files.at(path),
                                                          *result.difference, options.run, page)
                                        : report::coverage_page(result, page),
                      err))
        r.outcome = ReviewOutcome::Error;
      else
        r.page = page_name(path);
    }
  } catch (const std::exception& e) {  // a module, class or option that does not load or fit
    r.outcome = ReviewOutcome::Error;
    r.verdict = "error: " + first_line(without_copies(without_copies(e.what(), base), head));
  }
  return r;
}

// An added or removed file: a difference, unless it does not load on the side that has it.
ReviewedFile review_one_side(const std::string& path, const Version& side, bool added) {
  ReviewedFile r;
  r.path = path;
  r.change = added ? "added" : "removed";
  r.outcome = ReviewOutcome::Different;
  r.verdict = r.change;
  std::string error;
  if (!load_side(side, path, error)) {
    r.verdict += ", does not load: " + error;
    if (added) r.outcome = ReviewOutcome::Error;  // what the head brings is broken
  }
  return r;
}

std::string table_cell(std::string text) {
  std::string cell;
  for (const char c : text) {
    if (c == '|')
      cell += "\\|";
    else if (c == '\n' || c == '\r')
      cell += ' ';
    else
      cell += c;
  }
  return cell;
}

std::string html_text(const std::string& text) {
  std::string escaped;
  for (const char c : text) {
    if (c == '<')
      escaped += "&lt;";
    else if (c == '>')
      escaped += "&gt;";
    else if (c == '&')
      escaped += "&amp;";
    else
      escaped += c;
  }
  return escaped;
}

void write_summary(const report::Review& review, std::ostream& out) {
  out << fmt::format("## ainb review: {} → {}\n\n", table_cell(review.base),
                     table_cell(review.head));
  out << report::review_counts(review) << '\n';
  const auto& files = review.files;
  if (files.empty()) return;
  out << "\n| file | change | verdict | edits |\n|---|---|---|---|\n";
  for (const auto& f : files) {
    out << fmt::format("| `{}` | {} | {} | {} |\n", table_cell(f.path), f.change,
                       table_cell(f.verdict), f.change == "changed" ? std::to_string(f.edits) : "");
  }
  for (const auto& f : files) {
    if (f.diff.empty() && f.regress.empty()) continue;  // its row says it all
    out << fmt::format("\n<details><summary>{} — {}</summary>\n\n", html_text(f.path),
                       html_text(f.verdict));
    if (!f.diff.empty()) out << "ainb diff:\n\n```text\n" << f.diff << "```\n\n";
    if (!f.regress.empty()) out << f.exploration << ":\n\n```text\n" << f.regress << "```\n\n";
    if (!f.unmodelled.empty()) {
      out << "Not modelled on the changed nodes:\n\n";
      for (const auto& line : f.unmodelled)
        out << "- " << line << '\n';
      out << '\n';
    }
    out << "</details>\n";
  }
}

}  // namespace

int run_review(const ReviewRequest& request, std::ostream& out, std::ostream& err) {
  WarningReport warnings(request.run.verbose);
  const TemporaryFolder copies;
  Version base, head;
  try {
    const auto lookup = file_lookup(request.run.options);
    base = open_version(request.base, lookup, copies.path() / "base");
    head = open_version(request.head, lookup, copies.path() / "head");
  } catch (const std::exception& e) {
    err << "error: " << e.what() << '\n';
    return kExitRegressError;
  }
  if (!request.output.empty()) {
    std::error_code ec;
    fs::create_directories(request.output, ec);
    if (ec) {
      err << "error: cannot create " << request.output << ": " << ec.message() << '\n';
      return kExitRegressError;
    }
  }
  std::set<std::string> paths;
  for (const auto* v : {&base, &head}) {
    for (const auto& [path, file] : v->files)
      paths.insert(path);
  }
  report::Review review;
  review.base = base.name;
  review.head = head.name;
  auto& files = review.files;
  for (const auto& path : paths) {
    const bool in_base = base.files.contains(path), in_head = head.files.contains(path);
    if (!in_base || !in_head) {
      files.push_back(review_one_side(path, in_head ? head : base, in_head));
    } else if (formats::read_binary_file(base.files.at(path)) ==
               formats::read_binary_file(head.files.at(path))) {
      ++review.unchanged;
    } else {
      files.push_back(review_changed(path, base, head, request, warnings, err));
    }
  }
  std::ostringstream summary;
  write_summary(review, summary);
  if (request.output.empty()) {
    out << summary.str();
  } else {
    const auto path = fs::path(request.output) / "summary.md";
    std::ofstream file(path, std::ios::binary);
    file << summary.str();
    if (!file.flush()) {
      err << "error: cannot write " << path.string() << '\n';
      return kExitRegressError;
    }
    const auto index = fs::path(request.output) / "index.html";
    std::ofstream page(index, std::ios::binary);
    page << report::review_page(review);
    if (!page.flush()) {
      err << "error: cannot write " << index.string() << '\n';
      return kExitRegressError;
    }
    out << "written " << path.string() << " and " << index.string() << '\n';
  }
  auto worst = ReviewOutcome::Same;
  for (const auto& f : files)
    worst = std::max(worst, f.outcome);
  return worst == ReviewOutcome::Error       ? kExitRegressError
         : worst == ReviewOutcome::Different ? kExitDifferent
                                             : kExitOk;
}

Command add_review_command(CLI::App& app) {
  auto request = std::make_shared<ReviewRequest>();
  auto* review = app.add_subcommand(
      "review",
      "Review two versions of a mod (folders, packs or git revisions): each AI file added, "
      "removed or changed, its diff and regress --explore's verdict, as Markdown for a pull "
      "request (exit 0 same behaviour, 1 different, 2 error)");
  review
      ->add_option("BASE", request->base,
                   "The version before: a folder, a pack, or a git revision of the repository of "
                   "the current folder (a folder wins over a revision of the same name)")
      ->required();
  review->add_option("HEAD", request->head, "The version after, as BASE")->required();
  review->add_option(
      "--output,-o", request->output,
      "A folder for summary.md, index.html and a page per changed file in files/ (default: "
      "the summary on standard output)");
  add_run_options(*review, request->run.options, simulation::kTakenByRegress);
  add_verbose(*review, request->run);
  review
      ->add_option("--explore", request->explore,
                   fmt::format("Scenarios regress --explore runs on each changed file ({} "
                               "frames each unless --frames)",
                               simulation::kExploreFrames))
      ->check(CLI::Range(std::uint64_t{1}, std::uint64_t{100'000'000}))
      ->capture_default_str();
  review->add_option("--jobs,-j", request->jobs, "Threads of each exploration")
      ->check(CLI::Range(1u, 256u));
  return {review, [request, review](std::ostream& out, std::ostream& err) {
            // Exploration's scenarios are short unless told otherwise, as regress --explore's.
            if (review->get_option("--frames")->count() == 0)
              request->run.options.frames = simulation::kExploreFrames;
            return run_review(*request, out, err);
          }};
}

}  // namespace ainb::cli
