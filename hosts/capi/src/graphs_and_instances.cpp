// Graphs (a file loaded and built with the runtime's classes and functions) and their
// instances: commands, ticks, the blackboard and the trace.

#include <cstddef>

#include "handles.hpp"

using namespace ainb;
using namespace ainb::capi;

namespace {

// The C handle of a graph the runtime built.
ainb_graph* handle(ainb_runtime* rt, std::shared_ptr<const runtime::Graph> graph) {
  std::vector<std::string> unresolved;
  for (const auto& missing : graph->unresolved_parameters())
    unresolved.push_back(graph->describe(missing));
  return new ainb_graph{std::move(graph), std::move(unresolved), rt->log};
}

// A graph loaded from `path` by `load` (the runtime's load or reload; null, with last_error set,
// for a file that does not load): the arguments checked, what throws reported as last_error.
template <typename Load>
ainb_graph* graph_at(ainb_runtime* rt, const char* function, const char* path, Load load) {
  if (rt == nullptr) return nullptr;
  if (path == nullptr) {
    rt->last_error = fmt::format("{}: no path", function);
    return nullptr;
  }
  try {
    return load(path);
  } catch (const std::exception& e) {
    rt->last_error = e.what();
    return nullptr;
  }
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

ainb_graph* ainb_graph_load(ainb_runtime* rt, const char* path) {
  return graph_at(rt, "graph_load", path,
                  [rt](const char* p) { return handle(rt, rt->runtime.load(p)); });
}

ainb_graph* ainb_graph_reload(ainb_runtime* rt, const char* path) {
  return graph_at(rt, "graph_reload", path, [rt](const char* p) -> ainb_graph* {
    auto reload = rt->runtime.reload(p);
    if (!reload) {
      rt->last_error = std::move(reload.error);
      return nullptr;
    }
    return handle(rt, std::move(reload.graph));
  });
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
    return handle(rt, rt->runtime.load(std::span(p, size), name != nullptr ? name : "(memory)"));
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
  return g == nullptr ? 0 : g->graph->node_count();
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

size_t ainb_graph_instance_block_size(const ainb_graph* g) {
  return g == nullptr ? 0 : runtime::Instance::block_size(*g->graph);
}

ainb_instance* ainb_instance_create(ainb_graph* graph, uint64_t seed, void* host) {
  ainb_instance_options options{};
  options.size = sizeof options;
  options.seed = seed;
  options.host = host;
  return ainb_instance_create_with(graph, &options);
}

ainb_instance* ainb_instance_create_with(ainb_graph* graph, const ainb_instance_options* given) {
  if (graph == nullptr) return nullptr;
  ainb_instance_options defaults{};
  defaults.size = sizeof defaults;
  const auto options =
      read_versioned(given != nullptr ? *given : defaults,
                     offsetof(ainb_instance_options, allocator) + sizeof(ainb_allocator));
  if (!options) return nullptr;
  const auto& allocator = options->allocator;
  if ((allocator.allocate == nullptr) != (allocator.deallocate == nullptr)) return nullptr;
  try {
    auto i = std::make_unique<ainb_instance>();
    i->graph = graph->graph;
    i->host = options->host;
    i->log = graph->log;
    if (allocator.allocate != nullptr) i->memory.emplace(allocator);
    i->instance = std::make_unique<runtime::Instance>(
        graph->graph, runtime::InstanceOptions{.seed = options->seed,
                                               .host = i.get(),
                                               .memory = i->memory ? &*i->memory : nullptr,
                                               .log = i->log.get()});
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
ainb_status ainb_instance_switch_to_latest(ainb_instance* i, bool* switched) {
  bool moved = false;
  const auto status = enter_instance(i, "ainb_instance_switch_to_latest",
                                     [&](runtime::Instance& x) { moved = x.switch_to_latest(); });
  if (switched != nullptr) *switched = moved;
  return status;
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
  return i != nullptr && node < i->graph->node_count() && i->instance->is_active(node);
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

}  // extern "C"
