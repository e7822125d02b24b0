#pragma once

// Runs compiled EXB functions. A Machine owns the per-evaluation scratch memory (allocated once,
// at construction, to the program's largest function) and never allocates, locks or reads a
// clock while it runs. One Machine per thread; the Program it runs may be shared.

#include <array>
#include <cstdint>
#include <span>
#include <string>

#include "ainb/exb/program.hpp"

namespace ainb::exb {

enum class MissingFunctionPolicy : std::uint8_t {
  Error,           // the evaluation stops with Status::MissingFunction
  ZeroAndLogOnce,  // the call returns the result type's zero; one spdlog warning per signature
};

struct MachineOptions {
  // Instructions one evaluation may run. Straight-line code is bounded by its block; each
  // backward jump charges the length of the loop it closes, so a runaway loop stops here.
  std::int64_t instruction_budget = 100'000;
  MissingFunctionPolicy missing_functions = MissingFunctionPolicy::Error;
};

enum class Status : std::uint8_t { Ok, BudgetExhausted, MissingFunction, BadFrame };

// The memory one evaluation sees besides scratch. Input and output hold one value of the
// function's input and output type (up to 12 bytes). User slots are the inputs and outputs of
// an Element_Expression node: per type, an array of values (slot k at byte k * size).
struct Frame {
  std::span<std::uint8_t> static_memory;  // the owning context's; at least the function's size
  std::array<std::uint8_t, 12> input{};
  std::array<std::uint8_t, 12> output{};
  // Index: Space - Space::UserInBool (UserIn bool, int, uint, float, string, vec3f, then UserOut).
  std::array<std::uint8_t*, 12> user{};
  std::array<std::uint16_t, 12> user_slots{};  // how many slots each array holds
  void* host = nullptr;                        // passed to user functions
};

class Machine {
 public:
  explicit Machine(const Program& program, MachineOptions options = {});

  // The setup block (once, when the owning node is entered); Ok when the function has none.
  Status run_setup(std::uint32_t function, Frame& frame);
  // The main block (each evaluation).
  Status run_main(std::uint32_t function, Frame& frame);

  // What went wrong in the last run that did not return Ok.
  const std::string& error() const { return error_; }
  const Program& program() const { return program_; }

 private:
  Status run(std::uint32_t function, std::uint32_t start, Frame& frame);
  Status fail(Status status, std::string message);

  const Program& program_;
  MachineOptions options_;
  std::vector<std::uint8_t> scratch32_, scratch64_;
  std::string error_;
};

}  // namespace ainb::exb
