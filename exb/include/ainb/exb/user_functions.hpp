#pragma once

// Host-registered user functions, the targets of EXB `CFN` instructions, bound by signature
// string as the game binds them (the grammar is in signature.hpp):
//
//   GetBBCodeFloat( Float, Int )      direct function: returns Float, takes an Int
//   Actor.Forward( Vector3F )         object function on a host object ("Actor"): no arguments
//   (Vector3F).Normalized( Vector3F ) object function on a value: the Vector3F is the first
//   argument
//   (Vector3F).Length( Float )        the same, returning Float
//
// The first type in the parentheses is the return type, the others the arguments. At a call the
// arguments are read from the instruction's block in static memory, one after another at their
// natural sizes (a value object first), and the result is written at the start of the block.

#include <array>
#include <cstdint>
#include <cstring>
#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <unordered_map>
#include <vector>

#include "ainb/exb/data_types.hpp"
#include "ainb/exb/section.hpp"
#include "ainb/exb/signature.hpp"

namespace ainb::exb {

// What a user function receives besides its arguments.
struct CallContext {
  void* host = nullptr;  // the owning instance's host context (an actor, say)
  const Signature* signature = nullptr;
};

// The erased form every registered function takes: read arguments from `block`, write the result
// to `block`. Registration checks the C++ types against the signature once.
using ErasedFunction = std::function<void(CallContext&, std::uint8_t* block)>;

namespace detail {
template <typename... Args>
struct FirstIsContext : std::false_type {};
template <typename... Rest>
struct FirstIsContext<CallContext&, Rest...> : std::true_type {};
}  // namespace detail

class UserFunctions {
 public:
  // Registers `f` for `signature`. `f` takes the signature's arguments as C++ values (bool,
  // std::int32_t, std::uint32_t, float, const char*, Vec3), optionally preceded by a
  // `CallContext&`, and returns the result type (void for None). Throws std::invalid_argument
  // when the signature is malformed or the C++ types do not match it.
  template <typename F>
  void add(std::string_view signature, F&& f) {
    add_impl(signature, std::function(std::forward<F>(f)));
  }

  // Registers a function that ignores its arguments and returns `value` (tests, `ainb eval`).
  void add_constant(std::string_view signature, std::array<std::uint8_t, 12> value);

  // Registers a function that reads its arguments from the block and writes its result there
  // itself (bindings to other languages, such as the C API); returns the parsed signature,
  // which says the block's layout. Throws std::invalid_argument when the signature is malformed.
  Signature add_erased(std::string_view signature, ErasedFunction f);

  // The function registered for `signature`, or null. A program that calls it shares it, so it
  // lives as long as the program (a graph keeps its functions after this object is gone).
  std::shared_ptr<const ErasedFunction> find(std::string_view signature) const;

 private:
  template <typename R, typename... Args>
  void add_impl(std::string_view signature, std::function<R(Args...)> f) {
    if constexpr (detail::FirstIsContext<Args...>::value) {
      add_with_context(signature, std::move(f), static_cast<std::tuple<Args...>*>(nullptr));
    } else {
      add_with_context(signature,
                       std::function<R(CallContext&, Args...)>(
                           [g = std::move(f)](CallContext&, Args... args) { return g(args...); }),
                       static_cast<std::tuple<CallContext&, Args...>*>(nullptr));
    }
  }

  template <typename R, typename... Args>
  void add_with_context(std::string_view signature, std::function<R(CallContext&, Args...)> f,
                        std::tuple<CallContext&, Args...>*) {
    const auto parsed =
        checked_signature(signature, detail::data_type_of<R>(), {detail::data_type_of<Args>()...});
    functions_[parsed.text] = std::make_shared<const ErasedFunction>(
        [g = std::move(f)](CallContext& context, std::uint8_t* block) {
          std::uint32_t offset = 0;
          // Arguments are read in order from consecutive slots of the block.
          auto next = [&](auto* tag) {
            using T = std::remove_pointer_t<decltype(tag)>;
            const auto at = offset;
            offset += value_size(detail::data_type_of<T>());
            return detail::load<T>(block + at);
          };
          std::tuple<Args...> args{next(static_cast<Args*>(nullptr))...};
          (void)next;  // unused when the function takes no arguments
          if constexpr (std::is_void_v<R>) {
            std::apply([&](auto&... a) { g(context, a...); }, args);
          } else {
            const R result = std::apply([&](auto&... a) { return g(context, a...); }, args);
            detail::store(block, result);
          }
        });
  }

  Signature checked_signature(std::string_view text, DataType result,
                              const std::vector<DataType>& arguments);

  std::unordered_map<std::string, std::shared_ptr<const ErasedFunction>> functions_;
};

}  // namespace ainb::exb
