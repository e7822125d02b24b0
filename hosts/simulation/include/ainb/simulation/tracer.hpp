#pragma once

// The observer behind a run's trace: turns an instance's observer calls into the events `ainb run`
// writes, counts what the summary reports, and marks what the run reached in a Coverage. `simulate`
// attaches one to its actor; a host that ticks an Instance itself (the Python module's Instance)
// attaches one to get the same events.

#include <cstdint>
#include <map>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "ainb/runtime/observer.hpp"
#include "ainb/simulation/coverage.hpp"
#include "ainb/simulation/simulation.hpp"

namespace ainb::simulation {

// The readable form of a value, as summaries and blackboard events print it: 1.5, true, "text",
// [1, 2, 3], null (a pointer).
std::string format_value(const Value& value);

class Tracer : public runtime::Observer {
 public:
  // Without a sink only the summary's counts are kept: no event is built. Both must outlive the
  // tracer.
  Tracer(TraceSink* sink, Summary& summary) : sink_(sink), summary_(summary) {}
  // The frame events belong to, set by whoever ticks: a run sets it before applying a frame's
  // scenario changes and ticking, so both share its number.
  std::uint64_t frame = 0;
  // Where the run's coverage goes, if anywhere (it must outlive the tracer).
  Coverage* coverage = nullptr;

  void on_command(const runtime::Instance& i, std::string_view name) override;
  void on_enter(const runtime::Instance& i, std::uint32_t node) override;
  void on_update(const runtime::Instance& i, std::uint32_t node, runtime::Result result) override;
  void on_leave(const runtime::Instance& i, std::uint32_t node) override;
  void on_transition(const runtime::Instance& i, std::uint32_t from, std::uint32_t to) override;
  void on_branch(const runtime::Instance& i, std::uint32_t node, std::uint32_t plug) override;
  void on_alert(const runtime::Instance& i, std::uint32_t node, std::string_view message) override;
  void on_xlink(const runtime::Instance& i, std::uint32_t node, std::string_view slot,
                std::string_view action) override;
  void on_blackboard(const runtime::Instance& i, std::size_t entry) override;

  // The summary's counts by class and last results, in file and node order; the graphs the
  // instance ran must still be alive.
  void finish_summary();

 private:
  // Where each node that was entered is printed, and whether it is still open.
  struct Placed {
    std::uint32_t depth = 0;
    std::uint64_t order = 0;  // when it was last entered
    bool open = true;
  };
  // Each node's parents (nodes with a child plug to it) and users (nodes it is a query of).
  struct Links {
    std::vector<std::vector<std::uint32_t>> parents, users;
  };
  struct Counted {
    std::uint64_t updates = 0;
    runtime::Result last = runtime::Result::Running;
  };

  std::uint32_t depth(const runtime::Instance& i);
  std::uint32_t expected_depth(const runtime::Instance& i, std::uint32_t node, int hops);
  const Placed* latest_open(const runtime::Instance& i, std::span<const std::uint32_t> nodes) const;
  const Links& links_of(const runtime::Graph& graph);
  TraceEvent event(const runtime::Instance& i, const char* kind, std::int64_t node = -1);
  void send(const TraceEvent& e) { sink_->event(e); }

  TraceSink* sink_;
  Summary& summary_;
  std::map<std::pair<const runtime::Graph*, std::uint32_t>, Counted> updates_;
  std::map<std::pair<const runtime::Instance*, std::uint32_t>, Placed> placed_;
  std::uint64_t entered_ = 0;
  std::map<const runtime::Graph*, Links> links_;
  std::map<const runtime::Instance*, std::uint32_t> instances_;
};

}  // namespace ainb::simulation
