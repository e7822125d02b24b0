#pragma once

// The JSON text form of an AINB file (docs/text-form.md): the whole model, nested per node and
// editable by hand, with expressions as EXB assembly and a small `layout` part that makes an
// unedited file come back byte for byte.

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "ainb/model.hpp"

namespace ainb::writer {

inline constexpr std::string_view kTextFormat = "ainb-text/1";

// A file the text form cannot describe, or text that is not a valid file. `path()` is the JSON
// pointer of the offending value ("/nodes/3/inputs/int/0/source/node"); what() reads
// "<path>: <reason>".
class TextFormError : public std::runtime_error {
 public:
  TextFormError(std::string path, const std::string& reason)
      : std::runtime_error((path.empty() ? std::string("/") : path) + ": " + reason),
        path_(std::move(path)) {}
  const std::string& path() const noexcept { return path_; }

 private:
  std::string path_;
};

// The text form of a loaded model (its layout captured from model.bytes).
nlohmann::ordered_json to_text(const Model& model);

// AINB bytes from the text form. Every value is checked and an error names its JSON path; the
// bytes are then read back by the loader, so the result always loads. `name` is used in loader
// messages. Throws TextFormError.
std::vector<std::uint8_t> from_text(const nlohmann::ordered_json& text,
                                    const std::string& name = "text form");

}  // namespace ainb::writer
