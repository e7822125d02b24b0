#pragma once

// The arena at the front of an instance's block, and the allocator of the containers that live in
// it. The arena hands out the block's bytes in order and never takes any back; out of room is an
// exception, never a hidden allocation (the block's size is computed beforehand:
// Instance::block_size). Boost's and the standard's monotonic resources and polymorphic
// allocators fall back to a default resource, which Boost keeps in its compiled library; these
// need none (the WebAssembly build has Boost's headers only).

#include <cstddef>
#include <cstdint>
#include <new>
#include <vector>

#include "ainb/runtime/memory.hpp"

namespace ainb::runtime::detail {

class BlockArena final : public MemoryResource {
 public:
  BlockArena(std::byte* begin, std::size_t bytes) noexcept : next_(begin), end_(begin + bytes) {}

 private:
  void* do_allocate(std::size_t bytes, std::size_t alignment) override {
    const auto at = reinterpret_cast<std::uintptr_t>(next_);
    const auto padding = (alignment - at % alignment) % alignment;
    if (padding > static_cast<std::size_t>(end_ - next_) ||
        bytes > static_cast<std::size_t>(end_ - next_) - padding)
      throw std::bad_alloc();
    std::byte* const start = next_ + padding;
    next_ = start + bytes;
    return start;
  }
  void do_deallocate(void*, std::size_t, std::size_t) override {}
  bool do_is_equal(const MemoryResource& other) const noexcept override { return this == &other; }

  std::byte* next_;
  std::byte* end_;
};

// A container's allocator over a memory resource (the block's arena).
template <typename T>
class ArenaAllocator {
 public:
  using value_type = T;
  ArenaAllocator(MemoryResource* memory) noexcept : memory_(memory) {}  // NOLINT: as pmr's
  template <typename U>
  ArenaAllocator(const ArenaAllocator<U>& other) noexcept : memory_(other.memory()) {}
  T* allocate(std::size_t n) {
    return static_cast<T*>(memory_->allocate(n * sizeof(T), alignof(T)));
  }
  void deallocate(T* p, std::size_t n) noexcept {
    memory_->deallocate(p, n * sizeof(T), alignof(T));
  }
  MemoryResource* memory() const noexcept { return memory_; }
  template <typename U>
  bool operator==(const ArenaAllocator<U>& other) const noexcept {
    return memory_ == other.memory();
  }

 private:
  MemoryResource* memory_;
};

template <typename T>
using ArenaVector = std::vector<T, ArenaAllocator<T>>;

}  // namespace ainb::runtime::detail
