// Bad BYML, AAMP, SARC and zstd input either reads or raises LoadError: never a crash, a hang or
// undefined behaviour (the ASan + UBSan build runs these too). Truncation: every prefix of the
// small files, an even sample of prefixes of the large ones. Mutation: seeded random edits. BYML
// that reads is also written back (the fuzz harness's writer round trip).

#include <functional>
#include <random>

#include <doctest/doctest.h>
#include <fmt/format.h>

#include "ainb/formats/aamp.hpp"
#include "ainb/formats/byml.hpp"
#include "ainb/formats/sarc.hpp"
#include "ainb/formats/zstd.hpp"
#include "corpus.hpp"
#include "format_samples.hpp"
#include "targets.hpp"

namespace {

using Bytes = std::vector<std::uint8_t>;
using Reader = std::function<void(const Bytes&)>;

enum class Outcome { Read, Rejected };

Outcome try_read(const Reader& read, const Bytes& bytes) {
  try {
    read(bytes);
    return Outcome::Read;
  } catch (const ainb::LoadError&) {
    return Outcome::Rejected;
  }
  // Any other exception escapes and fails the test.
}

// Prefix lengths to try: all of them up to `every`, then `samples` evenly spread ones.
std::vector<std::size_t> prefix_lengths(std::size_t size, std::size_t every, std::size_t samples) {
  std::vector<std::size_t> lengths;
  for (std::size_t n = 0; n < std::min(size, every); ++n)
    lengths.push_back(n);
  if (size > every) {
    for (std::size_t i = 0; i < samples; ++i)
      lengths.push_back(every + (size - every) * i / samples);
  }
  return lengths;
}

struct TruncationResult {
  std::size_t tried = 0, read = 0;
  std::string first_read;
};

TruncationResult truncate_all(const std::vector<Bytes>& files, const Reader& read,
                              std::size_t every, std::size_t samples) {
  TruncationResult result;
  for (std::size_t f = 0; f < files.size(); ++f) {
    for (const auto size : prefix_lengths(files[f].size(), every, samples)) {
      ++result.tried;
      const Bytes prefix(files[f].begin(), files[f].begin() + static_cast<std::ptrdiff_t>(size));
      if (try_read(read, prefix) == Outcome::Read && result.read++ == 0) {
        result.first_read = fmt::format("input {} cut to {} bytes", f, size);
      }
    }
  }
  return result;
}

// Random edits, biased to the first `hot` bytes (headers and tables) half of the time.
std::pair<std::size_t, std::size_t> mutate_all(const std::vector<Bytes>& files, const Reader& read,
                                               int count, std::uint64_t seed, std::size_t hot) {
  std::mt19937_64 rng(seed);
  std::size_t read_count = 0, rejected = 0;
  for (int i = 0; i < count; ++i) {
    auto bytes = files[rng() % files.size()];
    const int edits = 1 + static_cast<int>(rng() % 8);
    for (int e = 0; e < edits; ++e) {
      const auto range = (rng() % 2 == 0) ? std::min(hot, bytes.size()) : bytes.size();
      const auto at = rng() % range;
      switch (rng() % 4) {
        case 0:
          bytes[at] = static_cast<std::uint8_t>(rng());
          break;
        case 1:
          bytes[at] ^= static_cast<std::uint8_t>(1u << (rng() % 8));
          break;
        case 2:
          bytes[at] = 0xFF;
          break;
        default:
          bytes[at] = 0x00;
          break;
      }
    }
    (try_read(read, bytes) == Outcome::Read ? read_count : rejected)++;
  }
  return {read_count, rejected};
}

std::vector<Bytes> read_all(const std::vector<std::filesystem::path>& paths,
                            std::uintmax_t max_size = ~std::uintmax_t{0}) {
  std::vector<Bytes> files;
  for (const auto& path : paths) {
    if (std::filesystem::file_size(path) <= max_size) files.push_back(ainb::test::read_file(path));
  }
  return files;
}

}  // namespace

