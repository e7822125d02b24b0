#pragma once

// The C API (include/ainb/ainb.h) over the C++ runtime. Every entry point catches what the C++
// side throws and turns it into a status and a message: nothing crosses the C boundary.
//
// What the API's files share: the structs behind its handles, the conversions between C and C++
// values, the trace an instance holds, and the guards against a callback misusing its instance.

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <exception>
#include <filesystem>
#include <memory>
#include <new>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "ainb/ainb.h"
#include "ainb/runtime/instance.hpp"
#include "ainb/runtime/runtime.hpp"

// The C++ front door, plus what only C needs.
struct ainb_runtime {
  ainb::runtime::Runtime runtime;
  std::string last_error;
  // ainb_runtime_set_log's callback as a sink; shared with the graphs loaded while it is set and
  // their instances, which may outlive the runtime (null: none).
  std::shared_ptr<const ainb::runtime::LogSink> log;
};

struct ainb_graph {
  std::shared_ptr<const ainb::runtime::Graph> graph;
  std::vector<std::string> unresolved;  // Graph::describe of each declaration a node lacks
  std::shared_ptr<const ainb::runtime::LogSink> log;  // the runtime's when it was loaded
};

namespace ainb::capi {

inline ainb_string to_c(std::string_view s) {
  return {s.data(), s.size()};
}
inline ainb_vec3f to_c(Vec3f v) {
  return {v.x, v.y, v.z};
}
inline runtime::NodeContext& context(ainb_node* node) {
  return *reinterpret_cast<runtime::NodeContext*>(node);
}
inline const runtime::NodeContext& context(const ainb_node* node) {
  return *reinterpret_cast<const runtime::NodeContext*>(node);
}
inline ainb_node* to_c(runtime::NodeContext& c) {
  return reinterpret_cast<ainb_node*>(&c);
}

// The trace: events copied into a buffer reserved up front, so a tick never allocates. Every
// string is a view into the graph's model (or the instance's graph), which outlives the event.
class TraceBuffer : public runtime::Observer {
 public:
  void reserve(std::size_t capacity) {
    events_.clear();
    events_.reserve(capacity);
    capacity_ = capacity;
  }
  std::size_t read(ainb_event* out, std::size_t max) {
    const auto n = std::min(max, events_.size());
    std::copy_n(events_.begin(), n, out);
    events_.erase(events_.begin(), events_.begin() + static_cast<std::ptrdiff_t>(n));
    return n;
  }
  std::uint64_t dropped() const { return dropped_; }

  void on_command(const runtime::Instance& i, std::string_view name) override {
    push(i, AINB_EVENT_COMMAND, -1, name);
  }
  void on_enter(const runtime::Instance& i, std::uint32_t node) override {
    push(i, AINB_EVENT_ENTER, node);
  }
  void on_update(const runtime::Instance& i, std::uint32_t node, runtime::Result r) override {
    if (auto* e = push(i, AINB_EVENT_UPDATE, node)) e->result = static_cast<ainb_result>(r);
  }
  void on_leave(const runtime::Instance& i, std::uint32_t node) override {
    push(i, AINB_EVENT_LEAVE, node);
  }
  void on_transition(const runtime::Instance& i, std::uint32_t from, std::uint32_t to) override {
    if (auto* e = push(i, AINB_EVENT_TRANSITION, from)) e->target = static_cast<std::int32_t>(to);
  }
  void on_alert(const runtime::Instance& i, std::uint32_t node, std::string_view message) override {
    push(i, AINB_EVENT_ALERT, node, message);
  }
  void on_xlink(const runtime::Instance& i, std::uint32_t node, std::string_view,
                std::string_view action) override {
    push(i, AINB_EVENT_XLINK, node, action);
  }
  void on_reload(const runtime::Instance& i) override { push(i, AINB_EVENT_RELOAD, -1); }
  void on_blackboard(const runtime::Instance& i, std::size_t entry) override {
    push(i, AINB_EVENT_BLACKBOARD, -1, i.graph().model().blackboard.entries[entry].name);
  }

