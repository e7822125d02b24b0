#pragma once

// One EXB function hand-assembled, verified and ready to run on a machine, and the on-disk codes
// its instructions spell, for the tests of the EXB verifier and machine.

#include <array>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <memory>
#include <vector>

#include "ainb/exb/machine.hpp"
#include "ainb/loader.hpp"
#include "exb_assembler.hpp"

namespace ainb::test {

// On-disk data type codes (v2; v3 where noted).
inline constexpr std::uint8_t kBool = 2, kInt = 3, kFloat = 4, kString = 5, kVec = 6;
inline constexpr std::uint8_t kV3UInt = 4, kV3Float = 5;
// Operand sources.
inline constexpr std::uint8_t kImm = 0, kImmStr = 1, kStatic = 2, kParam = 3, kParamStr = 4,
                              kOut = 5, kIn = 6, kScratch32 = 7, kScratch64 = 8, kUserOut = 9,
                              kUserIn = 10;

inline std::vector<std::uint8_t> f32s(std::initializer_list<float> values) {
  std::vector<std::uint8_t> out;
  for (float v : values) {
    std::uint8_t b[4];
    std::memcpy(b, &v, 4);
    out.insert(out.end(), b, b + 4);
  }
  return out;
}

inline std::vector<std::uint8_t> i32s(std::initializer_list<std::int32_t> values) {
  std::vector<std::uint8_t> out;
  for (auto v : values) {
    std::uint8_t b[4];
    std::memcpy(b, &v, 4);
    out.insert(out.end(), b, b + 4);
  }
  return out;
}

// One function (main block = `code` + END), compiled and ready to run.
struct Fixture {
  std::vector<std::uint8_t> bytes;
  exb::Section section;
  std::unique_ptr<exb::Program> program;
  std::unique_ptr<exb::Machine> machine;
  std::array<std::uint8_t, 64> static_memory{};
  exb::Frame frame;

  // Tests look at static memory after a run, so the machine keeps it (see MachineOptions).
  Fixture(ExbSpec spec, const exb::UserFunctions* functions = nullptr,
          exb::MachineOptions options = {}) {
    options.keep_static_memory = true;
    if (spec.functions.empty()) {
      spec.instructions.push_back({1, 0, 0, 0, 0, 0});
      spec.functions = {{-1, 0, 0, static_cast<std::uint32_t>(spec.instructions.size()), kInt, kInt,
                         0x40, 0x20, 0x10}};
    }
    bytes = assemble(spec);
    section = exb::decode(ByteReader(bytes, "vm.ainb"));
    program = std::make_unique<exb::Program>(section, "vm.ainb", functions);
    machine = std::make_unique<exb::Machine>(*program, options);
    frame.static_memory = static_memory;
  }

  exb::Status run() { return machine->run_main(0, frame); }
  template <typename T>
  T at(std::size_t offset) const {
    T v;
    std::memcpy(&v, static_memory.data() + offset, sizeof v);
    return v;
  }
  template <typename T>
  void set(std::size_t offset, T v) {
    std::memcpy(static_memory.data() + offset, &v, sizeof v);
  }
};

}  // namespace ainb::test
