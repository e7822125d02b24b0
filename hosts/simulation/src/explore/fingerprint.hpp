#pragma once

// A run's trace reduced to a number per event, for differential exploration: two runs whose
// fingerprints agree have the same events as `ainb regress` compares them (frame, kind, file, node
// paired by GUID, class, result, target, detail), up to a hash collision. Explore confirms a
// difference with `regress` itself before it reports one.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "ainb/runtime/observer.hpp"
#include "ainb/simulation/regress.hpp"

namespace ainb::simulation::explorer {

class Fingerprint {
 public:
  // The original side: nodes as its files number them.
  Fingerprint() = default;
  // The edited side: nodes as the original's files number them (`pairings` of pair_files, which
  // must outlive this), its top-level file under the original's name.
  Fingerprint(const NodePairings* pairings, std::string original_top, std::string edited_top)
      : pairings_(pairings),
        original_top_(std::move(original_top)),
        edited_top_(std::move(edited_top)) {}

  void clear() { events_.clear(); }
  const std::vector<std::uint64_t>& events() const { return events_; }

  static constexpr std::uint32_t kNoNode = ~0u;  // an event of no node (blackboard)
  // The events an observer sees, each with its frame.
  void command(std::uint64_t frame, const runtime::Instance& i, std::string_view name);
  void node_event(std::uint64_t frame, const runtime::Instance& i, char kind, std::uint32_t node,
                  std::uint64_t value = 0);
  void transition(std::uint64_t frame, const runtime::Instance& i, std::uint32_t from,
                  std::uint32_t to);
  void detail(std::uint64_t frame, const runtime::Instance& i, char kind, std::uint32_t node,
              std::string_view text);

 private:
  std::uint64_t file(const runtime::Instance& i) const;
  std::int64_t node(const runtime::Instance& i, std::uint32_t node) const;
  void add(std::uint64_t h) { events_.push_back(h); }

  const NodePairings* pairings_ = nullptr;
  std::string original_top_, edited_top_;
  std::vector<std::uint64_t> events_;
};

std::uint64_t text_hash(std::string_view text);

}  // namespace ainb::simulation::explorer
