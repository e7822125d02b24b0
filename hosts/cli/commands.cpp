#include "commands.hpp"

#include <fstream>
#include <ostream>

#include <CLI/CLI.hpp>

#include "ainb/dump/json.hpp"
#include "ainb/exb/disassembler.hpp"
#include "ainb/gamedata/romfs.hpp"
#include "ainb/loader.hpp"
#include "ainb/simulation/scenario.hpp"
#include "terminal.hpp"

namespace ainb::cli {

namespace {

int load_or_report(const std::string& path, const FileLookup& source, std::ostream& err,
                   std::shared_ptr<const Model>& model) {
  try {
    model = open_model(path, source);
    return kExitOk;
  } catch (const LoadError& e) {
    err << "error: " << e.what() << '\n';
    return kExitLoadError;
  }
}

void add_file_lookup(CLI::App& command, FileLookup& source,
                     const char* romfs_help =
                         "A romfs-like folder where FILE (or PACK:MEMBER) "
                         "is also looked up") {
  command.add_option("--romfs", source.romfs, romfs_help)->check(CLI::ExistingDirectory);
  command
      .add_option("--zsdic", source.zsdic,
                  "zstd dictionaries for packs and .zs files: a folder of *.zsdic or ZsDic.pack.zs "
                  "(default ROMFS/Pack/ZsDic.pack.zs)")
      ->check(CLI::ExistingPath);
}

// The options `ainb run` and `ainb regress` share: how a file is run.
// Returns them, so that `regress --check`, which runs with the recorded options, can refuse them.
std::vector<CLI::Option*> add_run_options(
    CLI::App& command, RunRequest& request,
    const char* romfs_help =
        "A romfs-like folder: FILE (or PACK:MEMBER), modules and blackboard "
        "parameter files are also looked up there and in the packs under "
        "ROMFS/Pack") {
  const auto before = command.get_options().size();
  command.add_option("--command", request.command,
                     "The command to start (default: the scenario's, else the file's first; a "
                     "Logic file runs all its nodes)");
  // Checked, as CLI11 would read "-1" into an unsigned as its two's complement.
  command.add_option("--frames", request.frames, "Frames to run (at most 1,000,000,000)")
      ->check(CLI::Range(std::uint64_t{0}, simulation::kMaxFrames))
      ->capture_default_str();
  command.add_option("--modules", request.module_dirs,
                     "A folder where module files are found (repeatable; default: the file's own)");
  command.add_option("--seed", request.seed, "Random seed (a scenario's wins)")
      ->check(CLI::Validator(
          [](const std::string& value) {
            return value.starts_with('-') ? "a seed is an integer from 0 to 2^64 - 1"
                                          : std::string();
          },
          ""))
      ->capture_default_str();
  command.add_flag("--generic-nodes", request.generic_nodes,
                   "Run TotK's generic classes (blackboard writes, result setters, math queries) "
                   "as implemented (docs/generic-nodes.md) instead of as stubs");
  command.add_flag("--ambiguous-readings", request.ambiguous_readings,
                   "With --generic-nodes (implied), also our readings of the generic classes the "
                   "evidence leaves open (ExecuteGenericCounter, QueryGenericMultiBool, "
                   "SelectorBoolTrigger, ...: docs/generic-nodes.md, \"Readings\")");
  command.add_flag("--stub-children", request.stub_children,
                   "Stubs with child plugs run their first one and return its result, so the tree "
                   "below a class nobody scripted runs (an event's Execute wrapper, a Selector* "
                   "class)");
  command.add_flag("--restart", request.restart,
                   "Start the command again whenever it ends, before the next frame (a "
                   "scenario's \"restart\" wins)");
  command.add_flag(
      "--simultaneous-ends-first", request.simultaneous_ends_first,
      "Read Element_Simultaneous ResultPolicy 1 as: the node ends when its first child "
      "finishes, with that child's result (not honoured otherwise; docs/semantics.md)");
  command.add_flag("--stub-missing-modules", request.stub_missing_modules,
                   "Run module nodes whose file is not found as stub nodes (one warning for all)");
  add_file_lookup(command, request.source, romfs_help);
  command.add_option("--defs", request.defs,
                     "Node definitions (repeatable): stub nodes write the declared output "
                     "defaults. NodeDefinition.json, or a BYML table Node.Product.<N>.aidefn.byml"
                     "[.zs] (category from its romfs folder, its name's first part, or "
                     "CATEGORY=FILE); default with --romfs: the romfs's newest of each category");
  const auto all = command.get_options();
  return {all.begin() + static_cast<std::ptrdiff_t>(before), all.end()};
}

// The page of a run, a regression or an exploration (report/page.hpp; docs/report.md).
std::vector<CLI::Option*> add_page_options(CLI::App& command, RunRequest& request) {
  return {command.add_option("--html", request.html,
                             "Write one HTML page to look at: the graphs, a frame slider, the "
                             "timeline, the nodes and the blackboard over the run (regress: both "
                             "files side by side; explore: the coverage) (docs/report.md)"),
          command.add_option("--dot", request.dot,
                             "Graphviz's dot program, which lays out the page's graphs "
                             "(default: dot on PATH)")};
}

void add_verbose(CLI::App& command, RunRequest& request) {
  command.add_flag("--verbose", request.verbose,
                   "Warn of each missing module (where it was searched, who calls it) and user "
                   "function on a line of its own, rather than of all in one line");
}

}  // namespace

std::shared_ptr<const Model> open_model(const std::string& spec, const FileLookup& source) {
  const auto dictionaries = gamedata::load_dictionaries(source.romfs, source.zsdic);
  gamedata::FileSource files(source.romfs, &dictionaries);
  if (source.packs) files.add_shared_packs(source.packs);
  return gamedata::open_ai_file(spec, files);
}

int run(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  log_to_stderr();
  CLI::App app{"ainb: inspect and run AINB behavior-tree files"};
  app.name("ainb");
  app.require_subcommand(1);
  app.set_version_flag("--version", "ainb 0.1.0");

  std::string file;
  FileLookup source;
  constexpr auto kFileHelp = "AINB file, or PACK:MEMBER (an AI file inside a pack)";
  auto* info = app.add_subcommand("info", "Print a readable summary of a file");
  info->add_option("FILE", file, kFileHelp)->required();
  add_file_lookup(*info, source);

  std::string format = "model";
  std::string output;
  int indent = 2;
  auto* dump = app.add_subcommand("dump", "Print the complete model as JSON");
  dump->add_option("FILE", file, kFileHelp)->required();
  add_file_lookup(*dump, source);
  dump->add_option("--format", format,
                   "model: the project's schema (docs/dump-json.md); "
                   "peer: the layout of the reference Python tool")
      ->check(CLI::IsMember({"model", "peer"}))
      ->capture_default_str();
  dump->add_option("-o,--output", output, "Write to this file instead of standard output");
  dump->add_option("--indent", indent, "Spaces per indentation level (-1: one line)")
      ->check(CLI::Range(-1, 16))
      ->capture_default_str();

  std::optional<std::uint32_t> function;
  auto* disasm = app.add_subcommand("disasm", "Print the EXB expressions as assembly text");
  disasm->add_option("FILE", file, kFileHelp)->required();
  add_file_lookup(*disasm, source);
  disasm->add_option("--function", function, "Only this function");

  EvalRequest eval_request;
  auto* eval =
      app.add_subcommand("eval", "Run one EXB function (setup, then main) and print its output");
  eval->add_option("FILE", file, kFileHelp)->required();
  add_file_lookup(*eval, source);
  eval->add_option("--function", eval_request.function, "Function index")->required();
  eval->add_option("--input", eval_request.input,
                   "The input value: an integer, a float, true/false, text, or x,y,z");
  eval->add_option("--static", eval_request.static_hex,
                   "Initial static memory as hex bytes (e.g. 0a000000)");
  eval->add_option("--user", eval_request.user,
                   "SIGNATURE=VALUE: a user function returning VALUE (repeatable)");

  RunRequest run_request;
  auto* run = app.add_subcommand(
      "run", "Simulate a file offline: run a command for some frames under a scenario");
  run->add_option("FILE", run_request.file, "AINB file")->required();
  add_run_options(*run, run_request);
  add_verbose(*run, run_request);
  run->add_option("--scenario", run_request.scenario,
                  "A scenario file (JSON, docs/simulation.md): blackboard values, command "
                  "switches, node behaviour, user function values, seed");
  run->add_option("--trace", run_request.trace, "Write the trace to this file, or - for stdout");
  run->add_option("--format", run_request.format, "Trace format")
      ->check(CLI::IsMember({"jsonl", "text", "chrome"}))
      ->capture_default_str();
  run->add_option("--max-trace-events", run_request.max_trace_events,
                  "Trace events written before the trace is truncated (docs/robustness.md)")
      ->capture_default_str();
  run->add_option("--coverage", run_request.coverage,
                  "Write what the run reached (nodes, selector branches, transitions, commands) "
                  "to this JSON file, and list what it never reached (docs/simulation.md)");
  add_page_options(*run, run_request);

  ReportRequest report_request;
  auto* report = app.add_subcommand(
      "report", "Write the HTML page of a run (as ainb run --html) from its JSON-lines trace");
  report->add_option("TRACE", report_request.trace, "A trace of ainb run --format jsonl")
      ->required();
  report->add_option("--file", report_request.run.file, "The AINB file the trace ran")->required();
  report->add_option("-o,--output", report_request.run.html, "The page to write")->required();
  report->add_option("--modules", report_request.run.module_dirs,
                     "A folder where module files are found (repeatable; default: the file's own)");
  report->add_flag("--stub-missing-modules", report_request.run.stub_missing_modules,
                   "Show module nodes whose file is not found as plain nodes");
  add_file_lookup(*report, report_request.run.source);
  report->add_option("--dot", report_request.run.dot,
                     "Graphviz's dot program (default: dot on PATH)");

  RegressRequest regress_request;
  auto* regress = app.add_subcommand(
      "regress",
      "Run an original and an edited file under the same scenarios and report the first "
      "difference; or record golden traces of many files and check later versions against "
      "them (exit 0 equal, 1 different, 2 error)");
  regress->add_option("FILES", regress_request.files,
                      "ORIGINAL EDITED; with --record, the files and folders to record; with "
                      "--check, where to find them (default: as recorded)");
  regress->add_option("--scenario", regress_request.scenarios, "A scenario file (repeatable)");
  auto* record = regress->add_option(
      "--record", regress_request.record,
      "Record golden traces of every *.ainb under FILES (with the X*.scenario.json beside each) "
      "into this folder");
  auto* check =
      regress
          ->add_option("--check", regress_request.check,
                       "Check the files against the golden traces recorded in this folder")
          ->excludes(record);
  regress
      ->add_flag("--strict", regress_request.strict,
                 "ORIGINAL EDITED: exit 1 also when the traces agree but an edited value went "
                 "unseen (a note: its node's stub ignored it, or no run entered the node)")
      ->excludes(record)
      ->excludes(check);
  for (auto* option : add_run_options(*regress, regress_request.run))
    option->excludes(check);
  add_verbose(*regress, regress_request.run);
  for (auto* option : add_page_options(*regress, regress_request.run)) {
    option->excludes(record);
    option->excludes(check);
  }
  regress
      ->add_option("--max-trace-events", regress_request.max_held_events,
                   "Events a run may trace: both traces are held in memory to be compared (a few "
                   "hundred bytes an event)")
      ->capture_default_str();
  auto* regress_explore =
      regress
          ->add_option("--explore", regress_request.explore,
                       "ORIGINAL EDITED: run N scenarios `ainb explore` generates (120 frames "
                       "each unless --frames), stop at the first difference, shrink it and write "
                       "it to -o DIR")
          ->check(CLI::Range(std::uint64_t{1}, std::uint64_t{100'000'000}))
          ->excludes(record)
          ->excludes(check);
  regress
      ->add_option("--output,-o", regress_request.output,
                   "With --explore: a folder for the scenario that shows the difference")
      ->needs(regress_explore);
  regress->add_option("--jobs,-j", regress_request.jobs, "With --explore: threads")
      ->check(CLI::Range(1u, 256u))
      ->needs(regress_explore);

  CatRequest cat_request;
  auto* cat = app.add_subcommand(
      "cat", "Print a BYML, AAMP, SARC (file list) or zstd-compressed file as readable text");
  cat->add_option("FILE", cat_request.file, "The file")->required();
  cat->add_option("--zsdic,--dict", cat_request.dictionaries,
                  "zstd dictionaries: a folder of *.zsdic files or TotK's ZsDic.pack.zs");
  cat->add_option("--names", cat_request.names,
                  "AAMP names (one a line) to print instead of their CRC32 hashes");

  LintRequest lint_request;
  auto* lint = app.add_subcommand(
      "lint",
      "Check the user nodes of a file against node definitions: unknown classes, wrong file "
      "category, missing, extra or mistyped parameters (exit 0 clean, 1 findings, 2 error)");
  lint->add_option("FILE", lint_request.file, "AINB file, or PACK:MEMBER")->required();
  lint->add_option("--defs", lint_request.defs,
                   "Node definitions (repeatable): NodeDefinition.json, or a BYML table "
                   "Node.Product.<N>.aidefn.byml[.zs] (category from its romfs folder, its name's "
                   "first part, or CATEGORY=FILE); default with --romfs: the romfs's newest of "
                   "each category");
  lint->add_option("--format", lint_request.format, "Output format")
      ->check(CLI::IsMember({"text", "json"}))
      ->capture_default_str();
  add_file_lookup(*lint, lint_request.source,
                  "A romfs-like folder where FILE (or PACK:MEMBER) is also looked up; without "
                  "--defs, its newest {AI,Logic,Sequence}/NodeDefinition/ tables are the "
                  "definitions");

  GraphRequest graph_request;
  auto* graph = app.add_subcommand(
      "graph", "Print the file as Graphviz DOT: commands, nodes, plugs by kind, queries, modules");
  graph->add_option("FILE", file, kFileHelp)->required();
  add_file_lookup(*graph, source);
  graph->add_option("--trace", graph_request.trace,
                    "A JSON-lines trace of `ainb run`: colour the nodes that ran by their last "
                    "result");
  graph->add_flag("--svg", graph_request.svg, "Render SVG through Graphviz's `dot` program");
  graph->add_option("-o,--output", graph_request.output, "Write to this file");

  ConvertRequest convert_request;
  auto* convert = app.add_subcommand(
      "convert",
      "Convert between AINB and the JSON text form (by extension: .json is text), or --check "
      "that a file comes back byte for byte");
  convert->add_option("IN", convert_request.input, "AINB file, PACK:MEMBER or .json file")
      ->required();
  convert->add_option("OUT", convert_request.output, "AINB or .json file to write");
  convert->add_flag("--force", convert_request.force,
                    "Write a JSON file that ainb run would refuse (a misnamed built-in plug, a "
                    "cycle of child plugs, ...): a warning instead of an error");
  convert->add_flag("--check", convert_request.check,
                    "Write IN back through the writer and the text form and report whether the "
                    "bytes are identical, else the first differing offset and its section");
  convert
      ->add_option("--indent", convert_request.indent,
                   "JSON spaces per indentation level (-1: one line)")
      ->check(CLI::Range(-1, 16))
      ->capture_default_str();
  add_file_lookup(*convert, convert_request.source,
                  "A romfs-like folder where IN (or PACK:MEMBER) is also looked up");

  ExploreRequest explore_request;
  explore_request.run.frames = 120;
  auto* explore = app.add_subcommand(
      "explore",
      "Generate scenarios guided by coverage: report what they reach against plain runs, and "
      "write a minimal scenario for each branch plain runs miss (exit 0 done, 1 error, 2 usage)");
  explore->add_option("FILE", explore_request.run.file, "AINB file")->required();
  for (auto* option : add_run_options(*explore, explore_request.run)) {
    if (option->get_name() == "--frames") option->description("Frames each scenario runs");
    if (option->get_name() == "--seed")
      option->description("The exploration's seed: the same seed gives the same scenarios");
    if (option->get_name() == "--command" || option->get_name() == "--restart")
      explore->remove_option(option);  // explore chooses commands; its scenarios restart
  }
  add_verbose(*explore, explore_request.run);
  add_page_options(*explore, explore_request.run);
  explore->add_option("--runs", explore_request.runs, "Scenarios to generate and run")
      ->check(CLI::Range(std::uint64_t{1}, std::uint64_t{100'000'000}))
      ->capture_default_str();
  explore->add_option("--jobs,-j", explore_request.jobs, "Threads (the results do not change)")
      ->check(CLI::Range(1u, 256u))
      ->capture_default_str();
  explore->add_option("--output,-o", explore_request.output,
                      "A folder: one scenario file per branch found, and coverage.json");
  explore->add_flag("!--no-shrink", explore_request.shrink,
                    "Write the scenarios as found, not shrunk");
  explore->add_option("--against", explore_request.against,
                      "An edited version of FILE: run the scenarios on both and stop at the first "
                      "difference, as `ainb regress ORIGINAL EDITED --explore N` (exit 0 none "
                      "found, 1 a difference, 2 error)");

  ScanRequest scan_request;
  auto* scan = app.add_subcommand(
      "scan",
      "Check every AI file of folders, packs or a romfs: load, byte-exact round trip, lint (with "
      "node definitions), runtime graph and a run, each file in a worker process (exit 0 all "
      "pass, 1 a file failed, 2 usage)");
  scan->add_option(
          "PATH", scan_request.paths,
          "A folder (every *.ainb and every pack's AI/*.ainb under it: a mod as it ships), "
          "a pack (.pack.zs, .sarc: its AI/*.ainb) or an AI file (repeatable; default "
          "with --romfs: the romfs)")
      ->check(CLI::ExistingPath);
  add_run_options(*scan, scan_request.run,
                  "A romfs-like folder: without PATH, every pack under ROMFS/Pack/Actor and every "
                  "loose *.ainb is scanned; modules, parameter files and node definitions are "
                  "looked up there");
  scan->add_option("--jobs,-j", scan_request.jobs, "Worker processes at once (default: the cores)")
      ->check(CLI::Range(std::size_t{1}, std::size_t{1024}));
  scan->add_option("--shard", scan_request.shard,
                   "K/N: only the files i (0-based, sorted by name) with i mod N = K - 1, so N CI "
                   "jobs share the files");
  scan->add_option("--format", scan_request.format, "Report format")
      ->check(CLI::IsMember({"text", "json"}))
      ->capture_default_str();
  scan->add_flag("!--no-time", scan_request.time,
                 "Leave the times out of the report, so that two runs compare equal");

  // CLI11 parses in reverse order; its argv convention wants the program name at the back.
  std::vector<std::string> reversed(args.rbegin(), args.rend());
  try {
    app.parse(reversed);
  } catch (const CLI::CallForHelp&) {
    out << app.help();  // the selected subcommand's help when there is one
    return kExitOk;
  } catch (const CLI::CallForVersion&) {
    out << "ainb 0.1.0\n";
    return kExitOk;
  } catch (const CLI::ParseError& e) {
    err << "error: " << e.what() << "\nrun `ainb --help` for usage\n";
    return kExitUsage;
  }

  // Each command reports the errors it expects in its own words; this is the net under them, so
  // that no input ends the program with an uncaught exception.
  try {
    if (run->parsed()) return run_simulation(run_request, out, err);
    if (report->parsed()) return run_report(report_request, out, err);
    if (regress->parsed()) {
      if (regress_request.explore != 0 && regress->get_option("--frames")->count() == 0)
        regress_request.run.frames = 120;
      return run_regress(regress_request, out, err);
    }
    if (explore->parsed()) return run_explore(explore_request, out, err);
    if (cat->parsed()) return run_cat(cat_request, out, err);
    if (lint->parsed()) return run_lint(lint_request, out, err);
    if (convert->parsed()) return run_convert(convert_request, out, err);
    if (scan->parsed()) return run_scan(scan_request, out, err);

    std::shared_ptr<const Model> model;
    if (const int rc = load_or_report(file, source, err, model); rc != kExitOk) return rc;

    if (info->parsed()) {
      out << format_info(*model);
      return kExitOk;
    }
    if (graph->parsed()) return run_graph(*model, graph_request, out, err);
    if (disasm->parsed()) {
      if (!model->expressions) {
        out << "; no EXB section\n";
        return kExitOk;
      }
      if (function && *function >= model->expressions->functions.size()) {
        err << "error: --function " << *function << ": the file has "
            << model->expressions->functions.size() << " functions\n";
        return kExitUsage;
      }
      out << exb::disassemble(*model->expressions, function);
      return kExitOk;
    }
    if (eval->parsed()) {
      try {
        return run_eval(*model, eval_request, out, err);
      } catch (const LoadError& e) {  // the EXB verifier rejected the function
        err << "error: " << e.what() << '\n';
        return kExitLoadError;
      }
    }
    const auto json = format == "peer" ? dump_peer_json(*model) : dump_json(*model);
    const auto text =
        json.dump(indent, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
    if (output.empty()) {
      out << text << '\n';
    } else {
      std::ofstream file_out(output, std::ios::binary);
      file_out << text << '\n';
      if (!file_out) {
        err << "error: cannot write " << output << '\n';
        return kExitLoadError;
      }
    }
    return kExitOk;
  } catch (const std::exception& e) {
    err << "error: " << e.what() << '\n';
    return kExitLoadError;
  }
}

}  // namespace ainb::cli
