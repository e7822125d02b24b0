#include "edits.hpp"

#include <map>
#include <set>

namespace ainb::simulation {

namespace {

// GUIDs that occur once in the file, and where ("", a node without one, pairs nothing).
std::map<std::string, std::size_t> unique_guids(const std::vector<std::string>& guids) {
  std::map<std::string, std::size_t> at;
  std::set<std::string> repeated;
  for (std::size_t i = 0; i < guids.size(); ++i) {
    if (guids[i].empty()) continue;
    if (!at.emplace(guids[i], i).second) repeated.insert(guids[i]);
  }
  for (const auto& key : repeated)
    at.erase(key);
  return at;
}

}  // namespace

std::vector<std::string> node_guids(const Model& m) {
  std::vector<std::string> guids;
  guids.reserve(m.nodes.size());
  const Guid none{};
  for (const auto& n : m.nodes)
    guids.push_back(n.guid == none ? std::string() : n.guid.to_string());
  return guids;
}

NodePairing pair_guids(const std::vector<std::string>& original,
                       const std::vector<std::string>& edited) {
  NodePairing p;
  p.original_guids = original;
  p.edited_guids = edited;
  p.edited_of.assign(original.size(), -1);
  p.original_of.assign(edited.size(), -1);
  auto pair = [&](std::size_t i, std::size_t j) {
    p.edited_of[i] = static_cast<std::int64_t>(j);
    p.original_of[j] = static_cast<std::int64_t>(i);
  };
  // GUIDs given once in each file first.
  const auto in_original = unique_guids(original);
  for (const auto& [key, j] : unique_guids(edited)) {
    if (const auto i = in_original.find(key); i != in_original.end()) pair(i->second, j);
  }
  // A GUID given more than once (a node copied with its GUID, or a file that repeats GUIDs): its
  // nodes keep their order. As many on both sides pair in order; else each original node goes to
  // the edited node nearest where its neighbours moved (the shift of the nearest node before it
  // paired by a unique GUID), so the copy, not the node, is the new one. A copy next to its node
  // cannot be told from it by GUIDs: first_difference takes either as the node.
  std::map<std::string, std::vector<std::size_t>> in_a, in_b;
  for (std::size_t i = 0; i < original.size(); ++i) {
    if (p.edited_of[i] < 0 && !original[i].empty()) in_a[original[i]].push_back(i);
  }
  for (std::size_t j = 0; j < edited.size(); ++j) {
    if (p.original_of[j] < 0 && !edited[j].empty()) in_b[edited[j]].push_back(j);
  }
  const auto expected = [&](std::size_t i) {
    for (std::size_t k = i; k-- > 0;) {
      if (p.edited_of[k] >= 0)
        return static_cast<std::int64_t>(i) + p.edited_of[k] - static_cast<std::int64_t>(k);
    }
    return static_cast<std::int64_t>(i);
  };
  for (auto& [key, olds] : in_a) {
    const auto found = in_b.find(key);
    if (found == in_b.end()) continue;
    const auto& news = found->second;
    if (olds.size() == news.size()) {
      for (std::size_t k = 0; k < olds.size(); ++k)
        pair(olds[k], news[k]);
      continue;
    }
    std::size_t next = 0;  // the first edited candidate still free, in order
    for (std::size_t k = 0; k < olds.size() && next < news.size(); ++k) {
      // Leave enough candidates for the original nodes after this one.
      const auto left = olds.size() - k - 1;
      const auto last = news.size() > left ? news.size() - left : next + 1;
      const auto want = expected(olds[k]);
      const auto distance = [&](std::size_t c) {
        const auto v = static_cast<std::int64_t>(news[c]) - want;
        return v < 0 ? -v : v;
      };
      auto best = next;
      for (auto c = next + 1; c < last; ++c) {
        if (distance(c) < distance(best)) best = c;
      }
      pair(olds[k], news[best]);
      next = best + 1;
    }
  }
  // The rest by index, where neither side's node there has a partner.
  for (std::size_t i = 0; i < original.size() && i < edited.size(); ++i) {
    if (p.edited_of[i] < 0 && p.original_of[i] < 0) pair(i, i);
  }
  return p;
}

NodePairing pair_nodes(const Model& original, const Model& edited) {
  return pair_guids(node_guids(original), node_guids(edited));
}

std::map<std::string, const Model*> actor_files(const runtime::Graph& graph) {
  std::map<std::string, const Model*> files;
  std::vector<const runtime::Graph*> pending{&graph};
  while (!pending.empty()) {
    const auto* g = pending.back();
    pending.pop_back();
    if (!files.emplace(g->file_name(), &g->model()).second) continue;
    for (const auto* module : g->module_graphs())
      pending.push_back(module);
  }
  return files;
}

}  // namespace ainb::simulation
