// Real game files: every corpus file loads, and `ainb dump --format peer` agrees value by value
// with the JSON the reference Python tool produced from the same bytes (`X.peer.json`).

#include <fstream>
#include <set>
#include <tuple>

#include <doctest/doctest.h>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "ainb/dump/json.hpp"
#include "ainb/loader.hpp"
#include "corpus.hpp"

namespace {

using nlohmann::json;

// The reference tool prints GUID groups without zero padding and byte-swaps the fourth group
// (corpus README, quirk 1). Rebuild the canonical form from its text.
std::string canonical_peer_guid(const std::string& peer) {
  std::vector<std::string> groups;
  std::size_t start = 0;
  for (std::size_t dash; (dash = peer.find('-', start)) != std::string::npos; start = dash + 1) {
    groups.push_back(peer.substr(start, dash - start));
  }
  groups.push_back(peer.substr(start));
  REQUIRE_MESSAGE(groups.size() == 5, "not a GUID: " << peer);
  const auto g4 = std::stoul(groups[3], nullptr, 16);
  return fmt::format("{:08x}-{:04x}-{:04x}-{:04x}-{}", std::stoul(groups[0], nullptr, 16),
                     std::stoul(groups[1], nullptr, 16), std::stoul(groups[2], nullptr, 16),
                     ((g4 & 0xFF) << 8) | (g4 >> 8), groups[4]);
}

// A plug's replacement-table mark: the reference tool puts it on the wrong plug
// (docs/dump-json.md); checked against the table itself below instead.
bool replacement_mark(const std::string& key) {
  return key == "Is Removed at Runtime" || key == "Replacement Node Index";
}

struct Comparison {
  std::size_t values = 0;
  std::vector<std::string> problems;

  void fail(const std::string& path, const std::string& what) {
    if (problems.size() < 20) problems.push_back(path + ": " + what);
  }

  // Every value of `ref` must be in `ours` and equal; `ours` may not carry keys `ref` lacks.
  void compare(const json& ref, const json& ours, const std::string& path) {
    if (ref.is_object()) {
      if (!ours.is_object()) return fail(path, "expected an object, got " + ours.dump());
      // Quirk 4: a multi-source input's raw Node Index / Output Index leak the writer's layout;
      // compare its Sources instead.
      const bool multi = ref.contains("Sources");
      for (const auto& [key, value] : ref.items()) {
        if (multi && (key == "Node Index" || key == "Output Index")) continue;
        if (replacement_mark(key)) continue;
        // The tool prints a random selector's blackboard word as its weight (docs/dump-json.md).
        if (key == "Weight" && value == 0.0 && ours.contains(key)) continue;
        if (!ours.contains(key)) {
          fail(path + "/" + key, "missing");
          continue;
        }
        if (key == "GUID") {
          ++values;
          if (canonical_peer_guid(value.get<std::string>()) != ours[key].get<std::string>()) {
            fail(path + "/GUID", value.dump() + " != " + ours[key].dump());
          }
          continue;
        }
        compare(value, ours[key], path + "/" + key);
      }
      for (const auto& [key, value] : ours.items()) {
        if (!ref.contains(key) && !replacement_mark(key))
          fail(path + "/" + key, "extra key (not in the reference)");
      }
      return;
    }
    if (ref.is_array()) {
      if (!ours.is_array() || ours.size() != ref.size()) {
        return fail(path, fmt::format("expected an array of {}, got {}", ref.size(), ours.dump()));
      }
      for (std::size_t i = 0; i < ref.size(); ++i) {
        compare(ref[i], ours[i], fmt::format("{}/{}", path, i));
      }
      return;
    }
    ++values;
    if (ref.is_number_float()) {
      // Quirk 2: float32 values printed as Python doubles; compare as float32.
      if (!ours.is_number() ||
          static_cast<float>(ref.get<double>()) != static_cast<float>(ours.get<double>())) {
        fail(path, ref.dump() + " != " + ours.dump());
      }
      return;
    }
    if (ref.is_number()) {
      // The tool prints an S32 blackboard default as unsigned (docs/dump-json.md).
      const auto wrapped = path.find("/Blackboard Parameters/s32/") != std::string::npos &&
                           ref.get<std::int64_t>() >= 0x80000000ll;
      const auto expected = ref.get<std::int64_t>() - (wrapped ? 0x100000000ll : 0);
      if (!ours.is_number_integer() || expected != ours.get<std::int64_t>()) {
        fail(path, ref.dump() + " != " + ours.dump());
      }
      return;
    }
    if (ref != ours) fail(path, ref.dump() + " != " + ours.dump());
  }
};

}  // namespace

TEST_CASE("every corpus AINB file loads") {
  for (const auto& path : ainb::test::corpus_ainb_files()) {
    CAPTURE(path.filename().string());
    const auto model = ainb::load_file(path);
    CHECK(model->bytes.size() == std::filesystem::file_size(path));
    CHECK_FALSE(model->nodes.empty());
  }
}

