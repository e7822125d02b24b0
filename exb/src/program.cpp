// The verifier and compiler: one pass over each block checks every rule of docs/exb.md
// ("Verification") and emits the specialised operation the machine runs.

#include "ainb/exb/program.hpp"
#include "ainb/exb/standard_functions.hpp"

#include <algorithm>
#include <atomic>
#include <cstring>

#include <fmt/format.h>

#include "ainb/load_error.hpp"

namespace ainb::exb {

namespace {

// The user slot spaces run in the order of kValueTypes (a type without values, which the
// operand checks refuse, takes the last).
static_assert(static_cast<std::size_t>(Space::UserOutBool) ==
                  static_cast<std::size_t>(Space::UserInBool) + kValueTypeCount &&
              static_cast<std::size_t>(Space::UserInVec3f) ==
                  static_cast<std::size_t>(Space::UserInBool) + value_type_index(DataType::Vec3f));
Space user_space(bool input, DataType type) {
  const auto first = input ? Space::UserInBool : Space::UserOutBool;
  const auto index = std::min(value_type_index(type), kValueTypeCount - 1);
  return static_cast<Space>(static_cast<std::size_t>(first) + index);
}

// Bytes an operation reads at its destination, reads at its source, writes at its destination.
struct Widths {
  std::uint32_t dst_read, src_read, dst_write;
};
constexpr Widths kWidths[] = {
#define AINB_EXB_CODE_WIDTHS(name, dst_read, src_read, dst_write) {dst_read, src_read, dst_write},
    AINB_EXB_CODES(AINB_EXB_CODE_WIDTHS)
#undef AINB_EXB_CODE_WIDTHS
};
constexpr const Widths& widths(Code code) {
  return kWidths[static_cast<std::size_t>(code)];
}

bool writable(Space space) {
  switch (space) {
    case Space::Static:
    case Space::Scratch32:
    case Space::Scratch64:
    case Space::Output:
      return true;
    default:
      return space >= Space::UserOutBool;
  }
}

}  // namespace

class Compiler {
 public:
  Compiler(Program& program, const Section& section, std::string file_name,
           const UserFunctions* functions)
      : p_(program), s_(section), file_(std::move(file_name)), user_(functions) {}

  void run() {
    // String constants are pointers into one copy of the EXB string pool (plus a NUL, so every
    // pointer is terminated even if the pool's last string was cut).
    p_.strings_.assign(s_.string_pool.begin(), s_.string_pool.end());
    p_.strings_.push_back('\0');
    p_.sources_ = s_.functions;
    for (const auto& sig : s_.signatures)
      add_call_site(sig);
    for (std::uint32_t f = 0; f < s_.functions.size(); ++f) {
      const auto& fn = p_.sources_[f];
      CompiledFunction compiled;
      compiled.source = &fn;
      function_ = f;
      current_ = &compiled;
      if (fn.has_setup) compiled.setup = compile_block("setup", fn.setup);
      compiled.main = compile_block("main", fn.main);
      analyse_memory(compiled);
      p_.functions_.push_back(compiled);
      p_.max_scratch32_ = std::max<std::uint32_t>(p_.max_scratch32_, fn.scratch32_size);
      p_.max_scratch64_ = std::max<std::uint32_t>(p_.max_scratch64_, fn.scratch64_size);
      p_.static_size_ = std::max(p_.static_size_, fn.static_size);
    }
    lay_out_arena();
  }

