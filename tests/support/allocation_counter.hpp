#pragma once

#include <cstddef>

namespace ainb::test {

// Heap allocations made through operator new since the program started (all threads). The test
// binary replaces the global operator new to count them; see allocation_counter.cpp.
std::size_t allocations();

}  // namespace ainb::test
