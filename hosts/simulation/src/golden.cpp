#include "ainb/simulation/golden.hpp"

#include <algorithm>
#include <fstream>
#include <map>
#include <ostream>
#include <sstream>
#include <stdexcept>
#include <type_traits>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "edits.hpp"
#include "misfit.hpp"

namespace ainb::simulation {

namespace fs = std::filesystem;

namespace {

constexpr const char* kFormat = "ainb-golden 1";
constexpr const char* kNoScenario = "(no scenario)";

struct Found {
  std::string key;  // path relative to its input, '/'-separated
  fs::path path;
};

// The *.ainb files of one input: itself, or every one under it, sorted by key.
std::vector<Found> find_files(const fs::path& input) {
  std::vector<Found> found;
  if (fs::is_regular_file(input)) {
    found.push_back({input.filename().generic_string(), input});
  } else if (fs::is_directory(input)) {
    for (const auto& entry : fs::recursive_directory_iterator(input)) {
      if (entry.is_regular_file() && entry.path().extension() == ".ainb")
        found.push_back({fs::relative(entry.path(), input).generic_string(), entry.path()});
    }
  } else {
    throw std::runtime_error(fmt::format("{}: no such file or folder", input.string()));
  }
  std::sort(found.begin(), found.end(),
            [](const Found& a, const Found& b) { return a.key < b.key; });
  return found;
}

// The scenarios beside a file X.ainb: X.scenario.json and X.<anything>.scenario.json.
std::vector<fs::path> scenarios_beside(const fs::path& file) {
  std::vector<fs::path> found;
  const auto stem = file.stem().string();  // "patrol.root" for patrol.root.ainb
  for (const auto& entry :
       fs::directory_iterator(file.parent_path().empty() ? "." : file.parent_path())) {
    const auto name = entry.path().filename().string();
    const bool named = name == stem + ".scenario.json" ||
                       (name.rfind(stem + ".", 0) == 0 && name.size() > stem.size() + 15 &&
                        name.ends_with(".scenario.json"));
    if (entry.is_regular_file() && named) found.push_back(entry.path());
  }
  std::sort(found.begin(), found.end());
  return found;
}

std::string read_text(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error(fmt::format("{}: cannot read", path.string()));
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

void write_text(const fs::path& path, const std::string& text) {
  fs::create_directories(path.parent_path());
  std::ofstream out(path, std::ios::binary);
  out << text;
  if (!out) throw std::runtime_error(fmt::format("{}: cannot write", path.string()));
}

std::vector<std::string> strings(const std::vector<fs::path>& paths) {
  std::vector<std::string> out;
  for (const auto& p : paths)
    out.push_back(p.generic_string());
  return out;
}

std::vector<fs::path> paths(const nlohmann::json& strings) {
  std::vector<fs::path> out;
  for (const auto& s : strings)
    out.emplace_back(s.get<std::string>());
  return out;
}

// The run options a golden set records: every row `regress` takes, under the row's name, so
// that `--check` replays with all of them (a new row is recorded with no change here).
nlohmann::json options_json(const RunOptions& options) {
  nlohmann::json j = nlohmann::json::object();
  for_each_run_option(options, [&](const RunOptionInfo& info, const auto& field) {
    if ((info.takers & kTakenByRegress) == 0) return;
    using Field = std::decay_t<decltype(field)>;
    auto& value = j[std::string(info.name)];
    if constexpr (std::is_same_v<Field, fs::path>) {
      value = field.generic_string();
    } else if constexpr (std::is_same_v<Field, std::vector<fs::path>>) {
      value = strings(field);
    } else {
      value = field;
    }
  });
  return j;
}

// A key absent from the manifest (recorded before its row existed) keeps the row's default,
// which is how those recordings ran.
RunOptions options_from(const nlohmann::json& j) {
  RunOptions options;
  for_each_run_option(options, [&](const RunOptionInfo& info, auto& field) {
    const auto found = j.find(std::string(info.name));
    if ((info.takers & kTakenByRegress) == 0 || found == j.end()) return;
    using Field = std::decay_t<decltype(field)>;
    if constexpr (std::is_same_v<Field, fs::path>) {
      field = found->template get<std::string>();
    } else if constexpr (std::is_same_v<Field, std::vector<fs::path>>) {
      field = paths(*found);
    } else {
      field = found->template get<Field>();
    }
  });
  return options;
}

// With several inputs, the traces of each go under its number: two inputs may hold files of the
// same name.
std::string trace_name(const std::string& file, const std::string& scenario, std::size_t input,
                       std::size_t inputs) {
  const auto base = scenario.empty() ? std::string("no-scenario")
                                     : fs::path(scenario).filename().replace_extension().string();
  const auto folder = inputs > 1 ? fmt::format("traces/{}/", input + 1) : std::string("traces/");
  return folder + file + "/" + base + ".jsonl";
}

// How a case's file is shown: its key, and with several inputs which one holds it.
std::string case_label(const std::string& key, std::size_t input, std::size_t inputs) {
  return inputs > 1 ? fmt::format("{} (input {})", key, input + 1) : key;
}

// One case's run: its trace, the top-level file's name and the actor's graph.
struct CaseRun {
  std::vector<TraceEvent> events;
  std::string top;
  std::string started;  // the command the run started, which a check starts again by name
  std::shared_ptr<const runtime::Graph> graph;
};

// Runs one case (a fault in the run is thrown as an error).
CaseRun run_case(const fs::path& file, const std::optional<Scenario>& scenario,
                 const RunOptions& options) {
  TraceCollector events(options.max_held_events);
  Scenario none;
  none.name = kNoScenario;
  const auto summary = simulate(file, scenario ? *scenario : none, options, &events);
  if (!summary.fault.empty()) {
    throw std::runtime_error("the run stopped on a fault: " + summary.fault);
  }
  return {std::move(events.events), summary.file, summary.started, summary.graph};
}

// The node GUIDs of every file the case's actor ran, by file name: a check pairs the nodes of
// the file it runs with these, as `ainb regress` pairs an edited file's with the original's.
nlohmann::json recorded_guids(const runtime::Graph& graph) {
  nlohmann::json guids = nlohmann::json::object();
  for (const auto& [name, model] : actor_files(graph))
    guids[name] = node_guids(*model);
  return guids;
}

// A case's node GUIDs, by file name.
using RecordedGuids = std::map<std::string, std::vector<std::string>>;

// The recorded GUIDs, checked against the recorded trace: a manifest edited by hand is an error
// that says what is wrong, not a comparison by some other pairing.
RecordedGuids recorded_guids_of(const nlohmann::json& recorded,
                                const std::vector<TraceEvent>& golden) {
  const auto bad = [](const std::string& what) {
    return std::runtime_error("manifest.json: its \"guids\" " + what +
                              " (edited by hand? --record again)");
  };
  if (!recorded.is_object())
    throw bad(
        fmt::format("is {}, not an object of node GUID lists by file name", recorded.type_name()));
  RecordedGuids guids;
  for (const auto& [name, list] : recorded.items()) {
    if (!list.is_array())
      throw bad(fmt::format("of {} is {}, not a list of GUIDs", name, list.type_name()));
    auto& out = guids[name];
    for (std::size_t i = 0; i < list.size(); ++i) {
      const auto& g = list[i];
      if (!g.is_string() || (!g.get<std::string>().empty() && g.get<std::string>().size() != 36))
        throw bad(fmt::format("of {} has {} for node #{}, not a GUID (8-4-4-4-12) or \"\"", name,
                              g.dump(), i));
      out.push_back(g.get<std::string>());
    }
  }
  for (const auto& e : golden) {
    const auto found = guids.find(e.file);
    if (found == guids.end()) continue;
    for (const auto node : {e.node, e.to}) {
      if (node >= 0 && static_cast<std::size_t>(node) >= found->second.size())
        throw bad(fmt::format("of {} list {} node(s), but the recorded trace names node #{}",
                              e.file, found->second.size(), node));
    }
  }
  return guids;
}

// The recorded GUIDs against the files run now; the top-level file is keyed by its recorded
// name (the trace's), which a renamed copy does not share.
NodePairings pairings_with(const RecordedGuids& recorded, const std::string& recorded_top,
                           const CaseRun& run) {
  NodePairings pairings;
  const auto files = actor_files(*run.graph);
  for (const auto& [name, guids] : recorded) {
    const auto now = files.find(name == recorded_top ? run.top : name);
    if (now == files.end()) continue;
    pairings.emplace(name, pair_guids(guids, node_guids(*now->second)));
  }
  return pairings;
}

// A module folder recorded inside a recorded input, moved into the input the check was given
// in its place (a checked-out copy of a mod is checked with its own modules); others unchanged.
fs::path moved_with_inputs(const fs::path& folder, const std::vector<fs::path>& recorded,
                           const std::vector<fs::path>& now) {
  const auto normal = folder.lexically_normal();
  for (std::size_t i = 0; i < recorded.size() && i < now.size(); ++i) {
    const auto inside = normal.lexically_relative(recorded[i].lexically_normal());
    if (inside.empty() || *inside.begin() == "..") continue;
    return (now[i] / inside).lexically_normal();
  }
  return folder;
}

void report(const Progress& progress, std::size_t done, std::size_t total,
            const std::string& label) {
  if (progress) progress(done, total, label);
}

}  // namespace

bool GoldenReport::has_errors() const {
  return std::any_of(cases.begin(), cases.end(),
                     [](const GoldenCase& c) { return c.status == GoldenCase::Status::Error; });
}

bool GoldenReport::all_same() const {
  return std::all_of(cases.begin(), cases.end(), [](const GoldenCase& c) {
    return c.status == GoldenCase::Status::Same || c.status == GoldenCase::Status::Recorded;
  });
}

GoldenReport record_golden(const fs::path& dir, const std::vector<fs::path>& inputs,
                           const std::vector<fs::path>& scenarios, const RunOptions& options,
                           const Progress& progress) {
  struct Planned {
    std::size_t input;
    Found file;
    std::optional<fs::path> scenario;  // the source file
    std::string scenario_name;         // its name in the golden set
  };
  std::vector<Planned> plan;
  std::map<std::string, fs::path> scenario_sources;  // golden name -> source, to catch clashes
  auto name_scenario = [&](const std::string& name, const fs::path& source) {
    const auto [it, added] = scenario_sources.emplace(name, source);
    // Two files stored under one name must be one file, or two of the same text.
    if (!added && fs::canonical(it->second) != fs::canonical(source) &&
        read_text(it->second) != read_text(source)) {
      throw std::runtime_error(fmt::format("two scenarios would be stored as {}: {} and {}", name,
                                           it->second.string(), source.string()));
    }
    return name;
  };
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    for (auto& found : find_files(inputs[i])) {
      std::vector<std::pair<fs::path, std::string>> runs;
      for (const auto& s : scenarios)
        runs.emplace_back(s, name_scenario("scenarios/" + s.filename().string(), s));
      for (const auto& s : scenarios_beside(found.path)) {
        const auto key = fs::path(found.key).parent_path() / s.filename();
        runs.emplace_back(s, name_scenario("scenarios/" + key.generic_string(), s));
      }
      if (runs.empty()) {
        plan.push_back({i, found, std::nullopt, ""});
      } else {
        for (auto& [source, name] : runs)
          plan.push_back({i, found, source, name});
      }
    }
  }

