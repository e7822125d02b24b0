#pragma once

// Pluggable user-defined node classes: what a host implements for the `UserDefined` nodes of a
// file, and the context through which a class sees its node and instance.

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>

#include "ainb/model.hpp"

namespace ainb::runtime {

enum class Result : std::uint8_t { Running, Success, Failure };
std::string_view result_name(Result result);

class Instance;

// Handed to a class on each call; valid for that call only.
class NodeContext {
 public:
  NodeContext(Instance& instance, std::uint32_t node) : instance_(instance), node_(node) {}

  std::uint32_t node_index() const { return node_; }
  const Node& node() const;
  const Model& model() const;
  void* host() const;

  // Typed reads of properties and inputs by name (the node's own parameters); the type's zero
  // when the node has no parameter of that name and type.
  std::int32_t property_int(std::string_view name) const;
  bool property_bool(std::string_view name) const;
  float property_float(std::string_view name) const;
  std::string_view property_string(std::string_view name) const;
  Vec3f property_vec3f(std::string_view name) const;
  std::int32_t input_int(std::string_view name) const;
  bool input_bool(std::string_view name) const;
  float input_float(std::string_view name) const;
  std::string_view input_string(std::string_view name) const;
  Vec3f input_vec3f(std::string_view name) const;

  // Typed writes of the node's outputs by name; false when it has no such output.
  bool write_int(std::string_view name, std::int32_t value);
  bool write_bool(std::string_view name, bool value);
  bool write_float(std::string_view name, float value);
  bool write_string(std::string_view name, std::string_view value);
  bool write_vec3f(std::string_view name, Vec3f value);

  // The node's attachments (property sets attached to it) and their properties by name.
  std::span<const std::uint32_t> attachments() const;
  const Attachment& attachment(std::uint32_t index) const;
  float attachment_float(std::uint32_t index, std::string_view name) const;
  std::int32_t attachment_int(std::uint32_t index, std::string_view name) const;
  bool attachment_bool(std::uint32_t index, std::string_view name) const;

  Instance& instance() { return instance_; }

 private:
  Instance& instance_;
  std::uint32_t node_;
};

// One object serves every node of its class in every instance that shares a graph: state that
// belongs to one node of one instance must not live in the object (per-node state blocks in the
// instance are planned, issue 5).
class NodeClass {
 public:
  virtual ~NodeClass() = default;
  virtual void enter(NodeContext&) {}
  virtual Result update(NodeContext&) = 0;
  virtual void leave(NodeContext&) {}
};

// What happens to a UserDefined node whose class nobody registered.
enum class UnknownClassPolicy : std::uint8_t {
  Stub,    // a stub that succeeds on its first update
  Strict,  // building the graph fails, naming the node and class
};

// Node classes by name. An ordinary object: each runtime has its own, and the same file can run
// with different registries.
class NodeRegistry {
 public:
  void add(std::string name, std::shared_ptr<NodeClass> node_class);
  std::shared_ptr<NodeClass> find(std::string_view name) const;

  UnknownClassPolicy unknown_classes = UnknownClassPolicy::Stub;
  // A stub returns Running for this many updates after its Enter, then Success.
  std::uint32_t stub_running_updates = 0;

 private:
  std::unordered_map<std::string, std::shared_ptr<NodeClass>> classes_;
};

}  // namespace ainb::runtime
