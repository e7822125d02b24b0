#pragma once

#include <filesystem>

namespace ainb::test {

// The test process's own folder for the files its tests write: `<temp>/ainb_tests_<pid>`,
// created on first use and removed with everything in it when the process exits. Named by the
// process, so the release and sanitizer suites can run at the same time without sharing files.
const std::filesystem::path& scratch_dir();

}  // namespace ainb::test
