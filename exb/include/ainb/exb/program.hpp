#pragma once

// A verified, compiled EXB section: each function's setup and main blocks turned into a compact
// internal code whose every operand is a (memory space, byte offset) pair already checked against
// the space's size. Immutable after construction; share it across threads and instances.

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "ainb/exb/section.hpp"
#include "ainb/exb/user_functions.hpp"

namespace ainb::exb {

// Where an operand lives at run time. The machine keeps one base pointer per space.
enum class Space : std::uint8_t {
  Static,     // GMem: the owning context's memory, persists across evaluations
  Scratch32,  // LMem32: per evaluation
  Scratch64,  // LMem64: per evaluation (strings)
  Input,      // In: the value the expression receives
  Output,     // Out: the value it produces
  Constant,   // immediates and parameter-region values, copied into the program
  UserInBool,
  UserInInt,
  UserInUInt,
  UserInFloat,
  UserInString,
  UserInVec3f,
  UserOutBool,
  UserOutInt,
  UserOutUInt,
  UserOutFloat,
  UserOutString,
  UserOutVec3f,
};
inline constexpr std::size_t kSpaceCount = 18;

// The internal operations, specialised by data type so dispatch needs no type tests. One row
// each: the name, then the bytes the operation reads at its destination, reads at its source and
// writes at its destination (a Call's follow from its signature; a jump's `src` is not an operand
// but the loop length it charges). The rows build this enum, the machine's dispatch table (each
// row has its case body in machine.cpp, `CASE(name)`) and the compiler's memory analysis; which
// opcode and data type give which operation is the compiler's `select`.
#define AINB_EXB_CODES(X) \
  X(End, 0, 0, 0)         \
  X(Copy4, 0, 4, 4)       \
  X(Copy8, 0, 8, 8)       \
  X(Copy12, 0, 12, 12)    \
  X(NegI, 4, 0, 4)        \
  X(NegF, 4, 0, 4)        \
  X(NegV, 12, 0, 12)      \
  X(Not, 4, 0, 4)         \
  X(AddI, 4, 4, 4)        \
  X(AddF, 4, 4, 4)        \
  X(AddV, 12, 12, 12)     \
  X(SubI, 4, 4, 4)        \
  X(SubF, 4, 4, 4)        \
  X(SubV, 12, 12, 12)     \
  X(MulI, 4, 4, 4)        \
  X(MulF, 4, 4, 4)        \
  X(DivI, 4, 4, 4)        \
  X(DivU, 4, 4, 4)        \
  X(DivF, 4, 4, 4)        \
  X(ModI, 4, 4, 4)        \
  X(ModU, 4, 4, 4)        \
  X(IncI, 4, 0, 4)        \
  X(IncF, 4, 0, 4)        \
  X(DecI, 4, 0, 4)        \
  X(DecF, 4, 0, 4)        \
  X(ScaleV, 12, 4, 12)    \
  X(DivideV, 12, 4, 12)   \
  X(Shl, 4, 4, 4)         \
  X(ShrI, 4, 4, 4)        \
  X(ShrU, 4, 4, 4)        \
  X(LtI, 4, 4, 4)         \
  X(LtU, 4, 4, 4)         \
  X(LtF, 4, 4, 4)         \
  X(LeI, 4, 4, 4)         \
  X(LeU, 4, 4, 4)         \
  X(LeF, 4, 4, 4)         \
  X(GtI, 4, 4, 4)         \
  X(GtU, 4, 4, 4)         \
  X(GtF, 4, 4, 4)         \
  X(GeI, 4, 4, 4)         \
  X(GeU, 4, 4, 4)         \
  X(GeF, 4, 4, 4)         \
  X(EqW, 4, 4, 4)         \
  X(EqB, 4, 4, 4)         \
  X(EqF, 4, 4, 4)         \
  X(EqV, 12, 12, 4)       \
  X(EqS, 8, 8, 4)         \
  X(NeW, 4, 4, 4)         \
  X(NeB, 4, 4, 4)         \
  X(NeF, 4, 4, 4)         \
  X(NeV, 12, 12, 4)       \
  X(NeS, 8, 8, 4)         \
  X(And, 4, 4, 4)         \
  X(Xor, 4, 4, 4)         \
  X(Or, 4, 4, 4)          \
  X(LogicalAnd, 4, 4, 4)  \
  X(LogicalOr, 4, 4, 4)   \
  X(Call, 0, 0, 0)        \
  X(JumpIfZero, 4, 0, 0)  \
  X(Jump, 0, 0, 0)

enum class Code : std::uint8_t {
#define AINB_EXB_CODE_ENUM(name, dst_read, src_read, dst_write) name,
  AINB_EXB_CODES(AINB_EXB_CODE_ENUM)
#undef AINB_EXB_CODE_ENUM
};
inline constexpr std::size_t kCodeCount = [] {
  std::size_t count = 0;
#define AINB_EXB_CODE_COUNT(name, dst_read, src_read, dst_write) ++count;
  AINB_EXB_CODES(AINB_EXB_CODE_COUNT)
#undef AINB_EXB_CODE_COUNT
  return count;
}();

// 16 bytes. `dst` / `src` are byte offsets into the machine's arena (every space laid out in one
// buffer, see Program::space_offset), so an operand costs one addition at run time. `aux` is the
// absolute target of a jump or the call-site index of a Call; a jump's `src` is the loop length
// charged to the budget.
struct Operation {
  Code code = Code::End;
  Space dst_space = Space::Constant;
  Space src_space = Space::Constant;
  std::uint8_t unused = 0;
  std::uint32_t dst = 0;
  std::uint32_t src = 0;
  std::uint32_t aux = 0;
};

struct CompiledFunction {
  const Function* source = nullptr;
  std::int64_t setup = -1;  // index of the first operation of the setup block, -1 for none
  std::uint32_t main = 0;
  // Highest slot + 1 this function uses per UserIn/UserOut space (index = space - UserInBool).
  // 32 bits: an operand can name slot 65535, and the count 65536 must not wrap to zero.
  std::array<std::uint32_t, 12> user_slots{};
  bool uses_user_slots = false;
  // Whether the host passes strings in or reads them back (string input or output, string user
  // slots): only then does a run note or check the host's strings.
  bool host_strings = false;
  // Whether a run can observe static memory left by an earlier run (some byte is read before
  // this run writes it). When false the machine neither loads nor saves the frame's static
  // memory: every corpus function uses GMem as working memory this way.
  bool static_memory_live = true;
  // The user-slot spaces a run must load (inputs, and outputs it reads) and save (outputs).
  struct SlotCopy {
    std::uint8_t slot_space = 0;  // Space - Space::UserInBool
    std::uint32_t bytes = 0;
  };
  std::array<SlotCopy, 12> load_slots{};
  std::array<SlotCopy, 6> save_slots{};
  std::uint8_t load_count = 0, save_count = 0;
};

struct CallSite {
  Signature signature;
  std::string parse_error;  // why the signature does not parse (empty when it does)
  std::shared_ptr<const ErasedFunction> function;  // null when the host registered none
  std::vector<std::uint32_t> string_arguments;     // offsets of the string arguments in the block
  bool passes_strings = false;                     // string arguments or a string result
};

// Which program an object is, for the machines a thread keeps per program (thread_machine):
// a number no other program of the process has, and a token that dies with the program. A
// program moved to a new object gets a new identity, since a machine refers to the object it
// was made for.
class ProgramIdentity {
 public:
  ProgramIdentity();
  ProgramIdentity(ProgramIdentity&&) : ProgramIdentity() {}
  ProgramIdentity& operator=(ProgramIdentity&&) = delete;
  std::uint64_t serial() const { return serial_; }
  std::weak_ptr<const void> life() const { return life_; }

