/* Uses the installed C API (ainb.h) from outside the project's tree, linked against libainb.so
 * or the static ainb::c: loads a file, registers a node class and runs the file's first command
 * for ten frames in an instance whose block comes from the host's allocator.
 * scripts/test-install.sh checks the line it prints. */

#include <stdio.h>
#include <stdlib.h>

#include "ainb/ainb.h"

static ainb_result count_update(ainb_node* node, void* class_data) {
  (void)node;
  ++*(int*)class_data;
  return AINB_SUCCESS;
}

static void* host_allocate(void* data, size_t size, size_t alignment) {
  ++*(int*)data;
  return aligned_alloc(alignment, (size + alignment - 1) / alignment * alignment);
}
static void host_deallocate(void* data, void* block, size_t size, size_t alignment) {
  (void)size;
  (void)alignment;
  --*(int*)data;
  free(block);
}

int main(int argc, char** argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: consumer_c FILE.ainb CLASS\n");
    return 2;
  }
  ainb_runtime* rt = ainb_runtime_create();
  int updates = 0;
  const ainb_node_class counted = {
      .size = sizeof(ainb_node_class), .update = count_update, .class_data = &updates};
  if (ainb_runtime_register_node(rt, argv[2], &counted) != AINB_OK) {
    fprintf(stderr, "%s\n", ainb_runtime_last_error(rt));
    return 1;
  }
  ainb_graph* graph = ainb_graph_load(rt, argv[1]);
  if (graph == NULL) {
    fprintf(stderr, "%s\n", ainb_runtime_last_error(rt));
    return 1;
  }
  int blocks = 0;
  const ainb_instance_options options = {.size = sizeof(ainb_instance_options),
                                         .seed = 1,
                                         .allocator = {host_allocate, host_deallocate, &blocks}};
  ainb_instance* actor = ainb_instance_create_with(graph, &options);
  if (actor == NULL || ainb_instance_start_index(actor, 0) != AINB_OK) return 1;
  for (int frame = 0; frame < 10; ++frame)
    ainb_instance_tick(actor);
  printf("consumer_c: %zu nodes, %d %s updates in %llu frames, %d block of %zu bytes\n",
         ainb_graph_node_count(graph), updates, argv[2],
         (unsigned long long)ainb_instance_frame(actor), blocks,
         ainb_graph_instance_block_size(graph));
  ainb_instance_destroy(actor);
  ainb_graph_release(graph);
  ainb_runtime_destroy(rt);
  return blocks == 0 ? 0 : 1;
}
