#pragma once

// What explore's scenarios can set, and the values worth setting: each selector's conditions,
// traced back from its input to the blackboard entry or the user class's output that feeds it
// (through built-in nodes and queries), so a scenario sets what decides a branch.

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "ainb/exb/section.hpp"
#include "ainb/runtime/graph.hpp"

namespace ainb::simulation::explorer {

using Pool = std::vector<nlohmann::json>;

struct Targets {
  // A blackboard entry of the top file, or of a module file (set in every call of that file:
  // the module's own, or one it inherits that the top file lacks).
  struct Entry {
    std::string name;
    ParamType type = ParamType::Int;
    bool unsigned_int = false;
    Pool pool;         // the values selectors fed by it compare with
    std::string file;  // the module file's name; empty: the top file's
  };
  struct Output {
    std::string name;
    ParamType type = ParamType::Int;
    Pool pool;
  };
  struct Class {  // a user class that runs as a stub: the scenario scripts it
    std::string name;
    std::vector<Output> outputs;
    // What a scenario's "child" can say: plug names, enum values of `__CHILD_ENUM` plugs, and
    // {"plug": K} for plugs that share a name.
    std::vector<nlohmann::json> children;
  };
  struct Function {  // a user function the expressions call: the scenario gives its result
    std::string signature;
    exb::DataType result = exb::DataType::None;
    Pool pool;  // the constants of the expressions that call it
  };
  // Something a scenario sets that feeds a decision's input: an entry or a class's output, and
  // whether the value reaches the input as it is, or through an expression (whose constants,
  // `values`, are then what to try).
  struct Sink {
    enum class Kind : std::uint8_t { Entry, Output, Function };
    Kind kind = Kind::Entry;
    std::uint32_t index = 0;   // in entries, classes or functions
    std::uint32_t output = 0;  // in the class's outputs
    bool direct = true;
    Pool values;
    // Output: the node whose output it is, which a scenario may script on its own ("at").
    const runtime::Graph* graph = nullptr;
    std::uint32_t node = 0;
  };
  // A decision and how a scenario steers it: a selector's input's sinks and, by plug, the values
  // that choose it; or a class whose "child" a scenario names (by plug, its name or enum value).
  struct Decision {
    const runtime::Graph* graph = nullptr;
    std::uint32_t node = 0;
    std::vector<Sink> sinks;
    std::vector<Pool> plugs;
    std::int32_t cls = -1;  // in classes, for a class that runs its children
  };
  std::vector<Entry> entries;
  std::vector<Class> classes;
  std::vector<Function> functions;
  std::vector<Decision> decisions;
  std::vector<std::string> commands;  // the top file's
  // Every value the files compare with, and a few plain ones, by parameter type.
  std::array<Pool, kParamTypeCount> pools;
  bool random = false;  // a Element_RandomSelector: the seed matters
};

// From the graph as `ainb run` builds it (stubs are its unregistered classes).
Targets find_targets(const runtime::Graph& graph);

// The type of the input of a selector that chooses by it (node_choice Input: S32, F32, String,
// Bool).
ParamType selector_type(NodeType type);

// The value a scenario gives function `f` when it says nothing else: false, 0, "", [0, 0, 0].
nlohmann::json default_result(const Targets::Function& f);

}  // namespace ainb::simulation::explorer
