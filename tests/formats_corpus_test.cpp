// Every BYML and AAMP file of the corpus decodes, and where roead's text rendering (`X.roead.yml`)
// exists, the decoded values equal it value by value.
//
// Normalisation: the renderings print f32 values either widened to double (older roead:
// 3.006002426147461) or in the shortest form that reads back as the same f32 (newer roead:
// 0.514000058); both compare equal when the printed number, rounded to float, is our float.
// Integers may be decimal or 0x-hex. Hash keys of `!h` maps are decimal hashes. AAMP names are
// compared through their CRC32; names roead could not resolve are printed as decimal hashes.

#include <yaml-cpp/yaml.h>

#include <cmath>
#include <cstdlib>

#include <doctest/doctest.h>

#include "ainb/formats/aamp.hpp"
#include "ainb/formats/byml.hpp"
#include "corpus.hpp"

namespace byml = ainb::formats::byml;
namespace aamp = ainb::formats::aamp;

namespace {

std::vector<std::uint8_t> base64(const std::string& text) {
  static const std::string alphabet =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::vector<std::uint8_t> out;
  std::uint32_t buffer = 0;
  int bits = 0;
  for (const char c : text) {
    const auto at = alphabet.find(c);
    if (at == std::string::npos) continue;  // '=', whitespace
    buffer = (buffer << 6) | static_cast<std::uint32_t>(at);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out.push_back(static_cast<std::uint8_t>(buffer >> bits));
    }
  }
  return out;
}

bool parse_integer(const std::string& text, long long& value) {
  if (text.empty()) return false;
  char* end = nullptr;
  errno = 0;
  const bool hex = text.starts_with("0x") || text.starts_with("-0x");
  value = std::strtoll(text.c_str(), &end, hex ? 16 : 10);
  if (errno == ERANGE) {
    value = static_cast<long long>(std::strtoull(text.c_str(), &end, hex ? 16 : 10));
  }
  return end == text.c_str() + text.size();
}

unsigned long long parse_unsigned(const std::string& text) {
  return std::strtoull(text.c_str(), nullptr, text.starts_with("0x") ? 16 : 0);
}

bool parse_float(const std::string& text, double& value) {
  char* end = nullptr;
  value = std::strtod(text.c_str(), &end);
  return !text.empty() && end == text.c_str() + text.size();
}

bool same_float(float ours, const std::string& text) {
  double printed = 0;
  if (!parse_float(text, printed)) return false;
  return static_cast<float>(printed) == ours;
}

// Counts compared values and records the first mismatches with their path.
struct Comparison {
  std::size_t values = 0;
  std::vector<std::string> mismatches;
  void mismatch(const std::string& path, const std::string& what) {
    if (mismatches.size() < 10) mismatches.push_back(path + ": " + what);
  }
};

bool plain(const YAML::Node& node) {
  return node.Tag() == "?";
}

void compare_byml(const byml::Value& value, const YAML::Node& node, const std::string& path,
                  Comparison& result) {
  ++result.values;
  using Type = byml::Value::Type;
  const auto& tag = node.Tag();
  if (node.IsMap()) {
    if (tag == "!h") {
      if (value.type() != Type::Hash32Map) return result.mismatch(path, "expected a hash32 map");
      const auto& map = value.as_hash32();
      if (map.size() != node.size()) return result.mismatch(path, "hash32 map sizes differ");
      for (const auto& entry : node) {
        const auto key = static_cast<std::uint32_t>(parse_unsigned(entry.first.Scalar()));
        const auto found = std::find_if(map.begin(), map.end(),
                                        [&](const auto& item) { return item.first == key; });
        if (found == map.end()) {
          result.mismatch(path, "missing key " + entry.first.Scalar());
          continue;
        }
        compare_byml(found->second, entry.second, path + "/" + entry.first.Scalar(), result);
      }
      return;
    }
    if (value.type() != Type::Hash) return result.mismatch(path, "expected a hash");
    if (value.as_hash().size() != node.size()) return result.mismatch(path, "hash sizes differ");
    for (const auto& entry : node) {
      const auto& key = entry.first.Scalar();
      const auto* child = value.find(key);
      if (!child) {
        result.mismatch(path, "missing key " + key);
        continue;
      }
      compare_byml(*child, entry.second, path + "/" + key, result);
    }
    return;
  }
  if (node.IsSequence()) {
    if (value.type() != Type::Array) return result.mismatch(path, "expected an array");
    const auto& items = value.as_array();
    if (items.size() != node.size()) return result.mismatch(path, "array sizes differ");
    for (std::size_t i = 0; i < items.size(); ++i) {
      compare_byml(items[i], node[i], path + "/" + std::to_string(i), result);
    }
    return;
  }
  if (node.IsNull()) {
    if (!value.is_null()) result.mismatch(path, "expected null");
    return;
  }
  const auto& text = node.Scalar();
  bool ok = false;
  if (tag == "!u") {
    ok = value.type() == Type::UInt && value.as_uint() == parse_unsigned(text);
  } else if (tag == "!ul") {
    ok = value.type() == Type::UInt64 && value.as_uint64() == parse_unsigned(text);
  } else if (tag == "!l") {
    long long number = 0;
    ok = value.type() == Type::Int64 && parse_integer(text, number) && value.as_int64() == number;
  } else if (tag == "!f64") {
    double number = 0;
    ok = value.type() == Type::Double && parse_float(text, number) && value.as_double() == number;
  } else if (tag == "tag:yaml.org,2002:binary" || tag == "tag:yaml.org,2002:file") {
    const bool file = tag.ends_with("file");
    ok = value.type() == (file ? Type::File : Type::Binary) &&
         value.as_binary().data == base64(text);
  } else if (tag == "!") {  // quoted: always a string
    ok = value.type() == Type::String && value.as_string() == text;
  } else if (plain(node)) {
    long long number = 0;
    switch (value.type()) {
      case Type::Bool:
        ok = text == (value.as_bool() ? "true" : "false");
        break;
      case Type::Int:
        ok = parse_integer(text, number) && number == value.as_int();
        break;
      case Type::Float:
        ok = same_float(value.as_float(), text);
        break;
      case Type::String:
        ok = value.as_string() == text;
        break;
      default:
        ok = false;
    }
  }
  if (!ok) {
    result.mismatch(path, "value " + text + " (tag " + tag + ") differs from our " +
                              byml::type_name(value.type()));
  }
}

