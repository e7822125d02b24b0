#include "actor.hpp"

#include <algorithm>

#include "ainb/gamedata/blackboard_files.hpp"
#include "ainb/gamedata/catalogue.hpp"
#include "ainb/gamedata/generic_nodes.hpp"
#include "ainb/gamedata/romfs.hpp"

namespace ainb::simulation {

namespace {

void collect_graphs(const runtime::Graph& graph, std::vector<const runtime::Graph*>& out) {
  if (std::find(out.begin(), out.end(), &graph) != out.end()) return;
  out.push_back(&graph);
  for (const auto* module : graph.module_graphs())
    collect_graphs(*module, out);
}

}  // namespace

std::vector<const runtime::Graph*> actor_graphs(const runtime::Graph& graph) {
  std::vector<const runtime::Graph*> out;
  collect_graphs(graph, out);
  return out;
}

const runtime::Graph* actor_file(const runtime::Graph& graph, std::string_view file) {
  if (file.empty()) return &graph;
  for (const auto* g : actor_graphs(graph)) {
    if (g->file_name() == file) return g;
  }
  return nullptr;
}

void log_warning(const runtime::LogSink* log, runtime::LogKind kind, std::string_view file,
                 std::string_view subject, std::string_view text) {
  if (!runtime::listening(log)) return;
  (*log)(runtime::LogEvent{.level = runtime::LogLevel::Warning,
                           .kind = kind,
                           .file = file,
                           .subject = subject,
                           .message = text});
}

std::shared_ptr<const formats::NodeCatalogue> load_catalogue(const RunOptions& options) {
  const auto dictionaries = gamedata::load_dictionaries(options.romfs, options.zsdic);
  std::vector<std::string> specs;
  for (const auto& path : options.definitions)
    specs.push_back(path.string());
  // Without --defs, a romfs's own NodeDefinition files (none: no stub outputs).
  return std::make_shared<const formats::NodeCatalogue>(
      gamedata::load_node_definitions(specs, options.romfs, &dictionaries));
}

void configure_registry(runtime::NodeRegistry& registry, const RunOptions& options) {
  registry.stub_runs_first_child = options.stub_children;
  registry.stub_running_updates = static_cast<std::uint32_t>(options.stub_running_updates);
  if (options.generic_nodes || options.ambiguous_readings)
    gamedata::add_generic_nodes(registry, {.ambiguous_readings = options.ambiguous_readings});
}

Actor build_actor(const std::filesystem::path& file, const RunOptions& options,
                  const AddClasses& add_classes, const exb::UserFunctions& functions) {
  const auto spec = gamedata::parse_file_spec(file.string());
  const bool packed = !spec.member.empty();
  const auto dictionaries = gamedata::load_dictionaries(options.romfs, options.zsdic);
  gamedata::FileSource source(options.romfs, &dictionaries);
  if (options.shared_packs) source.add_shared_packs(options.shared_packs);
  auto model = gamedata::open_ai_file(file.string(), source);
  Actor actor;
  actor.catalogue = options.catalogue ? options.catalogue : load_catalogue(options);
  runtime::NodeRegistry registry;
  if (!actor.catalogue->classes().empty())
    actor.stub_outputs = registry.stub_outputs = gamedata::catalogue_stub_outputs(*actor.catalogue);
  for (const auto& [cls, node_class] : options.node_classes)
    registry.add(cls, node_class);
  if (add_classes) add_classes(registry);
  configure_registry(registry, options);
  // Modules: the --modules folders (default: the file's own, for a plain file), then the file's
  // pack, the shared packs and the romfs (when any of them is used).
  auto dirs = options.modules;
  if (dirs.empty() && !packed) {
    dirs.push_back(spec.file.parent_path().empty() ? "." : spec.file.parent_path());
  }
  const bool game_layout = packed || !options.romfs.empty() || options.shared_packs;
  runtime::ChainResolver modules;
  const runtime::DirectoryResolver directories(dirs);
  const gamedata::RomfsResolver romfs(source);
  if (!dirs.empty()) modules.add(&directories);
  if (game_layout) modules.add(&romfs);
  gamedata::BlackboardFiles blackboard_files(source);
  runtime::GraphOptions graph_options{.functions = &functions,
                                      .modules = &modules,
                                      .missing_modules = options.stub_missing_modules
                                                             ? runtime::MissingModulePolicy::Stub
                                                             : runtime::MissingModulePolicy::Error,
                                      .log = options.log,
                                      .simultaneous_ends_first = options.simultaneous_ends_first};
  if (game_layout) graph_options.blackboard_defaults = blackboard_files.hook();
  actor.graph = std::make_shared<const runtime::Graph>(model, registry, graph_options);
  actor.warnings = blackboard_files.warnings();
  for (const auto& warning : actor.warnings)
    log_warning(options.log, runtime::LogKind::ParameterFile, model->name, {}, warning);
  return actor;
}

}  // namespace ainb::simulation
