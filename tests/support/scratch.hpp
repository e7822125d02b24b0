#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace ainb::test {

// The test process's own folder for the files its tests write: `<temp>/ainb_tests_<pid>`,
// created on first use and removed with everything in it when the process exits. Named by the
// process, so the release and sanitizer suites can run at the same time without sharing files.
const std::filesystem::path& scratch_dir();

// A fresh, empty folder `name` in the scratch folder (emptied when it exists).
std::filesystem::path fresh_dir(const std::string& name);

// Writes the file, creating its folders.
void write_file(const std::filesystem::path& path, std::string_view bytes);
void write_file(const std::filesystem::path& path, const std::vector<std::uint8_t>& bytes);

// The whole file as text ("" when it cannot be read).
std::string read_text(const std::filesystem::path& path);

// Writes a file of that name in the scratch folder and returns its path.
std::filesystem::path write_scratch(const std::string& name, std::string_view bytes);
std::filesystem::path write_scratch(const std::string& name,
                                    const std::vector<std::uint8_t>& bytes);

}  // namespace ainb::test
