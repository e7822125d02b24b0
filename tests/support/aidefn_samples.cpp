#include "aidefn_samples.hpp"

#include <memory>

#include <doctest/doctest.h>
#include <zstd.h>

#include "corpus.hpp"
#include "scratch.hpp"

namespace ainb::test {

namespace byml = formats::byml;

byml::Value byml_from_json(const nlohmann::json& json) {
  switch (json.type()) {
    case nlohmann::json::value_t::boolean:
      return byml::Value::make_bool(json.get<bool>());
    case nlohmann::json::value_t::number_integer:
    case nlohmann::json::value_t::number_unsigned: {
      if (json.is_number_unsigned() && json.get<std::uint64_t>() > INT64_MAX)
        return byml::Value::make_uint64(json.get<std::uint64_t>());
      const auto value = json.get<std::int64_t>();
      if (value >= INT32_MIN && value <= INT32_MAX)
        return byml::Value::make_int(static_cast<std::int32_t>(value));
      return byml::Value::make_int64(value);
    }
    case nlohmann::json::value_t::number_float: {
      const auto value = json.get<double>();
      const auto narrow = static_cast<float>(value);
      if (static_cast<double>(narrow) == value) return byml::Value::make_float(narrow);
      return byml::Value::make_double(value);
    }
    case nlohmann::json::value_t::string:
      return byml::Value::make_string(json.get<std::string>());
    case nlohmann::json::value_t::array: {
      auto items = std::make_shared<byml::Array>();
      for (const auto& item : json)
        items->push_back(byml_from_json(item));
      return byml::Value::make_array(std::move(items));
    }
    case nlohmann::json::value_t::object: {
      auto entries = std::make_shared<byml::Hash>();
      for (const auto& [key, item] : json.items())
        entries->emplace_back(key, byml_from_json(item));
      return byml::Value::make_hash(std::move(entries));
    }
    default:
      return {};
  }
}

std::vector<std::uint8_t> zstd_compress(std::span<const std::uint8_t> bytes,
                                        std::span<const std::uint8_t> dictionary) {
  std::vector<std::uint8_t> out(ZSTD_compressBound(bytes.size()));
  const std::unique_ptr<ZSTD_CCtx, decltype(&ZSTD_freeCCtx)> context(ZSTD_createCCtx(),
                                                                     &ZSTD_freeCCtx);
  const auto size = ZSTD_compress_usingDict(context.get(), out.data(), out.size(), bytes.data(),
                                            bytes.size(), dictionary.data(), dictionary.size(), 3);
  REQUIRE_MESSAGE(!ZSTD_isError(size), ZSTD_getErrorName(size));
  out.resize(size);
  return out;
}

std::vector<std::uint8_t> aidefn_file(const nlohmann::json& classes,
                                      const std::filesystem::path& corpus) {
  const auto dictionary = read_file(corpus / "zsdic/zs.zsdic");
  return zstd_compress(byml::write(byml_from_json(classes)), dictionary);
}

void write_aidefn_romfs(const std::filesystem::path& root, const nlohmann::json& dump,
                        const std::string& version, const std::filesystem::path& corpus) {
  for (const auto& [category, classes] : dump.items()) {
    write_file(root / category / "NodeDefinition" / ("Node.Product." + version + ".aidefn.byml.zs"),
               aidefn_file(classes, corpus));
  }
  write_file(root / "Pack/ZsDic.pack.zs", read_file(corpus / "zsdic/ZsDic.pack.zs"));
}

}  // namespace ainb::test
