/*
 * ainb.h: the C API of the AINB runtime, for engines written in other languages (C, Rust, C#,
 * Zig... through their C FFI). It wraps the C++ runtime one to one: a runtime holds node classes
 * and user functions, a graph is a loaded file (immutable, shared by any number of instances and
 * threads), an instance is one actor. docs/embedding.md describes the life cycle and threading
 * rules; tests/capi_test.c uses every function.
 *
 * Conventions
 * - Functions that can fail return an ainb_status (or NULL); the message of the last failure is
 *   ainb_runtime_last_error() for runtime and graph functions, ainb_instance_last_error() for
 *   instance functions. Messages stay valid until the next failing call on that object.
 * - Strings passed in are NUL-terminated. Strings handed out are ainb_string (pointer + size,
 *   not NUL-terminated) and stay valid while the graph they come from lives; except a blackboard
 *   string the host wrote (ainb_blackboard_get_string), valid until the entry is written again
 *   or the instance is destroyed.
 * - No function throws or aborts on bad input; a NULL object argument is AINB_ERROR_ARGUMENT (a
 *   function without a status returns zero, false or NULL).
 * - Callbacks (node classes, user functions) may not call ainb_instance_tick, _start, _stop,
 *   _enable_trace or _destroy on the instance they run for: the call is refused
 *   (AINB_ERROR_ARGUMENT) and, when the callback returns, the instance faults (AINB_FAULTED,
 *   ainb_instance_fault says where), as the same misuse does in C++. Stop an actor between ticks.
 */
#ifndef AINB_H
#define AINB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(AINB_C_SHARED_BUILD)
#define AINB_API __attribute__((visibility("default")))
#else
#define AINB_API
#endif

typedef struct ainb_runtime ainb_runtime;   /* node classes, user functions, load options */
typedef struct ainb_graph ainb_graph;       /* one loaded file with its modules */
typedef struct ainb_instance ainb_instance; /* one actor (or AI group, or scene) */
typedef struct ainb_node ainb_node;         /* the node a callback runs for, valid in the call */

typedef enum ainb_status {
  AINB_OK = 0,
  AINB_ERROR_LOAD = 1,      /* a file (or module) failed to load; the message says why */
  AINB_ERROR_ARGUMENT = 2,  /* a NULL object, an unknown command, a malformed signature */
  AINB_ERROR_NOT_FOUND = 3, /* no blackboard entry of that name and type */
} ainb_status;

typedef enum ainb_result { AINB_RUNNING = 0, AINB_SUCCESS = 1, AINB_FAILURE = 2 } ainb_result;

typedef enum ainb_command_state {
  AINB_IDLE = 0,
  AINB_COMMAND_RUNNING = 1,
  AINB_SUCCEEDED = 2,
  AINB_FAILED = 3,
  AINB_FAULTED = 4, /* a callback faulted the instance: ainb_instance_fault says how */
} ainb_command_state;

/* A view of `size` bytes, not NUL-terminated. An empty string may have `data == NULL`: test
 * `size` before passing `data` to memcpy or printf("%.*s"). */
typedef struct ainb_string {
  const char* data;
  size_t size;
} ainb_string;

typedef struct ainb_vec3f {
  float x, y, z;
} ainb_vec3f;

/* ---- Runtime: node classes, user functions, how files load -------------------------------- */

AINB_API ainb_runtime* ainb_runtime_create(void);
AINB_API void ainb_runtime_destroy(ainb_runtime* runtime);
AINB_API const char* ainb_runtime_last_error(const ainb_runtime* runtime);

/* A user node class: the UserDefined nodes whose class name matches run these callbacks.
 * `enter` and `leave` may be NULL; `update` may not. `class_data` is handed back to every call.
 * Each node of the class gets `state_size` bytes of state per instance (ainb_node_state),
 * zeroed at each Enter. One class serves every instance, possibly on several threads.
 *
 * Versioned: `size` is sizeof(ainb_node_class) as the caller compiled it, so that later versions
 * can add fields at the end; a field past the caller's size reads as zero (absent). Registration
 * refuses a size of 0 or one smaller than this first version's (AINB_ERROR_ARGUMENT). Designated
 * initializers keep a caller's code right as fields are added:
 *   const ainb_node_class move = {.size = sizeof(ainb_node_class), .update = move_update}; */
