// EXB harness: a 13-byte prefix (the expression's 12-byte input value, then the byte every user
// slot and static memory byte is filled with), then an EXB section. The section is decoded and
// verified; every function that verifies runs its setup block and its main block twice (static
// memory carries over). Bad sections must be LoadErrors, runs must end with a Status.

#include <algorithm>
#include <cstring>

#include "ainb/byte_reader.hpp"
#include "ainb/exb/machine.hpp"
#include "ainb/exb/program.hpp"
#include "ainb/exb/section.hpp"
#include "ainb/load_error.hpp"
#include "targets.hpp"

namespace ainb::fuzz {

constexpr const char* kHostString = "host";

void run_exb(Bytes data) {
  constexpr std::size_t kPrefix = 13;
  if (data.size() < kPrefix) return;
  std::array<std::uint8_t, 12> input{};
  std::memcpy(input.data(), data.data(), input.size());
  const std::uint8_t fill = data[12];
  const auto section_bytes = data.subspan(kPrefix);
  try {
    const auto section = exb::decode(ByteReader(section_bytes, "fuzz.exb"));
    const exb::Program program(section, "fuzz.exb", nullptr);
    exb::Machine machine(program, exb::MachineOptions{.instruction_budget = 10'000});
    const auto count = std::min<std::size_t>(program.functions().size(), 64);
    for (std::uint32_t f = 0; f < count; ++f) {
      exb::FrameStorage storage(program, f, fill);
      auto& frame = storage.frame();
      // A string input is a pointer the host vouches for (machine.hpp, Frame): a real string.
      const bool string_input = program.functions()[f].source->input_type == exb::DataType::String;
      const auto host_input = [&](const std::array<std::uint8_t, 12>& bytes) {
        frame.input = bytes;
        if (string_input) std::memcpy(frame.input.data(), &kHostString, sizeof kHostString);
      };
      host_input(input);
      if (machine.run_setup(f, frame) != exb::Status::Ok) continue;
      (void)machine.run_main(f, frame);
      host_input(frame.output);  // the second run sees the first one's result
      (void)machine.run_main_counted(f, frame);
    }
  } catch (const LoadError&) {
  }
}

}  // namespace ainb::fuzz
