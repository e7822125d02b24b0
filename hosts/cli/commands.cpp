#include "commands.hpp"

#include <algorithm>
#include <filesystem>
#include <functional>
#include <iterator>
#include <memory>
#include <ostream>
#include <string_view>
#include <type_traits>
#include <utility>

#include <fmt/format.h>

#include "ainb/gamedata/romfs.hpp"
#include "ainb/loader.hpp"
#include "ainb/simulation/scenario.hpp"
#include "registration.hpp"
#include "terminal.hpp"

namespace ainb::cli {

void add_file_lookup(CLI::App& command, FileLookup& source, const char* romfs_help) {
  command.add_option("--romfs", source.romfs, romfs_help)->check(CLI::ExistingDirectory);
  command
      .add_option("--zsdic", source.zsdic,
                  "zstd dictionaries for packs and .zs files: a folder of *.zsdic or ZsDic.pack.zs "
                  "(default ROMFS/Pack/ZsDic.pack.zs)")
      ->check(CLI::ExistingPath);
}

std::vector<CLI::Option*> add_run_options(CLI::App& command, simulation::RunOptions& options,
                                          unsigned taker) {
  std::vector<CLI::Option*> added;
  simulation::for_each_run_option(options, [&](const simulation::RunOptionInfo& info, auto& field) {
    if ((info.takers & taker) == 0) return;
    const std::string flag(info.flag), help(info.help), name(info.name);
    using Field = std::decay_t<decltype(field)>;
    CLI::Option* option = nullptr;
    if constexpr (std::is_same_v<Field, bool>) {
      option = command.add_flag(flag, field, help);
    } else if constexpr (std::is_same_v<Field, std::uint64_t>) {
      option = command.add_option(flag, field, help)->capture_default_str();
      // Checked, as CLI11 would read "-1" into an unsigned as its two's complement.
      if (info.most != 0) {
        option->check(CLI::Range(std::uint64_t{0}, info.most));
      } else {
        option->check(CLI::Validator(
            [name](const std::string& value) {
              return value.starts_with('-') ? "a " + name + " is an integer from 0 to 2^64 - 1"
                                            : std::string();
            },
            ""));
      }
    } else if constexpr (std::is_same_v<Field, std::filesystem::path>) {
      option = command.add_option(flag, field, help);
      // The romfs is a folder; dictionaries are a folder or a pack.
      option->check(info.name == "romfs" ? CLI::Validator(CLI::ExistingDirectory)
                                         : CLI::Validator(CLI::ExistingPath));
    } else {
      option = command.add_option(flag, field, help);
    }
    added.push_back(option);
  });
  // --ambiguous-readings implies --generic-nodes (as the simulation reads them), so what is
  // recorded (golden manifests) and shown says so too.
  command.parse_complete_callback(
      [&options] { options.generic_nodes = options.generic_nodes || options.ambiguous_readings; });
  return added;
}

void describe(CLI::App& command, const std::string& flag, const std::string& help) {
  command.get_option(flag)->description(help);
}

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

std::function<int(std::ostream&, std::ostream&)> with_model(
    CLI::App& command, std::function<int(const Model&, std::ostream&, std::ostream&)> then) {
  struct ModelFile {
    std::string file;
    FileLookup source;
  };
  auto model_file = std::make_shared<ModelFile>();
  command.add_option("FILE", model_file->file, kFileHelp)->required();
  add_file_lookup(command, model_file->source);
  return [model_file, then](std::ostream& out, std::ostream& err) {
    std::shared_ptr<const Model> model;
    try {
      model = open_model(model_file->file, model_file->source);
    } catch (const LoadError& e) {
      err << "error: " << e.what() << '\n';
      return kExitLoadError;
    }
    return then(*model, out, err);
  };
}

FileLookup file_lookup(const simulation::RunOptions& options) {
  return {options.romfs.string(), options.zsdic.string(), options.shared_packs};
}

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
  app.set_version_flag("--version", "ainb " AINB_VERSION);
  // In the order `ainb --help` lists them.
  static constexpr std::pair<std::string_view, Command (*)(CLI::App&)> kCommands[] = {
      {"info", add_info_command},       {"dump", add_dump_command},
      {"disasm", add_disasm_command},   {"eval", add_eval_command},
      {"run", add_run_command},         {"report", add_report_command},
      {"regress", add_regress_command}, {"cat", add_cat_command},
      {"lint", add_lint_command},       {"graph", add_graph_command},
      {"convert", add_convert_command}, {"diff", add_diff_command},
      {"review", add_review_command},   {"explore", add_explore_command},
      {"scan", add_scan_command}};
  // A command line that starts with a command's name needs only that command: the others' options
  // are not built (in the WebAssembly page, their code is then not even compiled).
  const std::string_view first = args.empty() ? std::string_view() : args.front();
  const auto named = std::find_if(std::begin(kCommands), std::end(kCommands),
                                  [&](const auto& entry) { return entry.first == first; });
  std::vector<Command> commands;
  for (const auto& [name, add] : kCommands) {
    if (named == std::end(kCommands) || named->first == name) commands.push_back(add(app));
  }

  // CLI11 parses in reverse order; its argv convention wants the program name at the back.
  std::vector<std::string> reversed(args.rbegin(), args.rend());
  try {
    app.parse(reversed);
  } catch (const CLI::CallForHelp&) {
    out << app.help();  // the selected subcommand's help when there is one
    return kExitOk;
  } catch (const CLI::CallForVersion&) {
    out << "ainb " AINB_VERSION "\n";
    return kExitOk;
  } catch (const CLI::ParseError& e) {
    err << "error: " << e.what() << "\nrun `ainb --help` for usage\n";
    return kExitUsage;
  }

  // Each command reports the errors it expects in its own words; this is the net under them, so
  // that no input ends the program with an uncaught exception.
  try {
    for (const auto& command : commands) {
      if (command.app->parsed()) return command.run(out, err);
    }
    return kExitUsage;  // not reached: a subcommand is required
  } catch (const std::exception& e) {
    err << "error: " << e.what() << '\n';
    return kExitLoadError;
  }
}

}  // namespace ainb::cli