typedef struct ainb_node_class {
  size_t size; /* sizeof(ainb_node_class) */
  void (*enter)(ainb_node* node, void* class_data);
  ainb_result (*update)(ainb_node* node, void* class_data);
  void (*leave)(ainb_node* node, void* class_data);
  void* class_data;
  size_t state_size;
} ainb_node_class;

AINB_API ainb_status ainb_runtime_register_node(ainb_runtime* runtime, const char* class_name,
                                                const ainb_node_class* node_class);
/* Unregistered classes run as stubs that return Running for this many updates, then Success
 * (default 0; at most 65535: loading a graph fails with a larger value). Graphs loaded
 * afterwards use the value. */
AINB_API void ainb_runtime_set_stub_running_updates(ainb_runtime* runtime, uint32_t updates);
/* Registers the generic TotK classes that need no game world (blackboard setters and reads, result
 * setters, math, choice and cast queries, SelectorMath*; docs/generic-nodes.md lists them; not the
 * readings of --ambiguous-readings) for graphs loaded afterwards. A class
 * registered with ainb_runtime_register_node before or after this call wins. Parameters cannot be
 * declared (ainb_runtime_declare_parameter) on these classes. */
AINB_API ainb_status ainb_runtime_add_generic_nodes(ainb_runtime* runtime);
/* Folders where module files are found (default: the root file's own folder). */
AINB_API ainb_status ainb_runtime_add_module_dir(ainb_runtime* runtime, const char* directory);
/* false (default): a missing module file fails the load; true: the module node runs as a stub. */
AINB_API void ainb_runtime_set_stub_missing_modules(ainb_runtime* runtime, bool stub);

/* ---- Logging: what the runtime has to say that is not an error ---------------------------- */

/* The library writes nothing to stderr: warnings (a module run as a stub, a user function nobody
 * registered; said while a graph loads, once per file and module or signature) and
 * Element_Alert's messages (said while an instance ticks) go to the callback set here, if any. */
typedef enum ainb_log_level {
  AINB_LOG_INFO = 0,    /* an Element_Alert: the file's own debug message */
  AINB_LOG_WARNING = 1, /* the file runs, but not as the game would */
} ainb_log_level;
typedef enum ainb_log_kind {
  AINB_LOG_MISSING_MODULE = 0,   /* subject: the module's path; detail: where it was searched */
  AINB_LOG_MISSING_FUNCTION = 1, /* subject: the user function's signature */
  AINB_LOG_ALERT = 2,            /* message: the Element_Alert's message */
} ainb_log_kind;
/* Strings are valid during the callback only (not NUL-terminated: use the size). */
typedef struct ainb_log_event {
  ainb_log_level level;
  ainb_log_kind kind;
  ainb_string file; /* the file it is about (a module's, for a module's node) */
  int64_t node;     /* the node's index in `file`, or -1 */
  ainb_string subject;
  ainb_string detail;  /* AINB_LOG_MISSING_MODULE: where the module was searched; else empty */
  ainb_string message; /* one line, without the file */
} ainb_log_event;
typedef void (*ainb_log_callback)(const ainb_log_event* event, void* user_data);
/* Graphs loaded afterwards, and their instances, report to `callback` (NULL: to nobody, the
 * default). Graphs and instances made before keep the callback they had. An instance calls it on
 * the thread that ticks it. */
AINB_API void ainb_runtime_set_log(ainb_runtime* runtime, ainb_log_callback callback,
                                   void* user_data);

/* A user EXB function (the target of CFN instructions), by signature as the file spells it,
 * e.g. "GetBBCodeFloat( Float, Int )". Arguments arrive in order, typed as the signature says;
 * the function writes its result (ignored for None). */