TEST_CASE("every bulk AINB file loads with the counts its manifest gives") {
  const auto files = ainb::test::corpus_bulk_ainb_files();
  if (files.empty()) return;
  std::ifstream in(files.front().parent_path().parent_path() / "manifest.json");
  const auto manifest = json::parse(in);
  REQUIRE(manifest.size() == files.size());
  for (const auto& entry : manifest) {
    const auto name = entry["file"].get<std::string>();
    CAPTURE(name);
    const auto model = ainb::load_file(files.front().parent_path() / name);
    CHECK(model->bytes.size() == entry["size"].get<std::size_t>());
    CHECK(model->nodes.size() == entry["nodes"].get<std::size_t>());
    CHECK(model->commands.size() == entry["commands"].get<std::size_t>());
    CHECK(model->header.file_name == entry["internal_filename"].get<std::string>());
  }
}

TEST_CASE("peer dump matches the reference tool's JSON on every real file") {
  const auto files = ainb::test::all_real_ainb_files();
  std::size_t total = 0;
  for (const auto& path : files) {
    auto peer_path = path;
    peer_path.replace_extension(".peer.json");
    REQUIRE_MESSAGE(std::filesystem::exists(peer_path), "missing " << peer_path.string());
    std::ifstream in(peer_path);
    const auto reference = json::parse(in);
    const auto ours = json::parse(ainb::dump_peer_json(*ainb::load_file(path)).dump());

    Comparison comparison;
    comparison.compare(reference, ours, "");
    MESSAGE(path.filename().string() << ": " << comparison.values << " values compared, "
                                     << comparison.problems.size() << " differences");
    for (const auto& problem : comparison.problems)
      FAIL_CHECK(path.filename().string() << problem);
    CHECK(comparison.values > 0);
    total += comparison.values;
  }
  MESSAGE("corpus parity: " << total << " values compared across " << files.size() << " files");
}

TEST_CASE("the parity comparison reports changed, missing and extra values") {
  const auto reference = json::parse(R"({"GUID": "6713c63-24d-49fe-4486-d42b172b2d6d",
      "Value": 0.10000000149011612, "List": [1, 2], "Name": "a"})");
  auto ours = json::parse(R"({"GUID": "06713c63-024d-49fe-8644-d42b172b2d6d",
      "Value": 0.1, "List": [1, 2], "Name": "a"})");
  Comparison same;
  same.compare(reference, ours, "");
  CHECK(same.problems.empty());
  CHECK(same.values == 5);

  ours["List"][1] = 3;
  ours["Extra"] = true;
  ours.erase("Name");
  ours["GUID"] = "06713c63-024d-49fe-4486-d42b172b2d6d";  // fourth group not swapped
  Comparison changed;
  changed.compare(reference, ours, "");
  REQUIRE(changed.problems.size() == 4);
  CHECK(changed.problems[0] ==
        "/GUID: \"6713c63-24d-49fe-4486-d42b172b2d6d\" != "
        "\"06713c63-024d-49fe-4486-d42b172b2d6d\"");
  CHECK(changed.problems[1] == "/List/1: 2 != 3");
  CHECK(changed.problems[2] == "/Name: missing");
  CHECK(changed.problems[3] == "/Extra: extra key (not in the reference)");
}

TEST_CASE("the peer dump marks exactly the child plugs the replacement table names") {
  std::size_t marks = 0;
  for (const auto& path : ainb::test::all_real_ainb_files()) {
    CAPTURE(path.filename().string());
    const auto model = ainb::load_file(path);
    std::set<std::tuple<std::uint32_t, std::uint32_t, std::string, std::int64_t>> expected, seen;
    if (model->replacements) {
      for (const auto& r : model->replacements->entries) {
        if (r.type == ainb::ReplacementType::RemoveChild)
          expected.insert({r.node_index, r.target, "Is Removed at Runtime", 1});
        if (r.type == ainb::ReplacementType::ReplaceChild)
          expected.insert({r.node_index, r.target, "Replacement Node Index", r.replacement_node});
      }
    }
    const auto peer = json::parse(ainb::dump_peer_json(*model).dump());
    for (const auto& node : peer.value("Nodes", json::array())) {
      if (!node.contains("Plugs") || !node["Plugs"].contains("Standard Link")) continue;
      const auto& plugs = node["Plugs"]["Standard Link"];
      for (std::uint32_t k = 0; k < plugs.size(); ++k) {
        for (const auto* key : {"Is Removed at Runtime", "Replacement Node Index"}) {
          if (!plugs[k].contains(key)) continue;
          const auto& mark = plugs[k][key];
          seen.insert(
              {node["Node Index"].get<std::uint32_t>(), k, key,
               mark.is_boolean() ? std::int64_t{mark.get<bool>()} : mark.get<std::int64_t>()});
        }
      }
    }
    CHECK(seen == expected);
    marks += seen.size();
  }
  if (!ainb::test::corpus_dir().empty()) CHECK(marks == 44);
}
