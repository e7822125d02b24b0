// The C API (include/ainb/ainb.h) over the C++ runtime. Every entry point catches what the C++
// side throws and turns it into a status and a message: nothing crosses the C boundary.

#include "ainb/ainb.h"

#include <cstring>
#include <exception>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "ainb/gamedata/generic_nodes.hpp"
#include "ainb/loader.hpp"
#include "ainb/runtime/instance.hpp"

using namespace ainb;

struct ainb_runtime {
  runtime::NodeRegistry registry;
  exb::UserFunctions functions;
  std::vector<std::filesystem::path> module_dirs;
  bool stub_missing_modules = false;
  std::string last_error;
};

struct ainb_graph {
  std::shared_ptr<const runtime::Graph> graph;
  std::vector<std::string> unresolved;  // Graph::describe of each declaration a node lacks
};

namespace {

ainb_string to_c(std::string_view s) {
  return {s.data(), s.size()};
}
ainb_vec3f to_c(Vec3f v) {
  return {v.x, v.y, v.z};
}
runtime::NodeContext& context(ainb_node* node) {
  return *reinterpret_cast<runtime::NodeContext*>(node);
}
const runtime::NodeContext& context(const ainb_node* node) {
  return *reinterpret_cast<const runtime::NodeContext*>(node);
}
ainb_node* to_c(runtime::NodeContext& c) {
  return reinterpret_cast<ainb_node*>(&c);
}

// After a C callback returns: when it called one of its own instance's entry points (tick, start,
// stop, enable_trace, destroy), which refused, the call faults the node, as the same misuse does
// in C++. The exception starts here, in C++, never inside the C callback. `host` is the C
// instance (InstanceOptions::host).
void raise_misuse(void* host);

// A class whose calls go to C callbacks.
class CNodeClass : public runtime::NodeClass {
 public:
  // NULL callbacks are declared absent, so the runtime does not call through for them.
  explicit CNodeClass(const ainb_node_class& c)
      : NodeClass(static_cast<Hooks>((c.enter != nullptr ? kEnter : 0) |
                                     (c.leave != nullptr ? kLeave : 0))),
        c_(c) {}
  void enter(runtime::NodeContext& c) override {
    if (c_.enter != nullptr) c_.enter(to_c(c), c_.class_data);
    raise_misuse(c.host());
  }
  runtime::Result update(runtime::NodeContext& c) override {
    const auto result = c_.update(to_c(c), c_.class_data);
    raise_misuse(c.host());
    switch (result) {
      case AINB_RUNNING:
        return runtime::Result::Running;
      case AINB_SUCCESS:
        return runtime::Result::Success;
      default:
        return runtime::Result::Failure;
    }
  }
  void leave(runtime::NodeContext& c) override {
    if (c_.leave != nullptr) c_.leave(to_c(c), c_.class_data);
    raise_misuse(c.host());
  }
  std::size_t state_size() const override { return c_.state_size; }

  // ainb_runtime_declare_parameter: the slot, or nothing for a kind or type C cannot declare.
  std::optional<std::uint32_t> declare(ainb_parameter_kind kind, ainb_value_type type,
                                       std::string name) {
    switch (type) {
      case AINB_VALUE_BOOL:
        return declare_as<bool>(kind, std::move(name));
      case AINB_VALUE_INT:
        return declare_as<std::int32_t>(kind, std::move(name));
      case AINB_VALUE_FLOAT:
        return declare_as<float>(kind, std::move(name));
      case AINB_VALUE_STRING:  // C writes no strings: they would have to outlive the call
        if (kind == AINB_PARAMETER_OUTPUT) return std::nullopt;
        return declare_as<std::string_view>(kind, std::move(name));
      case AINB_VALUE_VEC3F:
        return declare_as<Vec3f>(kind, std::move(name));
      default:
        return std::nullopt;
    }
  }