typedef enum ainb_value_type {
  AINB_VALUE_NONE = 0,
  AINB_VALUE_BOOL = 1,
  AINB_VALUE_INT = 2,
  AINB_VALUE_UINT = 3,
  AINB_VALUE_FLOAT = 4,
  AINB_VALUE_STRING = 5,
  AINB_VALUE_VEC3F = 6,
} ainb_value_type;

typedef struct ainb_value {
  ainb_value_type type;
  union {
    bool b;
    int32_t i;
    uint32_t u;
    float f;
    const char* s;
    ainb_vec3f v;
  } as;
} ainb_value;

typedef void (*ainb_function)(void* function_data, void* host, const ainb_value* arguments,
                              size_t argument_count, ainb_value* result);
AINB_API ainb_status ainb_runtime_register_function(ainb_runtime* runtime, const char* signature,
                                                    ainb_function function, void* function_data);

/* Declares a parameter a registered class reads (an input or a property) or writes (an output),
 * found in each node of the class when a graph loads, so that a callback reaches it by handle
 * (ainb_node_get_*, ainb_node_set_*) instead of by name. Declare before loading graphs: a graph
 * sees the declarations made before it loaded. `*position` receives the handle. Types: BOOL, INT,
 * FLOAT, STRING (inputs and properties), VEC3F. AINB_ERROR_NOT_FOUND when no class of that name is
 * registered; AINB_ERROR_ARGUMENT for another kind or type, or a generic class. */
typedef enum ainb_parameter_kind {
  AINB_PARAMETER_INPUT = 0,
  AINB_PARAMETER_PROPERTY = 1,
  AINB_PARAMETER_OUTPUT = 2,
} ainb_parameter_kind;
AINB_API ainb_status ainb_runtime_declare_parameter(ainb_runtime* runtime, const char* class_name,
                                                    ainb_parameter_kind kind, ainb_value_type type,
                                                    const char* name, uint32_t* position);

/* ---- Graphs -------------------------------------------------------------------------------- */

/* Loads a file and its modules with the runtime's classes and options. NULL on failure
 * (ainb_runtime_last_error names the file, section, offset and problem). The runtime must
 * outlive the graph. */
AINB_API ainb_graph* ainb_graph_load(ainb_runtime* runtime, const char* path);
/* The same from bytes in memory (copied); `name` is used in messages. Modules come from the
 * runtime's module folders. */
AINB_API ainb_graph* ainb_graph_load_memory(ainb_runtime* runtime, const void* bytes, size_t size,
                                            const char* name);
/* Hot reload (docs/embedding.md, "Hot reload"): loads `path` again, with its modules read afresh.
 * The graph the last load or reload of `path` returned gets the new one as its successor: its
 * instances move to it at their next start (or ainb_instance_switch_to_latest), and instances
 * created afterwards from either handle run it. Returns the new graph (released as any), or NULL
 * when the file fails to load: ainb_runtime_last_error says why, and every instance keeps its
 * graph. Between the runtime's other calls (one thread), while instances tick on any. */
AINB_API ainb_graph* ainb_graph_reload(ainb_runtime* runtime, const char* path);
/* Instances keep their graph alive: releasing it while instances run is allowed. */
AINB_API void ainb_graph_release(ainb_graph* graph);
AINB_API ainb_string ainb_graph_file_name(const ainb_graph* graph);
AINB_API size_t ainb_graph_node_count(const ainb_graph* graph);
/* Declared parameters (ainb_runtime_declare_parameter) that a node of the graph lacks, each
 * described in one line ("node 4 (MoveTo) has no float input \"Sped\", which its class declares"):
 * a host can catch a misspelt name against its files. Such a read gives zero. */
AINB_API size_t ainb_graph_unresolved_parameter_count(const ainb_graph* graph);
AINB_API ainb_string ainb_graph_unresolved_parameter(const ainb_graph* graph, size_t index);
AINB_API size_t ainb_graph_command_count(const ainb_graph* graph);
AINB_API ainb_string ainb_graph_command_name(const ainb_graph* graph, size_t index);
/* The bytes of the one block each instance of the graph allocates (ainb_allocator): node
 * states, outputs, blackboard, class state, module sub-instances. */
