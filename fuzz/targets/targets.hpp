#pragma once

// The bodies of the fuzz harnesses: one function per harness, `run_<name>`, used by its libFuzzer
// entry point (fuzz/entry.cpp, built by the `fuzz` preset) and by the test that replays the
// committed regression corpus (tests/fuzz_regressions_test.cpp, every build). Each takes any
// bytes; a clear error (ainb::LoadError, an EXB status) is the expected outcome of bad input and
// is caught inside. Anything else escaping, a crash, a hang or a sanitizer report is a finding.
// Adding a harness: fuzz/targets/<name>.cpp defining run_<name>, and one ainb_fuzz_harness(<name>)
// line in fuzz/CMakeLists.txt (docs/robustness.md).

#include <cstdint>
#include <span>

namespace ainb::fuzz {

using Bytes = std::span<const std::uint8_t>;

void run_loader(Bytes data);   // an AINB file: ainb::load
void run_exb(Bytes data);      // an EXB section, then evaluation inputs: decode, verify, run
void run_runtime(Bytes data);  // an AINB file: load, build with stub nodes, run 60 frames
void run_byml(Bytes data);     // byml::read, its text rendering, the writer's round trip
void run_aamp(Bytes data);     // aamp::read, then its text rendering
void run_sarc(Bytes data);     // Sarc::parse, every member, then its listing
void run_zstd(Bytes data);     // zstd_decompress without dictionaries, 16 MiB limit
void run_text(Bytes data);     // the JSON text form: writer::from_text

}  // namespace ainb::fuzz
