// The romfs behind Runtime::load (use_romfs.hpp): one FileSource shared by the opener, the
// module resolver and the blackboard files, kept alive by the runtime's hooks.

#include "ainb/gamedata/use_romfs.hpp"

#include <optional>

#include "ainb/gamedata/blackboard_files.hpp"
#include "ainb/gamedata/romfs.hpp"

namespace ainb::gamedata {

namespace {

struct Romfs {
  Romfs(const std::filesystem::path& root, const std::filesystem::path& zsdic)
      : dictionaries(load_dictionaries(root, zsdic)),
        source(root, &dictionaries),
        modules(source) {}
  formats::ZstdDictionaries dictionaries;
  FileSource source;
  RomfsResolver modules;
  // Made afresh by each load of a spec, which thus reads loose parameter files again (a reload
  // sees an edited one) and says each problem once per load, as missing modules are.
  std::optional<BlackboardFiles> blackboard_files;
};

}  // namespace

void use_romfs(runtime::Runtime& runtime, const std::filesystem::path& romfs,
               const std::filesystem::path& zsdic) {
  auto files = std::make_shared<Romfs>(romfs, zsdic);
  runtime.set_file_opener([files](std::string_view spec) {
    files->blackboard_files.emplace(files->source);
    return open_ai_file(spec, files->source);
  });
  runtime.add_module_resolver(
      std::shared_ptr<const runtime::ModuleResolver>(files, &files->modules));
  // A parameter file missing or not fitting is said to the runtime's sink as it is found (the
  // hook runs inside runtime.load, so the runtime is there).
  runtime.options().blackboard_defaults = [files, &runtime](const Model& file,
                                                            std::uint32_t entry) {
    if (!files->blackboard_files) files->blackboard_files.emplace(files->source);  // load(bytes)
    const auto said = files->blackboard_files->warnings().size();
    auto value = files->blackboard_files->value(file, entry);
    const auto& warnings = files->blackboard_files->warnings();
    if (const auto* log = runtime.log(); log != nullptr) {
      for (auto k = said; k < warnings.size(); ++k)
        (*log)(runtime::LogEvent{.level = runtime::LogLevel::Warning,
                                 .kind = runtime::LogKind::ParameterFile,
                                 .file = file.name,
                                 .message = warnings[k]});
    }
    return value;
  };
}

}  // namespace ainb::gamedata