  // Decides which memory a run must load and save (see CompiledFunction). Static memory is dead
  // between runs when, in every block, each static byte is written before it is read; blocks
  // with jumps are not analysed (their memory stays live).
  void analyse_memory(CompiledFunction& compiled) {
    const auto& fn = p_.sources_[function_];
    bool live = false;
    std::array<bool, 12> reads_slot{};
    auto scan = [&](std::uint32_t start) {
      std::vector<bool> written(fn.static_size, false);
      auto read = [&](Space space, std::uint32_t offset, std::uint32_t size) {
        if (space >= Space::UserInBool) {
          reads_slot[static_cast<std::size_t>(space) -
                     static_cast<std::size_t>(Space::UserInBool)] = true;
        }
        if (space != Space::Static) return;
        for (std::uint32_t b = offset; b < offset + size && b < written.size(); ++b) {
          if (!written[b]) live = true;
        }
      };
      auto write = [&](Space space, std::uint32_t offset, std::uint32_t size) {
        if (space != Space::Static) return;
        for (std::uint32_t b = offset; b < offset + size && b < written.size(); ++b)
          written[b] = true;
      };
      for (auto pc = start;; ++pc) {
        const auto& op = p_.code_[pc];
        if (op.code == Code::End) return;
        if (op.code == Code::Jump || op.code == Code::JumpIfZero) live = true;
        if (op.code == Code::Call) {
          const auto& sig = p_.calls_[op.aux].signature;
          read(Space::Static, op.dst, sig.arguments_size());
          write(Space::Static, op.dst, value_size(sig.result));
          continue;
        }
        const auto& w = widths(op.code);
        if (w.dst_read != 0) read(op.dst_space, op.dst, w.dst_read);
        if (w.src_read != 0) read(op.src_space, op.src, w.src_read);
        if (w.dst_write != 0) write(op.dst_space, op.dst, w.dst_write);
      }
    };
    if (compiled.setup >= 0) scan(static_cast<std::uint32_t>(compiled.setup));
    scan(compiled.main);
    compiled.static_memory_live = live;
    compiled.host_strings = fn.input_type == DataType::String ||
                            fn.output_type == DataType::String || compiled.user_slots[4] != 0 ||
                            compiled.user_slots[10] != 0;
    for (std::uint8_t k = 0; k < 12; ++k) {
      const auto bytes = compiled.user_slots[k] * value_size(kValueTypes[k % kValueTypeCount]);
      if (bytes == 0) continue;
      // Inputs are loaded; outputs are loaded only when read, and always saved.
      if (k < 6 || reads_slot[k]) compiled.load_slots[compiled.load_count++] = {k, bytes};
      if (k >= 6) compiled.save_slots[compiled.save_count++] = {k, bytes};
    }
  }

  // Places every space in one arena and turns (space, offset) operands into arena offsets.
  void lay_out_arena() {
    std::array<std::uint32_t, kSpaceCount> size{};
    size[static_cast<std::size_t>(Space::Constant)] =
        static_cast<std::uint32_t>(p_.constants_.size());
    size[static_cast<std::size_t>(Space::Scratch32)] = p_.max_scratch32_;
    size[static_cast<std::size_t>(Space::Scratch64)] = p_.max_scratch64_;
    size[static_cast<std::size_t>(Space::Input)] = 12;
    size[static_cast<std::size_t>(Space::Output)] = 12;
    size[static_cast<std::size_t>(Space::Static)] = p_.static_size_;
    for (const auto& fn : p_.functions_) {
      for (std::size_t k = 0; k < 12; ++k) {
        auto& s = size[static_cast<std::size_t>(Space::UserInBool) + k];
        s = std::max(s, fn.user_slots[k] * value_size(kValueTypes[k % kValueTypeCount]));
      }
    }
    // Constants first (the machine copies them once); 16-byte aligned starts.
    static constexpr Space kOrder[] = {
        Space::Constant,      Space::Scratch32,   Space::Scratch64,    Space::Input,
        Space::Output,        Space::Static,      Space::UserInBool,   Space::UserInInt,
        Space::UserInUInt,    Space::UserInFloat, Space::UserInString, Space::UserInVec3f,
        Space::UserOutBool,   Space::UserOutInt,  Space::UserOutUInt,  Space::UserOutFloat,
        Space::UserOutString, Space::UserOutVec3f};
    std::uint64_t at = 0;
    for (const auto space : kOrder) {
      p_.layout_[static_cast<std::size_t>(space)] = static_cast<std::uint32_t>(at);
      at += (size[static_cast<std::size_t>(space)] + 15u) & ~std::uint64_t{15};
    }
    if (at > (1u << 24)) {
      throw LoadError(file_, "EXB", s_.file_offset,
                      "the expressions need more than 16 MiB of memory");
    }
    p_.arena_size_ = static_cast<std::uint32_t>(at);
    // The operands an operation accesses become arena offsets (a Call's argument block is its
    // dst; a jump's src is a loop length).
    for (auto& op : p_.code_) {
      const auto& w = widths(op.code);
      if (w.dst_read != 0 || w.dst_write != 0 || op.code == Code::Call) {
        op.dst += p_.layout_[static_cast<std::size_t>(op.dst_space)];
      }
      if (w.src_read != 0) op.src += p_.layout_[static_cast<std::size_t>(op.src_space)];
    }
  }

