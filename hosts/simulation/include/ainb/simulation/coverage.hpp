#pragma once

// Branch coverage (docs/simulation.md, "Coverage"): what a set of runs of one graph reached, per
// file (the graph's and each module's): the nodes entered, the child plugs of the decisions taken
// (selectors, and user classes that run their children), the transitions taken and the commands
// run. `ainb run --coverage` writes one run's; explore adds its runs up.

#include <cstdint>
#include <iosfwd>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "ainb/runtime/graph.hpp"
#include "ainb/runtime/instance.hpp"

namespace ainb::simulation {

class Coverage {
 public:
  // Lists what `graph` and its modules have to reach. The graph must outlive the coverage.
  explicit Coverage(const runtime::Graph& graph);

  // What runs report (the run's tracer calls these).
  void entered(const runtime::Graph& graph, std::uint32_t node);
  void branched(const runtime::Graph& graph, std::uint32_t node, std::uint32_t plug);
  void transitioned(const runtime::Graph& graph, std::uint32_t from, std::uint32_t to);
  void commanded(const runtime::Graph& graph, std::string_view command);
  // Every node `actor` and its module calls entered (Instance::was_entered) and every decision
  // they took (Instance::branch_taken): what an observer that takes no node and branch events
  // reads once, at the end of a run, instead of on_enter and on_branch.
  void reached_by(const runtime::Instance& actor);
  // Adds another coverage of the same files (runs on other threads, say, or of a graph built
  // from the same files with other classes: items are matched by their place).
  void merge(const Coverage& other);
  // Forgets what was reached (what is reachable stays): a coverage reused for the next run.
  void clear_reached();

  // One item to reach: a node, a decision's plug, a transition or a command of a file (its index
  // in the coverage's files, the top file's 0).
  struct Item {
    enum class Kind : std::uint8_t { Node, Branch, Transition, Command };
    Kind kind = Kind::Node;
    std::uint32_t file = 0;
    std::uint32_t index = 0;  // among the file's items of that kind
    friend bool operator==(const Item&, const Item&) = default;
  };
  // The items this coverage reached that `base` (of the same files) did not, file by file,
  // branches, transitions, commands then nodes.
  std::vector<Item> reached_beyond(const Coverage& base) const;
  bool reached(const Item& item) const;
  void mark_reached(const Item& item);
  // "Toby.utility.root #12 Element_S32Selector plug 2 \"Case\" -> #13", "... command Idle".
  std::string describe(const Item& item) const;
  // A short name for a file name ("Toby.utility.root-n12-plug2").
  std::string slug(const Item& item) const;
  // The items not reached, in the order of reached_beyond.
  std::vector<Item> unreached() const;
  // The graph of file `file`, and a branch item's decision node and its plug.
  const runtime::Graph& graph_of(std::uint32_t file) const { return *files_[file].graph; }
  std::pair<std::uint32_t, std::uint32_t> branch_at(const Item& item) const;
  // The file index of `graph` and the branch item of a decision's plug, if the coverage has them.
  std::optional<std::uint32_t> file_index(const runtime::Graph& graph) const;
  std::optional<Item> branch_item(std::uint32_t file, std::uint32_t node, std::uint32_t plug) const;
  // Says why an item was not reached, in place of what the graph's reachability says (explore
  // knows more: a condition no input reaches, an input a class computes...).
  void explain(const Item& item, std::string why);

  // One kind's counts over every file: items reached, items some run can reach (below the
  // commands and roots, a scenario choosing the children of stubs), and all items.
  struct Counts {
    std::size_t reached = 0;
    std::size_t reachable = 0;
    std::size_t total = 0;
  };
  struct Totals {
    Counts nodes, branches, transitions, commands;
  };
  Totals totals() const;

  // The report: per file, each kind's counts and what was never reached
  // ("schema": "ainb-coverage/1"; docs/simulation.md).
  nlohmann::ordered_json to_json() const;
  // The counts, then a line for each item never reached, with why when the graph says it.
  void print(std::ostream& out) const;
  // Items a run reached although the graph's reachability says nothing leads to them ("file #3
  // Element_Sequential"): none, unless that reasoning is wrong (the corpus tests check every real
  // file).
  std::vector<std::string> unexpected() const;

 private:
  struct Branch {
    std::uint32_t node;
    std::uint32_t plug;  // among the node's child plugs
  };
  struct Transition {
    std::uint32_t from;
    std::uint32_t to;
  };
  // A stub that runs no children, below which a node is: its file (-1: none) and node; `module`:
  // a module that was not found, whose children no scenario can run.
  struct Blocker {
    std::int32_t file = -1;
    std::uint32_t node = 0;
    bool module = false;
  };
  // One file: each item's flags (reached; reachable by the graph) beside the item.
  struct File {
    const runtime::Graph* graph = nullptr;
    std::vector<std::uint8_t> nodes;
    std::vector<Branch> branch_items;
    std::vector<std::uint8_t> branches;
    // By node: its first item in branch_items (kNoBranch: not a decision).
    std::vector<std::uint32_t> first_branch;
    std::vector<Transition> transition_items;
    std::vector<std::uint8_t> transitions;
    std::vector<std::uint8_t> commands;
    std::vector<Blocker> blocked;  // by node: for a node the graph cannot reach
  };
  static constexpr std::uint32_t kNoBranch = ~0u;
  static constexpr std::uint8_t kReached = 1;
  static constexpr std::uint8_t kReachable = 2;  // by some run: a scenario may script the stubs
  static constexpr std::uint8_t kRunsHere = 4;   // by a run whose stubs behave as these do
  static constexpr std::uint8_t kWalked = 8;     // seen below a module not found

  File* file_of(const runtime::Graph& graph);
  void add_file(const runtime::Graph& graph);
  // Walks from the top file's commands and roots through children, queries, transitions and
  // module calls, calling visit(file, node, below) for each node found (false: not on from
  // there; `below`: the first stub on the way that does not run the child taken). `as_run`: only
  // into the children the stubs run here; else into all, marking the commands reachable.
  template <typename Visit>
  void walk(bool as_run, Visit visit);
  std::string why_unreached(const File& file, std::uint32_t node) const;

  std::vector<File> files_;  // the graph's first, then its modules in the order first called
  std::size_t last_ = 0;     // the file of the last event: most come from one file in a row
  std::map<std::tuple<Item::Kind, std::uint32_t, std::uint32_t>, std::string> explained_;
};

}  // namespace ainb::simulation
