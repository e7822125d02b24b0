#pragma once

// How the subcommands register themselves: each command's file adds its CLI11 subcommand, bound
// to a request of its own, and returns what runs it once the command line is parsed
// (commands.cpp dispatches). The options several commands share are added by the helpers here.

#include <functional>
#include <iosfwd>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "commands.hpp"

namespace ainb::cli {

// A registered subcommand: its CLI11 app, and what runs it when it was the one parsed.
struct Command {
  CLI::App* app = nullptr;
  std::function<int(std::ostream& out, std::ostream& err)> run;
};

// FILE's help for the commands that read one file.
inline constexpr const char* kFileHelp = "AINB file, or PACK:MEMBER (an AI file inside a pack)";
inline constexpr const char* kRomfsHelp =
    "A romfs-like folder where FILE (or PACK:MEMBER) is also looked up";

// --romfs and --zsdic, where FILE is found.
void add_file_lookup(CLI::App& command, FileLookup& source, const char* romfs_help = kRomfsHelp);

// The run options `taker` takes (a simulation::OptionTaker bit), one per row of the table
// (simulation/run_options.hpp), bound to their fields of `options`: a Flag as a flag, a Count as
// a checked unsigned, the others as options. Returns them, so that `regress --check`, which runs
// with the recorded options, can refuse them.
std::vector<CLI::Option*> add_run_options(CLI::App& command, simulation::RunOptions& options,
                                          unsigned taker);
// A command's own words for one of its options (its --help).
void describe(CLI::App& command, const std::string& flag, const std::string& help);

// The page of a run, a regression or an exploration (--html, --dot; docs/report.md).
std::vector<CLI::Option*> add_page_options(CLI::App& command, RunRequest& request);
void add_verbose(CLI::App& command, RunRequest& request);

// The commands that read FILE into a model first (info, dump, disasm, eval, graph): FILE and the
// file lookup are added to `command`; the returned runner loads the file (a load error is
// reported, exit 1) and hands the model to `then`.
std::function<int(std::ostream&, std::ostream&)> with_model(
    CLI::App& command, std::function<int(const Model&, std::ostream&, std::ostream&)> then);

// Each in its command's own file.
Command add_info_command(CLI::App& app);
Command add_dump_command(CLI::App& app);
Command add_disasm_command(CLI::App& app);
Command add_eval_command(CLI::App& app);
Command add_run_command(CLI::App& app);
Command add_report_command(CLI::App& app);
Command add_regress_command(CLI::App& app);
Command add_cat_command(CLI::App& app);
Command add_lint_command(CLI::App& app);
Command add_graph_command(CLI::App& app);
Command add_convert_command(CLI::App& app);
Command add_diff_command(CLI::App& app);
Command add_review_command(CLI::App& app);
Command add_explore_command(CLI::App& app);
Command add_scan_command(CLI::App& app);

}  // namespace ainb::cli
