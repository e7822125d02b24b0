#pragma once

// Finding the files that module nodes call. A module node's name is the module's path without
// ".ainb" (the file's Modules section lists the same paths); a resolver turns that path into a
// loaded model. Resolvers are used while a Graph is built, never while it runs.

#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "ainb/model.hpp"

namespace ainb::runtime {

class ModuleResolver {
 public:
  virtual ~ModuleResolver() = default;
  // The module file `path` (e.g. "Toby.action.basicattack.module.ainb"), or null when it is
  // not found. Throws LoadError when it is found but does not load.
  virtual std::shared_ptr<const Model> find(std::string_view path) const = 0;
  // Where find() looks, for the message when a module is missing.
  virtual std::string where() const = 0;
};

// Looks in each directory in turn, for `DIR/path` and then `DIR/AI/path` (the layout of an
// unpacked actor pack). Each file is loaded once and kept.
class DirectoryResolver : public ModuleResolver {
 public:
  explicit DirectoryResolver(std::vector<std::filesystem::path> directories);
  std::shared_ptr<const Model> find(std::string_view path) const override;
  std::string where() const override;

 private:
  std::vector<std::filesystem::path> directories_;
  mutable std::mutex mutex_;
  mutable std::map<std::string, std::shared_ptr<const Model>, std::less<>> loaded_;
};

// Modules held in memory, by path: for tests and for hosts that read files from archives.
class MemoryResolver : public ModuleResolver {
 public:
  void add(std::string path, std::shared_ptr<const Model> model);
  std::shared_ptr<const Model> find(std::string_view path) const override;
  std::string where() const override;

 private:
  std::map<std::string, std::shared_ptr<const Model>, std::less<>> models_;
};

// Asks several resolvers in turn (e.g. module folders, then a romfs); the resolvers must outlive
// it.
class ChainResolver : public ModuleResolver {
 public:
  void add(const ModuleResolver* resolver) { resolvers_.push_back(resolver); }
  std::shared_ptr<const Model> find(std::string_view path) const override;
  std::string where() const override;

 private:
  std::vector<const ModuleResolver*> resolvers_;
};

}  // namespace ainb::runtime
