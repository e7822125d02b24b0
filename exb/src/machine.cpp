#include "ainb/exb/machine.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>

#include <fmt/format.h>

namespace ainb::exb {

namespace {

// The user-slot spaces (Space - Space::UserInBool) that hold strings.
constexpr std::size_t kStringIn = 4, kStringOut = 10;
constexpr const char* kEmptyString = "";

// Loads and stores through memcpy: EXB memory has no alignment guarantees.
template <typename T>
inline T ld(const std::uint8_t* p) {
  T v;
  std::memcpy(&v, p, sizeof v);
  return v;
}
template <typename T>
inline void st(std::uint8_t* p, T v) {
  std::memcpy(p, &v, sizeof v);
}
inline void st_bool(std::uint8_t* p, bool v) {
  st<std::uint32_t>(p, v ? 1u : 0u);
}
inline Vec3 ldv(const std::uint8_t* p) {
  return ld<Vec3>(p);
}

// Two's-complement arithmetic without signed overflow: compute in uint32.
inline std::uint32_t u(const std::uint8_t* p) {
  return ld<std::uint32_t>(p);
}
inline std::int32_t i(const std::uint8_t* p) {
  return ld<std::int32_t>(p);
}
inline float f(const std::uint8_t* p) {
  return ld<float>(p);
}

inline std::int32_t div_i(std::int32_t a, std::int32_t b) {
  if (b == 0) return 0;                             // documented: division by zero gives 0
  if (a == INT32_MIN && b == -1) return INT32_MIN;  // wraps like the hardware
  return a / b;
}
inline std::int32_t mod_i(std::int32_t a, std::int32_t b) {
  if (b == 0 || (a == INT32_MIN && b == -1)) return 0;
  return a % b;
}

}  // namespace

Machine::Machine(const Program& program, MachineOptions options)
    : program_(program), options_(options), arena_(program.arena_size()) {
  const auto& functions = program.functions();
  if (std::any_of(functions.begin(), functions.end(),
                  [](const auto& fn) { return fn.host_strings; })) {
    std::size_t most = 0;
    for (const auto& fn : functions)
      most = std::max<std::size_t>(most, fn.user_slots[kStringIn] + fn.user_slots[kStringOut]);
    host_strings_.resize(most + 1);  // + the input
  }
  const auto& calls = program.calls();
  if (std::any_of(calls.begin(), calls.end(),
                  [](const auto& site) { return site.signature.result == DataType::String; })) {
    result_strings_.resize(kResultStrings);
  }
  at_.static_memory = program.space_offset(Space::Static);
  at_.input = program.space_offset(Space::Input);
  at_.output = program.space_offset(Space::Output);
  at_.scratch32 = program.space_offset(Space::Scratch32);
  at_.scratch64 = program.space_offset(Space::Scratch64);
  for (std::size_t k = 0; k < at_.user.size(); ++k)
    at_.user[k] =
        program.space_offset(static_cast<Space>(static_cast<std::size_t>(Space::UserInBool) + k));
  if (program.constants_size() != 0) {  // memcpy from a null pointer is undefined even for 0 bytes
    std::memcpy(arena_.data(), program.constants(), program.constants_size());
  }
}

FrameStorage::FrameStorage(const Program& program, std::uint32_t function, std::uint8_t fill) {
  const auto& compiled = program.functions().at(function);
  static_.assign(std::max<std::uint32_t>(compiled.source->static_size, 1), fill);
  frame_.static_memory = static_;
  for (std::size_t k = 0; k < slots_.size(); ++k) {
    slots_[k].assign(compiled.user_slots[k] * 12u + 12u, fill);
    if (k == kStringIn || k == kStringOut) {  // the host's strings must be real: empty ones
      for (std::uint32_t slot = 0; slot < compiled.user_slots[k]; ++slot)
        st(slots_[k].data() + slot * 8, kEmptyString);
    }
    frame_.user[k] = slots_[k].data();
    frame_.user_slots[k] = compiled.user_slots[k];
  }
}

void Machine::trust_host_strings(const CompiledFunction& fn, const BasicFrame& frame,
                                 const Frame* slots) {
  auto trust = [&](const std::uint8_t* at) {
    host_strings_[host_string_count_++] = ld<const char*>(at);
  };
  if (fn.source->input_type == DataType::String) trust(frame.input.data());
  for (const auto k : {kStringIn, kStringOut}) {
    for (std::uint32_t slot = 0; slot < fn.user_slots[k]; ++slot)
      trust(slots->user[k] + slot * 8);
  }
  if (host_string_count_ > 16) {
    std::sort(host_strings_.begin(), host_strings_.begin() + host_string_count_,
              std::less<const char*>());
  }
}

void Machine::trust_result_string(const std::uint8_t* at) {
  result_strings_[result_string_count_++ % kResultStrings] = ld<const char*>(at);
}

bool Machine::trusted(const char* p) const {
  if (program_.holds_string(p)) return true;
  const auto host = host_strings_.begin(), host_end = host + host_string_count_;
  if (host_string_count_ > 16) {
    if (std::binary_search(host, host_end, p, std::less<const char*>())) return true;
  } else if (std::find(host, host_end, p) != host_end) {
    return true;
  }
  const auto results = result_strings_.begin();
  const auto results_end = results + std::min(result_string_count_, result_strings_.size());
  return std::find(results, results_end, p) != results_end;
}

const char* Machine::checked_string(const std::uint8_t* at) const {
  const auto p = ld<const char*>(at);
  return p != nullptr && trusted(p) ? p : kEmptyString;
}

void Machine::check_string_in_place(std::uint8_t* at) const {
  st(at, checked_string(at));
}

// What the host reads back must be a string it can follow too.
void Machine::check_string_outputs(const CompiledFunction& fn) {
  std::uint8_t* const a = arena_.data();
  if (fn.source->output_type == DataType::String) {
    check_string_in_place(a + program_.space_offset(Space::Output));
  }
  const auto out = a + program_.space_offset(Space::UserOutString);
  for (std::uint32_t slot = 0; slot < fn.user_slots[kStringOut]; ++slot)
    check_string_in_place(out + slot * 8);
}

Status Machine::fail(Status status, std::string message) {
  error_ = std::move(message);
  missing_call_ = -1;
  return status;
}

const std::string& Machine::error() const {
  if (missing_call_ >= 0) {
    error_ = fmt::format("no user function is registered for \"{}\"",
                         program_.calls()[static_cast<std::size_t>(missing_call_)].signature.text);
    missing_call_ = -1;
  }
  return error_;
}

Status Machine::run_setup(std::uint32_t function, Frame& frame) {
  const auto& fn = program_.functions().at(function);
  if (fn.setup < 0) return Status::Ok;
  return run<false>(fn, static_cast<std::uint32_t>(fn.setup), frame, &frame);
}

Status Machine::run_setup(std::uint32_t function, BasicFrame& frame) {
  const auto& fn = program_.functions().at(function);
  if (fn.setup < 0) return Status::Ok;
  return run<false>(fn, static_cast<std::uint32_t>(fn.setup), frame, nullptr);
}

Status Machine::run_main(std::uint32_t function, Frame& frame) {
  const auto& fn = program_.functions().at(function);
  return run<false>(fn, fn.main, frame, &frame);
}

Status Machine::run_main(std::uint32_t function, BasicFrame& frame) {
  const auto& fn = program_.functions().at(function);
  return run<false>(fn, fn.main, frame, nullptr);
}

Status Machine::run_main_counted(std::uint32_t function, Frame& frame) {
  executed_ = 0;
  const auto& fn = program_.functions().at(function);
  return run<true>(fn, fn.main, frame, &frame);
}

namespace {

// Copies of the few bytes a run moves: constant-size pieces the compiler inlines, instead of a
// library call per copy (real functions move 4 to 40 bytes).
inline void copy_bytes(std::uint8_t* to, const std::uint8_t* from, std::uint32_t n) {
  if (n > 32) {
    std::memcpy(to, from, n);
    return;
  }
  std::uint32_t k = 0;
  for (; k + 8 <= n; k += 8)
    std::memcpy(to + k, from + k, 8);
  for (; k < n; ++k)
    to[k] = from[k];
}
inline void zero_bytes(std::uint8_t* to, std::uint32_t n) {
  if (n != 0) std::memset(to, 0, n);
}

}  // namespace

template <bool kCount>
Status Machine::run(const CompiledFunction& fn, std::uint32_t pc, BasicFrame& frame,
                    const Frame* slots) {
  // The function's number, for messages.
  const auto function = [&] { return &fn - program_.functions().data(); };
  const auto& source = *fn.source;
  if (frame.static_memory.size() < source.static_size) {
    return fail(Status::BadFrame,
                fmt::format("function {} needs {} bytes of static memory, the "
                            "frame has {}",
                            function(), source.static_size, frame.static_memory.size()));
  }
  if (fn.uses_user_slots) {
    for (std::size_t k = 0; k < fn.user_slots.size(); ++k) {
      const std::uint32_t offered = slots != nullptr ? slots->user_slots[k] : 0;
      if (fn.user_slots[k] > offered || (fn.user_slots[k] > 0 && slots->user[k] == nullptr)) {
        return fail(Status::BadFrame,
                    fmt::format("function {} uses {} user slot(s) of space {}, the frame has {}",
                                function(), fn.user_slots[k], k, offered));
      }
    }
  }
  std::uint8_t* const a = arena_.data();
  // The frame's memory into the arena, inline: a few fixed-size moves and tests, where a call
  // and the offsets looked up again cost more than the expression itself.
  const bool static_live = fn.static_memory_live || options_.keep_static_memory;
  if (static_live)
    copy_bytes(a + at_.static_memory, frame.static_memory.data(), source.static_size);
  std::memcpy(a + at_.input, frame.input.data(), 12);
  std::memcpy(a + at_.output, frame.output.data(), 12);
  // Scratch starts zeroed: results never depend on an earlier run. (Dead static memory needs
  // no clearing: every byte of it is written before it is read.)
  zero_bytes(a + at_.scratch32, source.scratch32_size);
  zero_bytes(a + at_.scratch64, source.scratch64_size);
  // (Slot copies only for functions that use user slots: the checks above saw a Frame then.)
  for (std::uint8_t i = 0; i < fn.load_count; ++i) {
    const auto& copy = fn.load_slots[i];
    copy_bytes(a + at_.user[copy.slot_space], slots->user[copy.slot_space], copy.bytes);
  }
  host_string_count_ = 0;
  result_string_count_ = 0;
  if (fn.host_strings) trust_host_strings(fn, frame, slots);
  const Operation* const code = program_.code().data();
  std::int64_t budget = options_.instruction_budget;
  const Operation* op = code + pc;
  Status status = Status::Ok;

#define D (a + op->dst)
#define S (a + op->src)
#if defined(__GNUC__)
  // Computed goto: one indirect branch per operation, each predicted on its own.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wpedantic"
  // One label per row of AINB_EXB_CODES, in the enum's order; each row's body is its CASE below.
  static const void* const kTargets[] = {
#define AINB_EXB_CODE_TARGET(name, dst_read, src_read, dst_write) &&op_##name,
      AINB_EXB_CODES(AINB_EXB_CODE_TARGET)
#undef AINB_EXB_CODE_TARGET
  };
  static_assert(sizeof kTargets / sizeof kTargets[0] == kCodeCount);
#define CASE(name) op_##name:
#define DISPATCH()                              \
  do {                                          \
    if constexpr (kCount) ++executed_;          \
    goto* kTargets[static_cast<int>(op->code)]; \
  } while (0)
#define NEXT()  \
  do {          \
    ++op;       \
    DISPATCH(); \
  } while (0)
  DISPATCH();
#else
#define CASE(name) case Code::name:
#define DISPATCH() continue
#define NEXT() \
  do {         \
    ++op;      \
    continue;  \
  } while (0)
  for (;;) {
    if constexpr (kCount) ++executed_;
    switch (op->code) {
#endif
  CASE(End) goto done;
  // Source and destination may overlap (a file can copy a vec3f onto itself shifted by 4): a
  // move, which for these constant sizes compiles to loads then stores, as fast as a copy.
  CASE(Copy4) std::memmove(D, S, 4);
  NEXT();
  CASE(Copy8) std::memmove(D, S, 8);
  NEXT();
  CASE(Copy12) std::memmove(D, S, 12);
  NEXT();
  CASE(NegI) st<std::uint32_t>(D, 0u - u(D));
  NEXT();
  CASE(NegF) st<float>(D, -f(D));
  NEXT();
  CASE(NegV) {
    const auto v = ldv(D);
    st<Vec3>(D, {-v.x, -v.y, -v.z});
    NEXT();
  }
  CASE(Not) st_bool(D, u(D) == 0);
  NEXT();
  CASE(AddI) st<std::uint32_t>(D, u(D) + u(S));
  NEXT();
  CASE(AddF) st<float>(D, f(D) + f(S));
  NEXT();
  CASE(AddV) {
    const auto x = ldv(D), y = ldv(S);
    st<Vec3>(D, {x.x + y.x, x.y + y.y, x.z + y.z});
    NEXT();
  }
  CASE(SubI) st<std::uint32_t>(D, u(D) - u(S));
  NEXT();
  CASE(SubF) st<float>(D, f(D) - f(S));
  NEXT();
  CASE(SubV) {
    const auto x = ldv(D), y = ldv(S);
    st<Vec3>(D, {x.x - y.x, x.y - y.y, x.z - y.z});
    NEXT();
  }
  CASE(MulI) st<std::uint32_t>(D, u(D) * u(S));
  NEXT();
  CASE(MulF) st<float>(D, f(D) * f(S));
  NEXT();
  CASE(DivI) st<std::int32_t>(D, div_i(i(D), i(S)));
  NEXT();
  CASE(DivU) st<std::uint32_t>(D, u(S) == 0 ? 0 : u(D) / u(S));
  NEXT();
  CASE(DivF) st<float>(D, f(D) / f(S));
  NEXT();
  CASE(ModI) st<std::int32_t>(D, mod_i(i(D), i(S)));
  NEXT();
  CASE(ModU) st<std::uint32_t>(D, u(S) == 0 ? 0 : u(D) % u(S));
  NEXT();
  CASE(IncI) st<std::uint32_t>(D, u(D) + 1);
  NEXT();
  CASE(IncF) st<float>(D, f(D) + 1.0f);
  NEXT();
  CASE(DecI) st<std::uint32_t>(D, u(D) - 1);
  NEXT();
  CASE(DecF) st<float>(D, f(D) - 1.0f);
  NEXT();
  CASE(ScaleV) {
    const auto v = ldv(D);
    const auto k = f(S);
    st<Vec3>(D, {v.x * k, v.y * k, v.z * k});
    NEXT();
  }
  CASE(DivideV) {
    const auto v = ldv(D);
    const auto k = f(S);
    st<Vec3>(D, {v.x / k, v.y / k, v.z / k});
    NEXT();
  }
  // Shift counts are taken modulo 32, as the Switch's ARM64 shift instructions do.
  CASE(Shl) st<std::uint32_t>(D, u(D) << (u(S) & 31));
  NEXT();
  CASE(ShrI) st<std::int32_t>(D, i(D) >> (u(S) & 31));
  NEXT();
  CASE(ShrU) st<std::uint32_t>(D, u(D) >> (u(S) & 31));
  NEXT();
  CASE(LtI) st_bool(D, i(D) < i(S));
  NEXT();
  CASE(LtU) st_bool(D, u(D) < u(S));
  NEXT();
  CASE(LtF) st_bool(D, f(D) < f(S));
  NEXT();
  CASE(LeI) st_bool(D, i(D) <= i(S));
  NEXT();
  CASE(LeU) st_bool(D, u(D) <= u(S));
  NEXT();
  CASE(LeF) st_bool(D, f(D) <= f(S));
  NEXT();
  CASE(GtI) st_bool(D, i(D) > i(S));
  NEXT();
  CASE(GtU) st_bool(D, u(D) > u(S));
  NEXT();
  CASE(GtF) st_bool(D, f(D) > f(S));
  NEXT();
  CASE(GeI) st_bool(D, i(D) >= i(S));
  NEXT();
  CASE(GeU) st_bool(D, u(D) >= u(S));
  NEXT();
  CASE(GeF) st_bool(D, f(D) >= f(S));
  NEXT();
  CASE(EqW) st_bool(D, u(D) == u(S));
  NEXT();
  CASE(EqB) st_bool(D, (u(D) != 0) == (u(S) != 0));
  NEXT();
  CASE(EqF) st_bool(D, f(D) == f(S));
  NEXT();
  CASE(EqV) st_bool(D, ldv(D) == ldv(S));
  NEXT();
  CASE(EqS) st_bool(D, std::strcmp(checked_string(D), checked_string(S)) == 0);
  NEXT();
  CASE(NeW) st_bool(D, u(D) != u(S));
  NEXT();
  CASE(NeB) st_bool(D, (u(D) != 0) != (u(S) != 0));
  NEXT();
  CASE(NeF) st_bool(D, f(D) != f(S));
  NEXT();
  CASE(NeV) st_bool(D, !(ldv(D) == ldv(S)));
  NEXT();
  CASE(NeS) st_bool(D, std::strcmp(checked_string(D), checked_string(S)) != 0);
  NEXT();
  CASE(And) st<std::uint32_t>(D, u(D) & u(S));
  NEXT();
  CASE(Xor) st<std::uint32_t>(D, u(D) ^ u(S));
  NEXT();
  CASE(Or) st<std::uint32_t>(D, u(D) | u(S));
  NEXT();
  CASE(LogicalAnd) st_bool(D, u(D) != 0 && u(S) != 0);
  NEXT();
  CASE(LogicalOr) st_bool(D, u(D) != 0 || u(S) != 0);
  NEXT();
  CASE(Call) {
    const auto& site = program_.calls()[op->aux];
    if (site.function != nullptr) {
      if (site.passes_strings) {
        for (const auto offset : site.string_arguments)
          check_string_in_place(D + offset);
      }
      CallContext context{frame.host, &site.signature};
      (*site.function)(context, D);
      if (site.passes_strings && site.signature.result == DataType::String) {
        trust_result_string(D);
      }
    } else {
      missing_call_ = static_cast<std::int32_t>(op->aux);
      status = Status::MissingFunction;
      goto done;
    }
    NEXT();
  }
  CASE(JumpIfZero) {
    if (u(D) != 0) NEXT();
    goto jump;
  }
  CASE(Jump) {
  jump:
    if (op->src != 0 && (budget -= op->src) < 0) {
      status = fail(Status::BudgetExhausted,
                    fmt::format("function {} ran past its budget of {} instructions", function(),
                                options_.instruction_budget));
      goto done;
    }
    op = code + op->aux;
    DISPATCH();
  }
#if defined(__GNUC__)
#pragma GCC diagnostic pop
#else
    }
  }
#endif
#undef CASE
#undef DISPATCH
#undef NEXT
#undef D
#undef S
done:
  if (fn.host_strings) check_string_outputs(fn);
  // The writable memory back to the frame.
  if (static_live)
    copy_bytes(frame.static_memory.data(), a + at_.static_memory, source.static_size);
  std::memcpy(frame.output.data(), a + at_.output, 12);
  for (std::uint8_t i = 0; i < fn.save_count; ++i) {
    const auto& copy = fn.save_slots[i];
    copy_bytes(slots->user[copy.slot_space], a + at_.user[copy.slot_space], copy.bytes);
  }
  return status;
}

}  // namespace ainb::exb
