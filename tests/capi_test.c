/* The C API, called from C (C11): loading, node classes with state, the blackboard, trace events,
 * user functions, the generic classes and every error path. Runs the bundled patrol example and
 * tests/data/counter.root.json; the user-function part runs a corpus file (it fails when CI is
 * set and the corpus is missing, and is skipped otherwise); the log callback runs
 * tests/data/alert.root.json. */

#define _POSIX_C_SOURCE 200809L /* dup, dup2, fileno: stderr captured */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ainb/ainb.h"

static int failures = 0;

#define CHECK(cond)                                                            \
  do {                                                                         \
    if (!(cond)) {                                                             \
      fprintf(stderr, "%s:%d: CHECK(%s) failed\n", __FILE__, __LINE__, #cond); \
      ++failures;                                                              \
    }                                                                          \
  } while (0)

static int equals(ainb_string s, const char* text) {
  return s.size == strlen(text) && memcmp(s.data, text, s.size) == 0;
}

/* The world of the test: one guard walking along x. */
typedef struct guard {
  float x;
  int waits_done;
  int attacks;
} guard;

/* Handles of MoveTo's declared parameters (ainb_runtime_declare_parameter). */
typedef struct move_handles {
  uint32_t destination, speed, distance_left, missing;
} move_handles;

static ainb_result move_update(ainb_node* node, void* class_data) {
  const move_handles* handles = (const move_handles*)class_data;
  guard* g = (guard*)ainb_node_host(node);
  const ainb_vec3f destination = ainb_node_input_vec3f(node, "Destination");
  const ainb_vec3f declared = ainb_node_get_vec3f(node, handles->destination);
  CHECK(declared.x == destination.x && declared.y == destination.y && declared.z == destination.z);
  CHECK(ainb_node_get_float(node, handles->speed) == ainb_node_input_float(node, "Speed"));
  CHECK(ainb_node_get_float(node, handles->missing) == 0.0f); /* the node has no such input */
  CHECK(ainb_node_get_int(node, handles->speed) == 0);        /* declared a float */
  CHECK(ainb_node_get_float(node, 99) == 0.0f);               /* no such handle */
  g->x += ainb_node_get_float(node, handles->speed);
  CHECK(ainb_node_set_float(node, handles->distance_left, destination.x - g->x));
  CHECK(!ainb_node_set_float(node, handles->speed, 0.0f)); /* an input, not an output */
  CHECK(!ainb_node_write_float(node, "NoSuchOutput", 0.0f));
  return g->x >= destination.x ? AINB_SUCCESS : AINB_RUNNING;
}

typedef struct wait_state {
  int frames_left;
} wait_state;

static void wait_enter(ainb_node* node, void* class_data) {
  (void)class_data;
  wait_state* s = (wait_state*)ainb_node_state(node);
  s->frames_left = (int)ainb_node_property_float(node, "Time"); /* 2.0 in the file */
}

static ainb_result wait_update(ainb_node* node, void* class_data) {
  wait_state* s = (wait_state*)ainb_node_state(node);
  if (--s->frames_left > 0) return AINB_RUNNING;
  ++*(int*)class_data;
  ++((guard*)ainb_node_host(node))->waits_done;
  return AINB_SUCCESS;
}

static ainb_result attack_update(ainb_node* node, void* class_data) {
  const uint32_t* weapon_and_range = (const uint32_t*)class_data; /* declared properties */
  CHECK(equals(ainb_node_property_string(node, "Weapon"), "Spear"));
  CHECK(ainb_node_property_float(node, "Range") == 2.5f);
  CHECK(equals(ainb_node_get_string(node, weapon_and_range[0]), "Spear"));
  CHECK(ainb_node_get_float(node, weapon_and_range[1]) == 2.5f);
  ++((guard*)ainb_node_host(node))->attacks;
  return AINB_RUNNING;
}

static void test_patrol(const char* patrol_path) {
  ainb_runtime* rt = ainb_runtime_create();
  int waits_seen_by_class = 0;
  move_handles handles;
  const ainb_node_class move = {
      .size = sizeof(ainb_node_class), .update = move_update, .class_data = &handles};
  const ainb_node_class wait = {.size = sizeof(ainb_node_class),
                                .enter = wait_enter,
                                .update = wait_update,
                                .class_data = &waits_seen_by_class,
                                .state_size = sizeof(wait_state)};
  uint32_t weapon_and_range[2];
  const ainb_node_class attack = {
      .size = sizeof(ainb_node_class), .update = attack_update, .class_data = weapon_and_range};
  const ainb_node_class no_update = {.size = sizeof(ainb_node_class)};
  CHECK(ainb_runtime_register_node(rt, "MoveTo", &move) == AINB_OK);
  CHECK(ainb_runtime_register_node(rt, "Wait", &wait) == AINB_OK);
  CHECK(ainb_runtime_register_node(rt, "Attack", &attack) == AINB_OK);
  CHECK(ainb_runtime_register_node(rt, "Broken", &no_update) == AINB_ERROR_ARGUMENT);
  CHECK(strcmp(ainb_runtime_last_error(rt),
               "register_node: a class needs a name and an update callback") == 0);
  CHECK(ainb_runtime_declare_parameter(rt, "MoveTo", AINB_PARAMETER_INPUT, AINB_VALUE_VEC3F,
                                       "Destination", &handles.destination) == AINB_OK);
  CHECK(ainb_runtime_declare_parameter(rt, "MoveTo", AINB_PARAMETER_INPUT, AINB_VALUE_FLOAT,
                                       "Speed", &handles.speed) == AINB_OK);
  CHECK(ainb_runtime_declare_parameter(rt, "MoveTo", AINB_PARAMETER_OUTPUT, AINB_VALUE_FLOAT,
                                       "DistanceLeft", &handles.distance_left) == AINB_OK);
  CHECK(ainb_runtime_declare_parameter(rt, "MoveTo", AINB_PARAMETER_INPUT, AINB_VALUE_FLOAT,
                                       "Missing", &handles.missing) == AINB_OK);
  CHECK(handles.destination == 0 && handles.speed == 1 && handles.distance_left == 2 &&
        handles.missing == 3);
  CHECK(ainb_runtime_declare_parameter(rt, "Attack", AINB_PARAMETER_PROPERTY, AINB_VALUE_STRING,
                                       "Weapon", &weapon_and_range[0]) == AINB_OK);
  CHECK(ainb_runtime_declare_parameter(rt, "Attack", AINB_PARAMETER_PROPERTY, AINB_VALUE_FLOAT,
                                       "Range", &weapon_and_range[1]) == AINB_OK);
  uint32_t unused = 0;
  CHECK(ainb_runtime_declare_parameter(rt, "Nobody", AINB_PARAMETER_INPUT, AINB_VALUE_FLOAT, "X",
                                       &unused) == AINB_ERROR_NOT_FOUND);
  CHECK(strcmp(ainb_runtime_last_error(rt),
               "declare_parameter: no class \"Nobody\" is registered") == 0);
  CHECK(ainb_runtime_declare_parameter(rt, "MoveTo", AINB_PARAMETER_OUTPUT, AINB_VALUE_STRING,
                                       "Label", &unused) == AINB_ERROR_ARGUMENT);
  CHECK(strcmp(ainb_runtime_last_error(rt),
               "declare_parameter: \"Label\" of class \"MoveTo\" has a kind (2) or type (5) "
               "that C cannot declare") == 0);
  CHECK(ainb_runtime_declare_parameter(rt, "MoveTo", AINB_PARAMETER_INPUT, AINB_VALUE_UINT, "U",
                                       &unused) == AINB_ERROR_ARGUMENT);

  ainb_graph* graph = ainb_graph_load(rt, patrol_path);
  CHECK(graph != NULL);
  if (graph == NULL) {
    fprintf(stderr, "%s\n", ainb_runtime_last_error(rt));
    exit(1);
  }
  CHECK(equals(ainb_graph_file_name(graph), "patrol.root.ainb"));
  /* The declared "Missing" input, which MoveTo (node 4) lacks: reads of it give zero. */
  CHECK(ainb_graph_unresolved_parameter_count(graph) == 1);
  CHECK(equals(ainb_graph_unresolved_parameter(graph, 0),
               "node 4 (MoveTo) has no float input \"Missing\", which its class declares"));
  CHECK(ainb_graph_unresolved_parameter(graph, 1).data == NULL);
  CHECK(ainb_graph_node_count(graph) == 10);
  CHECK(ainb_graph_command_count(graph) == 2);
  CHECK(equals(ainb_graph_command_name(graph, 1), "Alert"));
  CHECK(ainb_graph_command_name(graph, 2).data == NULL);

  guard g = {0.0f, 0, 0};
  ainb_instance* actor = ainb_instance_create(graph, 1, &g);
  ainb_graph_release(graph); /* the instance keeps the graph alive */
  CHECK(ainb_instance_start(actor, "Flee") == AINB_ERROR_ARGUMENT);
  char expected[4200];
  snprintf(expected, sizeof expected, "%s has no command \"Flee\" (it has: \"Root\", \"Alert\")",
           patrol_path);
  CHECK(strcmp(ainb_instance_last_error(actor), expected) == 0);
  CHECK(ainb_instance_start_index(actor, 2) == AINB_ERROR_ARGUMENT);
  snprintf(expected, sizeof expected, "%s has no command 2 (it has 2)", patrol_path);
  CHECK(strcmp(ainb_instance_last_error(actor), expected) == 0);
  CHECK(ainb_instance_start_index(NULL, 0) == AINB_ERROR_ARGUMENT);

  CHECK(ainb_instance_enable_trace(actor, 8) == AINB_OK);
  CHECK(ainb_instance_start(actor, "Root") == AINB_OK);
  CHECK(ainb_instance_state(actor) == AINB_COMMAND_RUNNING);
  ainb_event events[16];
  /* Starting a command enters its tree: Sequential, BoolSelector (IsEnemyNear is false), the
   * walking Sequential and MoveTo. */
  size_t n = ainb_instance_read_events(actor, events, 16);
  CHECK(n == 5);
  CHECK(events[0].kind == AINB_EVENT_COMMAND && equals(events[0].detail, "Root"));
  CHECK(events[1].kind == AINB_EVENT_ENTER && events[1].node == 0 &&
        equals(events[1].type, "Element_Sequential"));
  CHECK(events[4].kind == AINB_EVENT_ENTER && events[4].node == 4 &&
        equals(events[4].type, "MoveTo") && equals(events[4].file, "patrol.root.ainb"));

  /* PatrolSpeed 1.5 a frame, PatrolPoint x = 10: MoveTo succeeds on the 7th update. */
  for (int frame = 1; frame <= 6; ++frame)
    ainb_instance_tick(actor);
  CHECK(g.x == 9.0f);
  CHECK(ainb_instance_is_active(actor, 4));
  CHECK(ainb_instance_dropped_events(actor) > 0); /* 8 events do not hold six frames */
  n = ainb_instance_read_events(actor, events, 16);
  CHECK(n == 8);
  CHECK(events[0].frame == 1 && events[0].kind == AINB_EVENT_UPDATE && events[0].node == 4 &&
        events[0].result == AINB_RUNNING);
  CHECK(ainb_instance_enable_trace(actor, 0) == AINB_OK); /* off: nothing more is recorded */
  ainb_instance_tick(actor);
  CHECK(g.x == 10.5f);
  CHECK(ainb_instance_is_active(actor, 5)); /* Wait */
  CHECK(ainb_instance_read_events(actor, events, 16) == 0);
  ainb_instance_tick(actor);
  ainb_instance_tick(actor);
  CHECK(g.waits_done == 1 && waits_seen_by_class == 1);

  /* The blackboard: perception sees the player; the selector switches to Attack. */
  float speed = 0;
  CHECK(ainb_blackboard_get_float(actor, "PatrolSpeed", &speed) && speed == 1.5f);
  ainb_vec3f point = {0, 0, 0};
  CHECK(ainb_blackboard_get_vec3f(actor, "PatrolPoint", &point) && point.x == 10.0f &&
        point.z == -4.0f);
  CHECK(!ainb_blackboard_get_int(actor, "PatrolSpeed", NULL)); /* a float, not an int */
  CHECK(ainb_blackboard_set_int(actor, "IsEnemyNear", 1) == AINB_ERROR_NOT_FOUND);
  CHECK(strcmp(ainb_instance_last_error(actor),
               "patrol.root.ainb: the blackboard has no s32 entry \"IsEnemyNear\"") == 0);
  CHECK(ainb_blackboard_set_bool(actor, "NoSuchEntry", true) == AINB_ERROR_NOT_FOUND);
  CHECK(ainb_blackboard_set_bool(actor, "IsEnemyNear", true) == AINB_OK);
  bool near = false;
  CHECK(ainb_blackboard_get_bool(actor, "IsEnemyNear", &near) && near);
  ainb_instance_tick(actor);
  CHECK(g.attacks == 1);
  CHECK(ainb_instance_is_active(actor, 2));
  CHECK(ainb_instance_frame(actor) == 10);
  CHECK(ainb_instance_memory_bytes(actor) > 0);
  CHECK(ainb_instance_prepare_thread(actor) == AINB_OK);
  CHECK(ainb_instance_prepare_thread(NULL) == AINB_ERROR_ARGUMENT);

  ainb_instance_destroy(actor);
  ainb_runtime_destroy(rt);
}

static void test_load_errors(void) {
  ainb_runtime* rt = ainb_runtime_create();
  CHECK(ainb_graph_load(rt, "/nonexistent/x.ainb") == NULL);
  CHECK(
      strcmp(
          ainb_runtime_last_error(rt),
          "/nonexistent/x.ainb: file at offset 0x0: cannot read file: No such file or directory") ==
      0);
  const unsigned char junk[4] = {'A', 'I', 'B', ' '};
  CHECK(ainb_graph_load_memory(rt, junk, sizeof junk, "junk.ainb") == NULL);
  CHECK(
      strcmp(
          ainb_runtime_last_error(rt),
          "junk.ainb: header at offset 0x0: file is 4 bytes, too small for the 0x74-byte header") ==
      0);
  CHECK(ainb_graph_load(NULL, "x") == NULL);
  CHECK(ainb_instance_start(NULL, "Root") == AINB_ERROR_ARGUMENT);
  CHECK(ainb_runtime_register_function(rt, "NoParens", NULL, NULL) == AINB_ERROR_ARGUMENT);
  CHECK(ainb_graph_load(rt, NULL) == NULL);
  CHECK(strcmp(ainb_runtime_last_error(rt), "graph_load: no path") == 0);
  CHECK(ainb_graph_load_memory(rt, NULL, 4, "x.ainb") == NULL);
  CHECK(strcmp(ainb_runtime_last_error(rt), "graph_load_memory: no bytes") == 0);
  ainb_runtime_destroy(rt);
}

/* GetBBCodeBool( Bool, Int ): counts its calls and records the host it was called for. */
typedef struct calls {
  int count;
  void* last_host;
} calls;

static void bb_code_bool(void* data, void* host, const ainb_value* arguments, size_t count,
                         ainb_value* result) {
  calls* c = (calls*)data;
  CHECK(count == 1 && arguments[0].type == AINB_VALUE_INT);
  CHECK(result->type == AINB_VALUE_BOOL);
  ++c->count;
  c->last_host = host;
  result->as.b = true;
}

static void test_user_functions(const char* corpus) {
  char path[4096];
  snprintf(path, sizeof path, "%s/ainb/Toby.utility.root.ainb", corpus);
  FILE* probe = fopen(path, "rb");
  if (probe == NULL) {
    if (getenv("CI") != NULL) {
      fprintf(stderr, "the corpus is missing (%s) and CI is set\n", path);
      ++failures;
    } else {
      fprintf(stderr, "skipped: the corpus is missing (%s)\n", path);
    }
    return;
  }
  fclose(probe);
  ainb_runtime* rt = ainb_runtime_create();
  calls c = {0, NULL};
  CHECK(ainb_runtime_register_function(rt, "Broken( Bool, Int", bb_code_bool, &c) ==
        AINB_ERROR_ARGUMENT);
  CHECK(strcmp(ainb_runtime_last_error(rt),
               "register_function: signature \"Broken( Bool, Int\": missing \")\"") == 0);
  CHECK(ainb_runtime_register_function(
            rt,
            "Many( Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, "
            "Int, Int, Int )",
            bb_code_bool, &c) == AINB_ERROR_ARGUMENT);
  CHECK(strstr(ainb_runtime_last_error(rt), "Int )\" has 17 arguments (at most 16)") != NULL);
  CHECK(ainb_runtime_register_function(rt, "GetBBCodeBool( Bool, Int )", bb_code_bool, &c) ==
        AINB_OK);
  ainb_runtime_set_stub_running_updates(rt, 0);
  ainb_runtime_set_stub_missing_modules(rt, true); /* the corpus lacks most of its modules */
  ainb_graph* graph = ainb_graph_load(rt, path);
  CHECK(graph != NULL);
  if (graph == NULL) {
    fprintf(stderr, "%s\n", ainb_runtime_last_error(rt));
    exit(1);
  }
  int host = 7;
  ainb_instance* actor = ainb_instance_create(graph, 0, &host);
  CHECK(equals(ainb_graph_command_name(graph, 0), "Root"));
  CHECK(ainb_instance_start_index(actor, 0) == AINB_OK); /* "Root", by index */
  CHECK(ainb_instance_state(actor) == AINB_COMMAND_RUNNING);
  for (int frame = 0; frame < 120; ++frame)
    ainb_instance_tick(actor);
  CHECK(c.count == 12); /* its expressions' calls in 120 frames, stubs succeeding at once */
  CHECK(c.last_host == &host);
  ainb_instance_destroy(actor);
  ainb_graph_release(graph);
  ainb_runtime_destroy(rt);
}

/* Misuse from inside a callback: MoveTo calls one of its own instance's entry points. */
typedef enum misuse { CALL_STOP, CALL_TICK, CALL_START, CALL_DESTROY } misuse;
typedef struct misuser {
  ainb_instance* self;
  misuse call;
  ainb_status status; /* what the refused call returned */
  int returned;       /* the callback went on after the call */
} misuser;

static ainb_result misuse_update(ainb_node* node, void* class_data) {
  (void)node;
  misuser* m = (misuser*)class_data;
  switch (m->call) {
    case CALL_STOP:
      m->status = ainb_instance_stop(m->self);
      break;
    case CALL_TICK:
      m->status = ainb_instance_tick(m->self);
      break;
    case CALL_START:
      m->status = ainb_instance_start(m->self, "Alert");
      break;
    case CALL_DESTROY:
      ainb_instance_destroy(m->self);
      m->status = AINB_ERROR_ARGUMENT;
      break;
  }
  m->returned = 1;
  return AINB_RUNNING;
}

static void test_misuse(const char* patrol_path) {
  static const char* const names[] = {"ainb_instance_stop", "ainb_instance_tick",
                                      "ainb_instance_start", "ainb_instance_destroy"};
  for (int call = CALL_STOP; call <= CALL_DESTROY; ++call) {
    ainb_runtime* rt = ainb_runtime_create();
    misuser m = {NULL, (misuse)call, AINB_OK, 0};
    const ainb_node_class move = {
        .size = sizeof(ainb_node_class), .update = misuse_update, .class_data = &m};
    CHECK(ainb_runtime_register_node(rt, "MoveTo", &move) == AINB_OK);
    ainb_graph* graph = ainb_graph_load(rt, patrol_path);
    m.self = ainb_instance_create(graph, 1, NULL);
    CHECK(ainb_instance_start(m.self, "Root") == AINB_OK);
    CHECK(ainb_instance_tick(m.self) == AINB_OK);
    /* The refused call returned to the callback, which went on; the node then faulted. */
    CHECK(m.returned && m.status == AINB_ERROR_ARGUMENT);
    CHECK(ainb_instance_state(m.self) == AINB_FAULTED);
    char expected[4600];
    snprintf(expected, sizeof expected,
             "%s: frame 1: node 4 (MoveTo): user node class threw in update: %s called from a "
             "node callback or user function of the same instance during a tick or command "
             "change; call it between ticks",
             patrol_path, names[call]);
    CHECK(strcmp(ainb_instance_fault(m.self), expected) == 0);
    /* Starting a command clears the fault. */
    m.call = CALL_STOP;
    CHECK(ainb_instance_start(m.self, "Alert") == AINB_OK);
    CHECK(strcmp(ainb_instance_fault(m.self), "") == 0);
    ainb_instance_destroy(m.self);
    ainb_graph_release(graph);
    ainb_runtime_destroy(rt);
  }
  CHECK(ainb_instance_tick(NULL) == AINB_ERROR_ARGUMENT);
  CHECK(ainb_instance_stop(NULL) == AINB_ERROR_ARGUMENT);
  CHECK(strcmp(ainb_instance_fault(NULL), "") == 0);
  /* Node functions refuse NULL: zero, false, NULL. */
  CHECK(ainb_node_index(NULL) == 0 && ainb_node_host(NULL) == NULL &&
        ainb_node_state(NULL) == NULL && ainb_node_name(NULL).data == NULL);
  CHECK(ainb_node_input_float(NULL, "Speed") == 0.0f && !ainb_node_write_int(NULL, "X", 1) &&
        !ainb_node_transition(NULL, 0) && ainb_node_get_int(NULL, 0) == 0);
}

/* A class that succeeds and writes nothing. */
static ainb_result succeed(ainb_node* node, void* class_data) {
  (void)node;
  (void)class_data;
  return AINB_SUCCESS;
}

/* Runs counter.root (ExecuteBlackboardSetS32 writes QueryMathAddS32's Count + 1 to Count) `rounds`
 * times, starting its command each time, and returns Count. */
static int32_t count_after(ainb_runtime* rt, const char* counter_path, int rounds) {
  ainb_graph* graph = ainb_graph_load(rt, counter_path);
  CHECK(graph != NULL);
  if (graph == NULL) {
    fprintf(stderr, "%s\n", ainb_runtime_last_error(rt));
    exit(1);
  }
  ainb_instance* actor = ainb_instance_create(graph, 0, NULL);
  for (int round = 0; round < rounds; ++round) {
    CHECK(ainb_instance_start(actor, "Count") == AINB_OK);
    ainb_instance_tick(actor);
    CHECK(ainb_instance_state(actor) == AINB_SUCCEEDED);
  }
  int32_t count = -1;
  CHECK(ainb_blackboard_get_int(actor, "Count", &count));
  ainb_instance_destroy(actor);
  ainb_graph_release(graph);
  return count;
}

static void test_generic_nodes(const char* counter_path) {
  ainb_runtime* stubs = ainb_runtime_create();
  CHECK(count_after(stubs, counter_path, 3) == 0); /* stubs write nothing */
  ainb_runtime_destroy(stubs);

  ainb_runtime* generic = ainb_runtime_create();
  CHECK(ainb_runtime_add_generic_nodes(generic) == AINB_OK);
  CHECK(count_after(generic, counter_path, 3) == 3);
  uint32_t position = 0;
  CHECK(ainb_runtime_declare_parameter(generic, "QueryMathAddS32", AINB_PARAMETER_INPUT,
                                       AINB_VALUE_INT, "InputA", &position) == AINB_ERROR_ARGUMENT);
  CHECK(strcmp(ainb_runtime_last_error(generic),
               "declare_parameter: \"QueryMathAddS32\" is a generic class "
               "(ainb_runtime_add_generic_nodes), not one registered with "
               "ainb_runtime_register_node") == 0);
  ainb_runtime_destroy(generic);

  /* The host's own class wins, registered before or after. */
  const ainb_node_class own = {.size = sizeof(ainb_node_class), .update = succeed};
  ainb_runtime* before = ainb_runtime_create();
  CHECK(ainb_runtime_register_node(before, "ExecuteBlackboardSetS32", &own) == AINB_OK);
  CHECK(ainb_runtime_add_generic_nodes(before) == AINB_OK);
  CHECK(count_after(before, counter_path, 2) == 0);
  ainb_runtime_destroy(before);
  ainb_runtime* after = ainb_runtime_create();
  CHECK(ainb_runtime_add_generic_nodes(after) == AINB_OK);
  CHECK(ainb_runtime_register_node(after, "ExecuteBlackboardSetS32", &own) == AINB_OK);
  CHECK(count_after(after, counter_path, 2) == 0);
  ainb_runtime_destroy(after);

  CHECK(ainb_runtime_add_generic_nodes(NULL) == AINB_ERROR_ARGUMENT);
}

/* wrapper.root: Wrap runs its Execute child, Leaf, which is Running once, then succeeds. */
typedef struct leaf_log {
  int enters, updates, leaves;
} leaf_log;
static void leaf_enter(ainb_node* node, void* class_data) {
  (void)node;
  ((leaf_log*)class_data)->enters++;
}
static ainb_result leaf_update(ainb_node* node, void* class_data) {
  (void)node;
  return ++((leaf_log*)class_data)->updates % 2 == 1 ? AINB_RUNNING : AINB_SUCCESS;
}
static void leaf_leave(ainb_node* node, void* class_data) {
  (void)node;
  ((leaf_log*)class_data)->leaves++;
}
/* A wrapper that misuses its instance and then runs its child: the fault is the wrapper's. */
static ainb_instance* misusing_self = NULL;
static ainb_result misusing_wrap_update(ainb_node* node, void* class_data) {
  CHECK(ainb_instance_stop(*(ainb_instance**)class_data) == AINB_ERROR_ARGUMENT);
  CHECK(ainb_node_run_child(node, 0) == AINB_FAILURE); /* nothing runs after the misuse */
  return AINB_SUCCESS;
}
static ainb_result wrap_update(ainb_node* node, void* class_data) {
  (void)class_data;
  CHECK(ainb_node_child_count(node) == 1 && equals(ainb_node_child_name(node, 0), "Execute"));
  CHECK(ainb_node_run_child(node, 5) == AINB_SUCCESS); /* no such child */
  return ainb_node_run_child(node, 0);
}

static void test_children(const char* wrapper_path) {
  ainb_runtime* rt = ainb_runtime_create();
  leaf_log log = {0, 0, 0};
  const ainb_node_class wrap = {.size = sizeof(ainb_node_class), .update = wrap_update};
  const ainb_node_class leaf = {.size = sizeof(ainb_node_class),
                                .enter = leaf_enter,
                                .update = leaf_update,
                                .leave = leaf_leave,
                                .class_data = &log};
  CHECK(ainb_runtime_register_node(rt, "Wrap", &wrap) == AINB_OK);
  CHECK(ainb_runtime_register_node(rt, "Leaf", &leaf) == AINB_OK);
  ainb_graph* graph = ainb_graph_load(rt, wrapper_path);
  CHECK(graph != NULL);
  ainb_instance* actor = ainb_instance_create(graph, 1, NULL);
  CHECK(ainb_instance_start(actor, "Run") == AINB_OK);
  CHECK(ainb_instance_tick(actor) == AINB_OK);
  CHECK(log.enters == 1 && log.updates == 1 && log.leaves == 0);
  CHECK(ainb_instance_state(actor) == AINB_COMMAND_RUNNING);
  CHECK(ainb_instance_tick(actor) == AINB_OK);
  CHECK(log.enters == 1 && log.updates == 2 && log.leaves == 1);
  CHECK(ainb_instance_state(actor) == AINB_SUCCEEDED);
  /* Stopped while the child runs: the wrapper's leave leaves it first. */
  CHECK(ainb_instance_start(actor, "Run") == AINB_OK);
  CHECK(ainb_instance_tick(actor) == AINB_OK);
  CHECK(ainb_instance_stop(actor) == AINB_OK);
  CHECK(log.enters == 2 && log.leaves == 2);
  CHECK(ainb_node_child_count(NULL) == 0 && ainb_node_run_child(NULL, 0) == AINB_SUCCESS);
  ainb_instance_destroy(actor);
  ainb_graph_release(graph);
  ainb_runtime_destroy(rt);

  /* A child that faults (here: it calls its own instance's tick) faults the instance once the
     wrapper's callback has returned; nothing unwinds through the C frames. */
  rt = ainb_runtime_create();
  misuser m = {NULL, CALL_TICK, AINB_OK, 0};
  const ainb_node_class misusing_leaf = {
      .size = sizeof(ainb_node_class), .update = misuse_update, .class_data = &m};
  CHECK(ainb_runtime_register_node(rt, "Wrap", &wrap) == AINB_OK);
  CHECK(ainb_runtime_register_node(rt, "Leaf", &misusing_leaf) == AINB_OK);
  graph = ainb_graph_load(rt, wrapper_path);
  m.self = ainb_instance_create(graph, 1, NULL);
  CHECK(ainb_instance_start(m.self, "Run") == AINB_OK);
  CHECK(ainb_instance_tick(m.self) == AINB_OK);
  CHECK(m.returned && ainb_instance_state(m.self) == AINB_FAULTED);
  CHECK(strstr(ainb_instance_fault(m.self), "node 1 (Leaf): user node class threw in update") !=
        NULL);
  ainb_instance_destroy(m.self);
  ainb_graph_release(graph);
  ainb_runtime_destroy(rt);

  /* The wrapper's own misuse, then a child it runs: the fault names the wrapper, not the child. */
  rt = ainb_runtime_create();
  leaf_log quiet = {0, 0, 0};
  const ainb_node_class counted_leaf = {.size = sizeof(ainb_node_class),
                                        .enter = leaf_enter,
                                        .update = leaf_update,
                                        .leave = leaf_leave,
                                        .class_data = &quiet};
  const ainb_node_class misusing_wrap = {.size = sizeof(ainb_node_class),
                                         .update = misusing_wrap_update,
                                         .class_data = &misusing_self};
  CHECK(ainb_runtime_register_node(rt, "Leaf", &counted_leaf) == AINB_OK);
  CHECK(ainb_runtime_register_node(rt, "Wrap", &misusing_wrap) == AINB_OK);
  graph = ainb_graph_load(rt, wrapper_path);
  misusing_self = ainb_instance_create(graph, 1, NULL);
  CHECK(ainb_instance_start(misusing_self, "Run") == AINB_OK);
  CHECK(ainb_instance_tick(misusing_self) == AINB_OK);
  CHECK(ainb_instance_state(misusing_self) == AINB_FAULTED);
  CHECK(strstr(ainb_instance_fault(misusing_self),
               "node 0 (Wrap): user node class threw in update: ainb_instance_stop called") !=
        NULL);
  CHECK(quiet.enters == 0);
  ainb_instance_destroy(misusing_self);
  ainb_graph_release(graph);
  ainb_runtime_destroy(rt);
}

/* ainb_node_class.size: 0, or less than the first version's, is refused; a larger size (a caller
 * built against a later header) is read as far as this version knows. */
static void test_node_class_size(void) {
  ainb_runtime* rt = ainb_runtime_create();
  ainb_node_class unsized = {.update = succeed};
  CHECK(ainb_runtime_register_node(rt, "Unsized", &unsized) == AINB_ERROR_ARGUMENT);
  char expected[256];
  snprintf(expected, sizeof expected,
           "register_node: class \"Unsized\": ainb_node_class.size is 0, less than the first "
           "version's %zu bytes; set it to sizeof(ainb_node_class)",
           sizeof(ainb_node_class));
  CHECK(strcmp(ainb_runtime_last_error(rt), expected) == 0);
  unsized.size = sizeof(ainb_node_class) - 1;
  CHECK(ainb_runtime_register_node(rt, "Unsized", &unsized) == AINB_ERROR_ARGUMENT);
  CHECK(strstr(ainb_runtime_last_error(rt), "ainb_node_class.size is ") != NULL);
  struct {
    ainb_node_class known;
    void (*later)(void); /* a field a later version might add */
  } larger = {{.size = sizeof larger, .update = succeed}, NULL};
  CHECK(ainb_runtime_register_node(rt, "Larger", &larger.known) == AINB_OK);
  ainb_runtime_destroy(rt);
}

/* A host allocator that counts its calls (ainb_allocator). */
typedef struct counting_allocator {
  size_t allocations, deallocations;
  size_t last_size, last_alignment, freed_size;
  int refuse; /* allocate returns NULL */
} counting_allocator;

static void* counting_allocate(void* data, size_t size, size_t alignment) {
  counting_allocator* a = (counting_allocator*)data;
  if (a->refuse) return NULL;
  ++a->allocations;
  a->last_size = size;
  a->last_alignment = alignment;
  return aligned_alloc(alignment, (size + alignment - 1) / alignment * alignment);
}
static void counting_deallocate(void* data, void* block, size_t size, size_t alignment) {
  counting_allocator* a = (counting_allocator*)data;
  CHECK(alignment == a->last_alignment);
  ++a->deallocations;
  a->freed_size = size;
  free(block);
}

static void test_allocator(const char* patrol_path) {
  ainb_runtime* rt = ainb_runtime_create();
  ainb_graph* graph = ainb_graph_load(rt, patrol_path);
  CHECK(graph != NULL);
  const size_t block = ainb_graph_instance_block_size(graph);
  CHECK(block > 0 && ainb_graph_instance_block_size(NULL) == 0);

  counting_allocator counts = {0, 0, 0, 0, 0, 0};
  guard g = {0.0f, 0, 0};
  const ainb_instance_options options = {
      .size = sizeof(ainb_instance_options),
      .seed = 1,
      .host = &g,
      .allocator = {counting_allocate, counting_deallocate, &counts}};
  ainb_instance* actor = ainb_instance_create_with(graph, &options);
  CHECK(actor != NULL);
  /* One block, of the size the graph reports, aligned for any object. */
  CHECK(counts.allocations == 1 && counts.deallocations == 0);
  CHECK(counts.last_size == block);
  CHECK(counts.last_alignment >= 8 && (counts.last_alignment & (counts.last_alignment - 1)) == 0);
  CHECK(ainb_instance_start(actor, "Root") == AINB_OK);
  for (int frame = 0; frame < 20; ++frame)
    CHECK(ainb_instance_tick(actor) == AINB_OK);
  CHECK(ainb_instance_stop(actor) == AINB_OK);
  CHECK(ainb_instance_start(actor, "Alert") == AINB_OK);
  CHECK(ainb_instance_tick(actor) == AINB_OK);
  CHECK(counts.allocations == 1 && counts.deallocations == 0); /* nothing after creation */
  ainb_instance_destroy(actor);
  CHECK(counts.allocations == 1 && counts.deallocations == 1 && counts.freed_size == block);

  /* allocate returning NULL: the creation fails, nothing is freed. */
  counts.refuse = 1;
  CHECK(ainb_instance_create_with(graph, &options) == NULL);
  CHECK(counts.allocations == 1 && counts.deallocations == 1);
  counts.refuse = 0;

  /* Refused options: a size of 0 or below the first version's, one callback without the other. */
  ainb_instance_options bad = options;
  bad.size = 0;
  CHECK(ainb_instance_create_with(graph, &bad) == NULL);
  bad.size = sizeof(ainb_instance_options) - 1;
  CHECK(ainb_instance_create_with(graph, &bad) == NULL);
  bad = options;
  bad.allocator.deallocate = NULL;
  CHECK(ainb_instance_create_with(graph, &bad) == NULL);
  CHECK(counts.allocations == 1);
  CHECK(ainb_instance_create_with(NULL, &options) == NULL);

  /* No allocator, or no options at all: the C++ heap. */
  const ainb_instance_options plain = {.size = sizeof(ainb_instance_options), .seed = 2};
  actor = ainb_instance_create_with(graph, &plain);
  CHECK(actor != NULL && ainb_instance_start(actor, "Root") == AINB_OK);
  ainb_instance_destroy(actor);
  actor = ainb_instance_create_with(graph, NULL);
  CHECK(actor != NULL);
  ainb_instance_destroy(actor);
  CHECK(counts.allocations == 1 && counts.deallocations == 1);

  ainb_graph_release(graph);
  ainb_runtime_destroy(rt);
}

/* The log callback: what it received, copied. */
typedef struct log_record {
  int count;
  ainb_log_level level[4];
  ainb_log_kind kind[4];
  char file[4][64];
  int64_t node[4];
  char subject[4][64];
  char detail[4][256];
  char message[4][256];
} log_record;

static void copy_c(char* out, size_t size, ainb_string s) {
  const size_t n = s.size < size - 1 ? s.size : size - 1;
  if (n > 0) memcpy(out, s.data, n); /* an empty string's data may be NULL */
  out[n] = '\0';
}

static void record_log(const ainb_log_event* e, void* user_data) {
  log_record* r = (log_record*)user_data;
  if (r->count >= 4) {
    ++r->count;
    return;
  }
  const int k = r->count++;
  r->level[k] = e->level;
  r->kind[k] = e->kind;
  copy_c(r->file[k], sizeof r->file[k], e->file);
  r->node[k] = e->node;
  copy_c(r->subject[k], sizeof r->subject[k], e->subject);
  copy_c(r->detail[k], sizeof r->detail[k], e->detail);
  copy_c(r->message[k], sizeof r->message[k], e->message);
}

/* Loads alert.root.ainb (a Sequential: an Element_Alert, then a module call whose file is
 * missing) and runs its command to its end; `err` receives what was written to stderr meanwhile
 * (file descriptor 2, captured). */
static void run_alert_file(ainb_runtime* rt, const char* alert_path, char* err, size_t size) {
  fflush(stderr);
  FILE* capture = tmpfile();
  const int saved = dup(2);
  dup2(fileno(capture), 2);
  ainb_graph* graph = ainb_graph_load(rt, alert_path);
  ainb_status started = AINB_ERROR_ARGUMENT;
  ainb_command_state state = AINB_IDLE;
  if (graph != NULL) {
    ainb_instance* actor = ainb_instance_create(graph, 0, NULL);
    ainb_graph_release(graph); /* the instance keeps the graph, and the callback */
    started = ainb_instance_start(actor, "Root");
    for (int frame = 0; frame < 3; ++frame) /* the alert, then the stub */
      ainb_instance_tick(actor);
    state = ainb_instance_state(actor);
    ainb_instance_destroy(actor);
  }
  fflush(stderr);
  dup2(saved, 2);
  close(saved);
  rewind(capture);
  const size_t n = fread(err, 1, size - 1, capture);
  err[n] = '\0';
  fclose(capture);
  /* Checked once stderr is back, where a failed check writes. */
  CHECK(graph != NULL);
  if (graph == NULL) fprintf(stderr, "%s\n", ainb_runtime_last_error(rt));
  CHECK(started == AINB_OK);
  CHECK(state == AINB_SUCCEEDED);
  if (n != 0) fprintf(stderr, "on stderr: %s\n", err);
}

static void test_log(const char* alert_path) {
  ainb_runtime* rt = ainb_runtime_create();
  ainb_runtime_set_stub_missing_modules(rt, true);
  ainb_runtime_add_module_dir(rt, "/nonexistent/modules");
  char err[1024];
  /* No callback: nothing anywhere. */
  run_alert_file(rt, alert_path, err, sizeof err);
  CHECK(strcmp(err, "") == 0);
  /* A callback: the warning at load, the alert at the tick; still nothing on stderr. */
  log_record r;
  memset(&r, 0, sizeof r);
  ainb_runtime_set_log(rt, record_log, &r);
  run_alert_file(rt, alert_path, err, sizeof err);
  CHECK(strcmp(err, "") == 0);
  CHECK(r.count == 2);
  CHECK(r.level[0] == AINB_LOG_WARNING);
  CHECK(r.kind[0] == AINB_LOG_MISSING_MODULE);
  CHECK(strstr(alert_path, r.file[0]) != NULL); /* the file as loaded: its path */
  CHECK(r.node[0] == 2);
  CHECK(strcmp(r.subject[0], "Gone.module.ainb") == 0);
  CHECK(strcmp(r.detail[0], "searched /nonexistent/modules") == 0);
  CHECK(strcmp(r.message[0],
               "module \"Gone.module.ainb\" not found (searched /nonexistent/modules); node 2 "
               "runs as a stub") == 0);
  CHECK(r.level[1] == AINB_LOG_INFO);
  CHECK(r.kind[1] == AINB_LOG_ALERT);
  CHECK(strcmp(r.file[1], r.file[0]) == 0);
  CHECK(r.node[1] == 1);
  CHECK(strcmp(r.subject[1], "") == 0);
  CHECK(strcmp(r.message[1], "unexpected form") == 0);
  /* Unset: graphs loaded afterwards report to nobody. */
  ainb_runtime_set_log(rt, NULL, NULL);
  run_alert_file(rt, alert_path, err, sizeof err);
  CHECK(strcmp(err, "") == 0);
  CHECK(r.count == 2);
  ainb_runtime_set_log(NULL, record_log, &r); /* refused quietly */
  ainb_runtime_destroy(rt);
}

/* Whether the trace read now holds a reload event followed by the start of "Root". */
static int reload_then_command(ainb_instance* actor) {
  ainb_event events[64];
  const size_t n = ainb_instance_read_events(actor, events, 64);
  for (size_t k = 0; k + 1 < n; ++k) {
    if (events[k].kind == AINB_EVENT_RELOAD)
      return events[k].node == -1 && events[k + 1].kind == AINB_EVENT_COMMAND &&
             equals(events[k + 1].detail, "Root");
  }
  return 0;
}

static void test_reload(const char* patrol_path) {
  /* The patrol example copied to a file of the test's own, which it then edits. */
  FILE* in = fopen(patrol_path, "rb");
  CHECK(in != NULL);
  if (in == NULL) return;
  static unsigned char bytes[1 << 16];
  const size_t size = fread(bytes, 1, sizeof bytes, in);
  fclose(in);
  char path[] = "/tmp/ainb_capi_reload_XXXXXX";
  const int fd = mkstemp(path);
  CHECK(fd >= 0 && write(fd, bytes, size) == (ssize_t)size);
  close(fd);

  ainb_runtime* rt = ainb_runtime_create();
  ainb_graph* first = ainb_graph_load(rt, path);
  CHECK(first != NULL);
  ainb_instance* actor = ainb_instance_create(first, 1, NULL);
  CHECK(ainb_instance_enable_trace(actor, 64) == AINB_OK);
  CHECK(ainb_instance_start(actor, "Root") == AINB_OK);
  CHECK(ainb_instance_tick(actor) == AINB_OK);
  bool switched = true;
  CHECK(ainb_instance_switch_to_latest(actor, &switched) == AINB_OK && !switched);

  /* Saved again: the running actor moves on request, and restarts its command. */
  ainb_graph* second = ainb_graph_reload(rt, path);
  CHECK(second != NULL);
  ainb_event drain[64];
  while (ainb_instance_read_events(actor, drain, 64) > 0) {
  }
  CHECK(ainb_instance_switch_to_latest(actor, &switched) == AINB_OK && switched);
  CHECK(ainb_instance_state(actor) == AINB_COMMAND_RUNNING);
  CHECK(reload_then_command(actor));

  /* Saved half-written: no new graph, the reason, and the actor keeps its graph. */
  FILE* out = fopen(path, "wb");
  CHECK(out != NULL && fwrite(bytes, 1, 16, out) == 16);
  fclose(out);
  CHECK(ainb_graph_reload(rt, path) == NULL);
  char expected[256];
  snprintf(expected, sizeof expected,
           "%s: header at offset 0x0: file is 16 bytes, too small for the 0x74-byte header", path);
  CHECK(strcmp(ainb_runtime_last_error(rt), expected) == 0);
  CHECK(ainb_instance_stop(actor) == AINB_OK);
  CHECK(ainb_instance_start(actor, "Root") == AINB_OK);
  CHECK(!reload_then_command(actor));
  CHECK(ainb_graph_reload(rt, NULL) == NULL);
  CHECK(strcmp(ainb_runtime_last_error(rt), "graph_reload: no path") == 0);

  ainb_instance_destroy(actor);
  ainb_graph_release(second);
  ainb_graph_release(first);
  ainb_runtime_destroy(rt);
  remove(path);
}

int main(int argc, char** argv) {
  if (argc != 6) {
    fprintf(stderr,
            "usage: capi_test PATROL.ainb CORPUS_DIR COUNTER.ainb WRAPPER.ainb ALERT.ainb\n");
    return 2;
  }
  test_patrol(argv[1]);
  test_load_errors();
  test_misuse(argv[1]);
  test_user_functions(argv[2]);
  test_generic_nodes(argv[3]);
  test_children(argv[4]);
  test_node_class_size();
  test_allocator(argv[1]);
  test_reload(argv[1]);
  test_log(argv[5]);
  if (failures > 0) {
    fprintf(stderr, "%d check(s) failed\n", failures);
    return 1;
  }
  printf("capi_test: all checks passed\n");
  return 0;
}
