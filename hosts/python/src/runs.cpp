// Runs and regressions: the simulation behind `ainb run` and `ainb regress`, with the same
// options and the same trace lines, returned as Python values. A simulation runs without the
// GIL; node classes written in Python take it for each of their calls.

#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include <pybind11/stl.h>

#include "ainb/simulation/coverage.hpp"
#include "ainb/simulation/explore.hpp"
#include "ainb/simulation/regress.hpp"
#include "ainb/simulation/scenario.hpp"
#include "ainb/simulation/simulation.hpp"
#include "bindings.hpp"

namespace ainb::python {

namespace {

// An option's value from the dict the Python layer made (ainb/__init__.py, _options: already
// checked against its kind, paths as str).
void set_option(bool& field, py::handle value) {
  field = value.cast<bool>();
}
void set_option(std::uint64_t& field, py::handle value) {
  field = value.cast<std::uint64_t>();
}
void set_option(std::string& field, py::handle value) {
  field = value.cast<std::string>();
}
void set_option(std::filesystem::path& field, py::handle value) {
  field = value.cast<std::string>();
}
void set_option(std::vector<std::filesystem::path>& field, py::handle value) {
  for (const auto& path : value.cast<std::vector<std::string>>())
    field.emplace_back(path);
}

// A default as Python shows it: an empty text, path or list of paths is None (not set).
py::object python_default(bool value) {
  return py::bool_(value);
}
py::object python_default(std::uint64_t value) {
  return py::int_(value);
}
py::object python_default(const std::string& value) {
  return value.empty() ? py::object(py::none()) : py::str(value);
}
py::object python_default(const std::filesystem::path& value) {
  return python_default(value.string());
}
py::object python_default(const std::vector<std::filesystem::path>& value) {
  if (value.empty()) return py::none();
  py::list paths;
  for (const auto& path : value)
    paths.append(path.string());
  return paths;
}

constexpr const char* kKindNames[] = {"flag", "count", "text", "path", "paths"};

// The table's rows for Python: name, kind, default (a default RunOptions'), most, takers, flag
// and help; the Python layer makes its keywords from them.
py::list run_option_rows() {
  const simulation::RunOptions defaults;
  py::list rows;
  simulation::for_each_run_option(defaults, [&rows](const simulation::RunOptionInfo& info,
                                                    const auto& field) {
    rows.append(py::dict(py::arg("name") = std::string(info.name),
                         py::arg("kind") = kKindNames[static_cast<int>(info.kind)],
                         py::arg("default") = python_default(field), py::arg("most") = info.most,
                         py::arg("takers") = info.takers, py::arg("flag") = std::string(info.flag),
                         py::arg("help") = std::string(info.help)));
  });
  return rows;
}

}  // namespace

simulation::RunOptions run_options(const py::dict& o) {
  simulation::RunOptions options;
  simulation::for_each_run_option(options,
                                  [&o](const simulation::RunOptionInfo& info, auto& field) {
                                    const py::str key(info.name.data(), info.name.size());
                                    if (o.contains(key)) set_option(field, o[key]);
                                  });
  // Implied, as on the command line (--ambiguous-readings: "With --generic-nodes (implied)").
  if (options.ambiguous_readings) options.generic_nodes = true;
  if (o.contains("node_classes"))
    options.node_classes = node_classes_from(o["node_classes"].cast<py::dict>());
  if (o.contains("coverage")) options.coverage = o["coverage"].cast<bool>();
  return options;
}

simulation::Scenario scenario_from(const std::string& kind, const std::string& value) {
  if (kind == "path") return simulation::load_scenario(value);
  if (kind == "json") return simulation::parse_scenario(nlohmann::json::parse(value), "scenario");
  return {};
}

runtime::LogSink collect_warnings(std::vector<std::string>& lines) {
  return [&lines](const runtime::LogEvent& e) {
    if (e.kind != runtime::LogKind::Alert) lines.push_back(runtime::log_line(e));
  };
}

namespace {

// A JSON document as Python's json module reads it (dicts, lists, numbers, strings).
py::object json_object(const nlohmann::ordered_json& j) {
  return py::module_::import("json").attr("loads")(j.dump());
}

}  // namespace

py::dict summary_dict(const simulation::Summary& s, const std::vector<std::string>& warnings) {
  py::list alerts;
  for (const auto& a : s.alerts) {
    alerts.append(py::dict(py::arg("file") = a.file, py::arg("node") = a.node,
                           py::arg("message") = a.message, py::arg("first_frame") = a.first_frame,
                           py::arg("count") = a.count));
  }
  std::ostringstream text;
  simulation::print_summary(s, text);
  py::dict d;
  d["file"] = s.file;
  d["command"] = s.command;
  d["started"] = s.started;
  d["state"] = s.state;
  d["frames"] = s.frames;
  d["ended_frame"] = s.ended_frame;
  d["restarts"] = s.restarts;
  d["visits"] = s.visits;
  d["updates_by_class"] = s.updates_by_class;
  d["last_results"] = s.last_results;
  d["not_honoured"] = s.not_honoured;
  py::dict blackboard;
  for (const auto& [name, value] : s.blackboard_values)
    blackboard[to_str(name)] = value ? to_python(value_view(*value)) : py::none();
  d["blackboard"] = blackboard;
  d["warnings"] = warnings;
  d["alerts"] = alerts;
  d["fault"] = s.fault;
  d["stubs_with_children"] = s.stubs_with_children;
  d["text"] = text.str();
  d["coverage"] = s.coverage ? json_object(s.coverage->to_json()) : py::none();
  return d;
}

py::dict event_dict(const simulation::TraceEvent& e) {
  const auto json = simulation::trace_event_json(e);
  py::dict d;
  for (const auto& [key, value] : json.items()) {
    const auto k = to_str(key);
    if (value.is_string()) {
      d[k] = to_str(value.get_ref<const std::string&>());
    } else if (value.is_number_unsigned()) {
      d[k] = value.get<std::uint64_t>();
    } else {  // the events' other fields are integers (trace_event_json)
      d[k] = value.get<std::int64_t>();
    }
  }
  return d;
}

namespace {

// An event as its JSON line, bytes that are not UTF-8 replaced as the trace writer replaces them.
py::str event_line(const simulation::TraceEvent& e) {
  return simulation::trace_event_json(e).dump(-1, ' ', false,
                                              nlohmann::ordered_json::error_handler_t::replace);
}

py::object event_json(const std::optional<simulation::TraceEvent>& e) {
  if (!e) return py::none();
  return event_line(*e);
}

py::dict regress_dict(const simulation::RegressResult& result,
                      const std::vector<std::string>& warnings) {
  std::ostringstream text;
  simulation::print_regress(result, text);
  py::dict d;
  d["scenarios"] = result.scenarios;
  d["events"] = result.events;
  d["notes"] = result.notes;
  d["not_honoured"] = result.not_honoured;
  d["warnings"] = warnings;
  d["text"] = text.str();
  if (result.difference) {
    const auto& diff = *result.difference;
    py::list context;
    for (const auto& e : diff.context)
      context.append(event_line(e));
    d["difference"] =
        py::dict(py::arg("scenario") = diff.scenario, py::arg("index") = diff.index,
                 py::arg("original") = event_json(diff.original),
                 py::arg("edited") = event_json(diff.edited),
                 py::arg("explanation") = diff.explanation, py::arg("context") = context);
  } else {
    d["difference"] = py::none();
  }
  return d;
}

}  // namespace

void bind_runs(py::module_& m) {
  py::register_exception<simulation::ScenarioError>(m, "ScenarioError", PyExc_ValueError);

  m.def("run_options", &run_option_rows);
  m.attr("run_option_takers") =
      py::dict(py::arg("run") = unsigned{simulation::kTakenByRun},
               py::arg("regress") = unsigned{simulation::kTakenByRegress},
               py::arg("explore") = unsigned{simulation::kTakenByExplore},
               py::arg("scan") = unsigned{simulation::kTakenByScan},
               py::arg("instance") = unsigned{simulation::kTakenByInstance},
               py::arg("report") = unsigned{simulation::kTakenByReport});
  m.attr("explore_frames") = simulation::kExploreFrames;

  m.def(
      "run",
      [](const std::string& path, const std::string& scenario_kind,
         const std::string& scenario_value, const py::dict& options_dict, bool trace) {
        auto options = run_options(options_dict);
        std::vector<std::string> warnings;
        const auto sink = collect_warnings(warnings);
        options.log = &sink;
        std::ostringstream lines;
        simulation::Summary summary;
        {
          py::gil_scoped_release unlocked;
          const auto scenario = scenario_from(scenario_kind, scenario_value);
          const auto writer =
              trace ? simulation::make_trace_writer(simulation::TraceFormat::Jsonl, lines)
                    : nullptr;
          summary = simulation::simulate(path, scenario, options, writer.get());
          if (writer) writer->finish();
        }
        return py::make_tuple(summary_dict(summary, warnings), lines.str());
      },
      py::arg("path"), py::arg("scenario_kind"), py::arg("scenario_value"), py::arg("options"),
      py::arg("trace"));

  m.def(
      "regress",
      [](const std::string& original, const std::string& edited,
         const std::vector<std::pair<std::string, std::string>>& scenario_args,
         const py::dict& options_dict) {
        auto options = run_options(options_dict);
        std::vector<std::string> warnings;
        const auto sink = collect_warnings(warnings);
        options.log = &sink;
        simulation::RegressResult result;
        {
          py::gil_scoped_release unlocked;
          std::vector<simulation::Scenario> scenarios;
          for (const auto& [kind, value] : scenario_args)
            scenarios.push_back(scenario_from(kind, value));
          result = simulation::regress(original, edited, scenarios, options);
        }
        return regress_dict(result, warnings);
      },
      py::arg("original"), py::arg("edited"), py::arg("scenarios"), py::arg("options"));

  m.def(
      "explore",
      [](const std::string& path, const py::dict& options_dict, std::uint64_t runs,
         std::uint64_t seed, unsigned jobs, bool shrink, const std::string& against) {
        simulation::ExploreOptions options;
        options.run = run_options(options_dict);
        options.runs = runs;
        options.seed = seed;
        options.jobs = jobs;
        options.shrink = shrink;
        options.against = against;
        std::vector<std::string> warnings;
        const auto sink = collect_warnings(warnings);
        options.run.log = &sink;
        simulation::ExploreResult result;
        {
          py::gil_scoped_release unlocked;
          result = simulation::explore(path, options);
        }
        py::dict d;
        d["runs"] = result.runs;
        d["shrink_runs"] = result.shrink_runs;
        d["coverage"] = json_object(result.coverage->to_json());
        d["plain"] = json_object(result.plain->to_json());
        py::list found;
        for (const auto& f : result.found) {
          found.append(py::dict(py::arg("reaches") = f.reaches, py::arg("name") = f.name,
                                py::arg("run") = f.run,
                                py::arg("scenario") = json_object(f.scenario)));
        }
        d["found"] = found;
        d["replay_failures"] = result.replay_failures;
        d["not_fitting"] = result.not_fitting;
        d["unconfirmed"] = result.unconfirmed;
        d["edited_coverage"] = result.edited_coverage
                                   ? json_object(result.edited_coverage->to_json())
                                   : py::object(py::none());
        if (result.difference) {
          const auto& diff = *result.difference;
          d["difference"] =
              py::dict(py::arg("run") = diff.run, py::arg("scenario") = json_object(diff.scenario),
                       py::arg("shrink_runs") = diff.shrink_runs,
                       py::arg("regress") = regress_dict(diff.regress, {}));
        } else {
          d["difference"] = py::none();
        }
        d["warnings"] = warnings;
        return d;
      },
      py::arg("path"), py::arg("options"), py::arg("runs"), py::arg("seed"), py::arg("jobs"),
      py::arg("shrink"), py::arg("against"));
}

}  // namespace ainb::python