 private:
  std::uint64_t serial_;
  std::shared_ptr<const void> life_;
};

class Program {
 public:
  Program(const Program&) = delete;  // constants point into strings_
  Program& operator=(const Program&) = delete;
  Program(Program&&) = default;

  // Verifies and compiles every function of `section` (which must outlive nothing: the program
  // copies what it needs). Throws LoadError naming function, block, instruction and reason.
  // `file_name` is used in messages; `functions` resolves CFN signatures (may be null), before
  // the standard functions (standard_functions.hpp).
  Program(const Section& section, std::string file_name, const UserFunctions* functions);

  const std::vector<CompiledFunction>& functions() const { return functions_; }
  const std::vector<Operation>& code() const { return code_; }
  const std::vector<CallSite>& calls() const { return calls_; }
  const std::uint8_t* constants() const { return constants_.data(); }
  // Signatures called by the section that no registered or standard function implements, each
  // once, in the order of their first call.
  std::vector<std::string> missing_functions() const;
  // The largest scratch sizes of any function: what a Machine allocates once.
  std::uint32_t max_scratch32() const { return max_scratch32_; }
  std::uint32_t max_scratch64() const { return max_scratch64_; }
  std::uint32_t static_size() const { return static_size_; }
  // Where each space starts in a machine's arena, and the arena's size. The constants are the
  // first bytes of the arena (constants_size() of them).
  std::uint32_t space_offset(Space space) const { return layout_[static_cast<std::size_t>(space)]; }
  std::uint32_t arena_size() const { return arena_size_; }
  std::uint32_t constants_size() const { return static_cast<std::uint32_t>(constants_.size()); }
  const ProgramIdentity& identity() const { return identity_; }
  // Whether `p` points into the program's string constants (each NUL-terminated inside them).
  bool holds_string(const char* p) const {
    const std::less<const char*> before;
    return !before(p, strings_.data()) && before(p, strings_.data() + strings_.size());
  }

 private:
  friend class Compiler;
  std::vector<CompiledFunction> functions_;
  std::vector<Function> sources_;
  std::vector<Operation> code_;
  std::vector<CallSite> calls_;
  std::vector<std::uint8_t> constants_;
  std::vector<char> strings_;  // copied string constants (pointers into it are stable)
  std::uint32_t max_scratch32_ = 0, max_scratch64_ = 0, static_size_ = 0;
  std::array<std::uint32_t, kSpaceCount> layout_{};
  std::uint32_t arena_size_ = 0;
  ProgramIdentity identity_;
};

}  // namespace ainb::exb
