#pragma once

// The front door: the node classes, user functions and module folders of a game in one object,
// which loads files into graphs that actors (Instances) run.
//
//   ainb::runtime::Runtime runtime;
//   runtime.add<MoveTo>("MoveTo");                              // a NodeClass
//   runtime.add("Wait", [](NodeContext&) { return Result::Success; });  // a one-line node
//   auto graph = runtime.load("patrol.root.ainb");  // its modules from its own folder
//   Instance actor(graph, {.host = &guard});
//   actor.start("Root");
//   actor.tick_while_running(600);
//
// What a runtime holds is read when a file is loaded, never while actors tick: classes added
// after a load serve the files loaded after it. docs/embedding.md.

#include <concepts>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "ainb/exb/user_functions.hpp"
#include "ainb/runtime/graph.hpp"
#include "ainb/runtime/instance.hpp"
#include "ainb/runtime/log.hpp"
#include "ainb/runtime/modules.hpp"
#include "ainb/runtime/node_class.hpp"

namespace ainb::runtime {

class Runtime {
 public:
  Runtime() = default;
  Runtime(const Runtime&) = delete;
  Runtime& operator=(const Runtime&) = delete;

  // Node classes, by the class name UserDefined nodes carry. Each replaces a class added under
  // that name before; a class that overrides a hook its NodeClass::Hooks leave out is refused
  // (std::invalid_argument), as the runtime would never call it. One object serves every node
  // of the class on every thread (node_class.hpp, at the top).
  //
  // Constructs a T from `args` and adds it; returns it (to keep its handles, say).
  template <std::derived_from<NodeClass> T, typename... Args>
  std::shared_ptr<T> add(std::string name, Args&&... args) {
    auto node_class = std::make_shared<T>(std::forward<Args>(args)...);
    registry_.add(std::move(name), node_class);
    return node_class;
  }
  template <std::derived_from<NodeClass> T>
  void add(std::string name, std::shared_ptr<T> node_class) {
    registry_.add(std::move(name), std::move(node_class));
  }
  // A node that only updates: `update(NodeContext&)` returns its Result. Its captures are
  // shared by every node and thread, as a class's members are.
  template <typename F>
  requires std::is_invocable_r_v<Result, const F&, NodeContext&>
  void add(std::string name, F update) {
    registry_.add(std::move(name), std::make_shared<FunctionNode<F>>(std::move(update)));
  }

  // EXB user functions the files' expressions call, by signature
  // ("GetBBCodeFloat( Float, Int )"; exb/user_functions.hpp says the C++ types).
  template <typename F>
  void add_function(std::string_view signature, F&& function) {
    functions_.add(signature, std::forward<F>(function));
  }
  exb::UserFunctions& functions() { return functions_; }

  // Where module files are found, in the order added: folders (DirectoryResolver: DIR/PATH,
  // then DIR/AI/PATH), then resolvers (a romfs, files in memory). With none, a file's modules
  // are looked for in its own folder.
  void add_module_folder(std::filesystem::path folder);
  void add_module_resolver(std::shared_ptr<const ModuleResolver> resolver);

  // Opens what load(spec) names when it is not a plain path: the game-data layer installs one
  // for romfs paths and Pack/X.pack.zs:AI/X.ainb (gamedata::use_romfs). Throws LoadError.
  using FileOpener = std::function<std::shared_ptr<const Model>(std::string_view spec)>;
  void set_file_opener(FileOpener opener) { opener_ = std::move(opener); }

  // Where warnings go (a module or user function the host lacks, said once per file at load)
  // and, for instances given it (`Instance actor(graph, {.log = runtime.log()})`, the runtime
  // outliving them), Element_Alert messages. None: nothing is said (log.hpp).
  void set_log(LogSink sink) { log_ = std::move(sink); }
  const LogSink* log() const { return log_ ? &log_ : nullptr; }

  // Classes nobody added: stubs or an error (NodeRegistry's policies).
  NodeRegistry& registry() { return registry_; }
  // How graphs are built (missing modules, blackboard defaults, limits). Each load sets
  // `functions`, `modules` and `log` to the runtime's own.
  GraphOptions& options() { return options_; }

  // Loads a file with its modules and builds its graph. Throws LoadError for a bad or missing
  // file (naming file, section, offset and problem) and for a missing module (unless
  // options().missing_modules is Stub), std::invalid_argument for a class the registry's
  // policy refuses.
  std::shared_ptr<const Graph> load(std::string_view spec);
  // The same from bytes in memory (`name` in messages); modules from the folders and resolvers
  // added only.
  std::shared_ptr<const Graph> load(std::span<const std::uint8_t> bytes, std::string name);
  // The same from a loaded model; `folder`, if not empty, is where its modules are found when
  // no folder or resolver was added.
  std::shared_ptr<const Graph> build(std::shared_ptr<const Model> model,
                                     const std::filesystem::path& folder = {});

  // Hot reload (docs/embedding.md, "Hot reload"): loads `spec` again, the file and its modules
  // read afresh, as load does. The graph the last load or reload of `spec` returned gets the new
  // one as its successor: instances running it move to it at their next start (or at
  // Instance::switch_to_latest), and instances created from either run the new one. A file that
  // fails to load changes nothing: `error` says why, and the actors keep their graph. Called on
  // one thread at a time (as load), while instances tick on any.
  struct Reload {
    std::shared_ptr<const Graph> graph;  // null when the load failed
    std::string error;                   // the LoadError's (or registry's) message
    explicit operator bool() const { return graph != nullptr; }
  };
  Reload reload(std::string_view spec);
  // The same for a file loaded from bytes under `name`.
  Reload reload(std::span<const std::uint8_t> bytes, std::string name);

 private:
  Reload replace(std::string key, const std::function<std::shared_ptr<const Graph>()>& load);

  NodeRegistry registry_;
  exb::UserFunctions functions_;
  GraphOptions options_;
  std::vector<std::filesystem::path> folders_;
  std::vector<std::shared_ptr<const ModuleResolver>> resolvers_;
  FileOpener opener_;
  LogSink log_;
  // What load and reload last returned for each path or name: a reload's predecessor.
  std::map<std::string, std::weak_ptr<const Graph>, std::less<>> loaded_;
};

}  // namespace ainb::runtime