 private:
  void add_call_site(std::string_view text) {
    CallSite site;
    std::string error;
    if (auto parsed = parse_signature(text, &error)) {
      site.signature = std::move(*parsed);
      std::uint32_t offset = 0;
      for (const auto type : site.signature.arguments) {
        if (type == DataType::String) site.string_arguments.push_back(offset);
        offset += value_size(type);
      }
      site.passes_strings =
          !site.string_arguments.empty() || site.signature.result == DataType::String;
    } else {
      site.signature.text = std::string(text);
      site.parse_error = std::move(error);
    }
    if (user_ != nullptr) site.function = user_->find(text);
    if (site.function == nullptr) site.function = standard_functions().find(text);
    p_.calls_.push_back(std::move(site));
  }

  template <typename... Args>
  [[noreturn]] void fail(std::uint32_t index, fmt::format_string<Args...> format, Args&&... args) {
    throw LoadError(
        file_, fmt::format("EXB function {} {} block", function_, block_name_),
        s_.instruction_offset(block_base_ + index),
        fmt::format("instruction {}: {}", index, fmt::format(format, std::forward<Args>(args)...)));
  }

  std::uint32_t add_constant(const void* bytes, std::uint32_t size) {
    // 4-byte aligned so the machine's loads never straddle more than they must.
    const auto at = static_cast<std::uint32_t>(p_.constants_.size());
    p_.constants_.resize(at + ((size + 3u) & ~3u));
    std::memcpy(p_.constants_.data() + at, bytes, size);
    return at;
  }
  std::uint32_t add_string_constant(std::uint32_t pool_offset) {
    const char* pointer = p_.strings_.data() + pool_offset;
    return add_constant(&pointer, sizeof pointer);
  }

  struct Place {
    Space space;
    std::uint32_t offset;
  };

  // Checks one operand and places it. `type` is the width it is accessed with; `write` says it
  // is a destination.
  Place place(std::uint32_t index, const Operand& op, DataType type, bool write) {
    const auto& fn = p_.sources_[function_];
    const auto size = value_size(type);
    if (size == 0) fail(index, "an operand cannot have data type {}", data_type_name(type));
    auto within = [&](std::uint32_t limit, std::string_view what) {
      if (std::uint32_t{op.value} + size > limit) {
        fail(index, "{} offset {:#x} (+{}) is outside its {} bytes", what, op.value, size, limit);
      }
    };
    Place result{Space::Constant, 0};
    switch (op.source) {
      case Source::Immediate: {  // decode() rejected string and vec3f immediates
        std::uint32_t raw = op.value;
        if (type == DataType::Bool) raw = raw != 0 ? 1 : 0;
        if (type == DataType::Float) {
          const float f = static_cast<float>(op.value);
          std::memcpy(&raw, &f, 4);
        }
        result.offset = add_constant(&raw, 4);
        break;
      }
      case Source::ImmediateString:
        if (type != DataType::String)
          fail(index, "a string immediate used as {}", data_type_name(type));
        result.offset = add_string_constant(op.value);
        break;
      case Source::ParamTable:
        // decode() checked the value lies in the region and is not a string.
        result.offset = add_constant(s_.param_region.data() + op.value, size);
        break;
      case Source::ParamTableString: {
        if (type != DataType::String)
          fail(index, "a parameter-region string used as {}", data_type_name(type));
        std::uint32_t pool_offset = 0;
        std::memcpy(&pool_offset, s_.param_region.data() + op.value, 4);  // checked by decode()
        result.offset = add_string_constant(pool_offset);
        break;
      }
      case Source::Static:
        within(fn.static_size, "static-memory");
        result = {Space::Static, op.value};
        break;
      case Source::Output:
      case Source::Input: {
        const bool input = op.source == Source::Input;
        const auto declared = input ? fn.input_type : fn.output_type;
        const auto limit = value_size(declared);
        if (limit == 0) {
          fail(index, "the function has no {} value ({})", input ? "input" : "output",
               data_type_name(declared));
        }
        within(limit, input ? "input" : "output");
        result = {input ? Space::Input : Space::Output, op.value};
        break;
      }
      case Source::Scratch32:
        if (type == DataType::String) fail(index, "strings live in scratch-64, not scratch-32");
        within(fn.scratch32_size, "scratch-32");
        result = {Space::Scratch32, op.value};
        break;
      case Source::Scratch64:
        if (type != DataType::String)
          fail(index, "scratch-64 holds strings, not {}", data_type_name(type));
        within(fn.scratch64_size, "scratch-64");
        result = {Space::Scratch64, op.value};
        break;
      case Source::UserIn:
      case Source::UserOut: {
        const bool input = op.source == Source::UserIn;
        std::uint32_t slot = op.value;
        std::uint32_t component = 0;
        auto slot_type = type;
        if (type == DataType::Float && (op.value & 0x8000) != 0) {
          // A float read of one component of a vec3f slot: bits 8-14 its byte offset.
          slot = op.value & 0xFF;
          component = (op.value >> 8) & 0x7F;
          if (component != 0 && component != 4 && component != 8) {
            fail(index, "vec3f component offset {} is not 0, 4 or 8", component);
          }
          slot_type = DataType::Vec3f;
        }
        result = {user_space(input, slot_type), slot * value_size(slot_type) + component};
        auto& used = current_->user_slots[static_cast<std::size_t>(result.space) -
                                          static_cast<std::size_t>(Space::UserInBool)];
        used = std::max<std::uint32_t>(used, slot + 1);
        current_->uses_user_slots = true;
        break;
      }
    }
    if (write && !writable(result.space)) {
      fail(index, "cannot write to {}", source_name(op.source));
    }
    return result;
  }

