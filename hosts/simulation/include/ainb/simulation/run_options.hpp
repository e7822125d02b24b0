#pragma once

// The run options, one row each: what a person sets when a file runs offline (`ainb run`,
// `regress`, `explore`, `scan`, the Python functions, golden sets). A row gives RunOptions its
// field and default, the command line its flag and help, golden manifests their key and Python
// its keyword, so a new option is one row (docs/simulation.md, "Run options").

#include <cstdint>
#include <filesystem>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "ainb/simulation/scenario.hpp"  // kMaxFrames

namespace ainb::simulation {

// An option's value: a switch, a whole number, text, a path or a list of paths.
enum class OptionKind : std::uint8_t { Flag, Count, Text, Path, Paths };

template <OptionKind>
struct OptionValue;
template <>
struct OptionValue<OptionKind::Flag> {
  using type = bool;
};
template <>
struct OptionValue<OptionKind::Count> {
  using type = std::uint64_t;
};
template <>
struct OptionValue<OptionKind::Text> {
  using type = std::string;
};
template <>
struct OptionValue<OptionKind::Path> {
  using type = std::filesystem::path;
};
template <>
struct OptionValue<OptionKind::Paths> {
  using type = std::vector<std::filesystem::path>;
};

// Who takes an option (bits). A golden set records what `regress` takes.
enum OptionTaker : unsigned {
  kTakenByRun = 1u << 0,       // ainb run, ainb.run, ainb.trace
  kTakenByRegress = 1u << 1,   // ainb regress (and its golden sets), ainb.regress
  kTakenByExplore = 1u << 2,   // ainb explore, regress --explore, ainb.explore
  kTakenByScan = 1u << 3,      // ainb scan
  kTakenByInstance = 1u << 4,  // ainb.Instance, an actor the host ticks
  kTakenByReport = 1u << 5,    // ainb report: what finds the file's modules
  kTakenByCApi = 1u << 6,      // the C API (hosts/capi): a setter of ainb_runtime or instance
};
inline constexpr unsigned kTakenByRuns = kTakenByRun | kTakenByRegress | kTakenByScan;
inline constexpr unsigned kTakenByAll = kTakenByRuns | kTakenByExplore | kTakenByInstance;
inline constexpr unsigned kTakenToFindFiles = kTakenByAll | kTakenByReport;

// Frames each scenario of an exploration runs unless told otherwise (`ainb explore`,
// `regress --explore`, ainb.explore): short runs, many of them.
inline constexpr std::uint64_t kExploreFrames = 120;

// X(name, kind, default, most, takers, flag, help): `name` is the field, the golden manifest's
// key and the Python keyword; `most` the largest Count (0: any); `flag` the command line's.
#define AINB_RUN_OPTIONS(X)                                                                       \
  X(command, Text, "", 0, kTakenByRuns, "--command",                                              \
    "The command to start (default: the scenario's, else the file's first; a Logic file runs "    \
    "all its nodes)")                                                                             \
  X(frames, Count, 600, ::ainb::simulation::kMaxFrames, kTakenByRuns | kTakenByExplore,           \
    "--frames", "Frames to run (at most 1,000,000,000)")                                          \
  X(seed, Count, 0, 0, kTakenByAll | kTakenByCApi, "--seed", "Random seed (a scenario's wins)")   \
  X(restart, Flag, false, 0, kTakenByRuns, "--restart",                                           \
    "Start the command again whenever it ends, before the next frame, as a game issues an "       \
    "actor's AI again (a scenario's \"restart\" wins)")                                           \
  X(generic_nodes, Flag, false, 0, kTakenByAll | kTakenByCApi, "--generic-nodes",                 \
    "Run TotK's generic classes (blackboard writes, result setters, math queries) as "            \
    "implemented (docs/generic-nodes.md) instead of as stubs; a scenario's scripted classes win") \
  X(ambiguous_readings, Flag, false, 0, kTakenByAll, "--ambiguous-readings",                      \
    "With --generic-nodes (implied), also our readings of the generic classes the evidence "      \
    "leaves open (ExecuteGenericCounter, QueryGenericMultiBool, SelectorBoolTrigger, ...: "       \
    "docs/generic-nodes.md, \"Readings\")")                                                       \
  X(stub_children, Flag, false, 0, kTakenByAll, "--stub-children",                                \
    "Stubs with child plugs run their first one and return its result, so the tree below a "      \
    "class nobody scripted runs (an event's Execute wrapper, a Selector* class)")                 \
  X(simultaneous_ends_first, Flag, false, 0, kTakenByRuns | kTakenByExplore,                      \
    "--simultaneous-ends-first",                                                                  \
    "Read Element_Simultaneous ResultPolicy 1 as: the node ends when its first child finishes, "  \
    "with that child's result (not honoured otherwise; docs/semantics.md)")                       \
  X(stub_missing_modules, Flag, false, 0, kTakenToFindFiles | kTakenByCApi,                       \
    "--stub-missing-modules",                                                                     \
    "Run module nodes whose file is not found as stub nodes (one warning for all)")               \
  X(modules, Paths, {}, 0, kTakenToFindFiles | kTakenByCApi, "--modules",                         \
    "A folder where module files are found (repeatable; default: the file's own)")                \
  X(romfs, Path, {}, 0, kTakenToFindFiles, "--romfs",                                             \
    "A romfs-like folder: FILE (or PACK:MEMBER), modules and blackboard parameter files are "     \
    "also looked up there and in the packs under ROMFS/Pack")                                     \
  X(zsdic, Path, {}, 0, kTakenToFindFiles, "--zsdic",                                             \
    "zstd dictionaries for packs and .zs files: a folder of *.zsdic or ZsDic.pack.zs (default "   \
    "ROMFS/Pack/ZsDic.pack.zs)")                                                                  \
  X(definitions, Paths, {}, 0, kTakenByAll, "--defs",                                             \
    "Node definitions (repeatable): stub nodes write the declared output defaults. "              \
    "NodeDefinition.json, or a BYML table Node.Product.<N>.aidefn.byml[.zs] (category from its "  \
    "romfs folder, its name's first part, or CATEGORY=FILE); default with --romfs: the romfs's "  \
    "newest of each category")                                                                    \
  X(stub_running_updates, Count, 0, 65535, kTakenByAll, "--stub-running-updates",                 \
    "Stubs run this many updates (Running) before they succeed, as a game's actions take time "   \
    "(default: they succeed at once)")

// What the table says of one option, for the hosts that list them (the command line, golden
// manifests, Python).
struct RunOptionInfo {
  std::string_view name;
  OptionKind kind;
  std::uint64_t most;  // Count: the largest value (0: any)
  unsigned takers;     // OptionTaker bits
  std::string_view flag;
  std::string_view help;
};

// The rows in the table's order.
std::span<const RunOptionInfo> run_option_table();

}  // namespace ainb::simulation
