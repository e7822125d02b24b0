#pragma once

// EXB section bytes from a decoded Section (encode) or from assembly text in the disassembler's
// syntax (assemble). See docs/exb.md ("Assembly syntax") and docs/text-form.md.

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "ainb/exb/section.hpp"

namespace ainb::exb {

// The section's bytes in its canonical order: header, command info, instructions, signature
// table, parameter region, string pool. Instructions are written from their stored bytes, so an
// unedited section comes back byte for byte.
std::vector<std::uint8_t> encode(const Section& section);

// One function as assembly: each instruction is one line of `format_instruction` (no address).
struct AssemblyFunction {
  DataType input_type = DataType::None;
  DataType output_type = DataType::None;
  std::uint32_t static_size = 0;
  std::uint16_t scratch32_size = 0;
  std::uint16_t scratch64_size = 0;
  std::optional<std::vector<std::string>> setup;
  std::vector<std::string> main;
};

struct AssemblySource {
  std::uint32_t version = 2;
  std::uint32_t static_size = 0;
  std::uint32_t instance_count = 0;
  std::uint32_t scratch32_size = 0;
  std::uint32_t scratch64_size = 0;
  std::vector<AssemblyFunction> functions;
  // Layout kept from a decoded section: the parameter region, the string pool (strings in order)
  // and the signature table. A constant, string or signature found there is reused at its place;
  // a new one is appended.
  std::vector<std::uint8_t> param_region;
  std::vector<std::string> strings;
  std::vector<std::string> signatures;
};

// An assembly error: where (function, block, line) and why. what() reads "expression 2 main line
// 3: unknown mnemonic \"FOO\"".
class AssemblyError : public std::runtime_error {
 public:
  AssemblyError(std::optional<std::uint32_t> function, std::string block, std::uint32_t line,
                const std::string& reason)
      : std::runtime_error((function ? "expression " + std::to_string(*function) + " " + block +
                                           " line " + std::to_string(line)
                                     : std::string("EXB")) +
                           ": " + reason),
        function_(function),
        block_(std::move(block)),
        line_(line),
        reason_(reason) {}
  std::optional<std::uint32_t> function() const noexcept { return function_; }
  const std::string& block() const noexcept { return block_; }  // "setup" or "main"
  std::uint32_t line() const noexcept { return line_; }
  const std::string& reason() const noexcept { return reason_; }

 private:
  std::optional<std::uint32_t> function_;
  std::string block_;
  std::uint32_t line_ = 0;
  std::string reason_;
};

// Assembles the functions. Int, uint and bool constants go to the 16-bit immediate when the value
// fits it (0..65535), floats and vec3f to the parameter region (as the game's files have them);
// `@param` / `@param[offset]` put a constant in the parameter region (at that offset), `@imm` a
// whole float 0..65535 in the immediate; strings are immediate strings unless written
// `str @param "..."`. Throws AssemblyError.
std::vector<std::uint8_t> assemble(const AssemblySource& source);

// The layout part of an AssemblySource taken from a decoded section (param region, strings,
// signatures), with the functions as disassembly lines.
AssemblySource to_assembly(const Section& section);

}  // namespace ainb::exb