  // The code for (opcode, data type), or End when the pair is not valid: one selection line per
  // opcode of shape Unary, Binary or Scalar (the others compile by their shape, in compile()).
  static Code select(Opcode op, DataType t) {
    const bool i = t == DataType::Int, u = t == DataType::UInt, f = t == DataType::Float,
               v = t == DataType::Vec3f, b = t == DataType::Bool, s = t == DataType::String;
    switch (op) {
      case Opcode::Store:
        return s ? Code::Copy8 : v ? Code::Copy12 : (i || u || f || b) ? Code::Copy4 : Code::End;
      case Opcode::Negate:
        return i || u ? Code::NegI : f ? Code::NegF : v ? Code::NegV : Code::End;
      case Opcode::NegateBool:
        return b ? Code::Not : Code::End;
      case Opcode::Add:
        return i || u ? Code::AddI : f ? Code::AddF : v ? Code::AddV : Code::End;
      case Opcode::Subtract:
        return i || u ? Code::SubI : f ? Code::SubF : v ? Code::SubV : Code::End;
      case Opcode::Multiply:
        return i || u ? Code::MulI : f ? Code::MulF : Code::End;
      case Opcode::Divide:
        return i ? Code::DivI : u ? Code::DivU : f ? Code::DivF : Code::End;
      case Opcode::Modulus:
        return i ? Code::ModI : u ? Code::ModU : Code::End;
      case Opcode::Increment:
        return i || u ? Code::IncI : f ? Code::IncF : Code::End;
      case Opcode::Decrement:
        return i || u ? Code::DecI : f ? Code::DecF : Code::End;
      case Opcode::ScalarMultiplyVec3f:
        return v ? Code::ScaleV : Code::End;
      case Opcode::ScalarDivideVec3f:
        return v ? Code::DivideV : Code::End;
      case Opcode::LeftShift:
        return i || u ? Code::Shl : Code::End;
      case Opcode::RightShift:
        return i ? Code::ShrI : u ? Code::ShrU : Code::End;
      case Opcode::LessThan:
        return i ? Code::LtI : u ? Code::LtU : f ? Code::LtF : Code::End;
      case Opcode::LessThanEqual:
        return i ? Code::LeI : u ? Code::LeU : f ? Code::LeF : Code::End;
      case Opcode::GreaterThan:
        return i ? Code::GtI : u ? Code::GtU : f ? Code::GtF : Code::End;
      case Opcode::GreaterThanEqual:
        return i ? Code::GeI : u ? Code::GeU : f ? Code::GeF : Code::End;
      case Opcode::Equal:
        return i || u ? Code::EqW
               : b    ? Code::EqB
               : f    ? Code::EqF
               : v    ? Code::EqV
               : s    ? Code::EqS
                      : Code::End;
      case Opcode::NotEqual:
        return i || u ? Code::NeW
               : b    ? Code::NeB
               : f    ? Code::NeF
               : v    ? Code::NeV
               : s    ? Code::NeS
                      : Code::End;
      case Opcode::BitAnd:
        return i || u || b ? Code::And : Code::End;
      case Opcode::BitXor:
        return i || u || b ? Code::Xor : Code::End;
      case Opcode::BitOr:
        return i || u || b ? Code::Or : Code::End;
      case Opcode::LogicalAnd:
        return b ? Code::LogicalAnd : Code::End;
      case Opcode::LogicalOr:
        return b ? Code::LogicalOr : Code::End;
      default:
        return Code::End;
    }
  }

