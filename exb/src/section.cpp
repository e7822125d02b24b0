#include "ainb/exb/section.hpp"

#include <algorithm>
#include <array>
#include <string>

namespace ainb::exb {

namespace {

constexpr std::uint64_t kInstructionSize = 8;

// The tables below are indexed by value, and the decoder takes 1..kMaxOpcode for the opcodes.
static_assert(
    [] {
      std::uint8_t next = 1;
      bool in_order = true;
#define AINB_EXB_OPCODE_ORDER(name, value, text, shape, peer) \
  in_order = in_order && value == next++;
      AINB_EXB_OPCODES(AINB_EXB_OPCODE_ORDER)
#undef AINB_EXB_OPCODE_ORDER
      return in_order;
    }(),
    "opcode values run 1, 2, ... in the order of their rows");

constexpr std::array<std::string_view, kMaxOpcode + 1> kMnemonics = [] {
  std::array<std::string_view, kMaxOpcode + 1> names{};
#define AINB_EXB_OPCODE_NAME(name, value, text, shape, peer) names[value] = text;
  AINB_EXB_OPCODES(AINB_EXB_OPCODE_NAME)
#undef AINB_EXB_OPCODE_NAME
  return names;
}();

constexpr std::array<std::string_view, kMaxOpcode + 1> kPeerNames = [] {
  std::array<std::string_view, kMaxOpcode + 1> names{};
#define AINB_EXB_OPCODE_PEER_NAME(name, value, text, shape, peer) names[value] = peer;
  AINB_EXB_OPCODES(AINB_EXB_OPCODE_PEER_NAME)
#undef AINB_EXB_OPCODE_PEER_NAME
  return names;
}();

// Bytes a value of `type` occupies in the parameter region; strings are stored there only by
// reference (ParamTableString), so they have no width of their own.
std::uint32_t param_width(DataType type) {
  return type == DataType::String ? 0 : value_size(type);
}

class Decoder {
 public:
  explicit Decoder(const ByteReader& reader) : r_(reader) {}

  Section run() {
    auto scope = r_.section("EXB header");
    r_.require(0, kSectionHeaderSize, "EXB header");
    const auto magic = r_.bytes(0, 4);
    if (std::string_view(reinterpret_cast<const char*>(magic.data()), 4) != "EXB ") {
      r_.fail(0, "bad EXB magic (expected \"EXB \")");
    }
    Section s;
    s.file_offset = static_cast<std::uint32_t>(r_.base());
    s.version = r_.u32(0x04);
    if (s.version < 1 || s.version > 3) r_.fail(0x04, "unsupported EXB version {}", s.version);
    s.static_size = r_.u32(0x08);
    s.instance_count = r_.u32(0x0C);
    s.scratch32_size = r_.u32(0x10);
    s.scratch64_size = r_.u32(0x14);
    const auto info_offset = r_.u32(0x18);
    const auto instruction_offset = r_.u32(0x1C);
    const auto signature_offset = r_.u32(0x20);
    const auto param_offset = r_.u32(0x24);
    const auto pool_offset = r_.u32(0x28);
    for (auto [field, value] : {std::pair{0x18u, info_offset},
                                {0x1Cu, instruction_offset},
                                {0x20u, signature_offset},
                                {0x24u, param_offset},
                                {0x28u, pool_offset}}) {
      if (value < kSectionHeaderSize || value > r_.size()) {
        r_.fail(field, "section offset {:#x} lies outside the EXB section (size {:#x})", value,
                r_.size());
      }
    }
    if (param_offset > pool_offset) {
      r_.fail(0x24, "parameter region ({:#x}) starts after the string pool ({:#x})", param_offset,
              pool_offset);
    }
    s.param_region = r_.bytes(param_offset, pool_offset - param_offset, "parameter region");
    s.string_pool = r_.bytes(pool_offset, r_.size() - pool_offset, "string pool");
    pool_offset_ = pool_offset;
    param_offset_ = param_offset;
    version_ = s.version;

    s.instruction_table = instruction_offset;
    read_signatures(s, signature_offset);
    read_instructions(s, instruction_offset);
    read_functions(s, info_offset);
    return s;
  }

 private:
  // Count-prefixed table of `entry_size`-byte entries; returns the count after checking it fits.
  std::uint32_t table_count(std::uint64_t offset, std::uint64_t entry_size, std::string_view what) {
    const auto count = r_.u32(offset, what);
    r_.require(offset + 4, std::uint64_t{count} * entry_size, what);
    return count;
  }

  std::string_view pool_string(std::uint64_t at, std::uint32_t offset, std::string_view what) {
    if (offset >= r_.size() - pool_offset_) {
      r_.fail(at, "{} offset {:#x} lies outside the EXB string pool (size {:#x})", what, offset,
              r_.size() - pool_offset_);
    }
    return r_.c_string(pool_offset_ + offset, what);
  }