  fs::remove_all(dir / "traces");
  fs::remove_all(dir / "scenarios");
  fs::create_directories(dir);
  GoldenReport result;
  nlohmann::ordered_json manifest;
  manifest["format"] = kFormat;
  manifest["inputs"] = strings(inputs);
  manifest["options"] = options_json(options);
  manifest["cases"] = nlohmann::json::array();
  for (const auto& [name, source] : scenario_sources)
    write_text(dir / name, read_text(source));

  for (std::size_t k = 0; k < plan.size(); ++k) {
    const auto& p = plan[k];
    GoldenCase c;
    c.file = case_label(p.file.key, p.input, inputs.size());
    c.scenario = p.scenario_name;
    report(progress, k, plan.size(), p.file.key);
    nlohmann::ordered_json entry = {
        {"file", p.file.key}, {"input", p.input}, {"scenario", p.scenario_name}};
    try {
      std::optional<Scenario> scenario;
      if (p.scenario) scenario = load_scenario(*p.scenario);
      const auto run = run_case(p.file.path, scenario, options);
      std::ostringstream jsonl;
      const auto sink = make_trace_writer(TraceFormat::Jsonl, jsonl);
      for (const auto& e : run.events)
        sink->event(e);
      sink->finish();
      const auto trace = trace_name(p.file.key, p.scenario_name, p.input, inputs.size());
      write_text(dir / trace, jsonl.str());
      c.events = run.events.size();
      entry["trace"] = trace;
      entry["events"] = run.events.size();
      entry["top"] = run.top;
      entry["command"] = run.started;
      entry["guids"] = recorded_guids(*run.graph);
    } catch (const std::exception& e) {
      // Kept in the manifest, so that a check reports the case instead of forgetting it.
      c.status = GoldenCase::Status::Error;
      c.error = e.what();
      entry["error"] = c.error;
    }
    manifest["cases"].push_back(std::move(entry));
    result.cases.push_back(std::move(c));
  }
  write_text(dir / "manifest.json",
             manifest.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) + "\n");
  report(progress, plan.size(), plan.size(), "");
  return result;
}