TEST_CASE("BYML: truncated and mutated files read or raise LoadError") {
  // The small and middle-sized files (the largest ones make the sanitizer run slow).
  auto files = read_all(ainb::test::corpus_byml_files(), 50'000);
  // Hand-made documents add big endian, 64-bit values and shared nodes.
  files.push_back(ainb::test::byml_sample(std::endian::little).bytes);
  files.push_back(ainb::test::byml_sample(std::endian::big).bytes);
  // What reads also goes through the fuzz harness: the writer's output must read and write again
  // to the same bytes.
  const Reader read = [](const Bytes& bytes) {
    ainb::formats::byml::read(bytes, "bad.byml");
    ainb::fuzz::run_byml(bytes);
  };
  const auto truncated = truncate_all(files, read, 2048, 200);
  MESSAGE("BYML: " << truncated.tried << " prefixes, " << truncated.read << " read");
  const auto [read_count, rejected] = mutate_all(files, read, 3000, 7001, 4096);
  MESSAGE("BYML mutations: " << read_count << " read, " << rejected << " rejected");
  CHECK(rejected > 0);
}

TEST_CASE("AAMP: every truncated prefix is rejected and mutations read or raise LoadError") {
  auto files = read_all(ainb::test::corpus_aamp_files());
  // Hand-made files add big endian and every parameter type (curves, buffers).
  files.push_back(ainb::test::aamp_sample(std::endian::little).bytes);
  files.push_back(ainb::test::aamp_sample(std::endian::big).bytes);
  const Reader read = [](const Bytes& bytes) { ainb::formats::aamp::read(bytes, "bad.aamp"); };
  // The header states the file size, so any cut is noticed.
  const auto truncated = truncate_all(files, read, ~std::size_t{0}, 0);
  MESSAGE("AAMP: " << truncated.tried << " prefixes");
  CHECK_MESSAGE(truncated.read == 0,
                truncated.read << " prefixes read, first: " << truncated.first_read);
  const auto [read_count, rejected] = mutate_all(files, read, 5000, 7002, 1024);
  MESSAGE("AAMP mutations: " << read_count << " read, " << rejected << " rejected");
  CHECK(rejected > 0);
}

TEST_CASE("SARC and zstd: truncated and mutated packs read or raise LoadError") {
  const auto packs = read_all(ainb::test::corpus_pack_files());
  const auto zsdic = ainb::test::corpus_zsdic_dir();
  if (packs.empty() || zsdic.empty()) return;
  const auto dictionaries = ainb::formats::ZstdDictionaries::from_directory(zsdic);
  std::vector<Bytes> archives;
  for (const auto& pack : packs) {
    archives.push_back(ainb::formats::zstd_decompress(pack, "x.pack.zs", &dictionaries));
  }

  const Reader read_sarc = [](const Bytes& bytes) {
    ainb::formats::Sarc::parse(bytes, "bad.sarc");
  };
  // The header states the archive size, so any cut is noticed.
  const auto sarc_cut = truncate_all(archives, read_sarc, 4096, 300);
  MESSAGE("SARC: " << sarc_cut.tried << " prefixes");
  CHECK_MESSAGE(sarc_cut.read == 0,
                sarc_cut.read << " prefixes read, first: " << sarc_cut.first_read);
  const auto [sarc_read, sarc_rejected] = mutate_all(archives, read_sarc, 5000, 7003, 2048);
  MESSAGE("SARC mutations: " << sarc_read << " read, " << sarc_rejected << " rejected");
  CHECK(sarc_rejected > 0);

  ainb::formats::ZstdOptions options;
  options.max_decompressed_size = 1 << 20;
  const Reader read_zstd = [&](const Bytes& bytes) {
    ainb::formats::zstd_decompress(bytes, "bad.pack.zs", &dictionaries, options);
  };
  const auto zstd_cut = truncate_all(packs, read_zstd, 64, 150);
  MESSAGE("zstd: " << zstd_cut.tried << " prefixes");
  CHECK_MESSAGE(zstd_cut.read == 0,
                zstd_cut.read << " prefixes read, first: " << zstd_cut.first_read);
  const auto [zstd_read, zstd_rejected] = mutate_all(packs, read_zstd, 400, 7004, 64);
  MESSAGE("zstd mutations: " << zstd_read << " read, " << zstd_rejected << " rejected");
  CHECK(zstd_rejected > 0);
}
