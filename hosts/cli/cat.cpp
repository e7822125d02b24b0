// `ainb cat`: prints BYML, AAMP, SARC (a listing) and zstd-compressed files of any of these as
// readable YAML-like text. The format is told by the magic, never by the file name.

#include <optional>
#include <ostream>
#include <sstream>

#include "ainb/formats/aamp.hpp"
#include "ainb/formats/byml.hpp"
#include "ainb/formats/sarc.hpp"
#include "ainb/formats/text.hpp"
#include "ainb/formats/zstd.hpp"
#include "ainb/gamedata/romfs.hpp"
#include "commands.hpp"
#include "registration.hpp"

namespace ainb::cli {

namespace {

std::string describe(std::span<const std::uint8_t> bytes, const std::string& name,
                     const formats::aamp::NameTable& names) {
  // "BY"/"YB" alone decides, so an unsupported version gets the reader's error, not "unknown".
  const bool byml = bytes.size() >= 2 &&
                    ((bytes[0] == 'B' && bytes[1] == 'Y') || (bytes[0] == 'Y' && bytes[1] == 'B'));
  if (byml) return formats::to_text(formats::byml::read(bytes, name));
  if (formats::aamp::is_aamp(bytes))
    return formats::to_text(formats::aamp::read(bytes, name), names);
  if (formats::is_sarc(bytes)) {
    return formats::to_text(formats::Sarc::parse({bytes.begin(), bytes.end()}, name));
  }
  if (bytes.size() >= 4 && bytes[0] == 'A' && bytes[1] == 'I' && bytes[2] == 'B') {
    return fmt::format("# AINB file, {} bytes (see `ainb info`)\n", bytes.size());
  }
  throw LoadError(name, "file", 0,
                  "not a BYML, AAMP, SARC or zstd file (unknown magic; `ainb info` reads AINB)");
}

}  // namespace

int run_cat(const CatRequest& request, std::ostream& out, std::ostream& err) {
  try {
    std::optional<formats::ZstdDictionaries> dictionaries;
    if (!request.dictionaries.empty()) {
      dictionaries = formats::ZstdDictionaries::load(request.dictionaries);
    }
    formats::aamp::NameTable names;
    if (!request.names.empty()) {
      const auto list = formats::read_binary_file(request.names);
      std::istringstream in(std::string(list.begin(), list.end()));
      for (std::string line; std::getline(in, line);) {
        if (!line.empty()) names.add(line);
      }
    }
    // PACK:MEMBER reads one file of a pack, as the AI commands do.
    const auto spec = gamedata::parse_file_spec(request.file);
    std::vector<std::uint8_t> bytes;
    if (spec.member.empty()) {
      bytes = formats::read_binary_file(request.file);
    } else {
      const auto pack = formats::open_pack_file(spec.file, dictionaries ? &*dictionaries : nullptr);
      const auto data = pack.member(spec.member);
      bytes.assign(data.begin(), data.end());
    }
    if (formats::is_zstd(bytes)) {
      const auto id = formats::zstd_frame_dictionary_id(bytes);
      bytes =
          formats::zstd_decompress(bytes, request.file, dictionaries ? &*dictionaries : nullptr);
      out << fmt::format(
          "# zstd, {}, {} bytes decompressed\n",
          id == 0 ? std::string("no dictionary ID") : fmt::format("dictionary ID {}", id),
          bytes.size());
    }
    out << describe(bytes, request.file, names);
    return kExitOk;
  } catch (const LoadError& e) {
    err << "error: " << e.what() << '\n';
    return kExitLoadError;
  }
}

Command add_cat_command(CLI::App& app) {
  auto request = std::make_shared<CatRequest>();
  auto* cat = app.add_subcommand(
      "cat", "Print a BYML, AAMP, SARC (file list) or zstd-compressed file as readable text");
  cat->add_option("FILE", request->file, "The file")->required();
  cat->add_option("--zsdic,--dict", request->dictionaries,
                  "zstd dictionaries: a folder of *.zsdic files or TotK's ZsDic.pack.zs");
  cat->add_option("--names", request->names,
                  "AAMP names (one a line) to print instead of their CRC32 hashes");
  return {cat,
          [request](std::ostream& out, std::ostream& err) { return run_cat(*request, out, err); }};
}

}  // namespace ainb::cli