GoldenReport check_golden(const fs::path& dir, const std::vector<fs::path>& inputs,
                          const Progress& progress, const runtime::LogSink* log) {
  nlohmann::json manifest;
  try {
    manifest = nlohmann::json::parse(read_text(dir / "manifest.json"));
    if (manifest.at("format") != kFormat) throw std::runtime_error("not an ainb golden set");
  } catch (const std::exception& e) {
    throw std::runtime_error(fmt::format("{}: no readable golden recording ({})",
                                         (dir / "manifest.json").string(), e.what()));
  }
  auto options = options_from(manifest.at("options"));
  options.log = log;
  std::vector<fs::path> roots = inputs;
  const auto recorded_inputs = paths(manifest.at("inputs"));
  if (roots.empty()) roots = recorded_inputs;
  if (roots.size() != recorded_inputs.size()) {
    throw std::runtime_error(fmt::format(
        "the recording has {} input(s) and the check was given {}: give as many PATHs, in the "
        "recorded order, or none (the recorded ones)",
        recorded_inputs.size(), roots.size()));
  }
  for (auto& folder : options.modules)
    folder = moved_with_inputs(folder, recorded_inputs, roots);
  // The files now, by input and key.
  std::vector<std::map<std::string, fs::path>> now(roots.size());
  for (std::size_t i = 0; i < roots.size(); ++i) {
    if (!fs::exists(roots[i])) continue;  // every case under it is reported missing
    for (auto& found : find_files(roots[i]))
      now[i].emplace(found.key, found.path);
  }

  GoldenReport result;
  std::vector<std::map<std::string, bool>> recorded(roots.size());
  const auto& cases = manifest.at("cases");
  for (std::size_t k = 0; k < cases.size(); ++k) {
    const auto& entry = cases[k];
    GoldenCase c;
    const auto key = entry.at("file").get<std::string>();
    const auto input = entry.at("input").get<std::size_t>();
    c.file = case_label(key, input, roots.size());
    c.scenario = entry.at("scenario").get<std::string>();
    report(progress, k, cases.size(), key);
    try {
      if (input >= roots.size()) {
        throw std::runtime_error(fmt::format(
            "the recording has input {}, the check has {} input(s)", input + 1, roots.size()));
      }
      recorded[input][key] = true;
      if (entry.contains("error")) {
        throw std::runtime_error("its recording failed (--record it again): " +
                                 entry.at("error").get<std::string>());
      }
      const auto it = now[input].find(key);
      if (it == now[input].end()) {
        c.status = GoldenCase::Status::Missing;
        c.error = fmt::format("not found under {}", roots[input].string());
        result.cases.push_back(std::move(c));
        continue;
      }
      std::vector<TraceEvent> golden;
      std::istringstream lines(read_text(dir / entry.at("trace").get<std::string>()));
      for (std::string line; std::getline(lines, line);)
        golden.push_back(parse_trace_event(nlohmann::json::parse(line)));
      std::optional<Scenario> scenario;
      if (!c.scenario.empty()) scenario = load_scenario(dir / c.scenario);
      // Which pairing of nodes the recording allows, checked before anything runs.
      std::optional<RecordedGuids> recorded_node_guids;
      if (entry.contains("guids"))
        recorded_node_guids = recorded_guids_of(entry.at("guids"), golden);
      if (entry.contains("top") && !entry.at("top").is_string())
        throw std::runtime_error("manifest.json: its \"top\" is not a file name (--record again)");
      // The command the recording started, by name, as `ainb regress` starts the original's in
      // the edited file: reordering the file's commands is no difference.
      auto case_options = options;
      if (const auto cmd = entry.find("command");
          cmd != entry.end() && cmd->is_string() && !cmd->get<std::string>().empty())
        case_options.command = cmd->get<std::string>();
      CaseRun run;
      // It fitted when recorded: the file lost what the run names.
      if (const auto does_not_fit =
              misfit([&] { run = run_case(it->second, scenario, case_options); })) {
        Difference d;
        d.scenario = c.scenario.empty() ? kNoScenario : c.scenario;
        d.explanation = "the file no longer fits the recorded run: " + *does_not_fit;
        c.status = GoldenCase::Status::Different;
        c.difference = std::move(d);
        result.cases.push_back(std::move(c));
        continue;
      }
      // Recordings made before GUIDs were kept compare nodes by index.
      const auto golden_top = entry.value("top", golden.empty() ? run.top : golden.front().file);
      NodePairings pairings;
      if (recorded_node_guids) pairings = pairings_with(*recorded_node_guids, golden_top, run);
      if (auto d = first_difference(golden, run.events, golden_top, run.top,
                                    recorded_node_guids ? &pairings : nullptr,
                                    RunLabels{"the recording", "this run"})) {
        d->scenario = c.scenario.empty() ? kNoScenario : c.scenario;
        if (!recorded_node_guids) {
          d->explanation +=
              " (the recording keeps no node GUIDs: nodes compared by index; --record again)";
        }
        c.status = GoldenCase::Status::Different;
        c.events = d->index;
        c.difference = std::move(d);
      } else {
        c.status = GoldenCase::Status::Same;
        c.events = run.events.size();
      }
    } catch (const std::exception& e) {
      c.status = GoldenCase::Status::Error;
      c.error = e.what();
    }
    result.cases.push_back(std::move(c));
  }
  for (std::size_t i = 0; i < roots.size(); ++i) {
    for (const auto& [key, path] : now[i]) {
      if (!recorded[i].contains(key)) result.unrecorded.push_back(key);
    }
  }
  report(progress, cases.size(), cases.size(), "");
  return result;
}

