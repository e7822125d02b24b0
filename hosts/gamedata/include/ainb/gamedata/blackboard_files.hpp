#pragma once

// Blackboard entries that reference a parameter file (the blackboard section's file references):
// the value the file gives the entry becomes the entry's initial value
// (runtime::GraphOptions::blackboard_defaults). See docs/semantics.md, "Blackboard files".

#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "ainb/formats/aamp.hpp"
#include "ainb/formats/byml.hpp"
#include "ainb/gamedata/romfs.hpp"
#include "ainb/runtime/graph.hpp"

namespace ainb::gamedata {

// The romfs paths tried for a referenced path, in order: as stored, then without a leading
// "Work/" (TotK stores the path of the editor's source file), each also with the binary
// extension ("x.gyml" -> "x.bgyml": a "b" before the last extension, when it lacks one).
std::vector<std::string> parameter_file_candidates(std::string_view referenced);

class BlackboardFiles {
 public:
  // The source must outlive this object and the graphs built with its hook.
  explicit BlackboardFiles(const FileSource& source) : source_(source) {}

  // The hook for GraphOptions::blackboard_defaults. The object must outlive the graph build.
  runtime::BlackboardDefaults hook();

  // The value for entry `entry` of `file`, or nullopt (no reference, file missing, no value of
  // the entry's name and type): each such case but the first adds one warning.
  std::optional<Value> value(const Model& file, std::uint32_t entry);

  // Readable warnings, in the order they arose ("FILE: blackboard entry NAME references PATH,
  // which was not found (searched ...): the stored default is used").
  const std::vector<std::string>& warnings() const { return warnings_; }

 private:
  struct Parameters {
    std::string where;
    std::optional<formats::byml::Document> byml;
    std::optional<formats::aamp::ParameterIO> aamp;
  };
  const Parameters* load(const std::string& referenced, const Model& file, std::string_view entry);

  const FileSource& source_;
  std::mutex mutex_;
  std::map<std::string, std::unique_ptr<Parameters>> files_;  // null: not found / not readable
  std::vector<std::string> warnings_;
};

}  // namespace ainb::gamedata
