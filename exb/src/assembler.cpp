#include "ainb/exb/assembler.hpp"

#include <charconv>
#include <cmath>
#include <cstring>
#include <map>

#include <fmt/format.h>

#include "ainb/bit_cast.hpp"
#include "ainb/exb/disassembler.hpp"
#include "ainb/exb/section.hpp"
#include "ainb/exb/signature.hpp"
#include "instruction_text.hpp"

namespace ainb::exb {

namespace {

void put16(std::vector<std::uint8_t>& out, std::uint16_t v) {
  out.push_back(static_cast<std::uint8_t>(v));
  out.push_back(static_cast<std::uint8_t>(v >> 8));
}
void put32(std::vector<std::uint8_t>& out, std::uint32_t v) {
  put16(out, static_cast<std::uint16_t>(v));
  put16(out, static_cast<std::uint16_t>(v >> 16));
}
void patch32(std::vector<std::uint8_t>& out, std::size_t at, std::uint32_t v) {
  for (int i = 0; i < 4; ++i)
    out[at + static_cast<std::size_t>(i)] = static_cast<std::uint8_t>(v >> (8 * i));
}

// The type's byte in the section's version; v1/v2 have no UInt, and take it as their INT (the
// same 32 bits) where no check refused it first.
std::uint8_t encode_type(std::uint32_t version, DataType type) {
  return data_type_byte(version, type).value_or(*data_type_byte(version, DataType::Int));
}

// The common tail: header, command info, instructions, signatures, parameter region, pool.
struct Tables {
  std::uint32_t version = 2, static_size = 0, instance_count = 0, scratch32 = 0, scratch64 = 0;
  std::vector<Function> functions;
  std::vector<std::array<std::uint8_t, 8>> instructions;
  std::vector<std::uint32_t> signature_offsets;
  std::vector<std::uint8_t> param_region;
  std::vector<std::uint8_t> pool;

  std::vector<std::uint8_t> bytes() const {
    std::vector<std::uint8_t> out(kSectionHeaderSize, 0);
    std::memcpy(out.data(), "EXB ", 4);
    patch32(out, 0x04, version);
    patch32(out, 0x08, static_size);
    patch32(out, 0x0C, instance_count);
    patch32(out, 0x10, scratch32);
    patch32(out, 0x14, scratch64);
    patch32(out, 0x18, static_cast<std::uint32_t>(out.size()));
    put32(out, static_cast<std::uint32_t>(functions.size()));
    for (const auto& f : functions) {
      put32(out, f.has_setup ? f.setup.base : 0xFFFFFFFFu);
      if (version != 1) put32(out, f.has_setup ? f.setup.count : 0);
      put32(out, f.main.base);
      if (version != 1) put32(out, f.main.count);
      put32(out, f.static_size);
      put16(out, f.scratch32_size);
      put16(out, f.scratch64_size);
      put16(out, encode_type(version, f.output_type));
      put16(out, encode_type(version, f.input_type));
    }
    patch32(out, 0x1C, static_cast<std::uint32_t>(out.size()));
    put32(out, static_cast<std::uint32_t>(instructions.size()));
    for (const auto& ins : instructions)
      out.insert(out.end(), ins.begin(), ins.end());
    patch32(out, 0x20, static_cast<std::uint32_t>(out.size()));
    put32(out, static_cast<std::uint32_t>(signature_offsets.size()));
    for (const auto o : signature_offsets)
      put32(out, o);
    patch32(out, 0x24, static_cast<std::uint32_t>(out.size()));
    out.insert(out.end(), param_region.begin(), param_region.end());
    patch32(out, 0x28, static_cast<std::uint32_t>(out.size()));
    out.insert(out.end(), pool.begin(), pool.end());
    return out;
  }
};

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t'))
    s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r'))
    s.remove_suffix(1);
  return s;
}

// Splits at the first ", " outside parentheses and quotes.
std::pair<std::string_view, std::string_view> split_operands(std::string_view s) {
  int depth = 0;
  bool quoted = false;
  for (std::size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    if (quoted) {
      if (c == '\\') {
        ++i;
      } else if (c == '"') {
        quoted = false;
      }
      continue;
    }
    if (c == '"') quoted = true;
    if (c == '(') ++depth;
    if (c == ')') --depth;
    if (c == ',' && depth == 0) return {trim(s.substr(0, i)), trim(s.substr(i + 1))};
  }
  return {trim(s), {}};
}

class Assembler {
 public:
  explicit Assembler(const AssemblySource& src) : src_(src) {
    t_.version = src.version;
    t_.static_size = src.static_size;
    t_.instance_count = src.instance_count;
    t_.scratch32 = src.scratch32_size;
    t_.scratch64 = src.scratch64_size;
    t_.param_region = src.param_region;
    for (const auto& s : src.strings) {
      strings_.emplace(s, static_cast<std::uint32_t>(t_.pool.size()));
      t_.pool.insert(t_.pool.end(), s.begin(), s.end());
      t_.pool.push_back(0);
    }
    for (const auto& sig : src.signatures) {
      signatures_.emplace(sig, static_cast<std::uint32_t>(t_.signature_offsets.size()));
      t_.signature_offsets.push_back(string_offset(sig));
    }
  }