void print_golden(const GoldenReport& r, std::ostream& out) {
  static constexpr const char* kStatus[] = {"recorded", "same", "DIFFERENT", "MISSING", "ERROR"};
  std::size_t file_width = 4, scenario_width = 8;
  for (const auto& c : r.cases) {
    file_width = std::max(file_width, c.file.size());
    scenario_width = std::max(scenario_width, c.scenario.empty() ? 1 : c.scenario.size());
  }
  out << fmt::format("{:<{}}  {:<{}}  {:>7}  {}\n", "file", file_width, "scenario", scenario_width,
                     "events", "result");
  std::map<GoldenCase::Status, std::size_t> counts;
  for (const auto& c : r.cases) {
    ++counts[c.status];
    std::string result = kStatus[static_cast<int>(c.status)];
    if (c.difference) {
      const auto& d = *c.difference;
      if (!d.original && !d.edited) {
        result += ": the file no longer fits the recorded run";
      } else {
        result += fmt::format(" at event {}, frame {}", d.index,
                              d.original ? d.original->frame : d.edited->frame);
      }
    }
    if (!c.error.empty()) result += ": " + c.error;
    out << fmt::format("{:<{}}  {:<{}}  {:>7}  {}\n", c.file, file_width,
                       c.scenario.empty() ? "-" : c.scenario, scenario_width, c.events, result);
  }
  std::vector<std::string> totals;
  for (const auto& [status, n] : counts)
    totals.push_back(fmt::format("{} {}", n, kStatus[static_cast<int>(status)]));
  out << fmt::format("{} case(s): {}\n", r.cases.size(), fmt::join(totals, ", "));
  for (const auto& key : r.unrecorded)
    out << fmt::format("not recorded: {} (new since the recording; --record to add it)\n", key);
  for (const auto& c : r.cases) {
    if (!c.difference) continue;
    out << fmt::format("\n{}:\n", c.file);
    print_difference(*c.difference, out, "recorded", "now");
  }
}

}  // namespace ainb::simulation