 private:
  ainb_event* push(const runtime::Instance& i, ainb_event_kind kind, std::int64_t node,
                   std::string_view detail = {}) {
    if (events_.size() >= capacity_) {
      ++dropped_;
      return nullptr;
    }
    ainb_event e{};
    e.frame = i.frame();
    e.kind = kind;
    e.file = to_c(i.graph().file_name());
    e.node = static_cast<std::int32_t>(node);
    e.target = -1;
    e.result = AINB_RUNNING;
    if (node >= 0) {
      const auto& n = i.graph().model().nodes[static_cast<std::size_t>(node)];
      e.type = to_c(node_class_name(n));
    }
    e.detail = to_c(detail);
    events_.push_back(e);
    return &events_.back();
  }

  std::vector<ainb_event> events_;
  std::size_t capacity_ = 0;
  std::uint64_t dropped_ = 0;
};

// A host's allocate/free pair (ainb_allocator) as the memory resource an instance's block comes
// from (runtime::InstanceOptions::memory).
class HostMemory final : public runtime::MemoryResource {
 public:
  explicit HostMemory(const ainb_allocator& allocator) : allocator_(allocator) {}

 private:
  void* do_allocate(std::size_t bytes, std::size_t alignment) override {
    void* block = allocator_.allocate(allocator_.data, bytes, alignment);
    if (block == nullptr) throw std::bad_alloc();
    if (reinterpret_cast<std::uintptr_t>(block) % alignment != 0) {
      allocator_.deallocate(allocator_.data, block, bytes, alignment);
      throw std::bad_alloc();
    }
    return block;
  }
  void do_deallocate(void* block, std::size_t bytes, std::size_t alignment) override {
    allocator_.deallocate(allocator_.data, block, bytes, alignment);
  }
  bool do_is_equal(const runtime::MemoryResource& other) const noexcept override {
    return this == &other;
  }

  ainb_allocator allocator_;
};

// A versioned struct (ainb_node_class, ainb_instance_options) as this library knows it: the
// caller's first `size` bytes, the fields past them zero. Null when the caller's size is smaller
// than `first_version` bytes (0 included).
template <typename T>
std::optional<T> read_versioned(const T& caller, std::size_t first_version) {
  if (caller.size < first_version) return std::nullopt;
  T known{};
  std::memcpy(&known, &caller, std::min(caller.size, sizeof(T)));
  known.size = sizeof(T);
  return known;
}

}  // namespace ainb::capi

struct ainb_instance {
  std::shared_ptr<const ainb::runtime::Graph> graph;
  ainb::capi::TraceBuffer trace;
  // The host's allocator, when it gave one: it outlives `instance`, whose block it frees.
  std::optional<ainb::capi::HostMemory> memory;
  std::shared_ptr<const ainb::runtime::LogSink> log;  // its graph's (InstanceOptions::log)
  std::unique_ptr<ainb::runtime::Instance> instance;  // its InstanceOptions::host is this object
  void* host = nullptr;                               // the host's pointer (ainb_node_host)
  bool busy = false;   // inside tick, start or stop: its callbacks may not call them again
  std::string misuse;  // what a callback called that was refused (raise_misuse)
  // What a child run from a callback (ainb_node_run_child) threw: rethrown when the callback
  // returns, so it never unwinds through C frames.
  std::exception_ptr deferred;
  std::string fault_text;  // ainb_instance_fault's storage
  std::string last_error;
};

namespace ainb::capi {

// After a C callback returns: when it called one of its own instance's entry points (tick, start,
// stop, enable_trace, destroy), which refused, the call faults the node, as the same misuse does
// in C++. The exception starts here, in C++, never inside the C callback. `host` is the C
// instance (InstanceOptions::host).
inline void raise_misuse(void* host) {
  auto* i = static_cast<ainb_instance*>(host);
  if (i->deferred) std::rethrow_exception(std::exchange(i->deferred, nullptr));
  if (i->misuse.empty()) return;
  auto message = std::move(i->misuse);
  i->misuse.clear();
  throw std::logic_error(message);
}
inline void* host_of(void* instance) {
  return static_cast<ainb_instance*>(instance)->host;
}

// An entry point called from a callback of the same instance during one of its entry points:
// refused with AINB_ERROR_ARGUMENT, and the node faults when its callback returns.
inline ainb_status refuse_reentry(ainb_instance* i, const char* function) {
  i->misuse = fmt::format(
      "{} called from a node callback or user function of the same instance during a tick or "
      "command change; call it between ticks",
      function);
  i->last_error = i->misuse;
  return AINB_ERROR_ARGUMENT;
}

}  // namespace ainb::capi
