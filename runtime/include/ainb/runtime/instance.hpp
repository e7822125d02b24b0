#pragma once

// One actor (AI file), AI group (Logic file) or scene (Sequence file) running a shared Graph.
// The instance owns all mutable state in arrays sized when it is created; a tick allocates
// nothing. Semantics: docs/semantics.md.

#include <cstdint>
#include <memory>
#include <random>
#include <string_view>
#include <vector>

#include "ainb/exb/binding.hpp"
#include "ainb/runtime/graph.hpp"
#include "ainb/runtime/observer.hpp"

namespace ainb::runtime {

struct InstanceOptions {
  std::uint64_t seed = 0;  // Element_RandomSelector draws from a generator seeded with this
  void* host = nullptr;    // handed to node classes (NodeContext::host)
  Observer* observer = nullptr;
  // A CFN call to a user function the graph was not given: zero and one warning (default, so a
  // real file runs), or an evaluation error (the parameter keeps its default, an
  // Element_Expression node fails).
  exb::MissingFunctionPolicy missing_functions = exb::MissingFunctionPolicy::ZeroAndLogOnce;
};

enum class CommandState : std::uint8_t { Idle, Running, Succeeded, Failed };

class Instance {
 public:
  explicit Instance(std::shared_ptr<const Graph> graph, InstanceOptions options = {});
  ~Instance();  // leaves every active node
  Instance(const Instance&) = delete;
  Instance& operator=(const Instance&) = delete;

  // Starts a command by name, leaving the running one first. Throws std::invalid_argument when
  // the file has no such command (the message lists the ones it has).
  void start(std::string_view command);
  // Leaves every active node; the instance is idle afterwards.
  void stop();
  // Advances one frame.
  void tick();

  CommandState state() const { return state_; }
  std::string_view command() const;
  std::uint64_t frame() const { return frame_; }
  bool is_active(std::uint32_t node) const { return nodes_[node].active != 0; }

  // The blackboard, by name; set_* return false when the file has no such entry of that type.
  bool set_bool(std::string_view name, bool value);
  bool set_int(std::string_view name, std::int32_t value);
  bool set_float(std::string_view name, float value);
  bool set_string(std::string_view name, std::string_view value);
  bool set_vec3f(std::string_view name, Vec3f value);
  const Value* blackboard(std::string_view name) const;

  const Graph& graph() const { return *graph_; }
  // Bytes this instance owns (itself and its arrays): what each actor costs besides the graph.
  std::size_t memory_bytes() const;
  void* host() const { return options_.host; }

  // Used by NodeContext and the built-in nodes.
  Value input_value(const Input& input) const;
  Value property_value(const Property& property) const;
  bool write_output(std::uint32_t node, ParamType type, std::string_view name, const Value& value);

 private:
  // 16 bytes per node. A node may have several parents (files are DAGs): `active` counts the
  // parents that entered it, and an update is done once per epoch (tick or command start).
  struct NodeState {
    std::uint8_t active = 0;       // parents (or commands) that entered it
    std::uint8_t query_users = 0;  // how many active users keep this query node entered
    std::uint16_t cursor = 0;      // current child (Sequential), chosen plug (selectors)
    std::uint32_t counter = 0;     // loops done (Sequential); failures (Simultaneous)
    std::uint32_t epoch = 0;       // when it was last updated
    Result last = Result::Running;
  };

  void enter(std::uint32_t node);
  Result update(std::uint32_t node);
  void leave(std::uint32_t node);
  void calculate_queries(std::uint32_t node);
  void leave_queries(std::uint32_t node);
  void end_command(Result result);

  Result update_sequential(std::uint32_t node);
  Result update_simultaneous(std::uint32_t node);
  Result update_selector(std::uint32_t node);
  Result update_split_timing(std::uint32_t node);
  Result update_alert(std::uint32_t node);
  std::uint16_t choose(std::uint32_t node);
  std::int32_t plug_named(std::uint32_t node, std::string_view name) const;
  bool set_blackboard(std::string_view name, BlackboardType type, Value value);
  Value evaluate(std::int32_t site, ParamType type, const Value& input,
                 const Value& fallback) const;
  Result update_expression(std::uint32_t node);
  exb::Frame site_frame(std::uint32_t site) const;

  std::shared_ptr<const Graph> graph_;
  InstanceOptions options_;
  std::vector<NodeState> nodes_;
  std::array<std::vector<Value>, kParamTypeCount> outputs_;  // by the model's output index
  std::vector<Value> blackboard_;                            // by the model's entry index
  // Element_RandomSelector: a 4-byte, exactly specified generator (the same draws on every
  // standard library), seeded per instance.
  std::minstd_rand random_;
  std::int32_t command_ = -1;
  CommandState state_ = CommandState::Idle;
  std::uint64_t frame_ = 0;
  std::uint32_t epoch_ = 1;
  // Expressions: evaluating one is logically a read, so these are mutable.
  mutable std::unique_ptr<exb::Machine> machine_;
  mutable std::vector<std::uint8_t> expression_memory_;  // every site's static memory
};

}  // namespace ainb::runtime
