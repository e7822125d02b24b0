#include "ainb/gamedata/blackboard_files.hpp"

#include <limits>

#include <fmt/format.h>

namespace ainb::gamedata {

namespace {

namespace byml = formats::byml;
namespace aamp = formats::aamp;

std::string with_binary_extension(std::string_view path) {
  const auto slash = path.rfind('/');
  const auto dot = path.rfind('.');
  if (dot == std::string_view::npos || (slash != std::string_view::npos && dot < slash)) return {};
  if (path.substr(dot + 1).starts_with('b')) return {};
  return fmt::format("{}.b{}", path.substr(0, dot), path.substr(dot + 1));
}

// A BYML value as a value of the entry's type.
std::optional<Value> from_byml(const byml::Value& v, BlackboardType type) {
  using T = byml::ValueType;
  auto number = [&]() -> std::optional<double> {
    switch (v.type()) {
      case T::Int:
        return v.as_int();
      case T::UInt:
        return v.as_uint();
      case T::Float:
        return v.as_float();
      case T::Int64:
        return static_cast<double>(v.as_int64());
      case T::UInt64:
        return static_cast<double>(v.as_uint64());
      case T::Double:
        return v.as_double();
      default:
        return std::nullopt;
    }
  };
  switch (type) {
    case BlackboardType::Bool:
      if (v.type() == T::Bool) return Value{v.as_bool()};
      return std::nullopt;
    case BlackboardType::S32:
      if (v.type() == T::Int) return Value{v.as_int()};
      if (v.type() == T::UInt && v.as_uint() <= 0x7fffffffu)
        return Value{static_cast<std::int32_t>(v.as_uint())};
      return std::nullopt;
    case BlackboardType::U32:
      if (v.type() == T::UInt) return Value{v.as_uint()};
      if (v.type() == T::Int && v.as_int() >= 0)
        return Value{static_cast<std::uint32_t>(v.as_int())};
      return std::nullopt;
    case BlackboardType::F32:
      if (const auto x = number()) return Value{static_cast<float>(*x)};
      return std::nullopt;
    case BlackboardType::String:
      if (v.type() == T::String) return Value{std::string_view(v.as_string())};
      return std::nullopt;
    case BlackboardType::Vec3f: {
      std::array<std::optional<float>, 3> xyz;
      if (v.type() == T::Hash) {
        const char* names[] = {"X", "Y", "Z"};
        for (int i = 0; i < 3; ++i) {
          const auto* c = v.find(names[i]);
          if (c == nullptr) return std::nullopt;
          if (const auto x = from_byml(*c, BlackboardType::F32)) xyz[i] = std::get<float>(*x);
        }
      } else if (v.type() == T::Array && v.as_array().size() == 3) {
        for (int i = 0; i < 3; ++i) {
          if (const auto x = from_byml(v.as_array()[i], BlackboardType::F32))
            xyz[i] = std::get<float>(*x);
        }
      }
      if (!xyz[0] || !xyz[1] || !xyz[2]) return std::nullopt;
      return Value{Vec3f{*xyz[0], *xyz[1], *xyz[2]}};
    }
    case BlackboardType::Pointer:
      return std::nullopt;
  }
  return std::nullopt;
}

std::optional<Value> from_aamp(const aamp::Parameter& p, BlackboardType type) {
  using P = aamp::ParameterType;
  switch (type) {
    case BlackboardType::Bool:
      if (p.type == P::Bool) return Value{std::get<bool>(p.value)};
      return std::nullopt;
    case BlackboardType::S32:
      if (p.type == P::Int) return Value{std::get<std::int32_t>(p.value)};
      return std::nullopt;
    case BlackboardType::U32:
      if (p.type == P::U32) return Value{std::get<std::uint32_t>(p.value)};
      return std::nullopt;
    case BlackboardType::F32:
      if (p.type == P::F32) return Value{std::get<float>(p.value)};
      return std::nullopt;
    case BlackboardType::String:
      if (p.type == P::String32 || p.type == P::String64 || p.type == P::String256 ||
          p.type == P::StringRef) {
        return Value{std::string_view(std::get<std::string>(p.value))};
      }
      return std::nullopt;
    case BlackboardType::Vec3f:
      if (p.type == P::Vec3) {
        const auto& f = std::get<std::vector<float>>(p.value);
        return Value{Vec3f{f[0], f[1], f[2]}};
      }
      return std::nullopt;
    case BlackboardType::Pointer:
      return std::nullopt;
  }
  return std::nullopt;
}

const aamp::Parameter* find_aamp(const aamp::ParameterList& list, std::uint32_t hash) {
  for (const auto& [name, object] : list.objects) {
    for (const auto& [key, parameter] : object.parameters) {
      if (key == hash) return &parameter;
    }
  }
  for (const auto& [name, child] : list.lists) {
    if (const auto* found = find_aamp(child, hash)) return found;
  }
  return nullptr;
}

// TotK's BlackboardParamTable: {"BlackboardParam<Type>Array": [{"BBKey": name, "InitVal": v,
// ...}, ...], ...}; any other BYML: a root hash key named like the entry.
const byml::Value* find_byml(const byml::Value& root, std::string_view name) {
  if (root.type() != byml::ValueType::Hash) return nullptr;
  for (const auto& [key, value] : root.as_hash()) {
    if (!key.starts_with("BlackboardParam") || value.type() != byml::ValueType::Array) continue;
    for (const auto& item : value.as_array()) {
      const auto* bb_key = item.find("BBKey");
      if (bb_key != nullptr && bb_key->type() == byml::ValueType::String &&
          bb_key->as_string() == name) {
        return item.find("InitVal");
      }
    }
  }
  return root.find(name);
}

}  // namespace

std::vector<std::string> parameter_file_candidates(std::string_view referenced) {
  std::vector<std::string> paths;
  auto add = [&](std::string_view path) {
    paths.emplace_back(path);
    if (auto binary = with_binary_extension(path); !binary.empty()) paths.push_back(binary);
  };
  add(referenced);
  if (referenced.starts_with("Work/")) add(referenced.substr(5));
  return paths;
}

runtime::BlackboardDefaults BlackboardFiles::hook() {
  return [this](const Model& file, std::uint32_t entry) { return value(file, entry); };
}

const BlackboardFiles::Parameters* BlackboardFiles::load(const std::string& referenced,
                                                         const Model& file,
                                                         std::string_view entry) {
  if (const auto it = files_.find(referenced); it != files_.end()) return it->second.get();
  auto& slot = files_[referenced];
  for (const auto& candidate : parameter_file_candidates(referenced)) {
    std::optional<FileSource::Found> found;
    try {
      found = source_.find(candidate);
      if (!found) continue;
      auto parameters = std::make_unique<Parameters>();
      parameters->where = found->where;
      if (formats::byml::is_byml(found->bytes)) {
        parameters->byml = formats::byml::read(found->bytes, found->where);
      } else if (formats::aamp::is_aamp(found->bytes)) {
        parameters->aamp = formats::aamp::read(found->bytes, found->where);
      } else {
        warnings_.push_back(fmt::format(
            "{}: blackboard entry {} references {}: {} is neither BYML nor AAMP; the stored "
            "default is used",
            file.name, entry, referenced, found->where));
        return nullptr;
      }
      slot = std::move(parameters);
      return slot.get();
    } catch (const LoadError& e) {
      warnings_.push_back(
          fmt::format("{}: blackboard entry {} references {}, which does not load ({}); the "
                      "stored default is used",
                      file.name, entry, referenced, e.what()));
      return nullptr;
    }
  }
  warnings_.push_back(fmt::format(
      "{}: blackboard entry {} references {}, which was not found ({}); the stored default is "
      "used",
      file.name, entry, referenced, source_.where()));
  return nullptr;
}

std::optional<Value> BlackboardFiles::value(const Model& file, std::uint32_t index) {
  const auto& entry = file.blackboard.entries[index];
  if (!entry.file_reference || *entry.file_reference >= file.blackboard.file_references.size()) {
    return std::nullopt;
  }
  const std::string referenced(file.blackboard.file_references[*entry.file_reference].path);
  std::lock_guard lock(mutex_);
  const auto* parameters = load(referenced, file, entry.name);
  if (parameters == nullptr) return std::nullopt;
  std::optional<Value> result;
  bool present = false;
  if (parameters->byml) {
    if (const auto* v = find_byml(parameters->byml->root, entry.name)) {
      present = true;
      result = from_byml(*v, entry.type);
    }
  } else if (const auto* p =
                 find_aamp(parameters->aamp->root, formats::aamp::name_hash(entry.name))) {
    present = true;
    result = from_aamp(*p, entry.type);
  }
  if (!result) {
    warnings_.push_back(
        fmt::format("{}: blackboard entry {} ({}): {} {}; the stored default is used", file.name,
                    entry.name, blackboard_type_name(entry.type), parameters->where,
                    present ? "gives it a value of another type" : "has no value for it"));
  }
  return result;
}

}  // namespace ainb::gamedata