std::uint32_t aamp_key(const YAML::Node& key) {
  long long number = 0;
  if (plain(key) && parse_integer(key.Scalar(), number)) return static_cast<std::uint32_t>(number);
  return aamp::name_hash(key.Scalar());
}

template <typename T>
const T* find_child(const std::vector<std::pair<std::uint32_t, T>>& items, std::uint32_t hash) {
  for (const auto& [key, child] : items) {
    if (key == hash) return &child;
  }
  return nullptr;
}

void compare_floats(const std::vector<float>& ours, const YAML::Node& node, bool& ok) {
  ok = node.IsSequence() && node.size() == ours.size();
  for (std::size_t i = 0; ok && i < ours.size(); ++i)
    ok = same_float(ours[i], node[i].Scalar());
}

void compare_parameter(const aamp::Parameter& parameter, const YAML::Node& node,
                       const std::string& path, Comparison& result) {
  ++result.values;
  using T = aamp::ParameterType;
  const auto& tag = node.Tag();
  bool ok = false;
  switch (parameter.type) {
    case T::Bool:
      ok = plain(node) && node.Scalar() == (std::get<bool>(parameter.value) ? "true" : "false");
      break;
    case T::F32:
      ok = plain(node) && same_float(std::get<float>(parameter.value), node.Scalar());
      break;
    case T::Int: {
      long long number = 0;
      ok = plain(node) && parse_integer(node.Scalar(), number) &&
           number == std::get<std::int32_t>(parameter.value);
      break;
    }
    case T::U32:
      ok = tag == "!u" && parse_unsigned(node.Scalar()) == std::get<std::uint32_t>(parameter.value);
      break;
    case T::Vec2:
    case T::Vec3:
    case T::Vec4:
    case T::Color:
    case T::Quat:
      ok = tag == std::string("!") + aamp::type_name(parameter.type);
      if (ok) compare_floats(std::get<std::vector<float>>(parameter.value), node, ok);
      break;
    case T::String32:
    case T::String64:
    case T::String256:
      ok = tag == std::string("!") + aamp::type_name(parameter.type) &&
           node.Scalar() == std::get<std::string>(parameter.value);
      break;
    case T::StringRef:
      ok = (plain(node) || tag == "!") && node.Scalar() == std::get<std::string>(parameter.value);
      break;
    default:
      ok = false;  // curves and buffers do not occur in the corpus renderings
  }
  if (!ok) {
    result.mismatch(path, "parameter " + YAML::Dump(node) + " differs from our " +
                              aamp::type_name(parameter.type));
  }
}

