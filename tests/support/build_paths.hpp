#pragma once

#include <filesystem>

namespace ainb::test {

// Folders of this build, written by CMake into build_paths.cpp rather than passed as -D flags, so
// that no other object depends on where the checkout is (compiler-cache hits from any clone).
std::filesystem::path default_corpus_dir();  // ../shared/corpus beside the checkout
std::filesystem::path examples_dir();        // <build>/examples: the compiled bundled examples
std::filesystem::path source_dir();          // the checkout

}  // namespace ainb::test