  void read_signatures(Section& s, std::uint32_t offset) {
    auto scope = r_.section("EXB signature table");
    const auto count = table_count(offset, 4, "signature table");
    s.signatures.reserve(count);
    for (std::uint32_t i = 0; i < count; ++i) {
      const auto at = offset + 4 + std::uint64_t{i} * 4;
      s.signatures.push_back(pool_string(at, r_.u32(at), "signature"));
    }
  }

  void check_operand(const Section& s, std::uint64_t at, std::uint32_t index, const Operand& op,
                     DataType type) {
    switch (op.source) {
      case Source::Immediate:
        if (type == DataType::String || type == DataType::Vec3f) {
          r_.fail(at, "instruction {}: an immediate cannot hold a {} value", index,
                  data_type_name(type));
        }
        break;
      case Source::ImmediateString:
        pool_string(at, op.value, "immediate string");
        break;
      case Source::ParamTable: {
        const auto width = param_width(type);
        if (width == 0) {
          r_.fail(at, "instruction {}: the parameter region cannot hold a {} value", index,
                  data_type_name(type));
        }
        if (std::uint64_t{op.value} + width > s.param_region.size()) {
          r_.fail(at,
                  "instruction {}: parameter-region offset {:#x} (+{}) runs past its end ({:#x})",
                  index, op.value, width, s.param_region.size());
        }
        break;
      }
      case Source::ParamTableString: {
        if (std::uint64_t{op.value} + 4 > s.param_region.size()) {
          r_.fail(at,
                  "instruction {}: parameter-region offset {:#x} (+4) runs past its end ({:#x})",
                  index, op.value, s.param_region.size());
        }
        pool_string(at, r_.u32(param_offset_ + op.value), "parameter-region string");
        break;
      }
      default:
        break;  // memory offsets are checked against function sizes by the verifier (program.cpp)
    }
  }

  void read_instructions(Section& s, std::uint32_t offset) {
    auto scope = r_.section("EXB instructions");
    const auto count = table_count(offset, kInstructionSize, "instruction table");
    s.instructions.reserve(count);
    for (std::uint32_t i = 0; i < count; ++i) {
      const auto at = offset + 4 + std::uint64_t{i} * kInstructionSize;
      Cursor c(r_, at);
      const auto raw_op = c.u8("opcode");
      const auto raw_type = c.u8("data type");
      const auto raw_lhs = c.u8("left source");
      const auto raw_rhs = c.u8("right source");
      const auto lhs_value = c.u16("left value");
      const auto rhs_value = c.u16("right value");
      if (raw_op == 0 || raw_op > kMaxOpcode) {
        r_.fail(at, "instruction {}: unknown opcode {:#x}", i, raw_op);
      }
      Instruction ins;
      std::copy_n(r_.bytes(at, kInstructionSize).begin(), kInstructionSize, ins.raw.begin());
      ins.opcode = static_cast<Opcode>(raw_op);
      const auto type = data_type_of_byte(version_, raw_type);
      if (!type) {
        r_.fail(at + 1, "instruction {}: unknown data type {} for EXB version {}", i, raw_type,
                version_);
      }
      ins.type = *type;
      const auto shape = ins.shape();
      switch (shape) {
        case Shape::None:
          break;
        case Shape::Jump:
          ins.jump_target = rhs_value;
          break;
        case Shape::Call:
          ins.static_offset = r_.u16(at + 2);
          ins.signature_index = r_.u32(at + 4);
          if (ins.signature_index >= s.signatures.size()) {
            r_.fail(at + 4, "instruction {}: signature index {} past the signature table ({})", i,
                    ins.signature_index, s.signatures.size());
          }
          break;
        case Shape::Branch:
          ins.lhs = {source(at + 2, i, raw_lhs), lhs_value};
          ins.jump_target = rhs_value;
          check_operand(s, at, i, ins.lhs, ins.type);
          break;
        case Shape::Unary:
        case Shape::Binary:
        case Shape::Scalar:
          ins.lhs = {source(at + 2, i, raw_lhs), lhs_value};
          ins.rhs = {source(at + 3, i, raw_rhs), rhs_value};
          check_operand(s, at, i, ins.lhs, ins.type);
          if (has_rhs(shape)) check_operand(s, at, i, ins.rhs, rhs_type(shape, ins.type));
          break;
      }
      s.instructions.push_back(ins);
    }
  }

  Source source(std::uint64_t at, std::uint32_t index, std::uint8_t raw) {
    if (raw > kMaxSource) r_.fail(at, "instruction {}: unknown operand source {}", index, raw);
    return static_cast<Source>(raw);
  }

  // v1 blocks carry no count: they run to their first Terminator, inclusive.
  std::uint32_t count_to_terminator(const Section& s, std::uint64_t at, std::uint32_t base) {
    for (std::uint32_t i = base; i < s.instructions.size(); ++i) {
      if (s.instructions[i].opcode == Opcode::Terminator) return i - base + 1;
    }
    r_.fail(at, "block starting at instruction {} has no terminator", base);
  }