AINB_API size_t ainb_graph_instance_block_size(const ainb_graph* graph);

/* ---- Instances ----------------------------------------------------------------------------- */

/* `host` is handed to node classes (ainb_node_host) and user functions. NULL on failure.
 * The same as ainb_instance_create_with with only seed and host set. */
AINB_API ainb_instance* ainb_instance_create(ainb_graph* graph, uint64_t seed, void* host);

/* Where an instance's block comes from: a host's arena, pool or huge-page region. Each instance
 * allocates one block (ainb_graph_instance_block_size bytes, `alignment` a power of two, at
 * present alignof(max_align_t)) when it is created, and frees it, with the same size and
 * alignment, when it is destroyed; never during ticks, starts or stops. `allocate` returns a
 * block aligned to `alignment`, or NULL when it has none: the creation then fails (NULL) and
 * nothing is freed. `data` is handed back to both calls. The callbacks run on the thread that
 * creates or destroys the instance; what they reach through `data` must outlive the instance.
 * The instance's own objects (the handle, the C++ Instance, its trace buffer) come from the C++
 * heap. */
typedef struct ainb_allocator {
  void* (*allocate)(void* data, size_t size, size_t alignment);
  void (*deallocate)(void* data, void* block, size_t size, size_t alignment);
  void* data;
} ainb_allocator;

/* How an instance is created. Versioned as ainb_node_class is: `size` is
 * sizeof(ainb_instance_options); fields past the caller's size take their defaults (zero). */
typedef struct ainb_instance_options {
  size_t size;   /* sizeof(ainb_instance_options) */
  uint64_t seed; /* Element_RandomSelector's generator */
  void* host;    /* handed to node classes (ainb_node_host) and user functions */
  /* Both callbacks NULL (the default): the C++ heap (operator new). Only one of them NULL:
   * refused. The allocator struct is copied; `data` must outlive the instance. */
  ainb_allocator allocator;
} ainb_instance_options;

/* NULL on failure: no graph, `options->size` 0 or smaller than this first version's, one
 * allocator callback without the other, `allocate` returned NULL or a misaligned block, or no
 * memory. NULL options: the defaults (seed 0, no host, the C++ heap). */
AINB_API ainb_instance* ainb_instance_create_with(ainb_graph* graph,
                                                  const ainb_instance_options* options);

/* Leaves every active node (calling their classes) and frees the instance. */
AINB_API void ainb_instance_destroy(ainb_instance* instance);
AINB_API const char* ainb_instance_last_error(const ainb_instance* instance);

/* Moves the instance to the newest graph of its file now (after ainb_graph_reload), rather than
 * at its next start: the running command's nodes are left, the blackboard values written since
 * its start kept by name and type, and that command started again on the new graph if it has one
 * of that name.
 * `switched` (may be NULL) says whether it moved. Between ticks only. */
AINB_API ainb_status ainb_instance_switch_to_latest(ainb_instance* instance, bool* switched);
/* Starts a command by name (leaving the running one). AINB_ERROR_ARGUMENT for an unknown name:
 * the message lists the file's commands. A graph reloaded since the last start: the instance
 * moves to the newest first (an AINB_EVENT_RELOAD event). */
AINB_API ainb_status ainb_instance_start(ainb_instance* instance, const char* command);
/* The same by index (ainb_graph_command_name names them), without the lookup by name: for hosts
 * that restart commands as they end. AINB_ERROR_ARGUMENT for an index past the last command. */
AINB_API ainb_status ainb_instance_start_index(ainb_instance* instance, size_t command);
/* Leaves every active node; the instance is idle afterwards. */
AINB_API ainb_status ainb_instance_stop(ainb_instance* instance);
/* Advances one frame. Allocates nothing (a trace buffer is reserved when enabled), except that
 * a thread's first evaluation of a file's expressions makes that thread's EXB machine for the
 * file (kept for the thread's later ticks of any actor of it): creating an instance does this
 * for the creating thread, ainb_instance_prepare_thread for the calling one. */