void compare_list(const aamp::ParameterList& list, const YAML::Node& node, const std::string& path,
                  Comparison& result) {
  ++result.values;
  if (node.Tag() != "!list") return result.mismatch(path, "expected !list");
  const auto objects = node["objects"];
  const auto lists = node["lists"];
  if (objects.size() != list.objects.size()) return result.mismatch(path, "object counts differ");
  if (lists.size() != list.lists.size()) return result.mismatch(path, "list counts differ");
  for (const auto& entry : objects) {
    const auto name = path + "/" + entry.first.Scalar();
    const auto* object = find_child(list.objects, aamp_key(entry.first));
    if (!object) {
      result.mismatch(name, "missing object");
      continue;
    }
    ++result.values;
    if (entry.second.size() != object->parameters.size()) {
      result.mismatch(name, "parameter counts differ");
      continue;
    }
    for (const auto& parameter : entry.second) {
      const auto* ours = find_child(object->parameters, aamp_key(parameter.first));
      if (!ours) {
        result.mismatch(name + "/" + parameter.first.Scalar(), "missing parameter");
        continue;
      }
      compare_parameter(*ours, parameter.second, name + "/" + parameter.first.Scalar(), result);
    }
  }
  for (const auto& entry : lists) {
    const auto* child = find_child(list.lists, aamp_key(entry.first));
    if (!child) {
      result.mismatch(path + "/" + entry.first.Scalar(), "missing list");
      continue;
    }
    compare_list(*child, entry.second, path + "/" + entry.first.Scalar(), result);
  }
}

std::filesystem::path rendering_of(const std::filesystem::path& path) {
  return path.string() + ".roead.yml";
}

}  // namespace

TEST_CASE("every corpus BYML decodes and equals roead's rendering where there is one") {
  const auto files = ainb::test::corpus_byml_files();
  if (files.empty()) return;
  std::size_t compared_files = 0, compared_values = 0;
  for (const auto& path : files) {
    CAPTURE(path.filename().string());
    const auto bytes = ainb::test::read_file(path);
    const auto document = byml::read(bytes, path.filename().string());
    CHECK(document.byte_order == std::endian::little);
    CHECK(document.root.is_container());
    if (!std::filesystem::exists(rendering_of(path))) continue;
    Comparison result;
    compare_byml(document.root, YAML::LoadFile(rendering_of(path).string()), "", result);
    for (const auto& line : result.mismatches)
      MESSAGE(line);
    CHECK(result.mismatches.empty());
    ++compared_files;
    compared_values += result.values;
  }
  MESSAGE("BYML: " << files.size() << " files decoded, " << compared_files
                   << " compared with roead, " << compared_values << " values compared");
  if (std::getenv("CI")) CHECK(compared_files == 6);
}

TEST_CASE("every corpus AAMP decodes and equals roead's rendering") {
  const auto files = ainb::test::corpus_aamp_files();
  if (files.empty()) return;
  std::size_t compared_values = 0;
  for (const auto& path : files) {
    CAPTURE(path.filename().string());
    const auto io = aamp::read(ainb::test::read_file(path), path.filename().string());
    CHECK(io.byte_order == std::endian::little);
    CHECK(io.root_name_hash == aamp::name_hash("param_root"));
    const auto yaml = YAML::LoadFile(rendering_of(path).string());
    REQUIRE(yaml.Tag() == "!io");
    CHECK(yaml["version"].as<std::uint32_t>() == io.version);
    CHECK(yaml["type"].Scalar() == io.type);
    Comparison result;
    compare_list(io.root, yaml["param_root"], "param_root", result);
    for (const auto& line : result.mismatches)
      MESSAGE(line);
    CHECK(result.mismatches.empty());
    compared_values += result.values;
  }
  MESSAGE("AAMP: " << files.size() << " files compared with roead, " << compared_values
                   << " values compared");
}

TEST_CASE("the rendering comparators notice differences") {
  const auto dir = ainb::test::corpus_dir();
  if (dir.empty()) return;
  // LevelSensor compared with A-1_Dynamic's rendering, and two AAMP files crossed.
  const auto level = byml::read(ainb::test::read_file(dir / "byml/LevelSensor.byml"), "x");
  Comparison byml_result;
  compare_byml(level.root, YAML::LoadFile((dir / "byml/A-1_Dynamic.byml.roead.yml").string()), "",
               byml_result);
  CHECK_FALSE(byml_result.mismatches.empty());
  const auto bow = aamp::read(ainb::test::read_file(dir / "aamp/Bow.baslist"), "x");
  Comparison aamp_result;
  compare_list(bow.root,
               YAML::LoadFile((dir / "aamp/AirWallHorse.baiprog.roead.yml").string())["param_root"],
               "param_root", aamp_result);
  CHECK_FALSE(aamp_result.mismatches.empty());
  // A single changed float is seen.
  auto bytes = ainb::test::read_file(dir / "aamp/Horse.blifecondition");
  const auto original = aamp::read(bytes, "x");
  const auto yaml = YAML::LoadFile((dir / "aamp/Horse.blifecondition.roead.yml").string());
  Comparison same;
  compare_list(original.root, yaml["param_root"], "param_root", same);
  CHECK(same.mismatches.empty());
  auto changed = original;
  std::get<float>(changed.root.objects[0].second.parameters[0].second.value) += 1.0f;
  Comparison differs;
  compare_list(changed.root, yaml["param_root"], "param_root", differs);
  CHECK(differs.mismatches.size() == 1);
}