  std::vector<std::uint8_t> run() {
    if (src_.version < 1 || src_.version > 3) {
      throw AssemblyError({}, "", 0, fmt::format("unsupported EXB version {}", src_.version));
    }
    for (std::size_t f = 0; f < src_.functions.size(); ++f) {
      const auto& af = src_.functions[f];
      Function fn;
      fn.input_type = af.input_type;
      fn.output_type = af.output_type;
      fn.static_size = af.static_size;
      fn.scratch32_size = af.scratch32_size;
      fn.scratch64_size = af.scratch64_size;
      if (af.setup) {
        fn.has_setup = true;
        fn.setup = block(f, "setup", *af.setup);
      }
      fn.main = block(f, "main", af.main);
      t_.functions.push_back(fn);
    }
    return t_.bytes();
  }

 private:
  std::uint32_t string_offset(const std::string& s) {
    if (auto it = strings_.find(s); it != strings_.end()) return it->second;
    const auto offset = static_cast<std::uint32_t>(t_.pool.size());
    strings_.emplace(s, offset);
    t_.pool.insert(t_.pool.end(), s.begin(), s.end());
    t_.pool.push_back(0);
    return offset;
  }

  std::uint16_t param_offset(const std::vector<std::uint8_t>& value, std::size_t align) {
    if (preferred_ && *preferred_ + value.size() <= t_.param_region.size() &&
        std::memcmp(t_.param_region.data() + *preferred_, value.data(), value.size()) == 0) {
      return static_cast<std::uint16_t>(*preferred_);
    }
    for (std::size_t at = 0; at + value.size() <= t_.param_region.size(); at += align) {
      if (std::memcmp(t_.param_region.data() + at, value.data(), value.size()) == 0) {
        return static_cast<std::uint16_t>(at);
      }
    }
    const auto at = t_.param_region.size();
    if (at + value.size() > 0xFFFF) fail("the parameter region is full");
    t_.param_region.insert(t_.param_region.end(), value.begin(), value.end());
    return static_cast<std::uint16_t>(at);
  }

  [[noreturn]] void fail(const std::string& reason) const {
    throw AssemblyError(function_, block_, line_, reason);
  }

  Block block(std::size_t f, std::string_view name, const std::vector<std::string>& lines) {
    Block b{static_cast<std::uint32_t>(t_.instructions.size()),
            static_cast<std::uint32_t>(lines.size())};
    for (std::size_t i = 0; i < lines.size(); ++i) {
      function_ = static_cast<std::uint32_t>(f);
      block_ = std::string(name);
      line_ = static_cast<std::uint32_t>(i);
      t_.instructions.push_back(instruction(trim(lines[i]), lines.size()));
    }
    return b;
  }