  std::uint32_t compile_block(std::string_view name, const Block& block) {
    block_name_ = name;
    block_base_ = block.base;
    const auto start = static_cast<std::uint32_t>(p_.code_.size());
    const auto instructions = s_.block(block);
    for (std::uint32_t k = 0; k < instructions.size(); ++k) {
      p_.code_.push_back(compile(k, instructions[k], start));
    }
    p_.code_.push_back({});  // End: a block that does not end itself still stops here
    return start;
  }

  Operation compile(std::uint32_t k, const Instruction& ins, std::uint32_t start) {
    Operation op;
    const auto shape = ins.shape();
    switch (shape) {
      case Shape::None:
        return op;  // End
      case Shape::Jump:
      case Shape::Branch: {
        op.code = shape == Shape::Jump ? Code::Jump : Code::JumpIfZero;
        op.aux = start + ins.jump_target;  // decode() checked the target lies in the block
        if (op.code == Code::JumpIfZero) {
          // The condition is a 4-byte value (a bool from a comparison) whatever the type byte.
          const auto type = ins.type == DataType::None ? DataType::UInt : ins.type;
          if (value_size(type) != 4) fail(k, "a jump condition must be a 4-byte value");
          const auto cond = place(k, ins.lhs, type, false);
          op.dst_space = cond.space;
          op.dst = cond.offset;
        }
        // Charge backward jumps the length of the loop they close.
        op.src = ins.jump_target <= k ? k - ins.jump_target + 1 : 0;
        return op;
      }
      case Shape::Call: {
        auto& site = p_.calls_[ins.signature_index];
        if (!site.parse_error.empty()) {
          fail(k, "cannot parse signature \"{}\": {}", site.signature.text, site.parse_error);
        }
        if (ins.type != site.signature.result) {
          fail(k, "returns {} but its signature \"{}\" returns {}", data_type_name(ins.type),
               site.signature.text, data_type_name(site.signature.result));
        }
        const auto size = site.signature.block_size();
        const auto limit = p_.sources_[function_].static_size;
        if (std::uint32_t{ins.static_offset} + size > limit) {
          fail(k, "call block at static offset {:#x} (+{}) is outside its {} bytes",
               ins.static_offset, size, limit);
        }
        op.code = Code::Call;
        op.dst_space = Space::Static;
        op.dst = ins.static_offset;
        op.aux = ins.signature_index;
        return op;
      }
      case Shape::Unary:
      case Shape::Binary:
      case Shape::Scalar:
        break;
    }
    op.code = select(ins.opcode, ins.type);
    if (op.code == Code::End) {
      fail(k, "{} does not take {} operands", mnemonic(ins.opcode), data_type_name(ins.type));
    }
    const auto dst = place(k, ins.lhs, ins.type, true);
    op.dst_space = dst.space;
    op.dst = dst.offset;
    if (has_rhs(shape)) {
      const auto src = place(k, ins.rhs, rhs_type(shape, ins.type), false);
      op.src_space = src.space;
      op.src = src.offset;
    }
    return op;
  }

  Program& p_;
  const Section& s_;
  std::string file_;
  const UserFunctions* user_;
  std::uint32_t function_ = 0;
  std::string_view block_name_;
  std::uint32_t block_base_ = 0;
  CompiledFunction* current_ = nullptr;
};

ProgramIdentity::ProgramIdentity()
    : serial_([] {
        static std::atomic<std::uint64_t> next{1};
        return next.fetch_add(1, std::memory_order_relaxed);
      }()),
      life_(std::make_shared<char>()) {}

Program::Program(const Section& section, std::string file_name, const UserFunctions* functions) {
  Compiler(*this, section, std::move(file_name), functions).run();
  // `source` pointers refer into sources_, which is complete now.
  for (std::size_t i = 0; i < functions_.size(); ++i)
    functions_[i].source = &sources_[i];
}

std::vector<std::string> Program::missing_functions() const {
  std::vector<std::string> missing;
  for (const auto& call : calls_) {
    if (call.function == nullptr &&
        std::find(missing.begin(), missing.end(), call.signature.text) == missing.end())
      missing.push_back(call.signature.text);
  }
  return missing;
}

}  // namespace ainb::exb