 private:
  template <typename T>
  std::optional<std::uint32_t> declare_as(ainb_parameter_kind kind, std::string name) {
    switch (kind) {
      case AINB_PARAMETER_INPUT:
        return declare_input<T>(std::move(name)).position;
      case AINB_PARAMETER_PROPERTY:
        return declare_property<T>(std::move(name)).position;
      case AINB_PARAMETER_OUTPUT:
        return declare_output<T>(std::move(name)).position;
    }
    return std::nullopt;
  }

  ainb_node_class c_;
};

// A declared input or property by handle, as its declaration says (ainb_node_get_*).
template <typename T>
T get_declared(const ainb_node* n, std::uint32_t slot) {
  const auto& c = context(n);
  const auto& declared = c.node_class().declared();
  if (slot >= declared.size()) return T{};
  if (declared[slot].kind == runtime::ParamKind::Property) {
    return c.read(runtime::PropertyParam<T>{slot});
  }
  return c.read(runtime::InputParam<T>{slot});
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

ainb_value from_block(exb::DataType type, const std::uint8_t* at) {
  ainb_value v{};
  switch (type) {
    case exb::DataType::Bool:
      v.type = AINB_VALUE_BOOL;
      v.as.b = exb::detail::load<bool>(at);
      break;
    case exb::DataType::Int:
      v.type = AINB_VALUE_INT;
      v.as.i = exb::detail::load<std::int32_t>(at);
      break;
    case exb::DataType::UInt:
      v.type = AINB_VALUE_UINT;
      v.as.u = exb::detail::load<std::uint32_t>(at);
      break;
    case exb::DataType::Float:
      v.type = AINB_VALUE_FLOAT;
      v.as.f = exb::detail::load<float>(at);
      break;
    case exb::DataType::String:
      v.type = AINB_VALUE_STRING;
      v.as.s = exb::detail::load<const char*>(at);
      break;
    case exb::DataType::Vec3f: {
      const auto x = exb::detail::load<exb::Vec3>(at);
      v.type = AINB_VALUE_VEC3F;
      v.as.v = {x.x, x.y, x.z};
      break;
    }
    default:
      break;
  }
  return v;
}

void to_block(exb::DataType type, const ainb_value& v, std::uint8_t* at) {
  switch (type) {
    case exb::DataType::Bool:
      exb::detail::store(at, v.as.b);
      break;
    case exb::DataType::Int:
      exb::detail::store(at, v.as.i);
      break;
    case exb::DataType::UInt:
      exb::detail::store(at, v.as.u);
      break;
    case exb::DataType::Float:
      exb::detail::store(at, v.as.f);
      break;
    case exb::DataType::String:
      exb::detail::store(at, v.as.s);
      break;
    case exb::DataType::Vec3f:
      exb::detail::store(at, exb::Vec3{v.as.v.x, v.as.v.y, v.as.v.z});
      break;
    default:
      break;
  }
}

ainb_value_type c_type(exb::DataType type) {
  switch (type) {
    case exb::DataType::Bool:
      return AINB_VALUE_BOOL;
    case exb::DataType::Int:
      return AINB_VALUE_INT;
    case exb::DataType::UInt:
      return AINB_VALUE_UINT;
    case exb::DataType::Float:
      return AINB_VALUE_FLOAT;
    case exb::DataType::String:
      return AINB_VALUE_STRING;
    case exb::DataType::Vec3f:
      return AINB_VALUE_VEC3F;
    default:
      return AINB_VALUE_NONE;
  }
}

constexpr std::size_t kMaxArguments = 16;

ainb_graph* build(ainb_runtime* rt, std::shared_ptr<const Model> model,
                  const std::filesystem::path& dir) {
  auto dirs = rt->module_dirs;
  if (dirs.empty()) dirs.push_back(dir.empty() ? "." : dir);
  const runtime::DirectoryResolver modules(dirs);
  auto graph = std::make_shared<const runtime::Graph>(
      std::move(model), rt->registry,
      runtime::GraphOptions{.functions = &rt->functions,
                            .modules = &modules,
                            .missing_modules = rt->stub_missing_modules
                                                   ? runtime::MissingModulePolicy::Stub
                                                   : runtime::MissingModulePolicy::Error});
  std::vector<std::string> unresolved;
  for (const auto& missing : graph->unresolved_parameters())
    unresolved.push_back(graph->describe(missing));
  return new ainb_graph{std::move(graph), std::move(unresolved)};
}

}  // namespace

struct ainb_instance {
  std::shared_ptr<const runtime::Graph> graph;
  TraceBuffer trace;
  std::unique_ptr<runtime::Instance> instance;  // its InstanceOptions::host is this object
  void* host = nullptr;                         // the host's pointer (ainb_node_host)
  bool busy = false;   // inside tick, start or stop: its callbacks may not call them again
  std::string misuse;  // what a callback called that was refused (raise_misuse)
  // What a child run from a callback (ainb_node_run_child) threw: rethrown when the callback
  // returns, so it never unwinds through C frames.
  std::exception_ptr deferred;
  std::string fault_text;  // ainb_instance_fault's storage
  std::string last_error;
};

namespace {
void raise_misuse(void* host) {
  auto* i = static_cast<ainb_instance*>(host);
  if (i->deferred) std::rethrow_exception(std::exchange(i->deferred, nullptr));
  if (i->misuse.empty()) return;
  auto message = std::move(i->misuse);
  i->misuse.clear();
  throw std::logic_error(message);
}
void* host_of(void* instance) {
  return static_cast<ainb_instance*>(instance)->host;
}

// Marks an instance as inside one of its entry points for the duration of a call.
class Busy {
 public:
  explicit Busy(ainb_instance* i) : i_(i) { i_->busy = true; }
  ~Busy() { i_->busy = false; }
  Busy(const Busy&) = delete;
  Busy& operator=(const Busy&) = delete;

