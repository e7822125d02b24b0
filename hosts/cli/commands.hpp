#pragma once

#include <cstddef>
#include <filesystem>
#include <functional>
#include <iosfwd>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "ainb/model.hpp"
#include "ainb/report/page.hpp"
#include "ainb/simulation/explore.hpp"
#include "ainb/simulation/simulation.hpp"

namespace ainb::simulation {
struct FileDiff;
}

namespace ainb::cli {

// Exit codes of every subcommand.
inline constexpr int kExitOk = 0;
inline constexpr int kExitLoadError = 1;  // a file failed to load (the error is on stderr)
inline constexpr int kExitUsage = 2;      // bad command line

// Where a command finds its FILE: a path, or PACK:MEMBER (a file inside a SARC pack), also looked
// up in a romfs-like folder; zstd dictionaries for compressed packs.
struct FileLookup {
  std::string romfs;
  std::string zsdic;  // a folder of *.zsdic or ZsDic.pack.zs; default ROMFS/Pack/ZsDic.pack.zs
  std::shared_ptr<const std::vector<gamedata::OpenedPack>> packs;  // opened already (scan's)
};
// The AI file `spec` names (gamedata::open_ai_file). Throws LoadError.
std::shared_ptr<const Model> open_model(const std::string& spec, const FileLookup& source);

// Runs the `ainb` command line; `out` and `err` stand for stdout and stderr.
int run(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

// The readable summary `ainb info` prints.
std::string format_info(const Model& model);

struct EvalRequest {
  std::uint32_t function = 0;
  std::string input;
  std::string static_hex;
  std::vector<std::string> user;  // "SIGNATURE=VALUE"
};

// `ainb eval`: runs one EXB function and prints its output (eval.cpp).
int run_eval(const Model& model, const EvalRequest& request, std::ostream& out, std::ostream& err);

struct RunRequest {
  std::string file;
  // The run options (the table's rows, simulation/run_options.hpp), as the command line set them.
  simulation::RunOptions options;
  std::string scenario;
  std::string trace;  // a file, "-" for standard output, empty for none
  std::string format = "jsonl";
  std::uint64_t max_trace_events = 10'000'000;  // simulation::kDefaultMaxTraceEvents
  std::string coverage;  // where the coverage report goes (JSON); empty for none
  std::string html;      // where the run's page goes (report::run_page); empty for none
  std::string dot;       // Graphviz's dot for the page; empty: on PATH
  // Each missing module and user function on a line of its own, with where it was searched and
  // who calls it, rather than one line for all (WarningReport).
  bool verbose = false;
};

// Where the run options' romfs and dictionaries (and scan's opened packs) find a FILE.
FileLookup file_lookup(const simulation::RunOptions& options);

// `ainb run` exits 2 when the instance faulted (host code it called threw; docs/robustness.md).
inline constexpr int kExitFault = 2;

// `ainb run`: offline simulation with a trace and a summary (run.cpp).
int run_simulation(const RunRequest& request, std::ostream& out, std::ostream& err);

struct ExploreRequest {
  RunRequest run;  // the file, frames (of each scenario), modules, seed (of the exploration)
  std::uint64_t runs = 1000;
  unsigned jobs = 1;
  std::string output;  // a folder for the scenarios found and coverage.json; empty: none
  bool shrink = true;
  std::string against;  // an edited version of the file: differential exploration
};

// `ainb explore`: generates scenarios guided by coverage, reports what they reach and writes a
// minimal scenario for each branch, transition or command the plain runs miss (explore.cpp).
// Exit codes: 0 done, 1 an error (load, a found scenario that does not replay), 2 usage. With
// `against` (also `ainb regress ORIGINAL EDITED --explore N`), differential exploration, with
// regress's exit codes: 0 no difference found, 1 a difference, 2 an error.
int run_explore(const ExploreRequest& request, std::ostream& out, std::ostream& err);
// The page of the difference an exploration against an edited file found: regress's page of its
// shrunk scenario (`regress --explore N --html`, review's pages).
report::Page difference_page(const std::filesystem::path& original,
                             const std::filesystem::path& edited,
                             const simulation::ExploreResult::Difference& difference,
                             const simulation::RunOptions& options,
                             const report::PageOptions& page);

struct RegressRequest {
  // ORIGINAL and EDITED; with --record or --check, the files and folders to run.
  std::vector<std::string> files;
  std::vector<std::string> scenarios;
  std::string edited_scenario;  // the edited file's own (then one --scenario at most)
  std::string record, check;    // golden trace folders
  RunRequest run;               // command, frames, modules, seed, stub policy
  bool strict = false;          // an edit the runs could not see counts as a difference
  std::uint64_t max_held_events = 1'000'000;  // simulation::RunOptions::max_held_events
  // --explore N: scenarios explore generates instead of --scenario (0: none); their folder, and
  // the threads that run them.
  std::uint64_t explore = 0;
  std::string output;
  unsigned jobs = 1;
};

// Exit codes of `ainb regress`: 0 equal, 1 different, 2 an error.
inline constexpr int kExitDifferent = 1;
inline constexpr int kExitRegressError = 2;
// `ainb regress`: runs both files under the same scenarios and compares the traces; with
// --record/--check, golden traces for many files (run.cpp).
int run_regress(const RegressRequest& request, std::ostream& out, std::ostream& err);

struct ReportRequest {
  std::string trace;  // a JSON-lines trace of `ainb run`
  RunRequest run;     // the file it ran, where its modules are, the page (html, dot)
};

// `ainb report`: the page of a run from its JSON-lines trace (report.cpp).
int run_report(const ReportRequest& request, std::ostream& out, std::ostream& err);

// A page's path, checked before a run costs anything (a folder that exists and can be written,
// not a folder itself); then the page written, with a warning when graphs are missing from it
// (report.cpp). False (and a message) on failure.
bool can_write_page(const std::string& path, std::ostream& err);
bool write_page(const std::string& path, const report::Page& page, std::ostream& err);

struct CatRequest {
  std::string file;
  std::string dictionaries;  // a folder of *.zsdic or TotK's ZsDic.pack.zs; empty: none
  std::string names;         // a file of AAMP names, one a line; empty: none
};

// `ainb cat`: prints a BYML, AAMP, SARC or zstd file as readable text (cat.cpp).
int run_cat(const CatRequest& request, std::ostream& out, std::ostream& err);

struct LintRequest {
  std::string file;  // a path or PACK:MEMBER
  std::vector<std::string> defs;
  std::string format = "text";  // text or json
  FileLookup source;
};

// Exit codes of `ainb lint`: 0 no findings, 1 findings, 2 an error (load or usage).
inline constexpr int kExitFindings = 1;
inline constexpr int kExitLintError = 2;
// `ainb lint`: checks the user nodes of a file against node definitions (lint.cpp).
int run_lint(const LintRequest& request, std::ostream& out, std::ostream& err);

struct GraphRequest {
  std::string trace;   // a JSON-lines trace of `ainb run`: colour the nodes that ran
  bool svg = false;    // render through Graphviz's `dot`
  std::string output;  // a file; empty: standard output
};

// `ainb graph`: the file as Graphviz DOT (graph.cpp; the DOT is report::graph_dot's).
int run_graph(const Model& model, const GraphRequest& request, std::ostream& out,
              std::ostream& err);

struct ConvertRequest {
  std::string input;   // a path or PACK:MEMBER (AINB), or a .json file
  std::string output;  // empty with --check and --stdout
  bool check = false;
  // The result on `out` instead of OUT: IN's text form, or a .json IN's AINB bytes (git's
  // textconv: docs/git.md).
  bool to_stdout = false;
  bool force = false;  // write a text form that `ainb run` would refuse (a warning then)
  int indent = 2;
  FileLookup source;
};

// `ainb convert`: AINB <-> JSON text form by the files' extensions (`.json` is the text form;
// with --stdout, by IN's alone), or `--check`: whether the file comes back byte for byte
// (convert.cpp). Exit codes: 0 done or byte-exact, 1 an error or (with --check) a difference, 2 bad
// usage.
int run_convert(const ConvertRequest& request, std::ostream& out, std::ostream& err);
// What `convert --check` finds: "round trip through the writer differs: ..." for each form that
// does not come back byte for byte (empty: exact). Throws writer::WriteError, TextFormError or
// std::runtime_error (a string that is not UTF-8) when a form cannot be written.
std::vector<std::string> round_trip_differences(const Model& model, const std::string& path);

struct DiffRequest {
  // ORIGINAL and EDITED; with `git`, the 7 arguments git gives an external diff (PATH OLD-FILE
  // OLD-HEX OLD-MODE NEW-FILE NEW-HEX NEW-MODE), or PATH alone for an unmerged path.
  std::vector<std::string> files;
  bool git = false;
  std::string format = "text";  // text or json
  std::string color = "auto";   // always, never, or auto (terminal.hpp's colour_wanted)
  FileLookup source;
};

// Exit codes of `ainb diff`, as diff(1)'s: 0 the same, 1 different (kExitDifferent), 2 an error.
// With --git, 0 whether the files differ or not, as git expects of an external diff.
inline constexpr int kExitDiffError = 2;
// `ainb diff`: the structural difference of two AI files (diff.cpp, docs/diff.md).
int run_diff(const DiffRequest& request, std::ostream& out, std::ostream& err);
// The edits as `ainb diff` prints them, grouped by node, without colours (review's details).
void write_diff_text(const Model& original, const Model& edited, const simulation::FileDiff& diff,
                     std::ostream& out);

struct ReviewRequest {
  std::string base, head;  // each a folder, a pack, or a git revision of the current repository
  // -o DIR: summary.md, index.html and a page per changed file there; empty: the summary on
  // standard output.
  std::string output;
  RunRequest run;               // regress's run options
  std::uint64_t explore = 200;  // scenarios regress --explore runs for each changed file
  unsigned jobs = 1;
};

// Exit codes of `ainb review`, as regress's: 0 nothing behaves differently, 1 a file's behaviour
// differs (or an AI file was added or removed), 2 an error (a side missing, a file that does not
// load or run).
// `ainb review BASE HEAD`: every AI file added, removed or changed between two versions of a
// mod, its diff and regress --explore's verdict, as Markdown for a pull request (review.cpp).
int run_review(const ReviewRequest& request, std::ostream& out, std::ostream& err);

struct ScanRequest {
  std::vector<std::string> paths;  // folders of *.ainb, packs, single AI files
  RunRequest run;                  // frames, modules, stub policy, romfs, dictionaries, defs
  std::size_t jobs = 0;            // worker processes at once; 0: one per core
  std::string shard;               // "K/N": every Nth file of the sorted list, from the Kth
  std::string format = "text";     // text or json
  bool time = true;                // false: no times in the report (comparable across runs)
  // Called in each worker process before a file's checks, with its name (tests: a worker that
  // dies by a signal).
  std::function<void(const std::string& file)> in_worker;
};

// Whether the file is a pack by its name (.pack.zs, .pack, .sarc, .sarc.zs; not the zstd
// dictionaries' ZsDic.pack.zs): scan and review read its AI/*.ainb.
bool is_pack(const std::filesystem::path& path);

inline constexpr int kExitScanFailed = 1;
// `ainb scan`: loads, round-trips, lints and runs every AI file found, each in a worker process
// (scan.cpp). Exit codes: 0 every file passed, 1 one failed, 2 bad usage.
int run_scan(const ScanRequest& request, std::ostream& out, std::ostream& err);

}  // namespace ainb::cli