  std::uint32_t number(std::string_view text, std::string_view what) const {
    std::uint32_t v = 0;
    int base = 10;
    if (text.starts_with("0x")) {
      text.remove_prefix(2);
      base = 16;
    }
    const auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), v, base);
    if (ec != std::errc{} || p != text.data() + text.size()) {
      fail(fmt::format("bad {} \"{}\"", what, text));
    }
    return v;
  }

  float parse_float(std::string_view text) const {
    const std::string s(text);
    char* end = nullptr;
    const float v = std::strtof(s.c_str(), &end);
    if (s.empty() || end != s.c_str() + s.size()) fail(fmt::format("bad float \"{}\"", text));
    // strtof gives infinity for a number past float's range; only "inf" itself means it.
    if (std::isinf(v) && s.find_first_of("iI") == std::string::npos) {
      fail(fmt::format("float {} is past float's range (about 3.4e38)", text));
    }
    return v;
  }

  std::string unquote(std::string_view text) const {
    if (text.size() < 2 || text.front() != '"' || text.back() != '"') {
      fail(fmt::format("bad string {}", text));
    }
    std::string out;
    for (std::size_t i = 1; i + 1 < text.size(); ++i) {
      if (text[i] == '\\' && i + 2 < text.size()) ++i;
      out += text[i];
    }
    return out;
  }

  static std::vector<std::uint8_t> word_bytes(std::uint32_t v) {
    std::vector<std::uint8_t> out;
    put32(out, v);
    return out;
  }

  // "<type> <place or constant>"; `type` is the instruction's (or the scalar's) type.
  Operand operand(std::string_view text, DataType type) {
    std::string_view rest = text;
    if (const auto space = text.find(' '); space != std::string_view::npos) {
      if (const auto t = data_type_of_word(text.substr(0, space))) {
        if (*t != type) {
          fail(fmt::format("operand \"{}\" is not of the instruction's type {}", text,
                           data_type_name(type)));
        }
        rest = trim(text.substr(space + 1));
      }
    }
    bool in_param = false;
    bool immediate = false;
    preferred_.reset();
    if (rest.starts_with("@imm ")) {
      immediate = true;
      rest = trim(rest.substr(5));
    }
    if (rest.starts_with("@param[")) {
      const auto close = rest.find(']');
      if (close == std::string_view::npos) fail(fmt::format("missing ] in \"{}\"", text));
      preferred_ = number(rest.substr(7, close - 7), "parameter-region offset");
      in_param = true;
      rest = trim(rest.substr(close + 1));
    } else if (rest.starts_with("@param ")) {
      in_param = true;
      rest = trim(rest.substr(7));
    }
    static constexpr std::pair<std::string_view, Source> kPlaces[] = {
        {"GMem[", Source::Static},      {"Out[", Source::Output},
        {"In[", Source::Input},         {"LMem32[", Source::Scratch32},
        {"LMem64[", Source::Scratch64}, {"UserOut[", Source::UserOut},
        {"UserIn[", Source::UserIn}};
    for (const auto& [prefix, source] : kPlaces) {
      if (!rest.starts_with(prefix)) continue;
      const auto close = rest.find(']');
      if (close == std::string_view::npos) fail(fmt::format("missing ] in \"{}\"", text));
      auto value = number(rest.substr(prefix.size(), close - prefix.size()), "offset");
      const auto suffix = rest.substr(close + 1);
      if (!suffix.empty()) {
        static constexpr std::string_view kComponents[] = {".x", ".y", ".z"};
        std::uint32_t c = 0;
        while (c < 3 && suffix != kComponents[c])
          ++c;
        if (c == 3 || (source != Source::UserIn && source != Source::UserOut)) {
          fail(fmt::format("unexpected \"{}\" after {}", suffix, prefix));
        }
        value = (value & 0xFF) | 0x8000u | ((c * 4) << 8);
      }
      if (value > 0xFFFF) fail(fmt::format("offset {:#x} does not fit 16 bits", value));
      return {source, static_cast<std::uint16_t>(value)};
    }
    switch (type) {
      case DataType::Bool: {
        if (rest != "True" && rest != "False") fail(fmt::format("bad bool \"{}\"", rest));
        const std::uint16_t v = rest == "True" ? 1 : 0;
        if (in_param) return {Source::ParamTable, param_offset(word_bytes(v), 4)};
        return {Source::Immediate, v};
      }
      case DataType::Int:
      case DataType::UInt: {
        std::int64_t v = 0;
        const auto [p, ec] = std::from_chars(rest.data(), rest.data() + rest.size(), v);
        if (ec != std::errc{} || p != rest.data() + rest.size()) {
          fail(fmt::format("bad integer \"{}\"", rest));
        }
        // A 32-bit word: an int in the signed range, a uint in the unsigned one.
        const bool fits =
            type == DataType::Int ? v >= INT32_MIN && v <= INT32_MAX : v >= 0 && v <= UINT32_MAX;
        if (!fits) {
          fail(fmt::format("{} {} is past the 32-bit {} range", assembly_word(type), rest,
                           type == DataType::Int ? "signed" : "unsigned"));
        }
        if (!in_param && v >= 0 && v <= 0xFFFF) {
          return {Source::Immediate, static_cast<std::uint16_t>(v)};
        }
        return {Source::ParamTable, param_offset(word_bytes(static_cast<std::uint32_t>(v)), 4)};
      }
      case DataType::Float: {
        const float v = parse_float(rest);
        if (immediate) {
          if (!(v >= 0 && v <= 65535.0f && std::floor(v) == v && !std::signbit(v))) {
            fail(fmt::format("float {} does not fit an immediate (a whole number 0..65535)", rest));
          }
          return {Source::Immediate, static_cast<std::uint16_t>(v)};
        }
        return {Source::ParamTable, param_offset(word_bytes(ainb::bit_cast<std::uint32_t>(v)), 4)};
      }
      case DataType::String: {
        const auto offset = string_offset(unquote(rest));
        if (in_param) return {Source::ParamTableString, param_offset(word_bytes(offset), 4)};
        if (offset > 0xFFFF) fail("the string pool is too large for an immediate string");
        return {Source::ImmediateString, static_cast<std::uint16_t>(offset)};
      }
      case DataType::Vec3f: {
        if (rest.size() < 2 || rest.front() != '(' || rest.back() != ')') {
          fail(fmt::format("bad vec3f \"{}\"", rest));
        }
        std::vector<std::uint8_t> bytes;
        auto inner = rest.substr(1, rest.size() - 2);
        for (int i = 0; i < 3; ++i) {
          const auto [head, tail] = split_operands(inner);
          put32(bytes, ainb::bit_cast<std::uint32_t>(parse_float(head)));
          inner = tail;
        }
        if (!inner.empty()) fail(fmt::format("bad vec3f \"{}\"", rest));
        return {Source::ParamTable, param_offset(bytes, 4)};
      }
      default:
        fail(fmt::format("no constant of type {}", data_type_name(type)));
    }
  }

  // A CFN's type byte is its signature's result, also for a method on a value:
  // "(Vector3F).Length( Float )" is a FLOAT instruction (the game's files have it so).
  DataType result_type(std::string_view sig) const {
    std::string error;
    const auto parsed = parse_signature(sig, &error);
    if (!parsed) fail(fmt::format("cannot parse signature \"{}\": {}", sig, error));
    return parsed->result;
  }

  std::uint16_t target(std::string_view text, std::size_t block_size) const {
    const auto address = number(text, "jump address");
    if (address % 8 != 0 || address / 8 >= block_size) {
      fail(fmt::format("jump address {} is not an instruction of the block", text));
    }
    return static_cast<std::uint16_t>(address / 8);
  }

  std::array<std::uint8_t, 8> instruction(std::string_view line, std::size_t block_size) {
    const auto space = line.find(' ');
    const auto name = line.substr(0, space);
    const auto args =
        space == std::string_view::npos ? std::string_view{} : trim(line.substr(space));
    const auto op = opcode_of(name);
    if (!op) fail(fmt::format("unknown mnemonic \"{}\"", name));
    std::array<std::uint8_t, 8> raw{};
    raw[0] = static_cast<std::uint8_t>(*op);
    auto set16 = [&](std::size_t at, std::uint16_t v) {
      raw[at] = static_cast<std::uint8_t>(v);
      raw[at + 1] = static_cast<std::uint8_t>(v >> 8);
    };
    const auto shape = shape_of(*op);
    switch (shape) {
      case Shape::None:
        if (!args.empty()) fail(fmt::format("{} takes no operands", name));
        return raw;
      case Shape::Jump:
        set16(6, target(args, block_size));
        return raw;
      case Shape::Call: {
        const auto at = args.rfind(", GMem[");
        if (at == std::string_view::npos || !args.ends_with("]")) {
          fail(fmt::format("{} needs \"<signature>, GMem[<offset>]\"", name));
        }
        const std::string sig(trim(args.substr(0, at)));
        const auto block = number(args.substr(at + 7, args.size() - at - 8), "offset");
        std::uint32_t index = 0;
        if (auto it = signatures_.find(sig); it != signatures_.end()) {
          index = it->second;
        } else {
          index = static_cast<std::uint32_t>(t_.signature_offsets.size());
          signatures_.emplace(sig, index);
          t_.signature_offsets.push_back(string_offset(sig));
        }
        raw[1] = encode_type(src_.version, result_type(sig));
        set16(2, static_cast<std::uint16_t>(block));
        set16(4, static_cast<std::uint16_t>(index));
        set16(6, static_cast<std::uint16_t>(index >> 16));
        return raw;
      }
      case Shape::Branch: {
        const auto comma = args.rfind(", ");
        if (comma == std::string_view::npos) {
          fail(fmt::format("{} needs \"<condition>, <address>\"", name));
        }
        const auto cond = trim(args.substr(0, comma));
        const auto sp = cond.find(' ');
        const auto t =
            sp == std::string_view::npos ? std::nullopt : data_type_of_word(cond.substr(0, sp));
        const auto type = t.value_or(DataType::None);
        raw[1] = encode_type(src_.version, type);
        const auto lhs = operand(cond, type);
        raw[2] = static_cast<std::uint8_t>(lhs.source);
        set16(4, lhs.value);
        set16(6, target(trim(args.substr(comma + 2)), block_size));
        return raw;
      }
      case Shape::Unary:
      case Shape::Binary:
      case Shape::Scalar:
        break;
    }
    const auto [lhs_text, rhs_text] = split_operands(args);
    const auto sp = lhs_text.find(' ');
    const auto type =
        sp == std::string_view::npos ? std::nullopt : data_type_of_word(lhs_text.substr(0, sp));
    if (!type) fail(fmt::format("operand \"{}\" has no type", lhs_text));
    if (*type == DataType::UInt && src_.version < 3) fail("uint needs EXB version 3");
    raw[1] = encode_type(src_.version, *type);
    const auto lhs = operand(lhs_text, *type);
    raw[2] = static_cast<std::uint8_t>(lhs.source);
    set16(4, lhs.value);
    if (!has_rhs(shape)) {
      if (!rhs_text.empty()) fail(fmt::format("{} takes one operand", name));
      return raw;
    }
    if (rhs_text.empty()) fail(fmt::format("{} takes two operands", name));
    const auto rhs = operand(rhs_text, rhs_type(shape, *type));
    raw[3] = static_cast<std::uint8_t>(rhs.source);
    set16(6, rhs.value);
    return raw;
  }

  const AssemblySource& src_;
  Tables t_;
  std::map<std::string, std::uint32_t> strings_;
  std::map<std::string, std::uint32_t> signatures_;
  std::optional<std::uint32_t> function_;
  std::string block_;
  std::uint32_t line_ = 0;
  std::optional<std::uint32_t> preferred_;  // an operand's `@param[offset]`
};

