// `ainb convert`: AINB <-> the JSON text form (docs/text-form.md), and `--check`, the byte-exact
// round trip of a file through the writer and the text form.

#include <fstream>
#include <iterator>
#include <ostream>

#include <fmt/format.h>

#include "ainb/loader.hpp"
#include "ainb/writer/text_form.hpp"
#include "ainb/writer/writer.hpp"
#include "commands.hpp"

namespace ainb::cli {

namespace {

bool is_json(const std::string& path) {
  return path.size() >= 5 && path.compare(path.size() - 5, 5, ".json") == 0;
}

std::vector<std::uint8_t> read_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot open " + path);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void write_bytes(const std::string& path, std::string_view bytes) {
  std::ofstream out(path, std::ios::binary);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  if (!out) throw std::runtime_error("cannot write " + path);
}

nlohmann::ordered_json read_json(const std::string& path) {
  const auto bytes = read_bytes(path);
  try {
    return nlohmann::ordered_json::parse(bytes.begin(), bytes.end());
  } catch (const nlohmann::json::parse_error& e) {
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

std::string describe(const writer::Difference& d, std::span<const std::uint8_t> original,
                     std::span<const std::uint8_t> written) {
  std::string out = fmt::format("first difference at offset {:#x} ({})", d.offset, d.section);
  if (d.offset < original.size() && d.offset < written.size()) {
    out += fmt::format(": {:#04x} in the file, {:#04x} written", original[d.offset],
                       written[d.offset]);
  } else {
    out += fmt::format(": the file has {} bytes, the writer wrote {}", original.size(),
                       written.size());
  }
  return out;
}

int check(const std::string& path, const FileLookup& source, std::ostream& out, std::ostream& err) {
  const auto model = open_model(path, source);
  std::vector<std::uint8_t> direct;
  try {
    direct = writer::write(*model);
  } catch (const writer::WriteError& e) {
    err << "error: " << e.what() << '\n';
    return kExitLoadError;
  }
  const auto text = writer::to_text(*model);
  // Through the text as a person would store it: printed, then parsed again.
  const auto reparsed = nlohmann::ordered_json::parse(text.dump(2));
  auto through_text = writer::from_text(reparsed, path);
  bool exact = true;
  for (const auto& [how, bytes] :
       {std::pair{"the writer", &direct}, std::pair{"the text form", &through_text}}) {
    if (const auto d = writer::first_difference(*model, *bytes)) {
      out << fmt::format("{}: round trip through {} differs: {}\n", path, how,
                         describe(*d, model->bytes, *bytes));
      exact = false;
    }
  }
  if (!exact) return kExitDifferent;
  out << fmt::format("{}: byte-exact round trip through the writer and the text form ({} bytes)\n",
                     path, model->bytes.size());
  return kExitOk;
}

}  // namespace

int run_convert(const ConvertRequest& request, std::ostream& out, std::ostream& err) {
  try {
    if (request.check) {
      if (is_json(request.input)) {
        err << "error: --check takes an AINB file\n";
        return kExitUsage;
      }
      return check(request.input, request.source, out, err);
    }
    if (request.output.empty()) {
      err << "error: convert needs IN and OUT (or --check IN)\n";
      return kExitUsage;
    }
    if (is_json(request.output)) {
      const auto bytes = ainb_bytes(request.input, request.source);
      const auto model = load(bytes, request.input);
      const auto text = writer::to_text(*model).dump(request.indent) + '\n';
      write_bytes(request.output, text);
    } else {
      const auto bytes = ainb_bytes(request.input, request.source);
      write_bytes(request.output,
                  std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()));
    }
    return kExitOk;
  } catch (const LoadError& e) {
    err << "error: " << e.what() << '\n';
  } catch (const std::exception& e) {
    err << "error: " << e.what() << '\n';
  }
  return kExitLoadError;
}

}  // namespace ainb::cli