 private:
  ainb_instance* i_;
};

// An entry point called from a callback of the same instance during one of its entry points:
// refused with AINB_ERROR_ARGUMENT, and the node faults when its callback returns.
ainb_status refuse_reentry(ainb_instance* i, const char* function) {
  i->misuse = fmt::format(
      "{} called from a node callback or user function of the same instance during a tick or "
      "command change; call it between ticks",
      function);
  i->last_error = i->misuse;
  return AINB_ERROR_ARGUMENT;
}

// Writes a blackboard entry of `type` through `set`, which says whether the file has it.
template <typename Set>
ainb_status set_entry(ainb_instance* i, const char* name, const char* type, Set set) {
  if (i == nullptr || name == nullptr) return AINB_ERROR_ARGUMENT;
  try {
    if (set(*i->instance)) return AINB_OK;
    i->last_error =
        fmt::format("{}: the blackboard has no {} entry \"{}\"", i->graph->file_name(), type, name);
    return AINB_ERROR_NOT_FOUND;
  } catch (const std::exception& e) {
    i->last_error = e.what();
    return AINB_ERROR_ARGUMENT;
  }
}

// A blackboard entry of type T, or null.
template <typename T>
const T* entry(const ainb_instance* i, const char* name) {
  if (i == nullptr || name == nullptr) return nullptr;
  const Value* v = i->instance->blackboard(name);
  return v == nullptr ? nullptr : std::get_if<T>(v);
}

// One of the instance's entry points (start, stop, tick): refused from its own callbacks, an
// exception reported as the instance's last error.
template <typename Call>
ainb_status enter_instance(ainb_instance* i, const char* function, Call call) {
  if (i == nullptr) return AINB_ERROR_ARGUMENT;
  if (i->busy) return refuse_reentry(i, function);
  try {
    const Busy busy(i);
    call(*i->instance);
    return AINB_OK;
  } catch (const std::exception& e) {
    i->last_error = e.what();
    return AINB_ERROR_ARGUMENT;
  }
}
}  // namespace

extern "C" {

ainb_runtime* ainb_runtime_create(void) {
  try {
    return new ainb_runtime;
  } catch (...) {
    return nullptr;
  }
}
void ainb_runtime_destroy(ainb_runtime* runtime) {
  delete runtime;
}
const char* ainb_runtime_last_error(const ainb_runtime* runtime) {
  return runtime == nullptr ? "no runtime" : runtime->last_error.c_str();
}

ainb_status ainb_runtime_declare_parameter(ainb_runtime* rt, const char* class_name,
                                           ainb_parameter_kind kind, ainb_value_type type,
                                           const char* name, uint32_t* slot) {
  if (rt == nullptr) return AINB_ERROR_ARGUMENT;
  if (class_name == nullptr || name == nullptr || slot == nullptr) {
    rt->last_error = "declare_parameter: a class name, a parameter name and a slot are needed";
    return AINB_ERROR_ARGUMENT;
  }
  const auto registered = rt->registry.find(class_name);
  if (registered == nullptr) {
    rt->last_error = fmt::format("declare_parameter: no class \"{}\" is registered", class_name);
    return AINB_ERROR_NOT_FOUND;
  }
  // The C API's own classes are CNodeClasses; the generic classes declare their parameters
  // themselves.
  auto* node_class = dynamic_cast<CNodeClass*>(registered.get());
  if (node_class == nullptr) {
    rt->last_error = fmt::format(
        "declare_parameter: \"{}\" is a generic class (ainb_runtime_add_generic_nodes), not one "
        "registered with ainb_runtime_register_node",
        class_name);
    return AINB_ERROR_ARGUMENT;
  }
  try {
    const auto declared = node_class->declare(kind, type, name);
    if (!declared) {
      rt->last_error = fmt::format(
          "declare_parameter: \"{}\" of class \"{}\" has a kind ({}) or type ({}) that C "
          "cannot declare",
          name, class_name, static_cast<int>(kind), static_cast<int>(type));
      return AINB_ERROR_ARGUMENT;
    }
    *slot = *declared;
    return AINB_OK;
  } catch (const std::exception& e) {
    rt->last_error = e.what();
    return AINB_ERROR_ARGUMENT;
  }
}

ainb_status ainb_runtime_register_node(ainb_runtime* rt, const char* class_name,
                                       const ainb_node_class* node_class) {
  if (rt == nullptr) return AINB_ERROR_ARGUMENT;
  if (class_name == nullptr || node_class == nullptr || node_class->update == nullptr) {
    rt->last_error = "register_node: a class needs a name and an update callback";
    return AINB_ERROR_ARGUMENT;
  }
  try {
    rt->registry.add(class_name, std::make_shared<CNodeClass>(*node_class));
    return AINB_OK;
  } catch (const std::exception& e) {
    rt->last_error = e.what();
    return AINB_ERROR_ARGUMENT;
  }
}

void ainb_runtime_set_stub_running_updates(ainb_runtime* rt, uint32_t updates) {
  if (rt != nullptr) rt->registry.stub_running_updates = updates;
}
ainb_status ainb_runtime_add_generic_nodes(ainb_runtime* rt) {
  if (rt == nullptr) return AINB_ERROR_ARGUMENT;
  try {
    gamedata::add_generic_nodes(rt->registry);
    return AINB_OK;
  } catch (const std::exception& e) {
    rt->last_error = e.what();
    return AINB_ERROR_ARGUMENT;
  }
}
ainb_status ainb_runtime_add_module_dir(ainb_runtime* rt, const char* directory) {
  if (rt == nullptr || directory == nullptr) return AINB_ERROR_ARGUMENT;
  rt->module_dirs.emplace_back(directory);
  return AINB_OK;
}
void ainb_runtime_set_stub_missing_modules(ainb_runtime* rt, bool stub) {
  if (rt != nullptr) rt->stub_missing_modules = stub;
}

ainb_status ainb_runtime_register_function(ainb_runtime* rt, const char* signature,
                                           ainb_function function, void* function_data) {
  if (rt == nullptr) return AINB_ERROR_ARGUMENT;
  if (signature == nullptr || function == nullptr) {
    rt->last_error = "register_function: a function needs a signature and a callback";
    return AINB_ERROR_ARGUMENT;
  }
  try {
    // The signature fixes the block's layout; the erased function reads it as the C++
    // registrations do (consecutive arguments at their natural sizes, result at the start).
    std::string error;
    const auto layout = exb::parse_signature(signature, &error);
    if (!layout) {
      rt->last_error = fmt::format("register_function: signature \"{}\": {}", signature, error);
      return AINB_ERROR_ARGUMENT;
    }
    if (layout->arguments.size() > kMaxArguments) {
      rt->last_error =
          fmt::format("register_function: signature \"{}\" has {} arguments (at most {})",
                      signature, layout->arguments.size(), kMaxArguments);
      return AINB_ERROR_ARGUMENT;
    }
    rt->functions.add_erased(signature, [layout = *layout, function, function_data](
                                            exb::CallContext& c, std::uint8_t* block) {
      ainb_value args[kMaxArguments];
      std::uint32_t offset = 0;
      const auto n = layout.arguments.size();
      for (std::size_t k = 0; k < n; ++k) {
        args[k] = from_block(layout.arguments[k], block + offset);
        offset += exb::value_size(layout.arguments[k]);
      }
      ainb_value result{};
      result.type = c_type(layout.result);
      function(function_data, host_of(c.host), args, n, &result);
      raise_misuse(c.host);
      to_block(layout.result, result, block);
    });
    return AINB_OK;
  } catch (const std::exception& e) {
    rt->last_error = e.what();
    return AINB_ERROR_ARGUMENT;
  }
}

ainb_graph* ainb_graph_load(ainb_runtime* rt, const char* path) {
  if (rt == nullptr) return nullptr;
  if (path == nullptr) {
    rt->last_error = "graph_load: no path";
    return nullptr;
  }
  try {
    return build(rt, load_file(path), std::filesystem::path(path).parent_path());
  } catch (const std::exception& e) {
    rt->last_error = e.what();
    return nullptr;
  }
}

ainb_graph* ainb_graph_load_memory(ainb_runtime* rt, const void* bytes, size_t size,
                                   const char* name) {
  if (rt == nullptr) return nullptr;
  if (bytes == nullptr && size > 0) {
    rt->last_error = "graph_load_memory: no bytes";
    return nullptr;
  }
  try {
    const auto* p = static_cast<const std::uint8_t*>(bytes);
    auto model = load(std::vector<std::uint8_t>(p, p + size), name != nullptr ? name : "(memory)");
    return build(rt, std::move(model), {});
  } catch (const std::exception& e) {
    rt->last_error = e.what();
    return nullptr;
  }
}

void ainb_graph_release(ainb_graph* graph) {
  delete graph;
}
ainb_string ainb_graph_file_name(const ainb_graph* g) {
  return g == nullptr ? ainb_string{} : to_c(g->graph->file_name());
}
size_t ainb_graph_node_count(const ainb_graph* g) {
  return g == nullptr ? 0 : g->graph->nodes().size();
}
size_t ainb_graph_unresolved_parameter_count(const ainb_graph* g) {
  return g == nullptr ? 0 : g->unresolved.size();
}
ainb_string ainb_graph_unresolved_parameter(const ainb_graph* g, size_t index) {
  if (g == nullptr || index >= g->unresolved.size()) return {};
  return to_c(g->unresolved[index]);
}
size_t ainb_graph_command_count(const ainb_graph* g) {
  return g == nullptr ? 0 : g->graph->model().commands.size();
}
ainb_string ainb_graph_command_name(const ainb_graph* g, size_t index) {
  if (g == nullptr || index >= g->graph->model().commands.size()) return {};
  return to_c(g->graph->model().commands[index].name);
}

ainb_instance* ainb_instance_create(ainb_graph* graph, uint64_t seed, void* host) {
  if (graph == nullptr) return nullptr;
  try {
    auto i = std::make_unique<ainb_instance>();
    i->graph = graph->graph;
    i->host = host;
    i->instance = std::make_unique<runtime::Instance>(
        graph->graph, runtime::InstanceOptions{.seed = seed, .host = i.get()});
    return i.release();
  } catch (...) {
    return nullptr;
  }
}
void ainb_instance_destroy(ainb_instance* i) {
  if (i != nullptr && i->busy) {
    refuse_reentry(i, "ainb_instance_destroy");
    return;
  }
  if (i != nullptr) i->busy = true;  // its nodes' leave callbacks may not tick it
  delete i;
}
const char* ainb_instance_last_error(const ainb_instance* i) {
  return i == nullptr ? "no instance" : i->last_error.c_str();
}

ainb_status ainb_instance_start(ainb_instance* i, const char* command) {
  const std::string_view name(command != nullptr ? command : "");
  return enter_instance(i, "ainb_instance_start", [&](runtime::Instance& x) { x.start(name); });
}
ainb_status ainb_instance_start_index(ainb_instance* i, size_t command) {
  return enter_instance(i, "ainb_instance_start",
                        [&](runtime::Instance& x) { x.start(std::size_t{command}); });
}
ainb_status ainb_instance_stop(ainb_instance* i) {
  return enter_instance(i, "ainb_instance_stop", [](runtime::Instance& x) { x.stop(); });
}
ainb_status ainb_instance_tick(ainb_instance* i) {
  return enter_instance(i, "ainb_instance_tick", [](runtime::Instance& x) { x.tick(); });
}
ainb_status ainb_instance_prepare_thread(const ainb_instance* i) {
  if (i == nullptr) return AINB_ERROR_ARGUMENT;
  try {
    i->instance->prepare_thread();
    return AINB_OK;
  } catch (const std::bad_alloc&) {  // the only thing it can throw
    return AINB_ERROR_ARGUMENT;
  }
}
static_assert(static_cast<int>(runtime::CommandState::Faulted) == AINB_FAULTED);
ainb_command_state ainb_instance_state(const ainb_instance* i) {
  return i == nullptr ? AINB_IDLE : static_cast<ainb_command_state>(i->instance->state());
}
const char* ainb_instance_fault(ainb_instance* i) {
  if (i == nullptr) return "";
  const auto* fault = i->instance->fault();
  i->fault_text = fault != nullptr ? fault->describe() : std::string();
  return i->fault_text.c_str();
}
uint64_t ainb_instance_frame(const ainb_instance* i) {
  return i == nullptr ? 0 : i->instance->frame();
}
bool ainb_instance_is_active(const ainb_instance* i, uint32_t node) {
  return i != nullptr && node < i->graph->nodes().size() && i->instance->is_active(node);
}
size_t ainb_instance_memory_bytes(const ainb_instance* i) {
  return i == nullptr ? 0 : i->instance->memory_bytes() + sizeof(ainb_instance);
}

// ---- Blackboard ----------------------------------------------------------------------------

ainb_status ainb_blackboard_set_bool(ainb_instance* i, const char* name, bool value) {
  return set_entry(i, name, "bool", [&](runtime::Instance& x) { return x.set_bool(name, value); });
}
ainb_status ainb_blackboard_set_int(ainb_instance* i, const char* name, int32_t value) {
  return set_entry(i, name, "s32", [&](runtime::Instance& x) { return x.set_int(name, value); });
}
ainb_status ainb_blackboard_set_float(ainb_instance* i, const char* name, float value) {
  return set_entry(i, name, "f32", [&](runtime::Instance& x) { return x.set_float(name, value); });
}
ainb_status ainb_blackboard_set_vec3f(ainb_instance* i, const char* name, ainb_vec3f value) {
  return set_entry(i, name, "vec3f", [&](runtime::Instance& x) {
    return x.set_vec3f(name, Vec3f{value.x, value.y, value.z});
  });
}
ainb_status ainb_blackboard_set_string(ainb_instance* i, const char* name, const char* value) {
  return set_entry(i, name, "string", [&](runtime::Instance& x) {
    return x.set_string(name, value != nullptr ? value : "");
  });
}

bool ainb_blackboard_get_bool(const ainb_instance* i, const char* name, bool* out) {
  const auto* v = entry<bool>(i, name);
  if (v != nullptr && out != nullptr) *out = *v;
  return v != nullptr;
}
bool ainb_blackboard_get_int(const ainb_instance* i, const char* name, int32_t* out) {
  const auto* v = entry<std::int32_t>(i, name);
  if (v != nullptr && out != nullptr) *out = *v;
  return v != nullptr;
}
bool ainb_blackboard_get_float(const ainb_instance* i, const char* name, float* out) {
  const auto* v = entry<float>(i, name);
  if (v != nullptr && out != nullptr) *out = *v;
  return v != nullptr;
}
bool ainb_blackboard_get_vec3f(const ainb_instance* i, const char* name, ainb_vec3f* out) {
  const auto* v = entry<Vec3f>(i, name);
  if (v != nullptr && out != nullptr) *out = to_c(*v);
  return v != nullptr;
}
bool ainb_blackboard_get_string(const ainb_instance* i, const char* name, ainb_string* out) {
  const auto* v = entry<std::string_view>(i, name);
  if (v != nullptr && out != nullptr) *out = to_c(*v);
  return v != nullptr;
}

// ---- Trace ---------------------------------------------------------------------------------

ainb_status ainb_instance_enable_trace(ainb_instance* i, size_t capacity) {
  if (i == nullptr) return AINB_ERROR_ARGUMENT;
  if (i->busy) return refuse_reentry(i, "ainb_instance_enable_trace");
  try {
    i->instance->set_observer(nullptr);  // refused during a tick, before anything changes
    i->trace.reserve(capacity);
    if (capacity > 0) i->instance->set_observer(&i->trace);
    return AINB_OK;
  } catch (const std::exception& e) {
    i->last_error = e.what();
    return AINB_ERROR_ARGUMENT;
  }
}
size_t ainb_instance_read_events(ainb_instance* i, ainb_event* out, size_t max) {
  return i == nullptr || out == nullptr ? 0 : i->trace.read(out, max);
}
uint64_t ainb_instance_dropped_events(const ainb_instance* i) {
  return i == nullptr ? 0 : i->trace.dropped();
}

// ---- Node callbacks ------------------------------------------------------------------------

uint32_t ainb_node_index(const ainb_node* n) {
  if (n == nullptr) return 0;
  return context(n).node_index();
}
void* ainb_node_host(const ainb_node* n) {
  return n == nullptr ? nullptr : host_of(context(n).host());
}
void* ainb_node_state(ainb_node* n) {
  if (n == nullptr) return nullptr;
  const auto block = context(n).state_bytes();
  return block.empty() ? nullptr : block.data();
}
ainb_string ainb_node_name(const ainb_node* n) {
  if (n == nullptr) return {};
  return to_c(context(n).node().name);
}

int32_t ainb_node_property_int(const ainb_node* n, const char* name) {
  if (n == nullptr || name == nullptr) return 0;
  return context(n).property_int(name);
}
bool ainb_node_property_bool(const ainb_node* n, const char* name) {
  if (n == nullptr || name == nullptr) return false;
  return context(n).property_bool(name);
}
float ainb_node_property_float(const ainb_node* n, const char* name) {
  if (n == nullptr || name == nullptr) return 0.0f;
  return context(n).property_float(name);
}
ainb_string ainb_node_property_string(const ainb_node* n, const char* name) {
  if (n == nullptr || name == nullptr) return {};
  return to_c(context(n).property_string(name));
}
ainb_vec3f ainb_node_property_vec3f(const ainb_node* n, const char* name) {
  if (n == nullptr || name == nullptr) return {};
  return to_c(context(n).property_vec3f(name));
}
int32_t ainb_node_input_int(const ainb_node* n, const char* name) {
  if (n == nullptr || name == nullptr) return 0;
  return context(n).input_int(name);
}
bool ainb_node_input_bool(const ainb_node* n, const char* name) {
  if (n == nullptr || name == nullptr) return false;
  return context(n).input_bool(name);
}
float ainb_node_input_float(const ainb_node* n, const char* name) {
  if (n == nullptr || name == nullptr) return 0.0f;
  return context(n).input_float(name);
}
ainb_string ainb_node_input_string(const ainb_node* n, const char* name) {
  if (n == nullptr || name == nullptr) return {};
  return to_c(context(n).input_string(name));
}
ainb_vec3f ainb_node_input_vec3f(const ainb_node* n, const char* name) {
  if (n == nullptr || name == nullptr) return {};
  return to_c(context(n).input_vec3f(name));
}
bool ainb_node_write_int(ainb_node* n, const char* name, int32_t v) {
  if (n == nullptr || name == nullptr) return false;
  return context(n).write_int(name, v);
}
bool ainb_node_write_bool(ainb_node* n, const char* name, bool v) {
  if (n == nullptr || name == nullptr) return false;
  return context(n).write_bool(name, v);
}
bool ainb_node_write_float(ainb_node* n, const char* name, float v) {
  if (n == nullptr || name == nullptr) return false;
  return context(n).write_float(name, v);
}
bool ainb_node_write_vec3f(ainb_node* n, const char* name, ainb_vec3f v) {
  if (n == nullptr || name == nullptr) return false;
  return context(n).write_vec3f(name, Vec3f{v.x, v.y, v.z});
}
int32_t ainb_node_get_int(const ainb_node* n, uint32_t slot) {
  if (n == nullptr) return 0;
  return get_declared<std::int32_t>(n, slot);
}
bool ainb_node_get_bool(const ainb_node* n, uint32_t slot) {
  if (n == nullptr) return false;
  return get_declared<bool>(n, slot);
}
float ainb_node_get_float(const ainb_node* n, uint32_t slot) {
  if (n == nullptr) return 0.0f;
  return get_declared<float>(n, slot);
}
ainb_string ainb_node_get_string(const ainb_node* n, uint32_t slot) {
  if (n == nullptr) return {};
  return to_c(get_declared<std::string_view>(n, slot));
}
ainb_vec3f ainb_node_get_vec3f(const ainb_node* n, uint32_t slot) {
  if (n == nullptr) return {};
  return to_c(get_declared<Vec3f>(n, slot));
}
bool ainb_node_set_int(ainb_node* n, uint32_t slot, int32_t v) {
  if (n == nullptr) return false;
  return context(n).write(runtime::OutputParam<std::int32_t>{slot}, v);
}
bool ainb_node_set_bool(ainb_node* n, uint32_t slot, bool v) {
  if (n == nullptr) return false;
  return context(n).write(runtime::OutputParam<bool>{slot}, v);
}
bool ainb_node_set_float(ainb_node* n, uint32_t slot, float v) {
  if (n == nullptr) return false;
  return context(n).write(runtime::OutputParam<float>{slot}, v);
}
bool ainb_node_set_vec3f(ainb_node* n, uint32_t slot, ainb_vec3f v) {
  if (n == nullptr) return false;
  return context(n).write(runtime::OutputParam<Vec3f>{slot}, Vec3f{v.x, v.y, v.z});
}
bool ainb_node_transition(ainb_node* n, uint32_t k) {
  if (n == nullptr) return false;
  return context(n).transition(k);
}

uint32_t ainb_node_child_count(const ainb_node* n) {
  if (n == nullptr) return 0;
  return static_cast<uint32_t>(context(n).child_count());
}

ainb_string ainb_node_child_name(const ainb_node* n, uint32_t k) {
  if (n == nullptr) return {};
  return to_c(context(n).child_name(k));
}

ainb_result ainb_node_run_child(ainb_node* n, uint32_t k) {
  if (n == nullptr) return AINB_SUCCESS;
  auto& c = context(n);
  auto* i = static_cast<ainb_instance*>(c.host());
  // A child already failed, or this callback misused its instance (the fault is its own, raised
  // when it returns): run nothing more.
  if (i->deferred || !i->misuse.empty()) return AINB_FAILURE;
  try {
    return static_cast<ainb_result>(c.run_child(k));
  } catch (...) {  // a fault below: it goes on from the callback's return, in C++
    i->deferred = std::current_exception();
    return AINB_FAILURE;
  }
}

void ainb_node_leave_child(ainb_node* n, uint32_t k) {
  if (n == nullptr) return;
  auto& c = context(n);
  auto* i = static_cast<ainb_instance*>(c.host());
  if (i->deferred || !i->misuse.empty()) return;
  try {
    c.leave_child(k);
  } catch (...) {
    i->deferred = std::current_exception();
  }
}

}  // extern "C"
