// `ainb convert`: AINB <-> the JSON text form (docs/text-form.md), and `--check`, the byte-exact
// round trip of a file through the writer and the text form.

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "ainb/formats/sarc.hpp"
#include "ainb/loader.hpp"
#include "ainb/runtime/graph.hpp"
#include "ainb/writer/text_form.hpp"
#include "ainb/writer/writer.hpp"
#include "commands.hpp"
#include "registration.hpp"

namespace ainb::cli {

namespace {

bool is_json(const std::string& path) {
  auto extension = std::filesystem::path(path).extension().string();
  std::transform(extension.begin(), extension.end(), extension.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return extension == ".json";
}

void write_bytes(const std::string& path, std::string_view bytes) {
  std::ofstream out(path, std::ios::binary);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  if (!out) throw std::runtime_error("cannot write " + path);
}

nlohmann::ordered_json read_json(const std::string& path) {
  const auto bytes = formats::read_binary_file(path);
  try {
    return nlohmann::ordered_json::parse(bytes.begin(), bytes.end());
  } catch (const nlohmann::json::exception& e) {  // syntax, or a number past double
    throw std::runtime_error(fmt::format("{}: not JSON: {}", path, e.what()));
  }
}

// The AINB bytes of IN, whichever form it is in.
std::vector<std::uint8_t> ainb_bytes(const std::string& path, const FileLookup& source) {
  if (is_json(path)) {
    try {
      return writer::from_text(read_json(path), path);
    } catch (const writer::TextFormError& e) {
      throw std::runtime_error(path + ": " + e.what());
    }
  }
  return writer::write(*open_model(path, source));
}

// Whether `text` is well-formed UTF-8 (no overlong forms, surrogates or code points past
// U+10FFFF), which JSON text must be.
bool is_utf8(std::string_view text) {
  for (std::size_t i = 0; i < text.size();) {
    const auto c = static_cast<unsigned char>(text[i]);
    std::size_t length = 0;
    char32_t point = 0;
    if (c < 0x80) {
      ++i;
      continue;
    } else if (c >= 0xC2 && c <= 0xDF) {
      length = 2, point = c & 0x1Fu;
    } else if (c >= 0xE0 && c <= 0xEF) {
      length = 3, point = c & 0x0Fu;
    } else if (c >= 0xF0 && c <= 0xF4) {
      length = 4, point = c & 0x07u;
    } else {
      return false;
    }
    if (i + length > text.size()) return false;
    for (std::size_t k = 1; k < length; ++k) {
      const auto next = static_cast<unsigned char>(text[i + k]);
      if ((next & 0xC0u) != 0x80u) return false;
      point = (point << 6) | (next & 0x3Fu);
    }
    const char32_t least[] = {0, 0, 0x80, 0x800, 0x10000};
    if (point < least[length] || point > 0x10FFFF || (point >= 0xD800 && point <= 0xDFFF)) {
      return false;
    }
    i += length;
  }
  return true;
}

// The JSON pointer of the first string (or key) in `j` that is not UTF-8, if any: the text form
// cannot hold such a string, so the conversion names it instead of failing in the JSON library.
std::optional<std::string> first_non_utf8(const nlohmann::ordered_json& j, const std::string& at) {
  if (j.is_string()) {
    if (!is_utf8(j.get_ref<const std::string&>())) return at.empty() ? "/" : at;
  } else if (j.is_array()) {
    for (std::size_t k = 0; k < j.size(); ++k) {
      if (auto found = first_non_utf8(j[k], fmt::format("{}/{}", at, k))) return found;
    }
  } else if (j.is_object()) {
    for (const auto& [key, value] : j.items()) {
      if (!is_utf8(key)) return at + "/(a key)";
      if (auto found = first_non_utf8(value, at + "/" + key)) return found;
    }
  }
  return std::nullopt;
}

// The text form of `model`, refused when one of its strings is not UTF-8.
nlohmann::ordered_json text_of(const Model& model) {
  auto text = writer::to_text(model);
  if (const auto at = first_non_utf8(text, "")) {
    throw std::runtime_error(fmt::format(
        "{}: the text form needs UTF-8 strings, and {} is not UTF-8 (a byte the file's string "
        "table holds is not text)",
        model.name, *at));
  }
  return text;
}

std::string describe(const writer::Difference& d, std::span<const std::uint8_t> original,
                     std::span<const std::uint8_t> written) {
  std::string out = fmt::format("first difference at offset {:#x} ({})", d.offset, d.section);
  if (d.offset < original.size() && d.offset < written.size()) {
    const auto at = static_cast<std::size_t>(d.offset);  // within both, as just checked
    out += fmt::format(": {:#04x} in the file, {:#04x} written", original[at], written[at]);
  } else {
    out += fmt::format(": the file has {} bytes, the writer wrote {}", original.size(),
                       written.size());
  }
  return out;
}

int check(const std::string& path, const FileLookup& source, std::ostream& out, std::ostream& err) {
  const auto model = open_model(path, source);
  std::vector<std::string> differences;
  try {
    differences = round_trip_differences(*model, path);
  } catch (const writer::WriteError& e) {
    err << "error: " << e.what() << '\n';
    return kExitLoadError;
  }
  for (const auto& d : differences)
    out << fmt::format("{}: {}\n", path, d);
  if (!differences.empty()) return kExitDifferent;
  out << fmt::format("{}: byte-exact round trip through the writer and the text form ({} bytes)\n",
                     path, model->bytes.size());
  return kExitOk;
}

// What a file written from the text form holds that loads but is likely a mistake: names given
// twice where the game looks them up by name (warnings: the file is written), and what the
// runtime refuses when it builds the graph (a misnamed built-in plug, a cycle of child plugs, a
// Join's InFlowNum, ...: not written unless --force).
struct Doubts {
  std::vector<std::string> warnings;
  std::string refusal;  // empty when `ainb run` builds the graph
};

Doubts doubtful(const std::shared_ptr<const Model>& model) {
  const auto& m = *model;
  Doubts doubts;
  auto& found = doubts.warnings;
  auto repeated = [&](const std::string& what, std::vector<std::string_view> names) {
    std::sort(names.begin(), names.end());
    for (std::size_t i = 1; i < names.size(); ++i) {
      if (names[i] == names[i - 1] && (i + 1 == names.size() || names[i + 1] != names[i]))
        found.push_back(fmt::format("{} \"{}\" is given more than once", what, names[i]));
    }
  };
  auto names_of = [](const auto& entries) {
    std::vector<std::string_view> names;
    for (const auto& e : entries)
      names.push_back(e.name);
    return names;
  };
  repeated("command", names_of(m.commands));
  for (const auto type : blackboard_types(m.version())) {
    repeated(fmt::format("{} blackboard entry", blackboard_type_name(type)),
             names_of(m.blackboard.of_type(type)));
  }
  std::map<std::string, std::vector<std::size_t>> guids;  // the nodes of each GUID
  for (std::size_t i = 0; i < m.nodes.size(); ++i) {
    const auto& n = m.nodes[i];
    if (n.type == NodeType::UserDefined && n.name.empty())
      found.push_back(fmt::format("node {} is a user node with no class name", i));
    if (n.guid != Guid{}) guids[n.guid.to_string()].push_back(i);
    for (std::size_t t = 0; t < kParamTypeCount; ++t) {
      const auto type = static_cast<ParamType>(t);
      const auto kind = fmt::format("node {}'s {}", i, param_type_name(type));
      repeated(kind + " property", names_of(m.properties_of(n, type)));
      repeated(kind + " input", names_of(m.inputs_of(n, type)));
      repeated(kind + " output", names_of(m.outputs_of(n, type)));
    }
  }
  for (const auto& [guid, nodes] : guids) {
    if (nodes.size() > 1)
      found.push_back(fmt::format("nodes {} share GUID {}", fmt::join(nodes, ", "), guid));
  }
  // The runtime's own checks, with every class a stub and every module missing (quietly: no log
  // sink).
  try {
    const runtime::Graph graph(
        model, runtime::NodeRegistry{},
        runtime::GraphOptions{.missing_modules = runtime::MissingModulePolicy::Stub});
  } catch (const LoadError& e) {
    doubts.refusal = fmt::format("ainb run refuses it: {} at offset {:#x}: {}", e.section(),
                                 e.offset(), e.reason());
  } catch (const std::exception& e) {
    doubts.refusal = fmt::format("ainb run refuses it: {}", e.what());
  }
  return doubts;
}

}  // namespace

std::vector<std::string> round_trip_differences(const Model& model, const std::string& path) {
  const auto direct = writer::write(model);
  const auto text = text_of(model);
  // Through the text as a person would store it: printed, then parsed again.
  const auto reparsed = nlohmann::ordered_json::parse(text.dump(2));
  const auto through_text = writer::from_text(reparsed, path);
  std::vector<std::string> differences;
  for (const auto& [how, bytes] :
       {std::pair{"the writer", &direct}, std::pair{"the text form", &through_text}}) {
    if (const auto d = writer::first_difference(model, *bytes)) {
      differences.push_back(
          fmt::format("round trip through {} differs: {}", how, describe(*d, model.bytes, *bytes)));
    }
  }
  return differences;
}

int run_convert(const ConvertRequest& request, std::ostream& out, std::ostream& err) {
  try {
    if (request.check) {
      if (is_json(request.input)) {
        err << "error: --check takes an AINB file\n";
        return kExitUsage;
      }
      if (!request.output.empty() || request.to_stdout) {
        err << "error: --check writes nothing: give IN only\n";
        return kExitUsage;
      }
      return check(request.input, request.source, out, err);
    }
    if (request.output.empty() == !request.to_stdout) {
      err << (request.to_stdout ? "error: --stdout writes no OUT: give IN only\n"
                                : "error: convert needs IN and OUT (or --stdout, or --check IN)\n");
      return kExitUsage;
    }
    // What is written, and where: OUT, or the output stream (named by IN in messages).
    const auto& target = request.to_stdout ? request.input : request.output;
    const auto emit = [&](std::string_view bytes) {
      if (request.to_stdout)
        out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
      else
        write_bytes(request.output, bytes);
    };
    const bool to_text = request.to_stdout ? !is_json(request.input) : is_json(request.output);
    const auto bytes = ainb_bytes(request.input, request.source);
    if (to_text) {
      const auto model = load(bytes, request.input);
      emit(text_of(*model).dump(request.indent) + '\n');
    } else {
      Doubts doubts;
      if (is_json(request.input)) doubts = doubtful(load(bytes, target));
      if (!doubts.refusal.empty() && !request.force) {
        err << "error: " << target << ": " << doubts.refusal
            << "\nnot written (--force writes it all the same)\n";
        return kExitLoadError;
      }
      emit(std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()));
      if (!doubts.refusal.empty()) doubts.warnings.push_back(doubts.refusal);
      for (const auto& warning : doubts.warnings)
        err << "warning: " << target << ": " << warning << '\n';
    }
    return kExitOk;
  } catch (const LoadError& e) {
    err << "error: " << e.what() << '\n';
  } catch (const std::exception& e) {
    err << "error: " << e.what() << '\n';
  }
  return kExitLoadError;
}

Command add_convert_command(CLI::App& app) {
  auto request = std::make_shared<ConvertRequest>();
  auto* convert = app.add_subcommand(
      "convert",
      "Convert between AINB and the JSON text form (by extension: .json is text), or --check "
      "that a file comes back byte for byte");
  convert->add_option("IN", request->input, "AINB file, PACK:MEMBER or .json file")->required();
  convert->add_option("OUT", request->output, "AINB or .json file to write");
  convert->add_flag("--force", request->force,
                    "Write a JSON file that ainb run would refuse (a misnamed built-in plug, a "
                    "cycle of child plugs, ...): a warning instead of an error");
  convert->add_flag("--stdout", request->to_stdout,
                    "Write to standard output instead of OUT: IN's text form, or the AINB bytes "
                    "of a .json IN (git's textconv: docs/git.md)");
  convert->add_flag("--check", request->check,
                    "Write IN back through the writer and the text form and report whether the "
                    "bytes are identical, else the first differing offset and its section");
  convert
      ->add_option("--indent", request->indent, "JSON spaces per indentation level (-1: one line)")
      ->check(CLI::Range(-1, 16))
      ->capture_default_str();
  add_file_lookup(*convert, request->source,
                  "A romfs-like folder where IN (or PACK:MEMBER) is also looked up");
  return {convert, [request](std::ostream& out, std::ostream& err) {
            return run_convert(*request, out, err);
          }};
}

}  // namespace ainb::cli