AINB_API ainb_status ainb_instance_tick(ainb_instance* instance);
/* Makes the calling thread's EXB machines for the instance's file and its modules, if it has
 * none yet, so that its ticks on this thread allocate nothing. */
AINB_API ainb_status ainb_instance_prepare_thread(const ainb_instance* instance);
AINB_API ainb_command_state ainb_instance_state(const ainb_instance* instance);
/* Why the instance is AINB_FAULTED, in one line ("file: frame F: node N (Class): ... threw in
 * update: ..."); "" otherwise. Valid until the next call of this function. Starting a command
 * clears the fault. */
AINB_API const char* ainb_instance_fault(ainb_instance* instance);
AINB_API uint64_t ainb_instance_frame(const ainb_instance* instance);
AINB_API bool ainb_instance_is_active(const ainb_instance* instance, uint32_t node);
/* Bytes the instance owns besides the shared graph. */
AINB_API size_t ainb_instance_memory_bytes(const ainb_instance* instance);

/* The blackboard by entry name. set: AINB_ERROR_NOT_FOUND when the file has no entry of that
 * name and type. get: false when there is none (out untouched). */
AINB_API ainb_status ainb_blackboard_set_bool(ainb_instance* instance, const char* name,
                                              bool value);
AINB_API ainb_status ainb_blackboard_set_int(ainb_instance* instance, const char* name,
                                             int32_t value);
AINB_API ainb_status ainb_blackboard_set_float(ainb_instance* instance, const char* name,
                                               float value);
AINB_API ainb_status ainb_blackboard_set_vec3f(ainb_instance* instance, const char* name,
                                               ainb_vec3f value);
AINB_API ainb_status ainb_blackboard_set_string(ainb_instance* instance, const char* name,
                                                const char* value);
AINB_API bool ainb_blackboard_get_bool(const ainb_instance* instance, const char* name, bool* out);
AINB_API bool ainb_blackboard_get_int(const ainb_instance* instance, const char* name,
                                      int32_t* out);
AINB_API bool ainb_blackboard_get_float(const ainb_instance* instance, const char* name,
                                        float* out);
AINB_API bool ainb_blackboard_get_vec3f(const ainb_instance* instance, const char* name,
                                        ainb_vec3f* out);
AINB_API bool ainb_blackboard_get_string(const ainb_instance* instance, const char* name,
                                         ainb_string* out);

/* ---- Trace events -------------------------------------------------------------------------- */

typedef enum ainb_event_kind {
  AINB_EVENT_COMMAND = 0,
  AINB_EVENT_ENTER = 1,
  AINB_EVENT_UPDATE = 2,
  AINB_EVENT_LEAVE = 3,
  AINB_EVENT_TRANSITION = 4,
  AINB_EVENT_ALERT = 5,
  AINB_EVENT_XLINK = 6,
  AINB_EVENT_BLACKBOARD = 7,
  AINB_EVENT_RELOAD = 8, /* the instance moved to a newer graph of its file (node -1) */
} ainb_event_kind;

typedef struct ainb_event {
  uint64_t frame;
  ainb_event_kind kind;
  ainb_string file;   /* the file the node belongs to (a module's, inside a module call) */
  int32_t node;       /* node index in that file, -1 for command events */
  ainb_string type;   /* built-in type name or user class name */
  ainb_result result; /* update events */
  int32_t target;     /* transition events: the node taken to; -1 otherwise */
  ainb_string detail; /* command name, alert message, XLink action, blackboard entry name */
} ainb_event;

/* Records events into a buffer of `capacity` events (reserved now, so ticks stay allocation-
 * free); 0 turns tracing off. When the buffer is full further events are counted as dropped.
 * Between ticks only: from a callback it changes nothing and returns AINB_ERROR_ARGUMENT (see
 * the conventions above). */
AINB_API ainb_status ainb_instance_enable_trace(ainb_instance* instance, size_t capacity);
/* Copies up to `max` recorded events, oldest first, into `out`, removes them from the buffer and
 * returns how many were copied. */
