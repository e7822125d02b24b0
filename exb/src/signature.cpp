#include "ainb/exb/signature.hpp"

#include <algorithm>

#include <fmt/format.h>

namespace ainb::exb {

namespace {

// The type a signature's word names (the table's spellings); "None" reads as Void too.
std::optional<DataType> type_named(std::string_view name) {
  return name == "None" ? DataType::None : data_type_of_signature_word(name);
}

bool word_char(char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
}

// Reads the grammar of signature.hpp left to right; each method consumes what it matched.
class Reader {
 public:
  explicit Reader(std::string_view text) : text_(text) {}

  bool at_end() const { return at_ == text_.size(); }
  bool take(char c) {
    if (at_end() || text_[at_] != c) return false;
    ++at_;
    return true;
  }
  std::string_view word() {
    const auto start = at_;
    while (!at_end() && word_char(text_[at_]))
      ++at_;
    return text_.substr(start, at_ - start);
  }
  void skip_spaces() {
    while (take(' ')) {
    }
  }
  std::string_view rest() const { return text_.substr(at_); }

 private:
  std::string_view text_;
  std::size_t at_ = 0;
};

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
  Reader in(text);

  // The receiver: "(Vector3F)." a value the method is called on, or "Actor." a host object.
  if (in.take('(')) {
    const auto type_word = in.word();
    if (!in.take(')') || !in.take('.')) return fail("expected (Type).Name");
    const auto type = type_named(type_word);
    if (!type || *type == DataType::None)
      return fail(fmt::format("unknown value type \"{}\"", type_word));
    sig.object = std::string(type_word);
    sig.value_object = true;
    sig.arguments.push_back(*type);  // read from the block first, like an argument
  }
  auto name = in.word();
  if (name.empty()) return fail("missing function name");
  while (!sig.value_object && in.take('.')) {  // "Actor.Pos": the last part is the name
    if (!sig.object.empty()) sig.object += '.';
    sig.object += name;
    name = in.word();
    if (name.empty()) return fail("missing function name");
  }
  sig.name = std::string(name);
  if (!in.take('(')) return fail(fmt::format("expected \"(\" after \"{}\"", name));

  // The list: the result first, then the arguments.
  for (bool first = true;; first = false) {
    in.skip_spaces();
    const auto type_word = in.word();
    if (type_word.empty()) return fail(first ? "missing the result type" : "missing an argument");
    const auto type = type_named(type_word);
    if (!type) return fail(fmt::format("unknown type \"{}\"", type_word));
    if (first) {
      sig.result = *type;
    } else {
      if (*type == DataType::None) return fail("an argument cannot be Void");
      sig.arguments.push_back(*type);
    }
    in.skip_spaces();
    if (in.take(',')) continue;
    if (in.take(')')) break;
    if (in.at_end()) return fail("missing \")\"");
    return fail(fmt::format("expected \",\" or \")\" after \"{}\"", type_word));
  }
  if (!in.at_end()) return fail(fmt::format("unexpected \"{}\" after the list", in.rest()));
  return sig;
}

}  // namespace ainb::exb
