#include "ainb/runtime/query_cycles.hpp"

#include <algorithm>
#include <limits>
#include <span>

#include <fmt/format.h>

namespace ainb::runtime {

// Tarjan's algorithm without recursion (a file may chain thousands of queries).
std::vector<std::vector<std::uint32_t>> query_cycles(const Model& m) {
  constexpr auto kUnvisited = std::numeric_limits<std::uint32_t>::max();
  const auto count = static_cast<std::uint32_t>(m.nodes.size());
  const auto queries_of = [&](std::uint32_t n) { return m.queries_of(m.nodes[n]); };
  std::vector<std::uint32_t> order(count, kUnvisited), low(count, 0);
  std::vector<std::uint8_t> on_stack(count, 0);
  std::vector<std::uint32_t> stack;
  struct Frame {
    std::uint32_t node;
    std::uint32_t next = 0;
  };
  std::vector<Frame> frames;
  std::vector<std::vector<std::uint32_t>> cycles;
  std::uint32_t visited = 0;
  for (std::uint32_t start = 0; start < count; ++start) {
    if (order[start] != kUnvisited) continue;
    const auto open = [&](std::uint32_t n) {
      order[n] = low[n] = visited++;
      stack.push_back(n);
      on_stack[n] = 1;
      frames.push_back({n});
    };
    open(start);
    while (!frames.empty()) {
      auto& f = frames.back();
      const auto list = queries_of(f.node);
      if (f.next < list.size()) {
        const std::uint32_t q = list[f.next++];
        if (order[q] == kUnvisited) {
          open(q);
        } else if (on_stack[q] != 0) {
          low[f.node] = std::min(low[f.node], order[q]);
        }
        continue;
      }
      const auto n = f.node;
      frames.pop_back();
      if (!frames.empty()) low[frames.back().node] = std::min(low[frames.back().node], low[n]);
      if (low[n] != order[n]) continue;
      std::vector<std::uint32_t> part;
      std::uint32_t member = 0;
      do {
        member = stack.back();
        stack.pop_back();
        on_stack[member] = 0;
        part.push_back(member);
      } while (member != n);
      const auto self_listed = [&] {
        const auto own = queries_of(n);
        return std::find(own.begin(), own.end(), static_cast<std::uint16_t>(n)) != own.end();
      };
      if (part.size() > 1 || self_listed()) {
        std::sort(part.begin(), part.end());
        cycles.push_back(std::move(part));
      }
    }
  }
  std::sort(cycles.begin(), cycles.end(),
            [](const auto& a, const auto& b) { return a.front() < b.front(); });
  return cycles;
}

std::string describe_query_cycle(const std::vector<std::uint32_t>& cycle) {
  if (cycle.size() == 1) return fmt::format("node {}", cycle.front());
  const std::vector<std::uint32_t> head(cycle.begin(), cycle.end() - 1);
  return fmt::format("nodes {} and {}", fmt::join(head, ", "), cycle.back());
}

}  // namespace ainb::runtime