AINB_API size_t ainb_instance_read_events(ainb_instance* instance, ainb_event* out, size_t max);
AINB_API uint64_t ainb_instance_dropped_events(const ainb_instance* instance);

/* ---- Inside a node callback ---------------------------------------------------------------- */

AINB_API uint32_t ainb_node_index(const ainb_node* node);
AINB_API void* ainb_node_host(const ainb_node* node);
/* The node's state block (the class's state_size bytes), NULL when state_size is 0. */
AINB_API void* ainb_node_state(ainb_node* node);
AINB_API ainb_string ainb_node_name(const ainb_node* node);

/* The node's properties and inputs by name; the type's zero when it has none of that name. */
AINB_API int32_t ainb_node_property_int(const ainb_node* node, const char* name);
AINB_API bool ainb_node_property_bool(const ainb_node* node, const char* name);
AINB_API float ainb_node_property_float(const ainb_node* node, const char* name);
AINB_API ainb_string ainb_node_property_string(const ainb_node* node, const char* name);
AINB_API ainb_vec3f ainb_node_property_vec3f(const ainb_node* node, const char* name);
AINB_API int32_t ainb_node_input_int(const ainb_node* node, const char* name);
AINB_API bool ainb_node_input_bool(const ainb_node* node, const char* name);
AINB_API float ainb_node_input_float(const ainb_node* node, const char* name);
AINB_API ainb_string ainb_node_input_string(const ainb_node* node, const char* name);
AINB_API ainb_vec3f ainb_node_input_vec3f(const ainb_node* node, const char* name);

/* Writes the node's outputs by name; false when it has no output of that name and type. */
AINB_API bool ainb_node_write_int(ainb_node* node, const char* name, int32_t value);
AINB_API bool ainb_node_write_bool(ainb_node* node, const char* name, bool value);
AINB_API bool ainb_node_write_float(ainb_node* node, const char* name, float value);
AINB_API bool ainb_node_write_vec3f(ainb_node* node, const char* name, ainb_vec3f value);

/* Declared parameters by handle (ainb_runtime_declare_parameter): get reads an input or a
 * property, set writes an output. The type's zero (get) or false (set) when the node has no such
 * parameter, or the handle was declared with another type or kind. */
AINB_API int32_t ainb_node_get_int(const ainb_node* node, uint32_t position);
AINB_API bool ainb_node_get_bool(const ainb_node* node, uint32_t position);
AINB_API float ainb_node_get_float(const ainb_node* node, uint32_t position);
AINB_API ainb_string ainb_node_get_string(const ainb_node* node, uint32_t position);
AINB_API ainb_vec3f ainb_node_get_vec3f(const ainb_node* node, uint32_t position);
AINB_API bool ainb_node_set_int(ainb_node* node, uint32_t position, int32_t value);
AINB_API bool ainb_node_set_bool(ainb_node* node, uint32_t position, bool value);
AINB_API bool ainb_node_set_float(ainb_node* node, uint32_t position, float value);
AINB_API bool ainb_node_set_vec3f(ainb_node* node, uint32_t position, ainb_vec3f value);

/* Takes the node's transition plug `k` (see docs/semantics.md); false when there is none. */
AINB_API bool ainb_node_transition(ainb_node* node, uint32_t k);

/* Child plugs, for a composite class (docs/semantics.md, "Child plugs of user classes"): how many
   the node has, the name of plug `k`; run_child enters child `k` when the node does not hold it,
   updates it and leaves it once it finishes, and returns its result; leave_child leaves one the
   node holds. The children a node holds are left before its own leave. Out of range: nothing
   happens (AINB_SUCCESS). A fault below the child ends the run when this callback returns. */
AINB_API uint32_t ainb_node_child_count(const ainb_node* node);
AINB_API ainb_string ainb_node_child_name(const ainb_node* node, uint32_t k);
AINB_API ainb_result ainb_node_run_child(ainb_node* node, uint32_t k);
AINB_API void ainb_node_leave_child(ainb_node* node, uint32_t k);

#ifdef __cplusplus
}
#endif

#endif /* AINB_H */
