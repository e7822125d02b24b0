#pragma once

// std::bit_cast, as the compilers' builtin: the WebAssembly build's standard library (LLVM 14's
// libc++, Emscripten 3.1.6) lacks std::bit_cast, while GCC and clang both have the builtin that
// libstdc++'s std::bit_cast is made of (docs/web.md, "One source, two standard libraries").

#include <type_traits>

namespace ainb {

template <typename To, typename From>
constexpr To bit_cast(const From& from) noexcept {
  static_assert(sizeof(To) == sizeof(From) && std::is_trivially_copyable_v<To> &&
                std::is_trivially_copyable_v<From>);
  return __builtin_bit_cast(To, from);
}

}  // namespace ainb