// Whether the assembler's rule would put this constant in the immediate.
bool fits_immediate(const Section& s, const Operand& op, DataType type) {
  if (op.value + 4ull > s.param_region.size()) return false;
  std::uint32_t word = 0;
  std::memcpy(&word, s.param_region.data() + op.value, 4);
  switch (type) {
    case DataType::Bool:
      return word <= 1;
    case DataType::Int:
    case DataType::UInt:
      return word <= 0xFFFF;
    default:
      return false;  // floats always go to the parameter region
  }
}

// Where the assembler would find `width` bytes of the region at `offset`: the first 4-aligned
// place holding the same bytes.
std::uint32_t first_match(const Section& s, std::uint32_t offset, std::uint32_t width) {
  if (offset + width > s.param_region.size()) return offset;
  for (std::uint32_t at = 0; at + width <= s.param_region.size(); at += 4) {
    if (std::memcmp(s.param_region.data() + at, s.param_region.data() + offset, width) == 0) {
      return at;
    }
  }
  return offset;
}

// The disassembler's operand, with `@param` where the assembler's rule would put the constant
// elsewhere, and `@param[offset]` where the value occurs earlier in the parameter region.
std::string exact_operand(const Section& s, const Operand& op, DataType type) {
  auto text = format_operand(s, op, type);
  if (op.source == Source::Immediate && type == DataType::Float) {
    text.insert(text.find(' ') + 1, "@imm ");
    return text;
  }
  if (op.source != Source::ParamTable && op.source != Source::ParamTableString) return text;
  const auto width = op.source == Source::ParamTableString ? 4u : value_size(type);
  std::string mark;
  if (first_match(s, op.value, width) != op.value) {
    mark = fmt::format("@param[{:#x}] ", op.value);
  } else if (op.source == Source::ParamTableString || fits_immediate(s, op, type)) {
    mark = "@param ";
  }
  if (!mark.empty()) text.insert(text.find(' ') + 1, mark);
  return text;
}

