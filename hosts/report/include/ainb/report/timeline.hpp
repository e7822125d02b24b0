#pragma once

// A run's events kept compactly for a page (docs/report.md, "The page's data"): per node its
// spans of activity, its update results run-length encoded and its output values where they
// changed, per blackboard entry the frames its value changed in, and the commands, transitions
// and alerts. A TraceSink: a run streams into
// it, or a JSON-lines trace read back (simulation::parse_trace_event) does.

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "ainb/simulation/simulation.hpp"

namespace ainb::report {

class Timeline : public simulation::TraceSink {
 public:
  void event(const simulation::TraceEvent& event) override;
  // Each node's output values, kept where they change (a run's; a trace read back has none).
  bool takes_outputs() const override { return true; }
  void outputs(const simulation::TraceEvent& update,
               const std::vector<std::pair<std::string_view, std::string>>& values) override;
  // The last frame an event came from (0 before any).
  std::uint64_t last_frame() const { return last_frame_; }
  std::uint64_t events() const { return events_; }
  // The commands started (frame, name), in order, and the files events came from.
  const std::vector<std::pair<std::uint64_t, std::string>>& commands() const { return commands_; }
  std::vector<std::string> files() const;
  // The page's data (docs/report.md); `frames`: the run's last frame, when it is past the last
  // event's.
  nlohmann::json to_json(std::uint64_t frames = 0) const;

  // A value over the run: (frame, value) where it changed, in frame order.
  using Changes = std::vector<std::pair<std::uint64_t, std::string>>;

 private:
  // One node's events: spans [enter, leave] (leave -1 while it stays active), and its updates as
  // runs of consecutive frames with one result.
  struct Track {
    std::vector<std::int64_t> spans;  // enter, leave, enter, leave...
    struct Run {
      std::uint64_t first = 0;
      std::uint64_t count = 0;
      char result = 'R';  // S, F, R
    };
    std::vector<Run> updates;
    std::vector<std::pair<std::uint64_t, std::string>> xlinks;  // frame, "slot=action"
    // Each output's values by name, from the node's first update on.
    std::map<std::string, Changes, std::less<>> outputs;
    // The open spans per instance (their index in `spans`), latest last: a leave closes the
    // latest one.
    std::map<std::uint32_t, std::vector<std::size_t>> open;
  };
  struct File {
    std::map<std::uint32_t, Track> nodes;
    std::map<std::string, Changes> blackboard;
    std::vector<std::tuple<std::uint64_t, std::int64_t, std::int64_t>> transitions;
    std::vector<std::tuple<std::uint64_t, std::int64_t, std::string>> alerts;
  };
  std::map<std::string, File> files_;
  std::vector<std::pair<std::uint64_t, std::string>> commands_;
  std::vector<std::uint32_t> updates_per_frame_;
  std::uint64_t last_frame_ = 0;
  std::uint64_t events_ = 0;
};

}  // namespace ainb::report
