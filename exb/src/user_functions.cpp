#include "ainb/exb/user_functions.hpp"

#include <fmt/format.h>

namespace ainb::exb {

Signature UserFunctions::checked_signature(std::string_view text, DataType result,
                                           const std::vector<DataType>& arguments) {
  std::string error;
  auto sig = parse_signature(text, &error);
  if (!sig) throw std::invalid_argument(fmt::format("signature \"{}\": {}", text, error));
  auto describe = [](DataType r, const std::vector<DataType>& args) {
    std::string out = fmt::format("{}(", signature_type_name(r));
    for (const auto a : args)
      out += fmt::format(" {}", signature_type_name(a));
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