std::string exact_instruction(const Section& s, const Instruction& ins) {
  return instruction_text(
      s, ins, [&](const Operand& op, DataType type) { return exact_operand(s, op, type); });
}

}  // namespace

std::vector<std::uint8_t> encode(const Section& s) {
  Tables t;
  t.version = s.version;
  t.static_size = s.static_size;
  t.instance_count = s.instance_count;
  t.scratch32 = s.scratch32_size;
  t.scratch64 = s.scratch64_size;
  t.functions = s.functions;
  for (const auto& ins : s.instructions)
    t.instructions.push_back(ins.raw);
  for (const auto& sig : s.signatures) {
    t.signature_offsets.push_back(static_cast<std::uint32_t>(
        reinterpret_cast<const std::uint8_t*>(sig.data()) - s.string_pool.data()));
  }
  t.param_region.assign(s.param_region.begin(), s.param_region.end());
  t.pool.assign(s.string_pool.begin(), s.string_pool.end());
  return t.bytes();
}

std::vector<std::uint8_t> assemble(const AssemblySource& source) {
  return Assembler(source).run();
}

AssemblySource to_assembly(const Section& s) {
  AssemblySource out;
  out.version = s.version;
  out.static_size = s.static_size;
  out.instance_count = s.instance_count;
  out.scratch32_size = s.scratch32_size;
  out.scratch64_size = s.scratch64_size;
  out.param_region.assign(s.param_region.begin(), s.param_region.end());
  const std::string_view pool(reinterpret_cast<const char*>(s.string_pool.data()),
                              s.string_pool.size());
  std::size_t at = 0;
  while (at < pool.size()) {
    auto nul = pool.find('\0', at);
    if (nul == std::string_view::npos) nul = pool.size();
    out.strings.emplace_back(pool.substr(at, nul - at));
    at = nul + 1;
  }
  for (const auto& sig : s.signatures)
    out.signatures.emplace_back(sig);
  for (const auto& f : s.functions) {
    AssemblyFunction af;
    af.input_type = f.input_type;
    af.output_type = f.output_type;
    af.static_size = f.static_size;
    af.scratch32_size = f.scratch32_size;
    af.scratch64_size = f.scratch64_size;
    if (f.has_setup) {
      af.setup.emplace();
      for (const auto& ins : s.block(f.setup))
        af.setup->push_back(exact_instruction(s, ins));
    }
    for (const auto& ins : s.block(f.main))
      af.main.push_back(exact_instruction(s, ins));
    out.functions.push_back(std::move(af));
  }
  return out;
}

}  // namespace ainb::exb
