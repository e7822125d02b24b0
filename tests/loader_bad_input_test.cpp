// Bad input of any kind either loads or raises LoadError: never a crash, a hang or undefined
// behaviour. The sanitizer build runs these too (CI), which is what catches out-of-bounds reads.

#include <random>

#include <doctest/doctest.h>
#include <fmt/format.h>

#include "ainb/loader.hpp"
#include "ainb_builder.hpp"
#include "corpus.hpp"

namespace {

enum class Outcome { Loaded, Rejected };

Outcome try_load(std::vector<std::uint8_t> bytes) {
  try {
    ainb::load(std::move(bytes), "input.ainb");
    return Outcome::Loaded;
  } catch (const ainb::LoadError&) {
    return Outcome::Rejected;
  }
  // Any other exception escapes and fails the test.
}

std::vector<std::vector<std::uint8_t>> inputs() {
  std::vector<std::vector<std::uint8_t>> files;
  for (const auto& path : ainb::test::corpus_ainb_files())
    files.push_back(ainb::test::read_file(path));
  // Hand-made files cover sections the corpus lacks (transitions, replacement, 0x408).
  ainb::test::AinbSpec spec;
  spec.version = ainb::kVersion408;
  spec.commands = {{"Root", 0, {}}};
  ainb::test::BuildNode fork{.type = ainb::NodeType::Fork};
  fork.plugs = {{ainb::PlugKind::Transition, 1, "", 0}, {ainb::PlugKind::Child, 1, ""}};
  spec.nodes = {fork, ainb::test::BuildNode{.name = "Leaf"}};
  spec.transitions = {{0, "Next"}};
  spec.replacements = {{0, 0, 0}};
  spec.blackboard = {{ainb::BlackboardType::U32, "Mask", std::uint32_t{1}}};
  files.push_back(ainb::test::build(spec));
  return files;
}

}  // namespace

TEST_CASE("every truncated prefix of every input is rejected cleanly") {
  std::size_t prefixes = 0, accepted = 0;
  std::string first_accepted;
  const auto files = inputs();
  for (std::size_t f = 0; f < files.size(); ++f) {
    const auto& file = files[f];
    for (std::size_t size = 0; size < file.size(); ++size) {
      // The string pool runs to the end of the file, so any cut leaves an offset past the end
      // or a string without terminator; either way the file must be rejected, not misread.
      ++prefixes;
      if (try_load({file.begin(), file.begin() + static_cast<std::ptrdiff_t>(size)}) ==
          Outcome::Loaded) {
        if (accepted++ == 0) first_accepted = fmt::format("input {} cut to {} bytes", f, size);
      }
    }
  }
  MESSAGE(prefixes << " truncated prefixes tried");
  // One cut is indistinguishable from a whole file: EnemyBase_FrozenInIce cut at the start of its
  // pool's last string, which only parameter values use; they read as the empty string at the
  // pool's end, as a modders' tool writes it (docs/loader.md, "Files modders' tools write").
  CHECK_MESSAGE(accepted == 1, accepted << " prefixes loaded, first: " << first_accepted);
  CHECK(first_accepted == "input 2 cut to 806 bytes");
}

TEST_CASE("10,000 seeded random mutations either load or raise LoadError") {
  const auto files = inputs();
  REQUIRE_FALSE(files.empty());
  std::mt19937_64 rng(20261122);
  std::size_t loaded = 0, rejected = 0;
  for (int i = 0; i < 10'000; ++i) {
    auto bytes = files[rng() % files.size()];
    const int edits = 1 + static_cast<int>(rng() % 8);
    for (int e = 0; e < edits; ++e) {
      const auto at = rng() % bytes.size();
      switch (rng() % 4) {
        case 0:
          bytes[at] = static_cast<std::uint8_t>(rng());
          break;  // random byte
        case 1:
          bytes[at] ^= static_cast<std::uint8_t>(1u << (rng() % 8));
          break;  // bit flip
        case 2:
          bytes[at] = 0xFF;
          break;  // large values
        default:
          bytes[at] = 0x00;
          break;  // zeros
      }
    }
    (try_load(std::move(bytes)) == Outcome::Loaded ? loaded : rejected)++;
  }
  MESSAGE("mutations: " << loaded << " loaded, " << rejected << " rejected");
  CHECK(loaded + rejected == 10'000);
  CHECK(rejected > 0);
}
