#pragma once

// BYML node-definition tables (TotK's `Node.Product.<N>.aidefn.byml.zs`) for the tests. The
// game's files are not public, so they are made from the corpus's JSON dump of them, one category
// a file, with the project's BYML writer.

#include <cstdint>
#include <filesystem>
#include <span>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "ainb/formats/byml.hpp"

namespace ainb::test {

// A JSON value as BYML: integers as int (int64 or uint64 past 32 bits), other numbers as float
// when a float holds them exactly, else as double; objects as hashes.
formats::byml::Value byml_from_json(const nlohmann::json& json);

// zstd at level 3; the frame names the dictionary's ID when there is a dictionary.
std::vector<std::uint8_t> zstd_compress(std::span<const std::uint8_t> bytes,
                                        std::span<const std::uint8_t> dictionary = {});

// One category of the dump ({class: {"Inputs", "Tags"}}) as an aidefn file: BYML v7, compressed
// with the corpus's zs.zsdic (dictionary ID 1, the one the game uses for such names).
std::vector<std::uint8_t> aidefn_file(const nlohmann::json& classes,
                                      const std::filesystem::path& corpus);

// A romfs with ROOT/<category>/NodeDefinition/Node.Product.<version>.aidefn.byml.zs for each
// category of `dump`, and the corpus's ZsDic.pack.zs as ROOT/Pack/ZsDic.pack.zs.
void write_aidefn_romfs(const std::filesystem::path& root, const nlohmann::json& dump,
                        const std::string& version, const std::filesystem::path& corpus);

}  // namespace ainb::test
