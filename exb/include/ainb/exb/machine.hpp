#pragma once

// Runs compiled EXB functions. A Machine owns one arena holding every memory space of the program
// (allocated once, at construction) and never allocates, locks or reads a clock while it runs.
// A run copies the frame's static memory, input and user slots into the arena, runs, and copies
// static memory, output and user outputs back. One Machine per thread; the Program may be shared.

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "ainb/exb/program.hpp"

namespace ainb::exb {

struct MachineOptions {
  // Instructions one evaluation may run. Straight-line code is bounded by its block; each
  // backward jump charges the length of the loop it closes, so a runaway loop stops here.
  std::int64_t instruction_budget = 100'000;
  // Load and save the frame's static memory on every run, even for functions that write each
  // static byte before reading it (no run can observe it then, so by default it is skipped).
  // For debuggers, tests and `ainb eval`, which look at static memory after a run.
  bool keep_static_memory = false;
  friend bool operator==(const MachineOptions&, const MachineOptions&) = default;
};

enum class Status : std::uint8_t { Ok, BudgetExhausted, MissingFunction, BadFrame };

// The memory one evaluation sees besides scratch. Input and output hold one value of the
// function's input and output type (up to 12 bytes). A string input holds null or a pointer to a
// NUL-terminated string that stays valid for the run; what the file writes over it is checked
// before anyone follows it. A BasicFrame has no user slots: it is the frame of every function but
// an Element_Expression node's own, and 56 bytes to set up where a Frame is 192 (an evaluation
// of a few instructions pays for every byte).
struct BasicFrame {
  std::span<std::uint8_t> static_memory;  // the owning context's; at least the function's size
  std::array<std::uint8_t, 12> input{};
  std::array<std::uint8_t, 12> output{};
  void* host = nullptr;  // passed to user functions
};

// A frame with the user slots of an Element_Expression node: per type, an array of values (slot
// k at byte k * size). The string user slots hold null or a pointer to a NUL-terminated string
// that stays valid for the run, as a string input does.
struct Frame : BasicFrame {
  // Index: Space - Space::UserInBool (UserIn bool, int, uint, float, string, vec3f, then UserOut).
  std::array<std::uint8_t*, 12> user{};
  std::array<std::uint32_t, 12> user_slots{};  // how many slots each array holds
};

// Memory for running one function outside a runtime (tools, tests, benchmarks): static memory
// (at least one byte) and every user slot the function uses, filled with `fill` (string slots
// hold "", since the machine trusts the host's strings).
class FrameStorage {
 public:
  FrameStorage(const Program& program, std::uint32_t function, std::uint8_t fill = 0);
  FrameStorage(const FrameStorage&) = delete;  // the frame points into the buffers
  FrameStorage& operator=(const FrameStorage&) = delete;

  Frame& frame() { return frame_; }
  std::span<std::uint8_t> static_memory() { return static_; }
  // User slot array `k` (Space - Space::UserInBool).
  const std::uint8_t* slots(std::size_t k) const { return slots_[k].data(); }

 private:
  std::vector<std::uint8_t> static_;
  std::array<std::vector<std::uint8_t>, 12> slots_;
  Frame frame_;
};

class Machine {
 public:
  explicit Machine(const Program& program, MachineOptions options = {});

  // The setup block (once, when the owning node is entered); Ok when the function has none.
  // On a BasicFrame, a function that uses user slots gives Status::BadFrame.
  Status run_setup(std::uint32_t function, Frame& frame);
  Status run_setup(std::uint32_t function, BasicFrame& frame);
  // The main block (each evaluation).
  Status run_main(std::uint32_t function, Frame& frame);
  Status run_main(std::uint32_t function, BasicFrame& frame);

  // The main block, counting the instructions it executes (for tools and benchmarks; the
  // ordinary runs count nothing). The count is read with executed().
  Status run_main_counted(std::uint32_t function, Frame& frame);
  std::uint64_t executed() const { return executed_; }
  // Bytes the machine owns (itself and its arena).
  std::size_t memory_bytes() const {
    return sizeof(*this) + arena_.capacity() +
           (host_strings_.capacity() + result_strings_.capacity()) * sizeof(const char*);
  }

  // What went wrong in the last run that did not return Ok.
  const std::string& error() const;
  const Program& program() const { return program_; }

 private:
  // `slots` is the frame's user slots: null for a BasicFrame.
  template <bool kCount>
  Status run(const CompiledFunction& fn, std::uint32_t start, BasicFrame& frame,
             const Frame* slots);
  Status fail(Status status, std::string message);

  // Strings in EXB memory are pointers, and a file can put any bytes where it then reads a
  // string. The machine follows only pointers into the program's string constants or ones the
  // host gave it this run: the string input and user slots, and user-function results (the last
  // kResultStrings of them). Any other value reads as "" (docs/exb.md, "Strings").
  static constexpr std::size_t kResultStrings = 32;
  void trust_host_strings(const CompiledFunction& fn, const BasicFrame& frame, const Frame* slots);
  void trust_result_string(const std::uint8_t* at);
  bool trusted(const char* p) const;
  const char* checked_string(const std::uint8_t* at) const;
  void check_string_in_place(std::uint8_t* at) const;
  void check_string_outputs(const CompiledFunction& fn);

  const Program& program_;
  MachineOptions options_;
  // Where the spaces a run copies start in the arena (Program::space_offset, read once here).
  struct Offsets {
    std::uint32_t static_memory = 0, input = 0, output = 0, scratch32 = 0, scratch64 = 0;
    std::array<std::uint32_t, 12> user{};  // Space - Space::UserInBool
  } at_;
  // Every space of the program at the offsets of Program::space_offset; the constants are copied
  // in once, the frame's memory around each run.
  std::vector<std::uint8_t> arena_;
  mutable std::string error_;
  // The call site of a missing function that stopped the last run, or -1: its message is
  // written when asked for, since a simulation without the game's functions stops there at
  // every such evaluation and a tick does not allocate.
  mutable std::int32_t missing_call_ = -1;
  std::uint64_t executed_ = 0;
  // The host's strings of the current run (sorted when there are many), and the last string
  // results of user functions. Sized at construction, and only for programs whose functions
  // take host strings or call string-returning functions, so a run never allocates.
  std::vector<const char*> host_strings_;
  std::size_t host_string_count_ = 0;
  std::vector<const char*> result_strings_;
  std::size_t result_string_count_ = 0;
};

}  // namespace ainb::exb
