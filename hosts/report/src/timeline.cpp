// A run's events kept compactly for a page.

#include "ainb/report/timeline.hpp"

#include <string_view>

namespace ainb::report {

namespace {

// A value seen at `frame`: kept where it differs from the last one kept; of one frame, only the
// last value is kept.
void record(Timeline::Changes& changes, std::uint64_t frame, std::string_view value) {
  if (!changes.empty() && changes.back().second == value) return;
  if (!changes.empty() && changes.back().first == frame) {
    changes.back().second = value;
  } else {
    changes.emplace_back(frame, value);
  }
}

}  // namespace

void Timeline::event(const simulation::TraceEvent& e) {
  ++events_;
  if (e.frame > last_frame_) last_frame_ = e.frame;
  const auto& kind = e.event;
  if (kind == "truncated") return;
  auto& file = files_[e.file];
  if (kind == "command") {
    commands_.emplace_back(e.frame, e.detail);
    return;
  }
  if (kind == "blackboard") {
    // "name=value": the name has no '=' (an entry's name), the value may.
    const auto equals = e.detail.find('=');
    record(file.blackboard[e.detail.substr(0, equals)], e.frame,
           equals == std::string::npos ? std::string_view()
                                       : std::string_view(e.detail).substr(equals + 1));
    return;
  }
  if (kind == "transition") {
    file.transitions.emplace_back(e.frame, e.node, e.to);
    return;
  }
  if (kind == "alert") {
    file.alerts.emplace_back(e.frame, e.node, e.detail);
    return;
  }
  if (e.node < 0) return;
  auto& track = file.nodes[static_cast<std::uint32_t>(e.node)];
  if (kind == "enter") {
    track.open[e.instance].push_back(track.spans.size());
    track.spans.push_back(static_cast<std::int64_t>(e.frame));
    track.spans.push_back(-1);
  } else if (kind == "leave") {
    auto& open = track.open[e.instance];
    if (open.empty()) return;  // a leave without its enter (a trace cut short at its start)
    track.spans[open.back() + 1] = static_cast<std::int64_t>(e.frame);
    open.pop_back();
  } else if (kind == "update") {
    const auto frame = static_cast<std::size_t>(e.frame);  // a run's frames fit an array
    if (updates_per_frame_.size() <= frame) updates_per_frame_.resize(frame + 1);
    ++updates_per_frame_[frame];
    const char result = e.result.empty() ? 'R' : e.result.front();
    auto& runs = track.updates;
    if (!runs.empty() && runs.back().result == result) {
      const auto end = runs.back().first + runs.back().count;
      if (e.frame + 1 == end) return;  // updated again in the same frame
      if (e.frame == end) {
        ++runs.back().count;
        return;
      }
    }
    runs.push_back({.first = e.frame, .count = 1, .result = result});
  } else if (kind == "xlink") {
    track.xlinks.emplace_back(e.frame, e.detail);
  }
}

void Timeline::outputs(const simulation::TraceEvent& update,
                       const std::vector<std::pair<std::string_view, std::string>>& values) {
  if (update.node < 0) return;
  auto& track = files_[update.file].nodes[static_cast<std::uint32_t>(update.node)];
  for (const auto& [name, value] : values) {
    auto it = track.outputs.find(name);
    if (it == track.outputs.end()) it = track.outputs.emplace(std::string(name), Changes{}).first;
    record(it->second, update.frame, value);
  }
}

std::vector<std::string> Timeline::files() const {
  std::vector<std::string> names;
  for (const auto& [name, file] : files_)
    names.push_back(name);
  return names;
}

nlohmann::json Timeline::to_json(std::uint64_t frames) const {
  nlohmann::json out;
  out["frames"] = std::max(frames, last_frame_);
  auto& commands = out["commands"] = nlohmann::json::array();
  for (const auto& [frame, name] : commands_)
    commands.push_back({frame, name});
  out["activity"] = updates_per_frame_;
  auto& files = out["files"] = nlohmann::json::object();
  for (const auto& [name, file] : files_) {
    auto& f = files[name];
    auto& nodes = f["nodes"] = nlohmann::json::object();
    for (const auto& [index, track] : file.nodes) {
      nlohmann::json updates = nlohmann::json::array();
      for (const auto& run : track.updates)
        updates.push_back({run.first, run.count, std::string(1, run.result)});
      auto& n = nodes[std::to_string(index)];
      n["spans"] = track.spans;
      n["updates"] = std::move(updates);
      if (!track.outputs.empty()) {
        auto& outputs = n["outputs"] = nlohmann::json::object();
        for (const auto& [output, changes] : track.outputs) {
          auto& c = outputs[output] = nlohmann::json::array();
          for (const auto& [frame, value] : changes)
            c.push_back({frame, value});
        }
      }
      if (!track.xlinks.empty()) {
        auto& xlinks = n["xlinks"] = nlohmann::json::array();
        for (const auto& [frame, what] : track.xlinks)
          xlinks.push_back({frame, what});
      }
    }
    auto& blackboard = f["blackboard"] = nlohmann::json::object();
    for (const auto& [entry, changes] : file.blackboard) {
      auto& c = blackboard[entry] = nlohmann::json::array();
      for (const auto& [frame, value] : changes)
        c.push_back({frame, value});
    }
    auto& transitions = f["transitions"] = nlohmann::json::array();
    for (const auto& [frame, from, to] : file.transitions)
      transitions.push_back({frame, from, to});
    auto& alerts = f["alerts"] = nlohmann::json::array();
    for (const auto& [frame, node, message] : file.alerts)
      alerts.push_back({frame, node, message});
  }
  return out;
}

}  // namespace ainb::report