  void check_block(const Section& s, std::uint64_t at, std::uint32_t function,
                   std::string_view name, const Block& block) {
    if (std::uint64_t{block.base} + block.count > s.instructions.size()) {
      r_.fail(at, "function {} {} block [{}, +{}) runs past the instruction table ({})", function,
              name, block.base, block.count, s.instructions.size());
    }
    for (std::uint32_t i = 0; i < block.count; ++i) {
      const auto& ins = s.instructions[block.base + i];
      if (has_target(ins.shape()) && ins.jump_target >= block.count) {
        r_.fail(at, "function {} {} block: instruction {} jumps to {}, outside the block ({})",
                function, name, i, ins.jump_target, block.count);
      }
    }
  }

  DataType function_type(std::uint64_t at, std::uint32_t index, std::uint16_t raw) {
    const auto type =
        raw > 0xFF ? std::nullopt : data_type_of_byte(version_, static_cast<std::uint8_t>(raw));
    if (!type) r_.fail(at, "function {}: unknown data type {}", index, raw);
    return *type;
  }

  void read_functions(Section& s, std::uint32_t offset) {
    auto scope = r_.section("EXB command info");
    const std::uint64_t entry_size = version_ == 1 ? 0x14 : 0x1C;
    const auto count = table_count(offset, entry_size, "command info table");
    s.functions.reserve(count);
    for (std::uint32_t i = 0; i < count; ++i) {
      const auto at = offset + 4 + std::uint64_t{i} * entry_size;
      Cursor c(r_, at);
      Function f;
      const auto setup_base = c.s32("setup base");
      if (version_ == 1) {
        const auto main_base = c.s32("main base");
        if (main_base < 0) r_.fail(at + 4, "function {}: negative main block base", i);
        f.main.base = static_cast<std::uint32_t>(main_base);
        f.main.count = count_to_terminator(s, at + 4, f.main.base);
        if (setup_base >= 0) {
          f.has_setup = true;
          f.setup.base = static_cast<std::uint32_t>(setup_base);
          f.setup.count = count_to_terminator(s, at, f.setup.base);
        }
      } else {
        const auto setup_count = c.u32("setup count");
        const auto main_base = c.s32("main base");
        f.main.count = c.u32("main count");
        if (main_base < 0) r_.fail(at + 8, "function {}: negative main block base", i);
        f.main.base = static_cast<std::uint32_t>(main_base);
        if (setup_base >= 0) {
          f.has_setup = true;
          f.setup = {static_cast<std::uint32_t>(setup_base), setup_count};
        } else if (setup_base != -1) {
          r_.fail(at, "function {}: setup base {} is neither -1 nor an index", i, setup_base);
        }
      }
      f.static_size = c.u32("static size");
      // Operands address static memory with 16-bit offsets and access at most 12 bytes, so no
      // function can use more; a larger size would only make every instance allocate it.
      constexpr std::uint32_t kMaxStaticSize = 0xFFFF + 12;
      if (f.static_size > kMaxStaticSize) {
        r_.fail(c.offset() - 4,
                "function {}: static size {:#x} is more than the {:#x} bytes 16-bit offsets can "
                "reach",
                i, f.static_size, kMaxStaticSize);
      }
      f.scratch32_size = c.u16("scratch-32 size");
      f.scratch64_size = c.u16("scratch-64 size");
      f.output_type = function_type(c.offset(), i, c.u16("output type"));
      f.input_type = function_type(c.offset(), i, c.u16("input type"));
      if (f.has_setup) check_block(s, at, i, "setup", f.setup);
      check_block(s, at, i, "main", f.main);
      s.functions.push_back(f);
    }
  }

  const ByteReader& r_;
  std::uint32_t version_ = 0;
  std::uint64_t pool_offset_ = 0;
  std::uint64_t param_offset_ = 0;
};

}  // namespace

std::string_view mnemonic(Opcode op) {
  const auto raw = static_cast<std::uint8_t>(op);
  return raw <= kMaxOpcode ? kMnemonics[raw] : std::string_view{};
}

std::optional<Opcode> opcode_of(std::string_view text) {
  for (std::uint8_t raw = 1; raw <= kMaxOpcode; ++raw) {
    if (kMnemonics[raw] == text) return static_cast<Opcode>(raw);
  }
  return std::nullopt;
}

std::string_view peer_name(Opcode op) {
  const auto raw = static_cast<std::uint8_t>(op);
  return raw <= kMaxOpcode ? kPeerNames[raw] : std::string_view{};
}

std::string_view source_name(Source source) {
  static constexpr std::array<std::string_view, kMaxSource + 1> kNames = {
      "Imm", "ImmStr", "GMem",   "ParamTbl", "ParamTblStr", "Out",
      "In",  "LMem32", "LMem64", "UserOut",  "UserIn"};
  return kNames[static_cast<std::size_t>(source)];
}

std::string_view Section::string_at(std::uint32_t offset) const {
  if (offset >= string_pool.size()) return {};
  const auto* begin = reinterpret_cast<const char*>(string_pool.data()) + offset;
  const auto length = std::string_view(begin, string_pool.size() - offset).find('\0');
  return {begin, length == std::string_view::npos ? string_pool.size() - offset : length};
}

Section decode(const ByteReader& reader) {
  return Decoder(reader).run();
}

}  // namespace ainb::exb
