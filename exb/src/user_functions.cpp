#include "ainb/exb/user_functions.hpp"

#include <algorithm>

#include <fmt/format.h>

namespace ainb::exb {

namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && s.front() == ' ')
    s.remove_prefix(1);
  while (!s.empty() && s.back() == ' ')
    s.remove_suffix(1);
  return s;
}

std::optional<DataType> type_named(std::string_view name) {
  if (name == "Bool") return DataType::Bool;
  if (name == "Int") return DataType::Int;
  if (name == "UInt") return DataType::UInt;
  if (name == "Float") return DataType::Float;
  if (name == "String") return DataType::String;
  if (name == "Vector3F") return DataType::Vec3f;
  if (name == "Void" || name == "None") return DataType::None;
  return std::nullopt;
}

std::string_view type_text(DataType type) {
  switch (type) {
    case DataType::Bool:
      return "Bool";
    case DataType::Int:
      return "Int";
    case DataType::UInt:
      return "UInt";
    case DataType::Float:
      return "Float";
    case DataType::String:
      return "String";
    case DataType::Vec3f:
      return "Vector3F";
    default:
      return "Void";
  }
}

}  // namespace

std::uint32_t Signature::arguments_size() const {
  std::uint32_t size = 0;
  for (const auto type : arguments)
    size += value_size(type);
  return size;
}

std::uint32_t Signature::block_size() const {
  return std::max(arguments_size(), value_size(result));
}

std::optional<Signature> parse_signature(std::string_view text, std::string* error) {
  auto fail = [&](std::string message) -> std::optional<Signature> {
    if (error != nullptr) *error = std::move(message);
    return std::nullopt;
  };
  Signature sig;
  sig.text = std::string(text);
  const auto open = text.rfind('(');
  if (open == std::string_view::npos || text.empty() || trim(text).back() != ')') {
    return fail("expected Name( Result, Arguments... )");
  }
  auto head = trim(text.substr(0, open));
  if (head.starts_with('(')) {  // "(Vector3F).Normalized": a value object
    const auto close = head.find(')');
    if (close == std::string_view::npos || close + 1 >= head.size() || head[close + 1] != '.') {
      return fail("expected (Type).Name");
    }
    sig.object = std::string(trim(head.substr(1, close - 1)));
    const auto type = type_named(sig.object);
    if (!type || *type == DataType::None)
      return fail(fmt::format("unknown value type \"{}\"", sig.object));
    sig.value_object = true;
    sig.arguments.push_back(*type);
    head = head.substr(close + 2);
  } else if (const auto dot = head.rfind('.'); dot != std::string_view::npos) {
    sig.object = std::string(head.substr(0, dot));  // a host object: "Actor"
    head = head.substr(dot + 1);
  }
  sig.name = std::string(trim(head));
  if (sig.name.empty()) return fail("missing function name");
  auto list = text.substr(open + 1);
  list = trim(list.substr(0, list.rfind(')')));
  bool first = true;
  while (!list.empty()) {
    const auto comma = list.find(',');
    const auto item = trim(list.substr(0, comma));
    const auto type = type_named(item);
    if (!type) return fail(fmt::format("unknown type \"{}\"", item));
    if (first) {
      sig.result = *type;
    } else {
      if (*type == DataType::None) return fail("an argument cannot be Void");
      sig.arguments.push_back(*type);
    }
    first = false;
    if (comma == std::string_view::npos) break;
    list = list.substr(comma + 1);
  }
  return sig;
}

Signature UserFunctions::checked_signature(std::string_view text, DataType result,
                                           const std::vector<DataType>& arguments) {
  std::string error;
  auto sig = parse_signature(text, &error);
  if (!sig) throw std::invalid_argument(fmt::format("signature \"{}\": {}", text, error));
  auto describe = [](DataType r, const std::vector<DataType>& args) {
    std::string out = fmt::format("{}(", type_text(r));
    for (const auto a : args)
      out += fmt::format(" {}", type_text(a));
    return out + " )";
  };
  if (sig->result != result || sig->arguments != arguments) {
    throw std::invalid_argument(fmt::format("signature \"{}\" means {} but the function is {}",
                                            text, describe(sig->result, sig->arguments),
                                            describe(result, arguments)));
  }
  return *sig;
}

void UserFunctions::add_constant(std::string_view signature, std::array<std::uint8_t, 12> value) {
  const auto size = value_size(parse_signature(signature).value_or(Signature{}).result);
  add_erased(signature, [value, size](CallContext&, std::uint8_t* block) {
    std::memcpy(block, value.data(), size);
  });
}

Signature UserFunctions::add_erased(std::string_view signature, ErasedFunction f) {
  std::string error;
  auto sig = parse_signature(signature, &error);
  if (!sig) throw std::invalid_argument(fmt::format("signature \"{}\": {}", signature, error));
  functions_[sig->text] = std::make_shared<const ErasedFunction>(std::move(f));
  return std::move(*sig);
}

std::shared_ptr<const ErasedFunction> UserFunctions::find(std::string_view signature) const {
  const auto it = functions_.find(std::string(signature));
  return it == functions_.end() ? nullptr : it->second;
}

}  // namespace ainb::exb
