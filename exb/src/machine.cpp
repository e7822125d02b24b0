#include "ainb/exb/machine.hpp"

#include <cmath>
#include <cstring>

#include <fmt/format.h>
#include <spdlog/spdlog.h>

namespace ainb::exb {

namespace {

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
    : program_(program),
      options_(options),
      scratch32_(program.max_scratch32()),
      scratch64_(program.max_scratch64()) {}

Status Machine::fail(Status status, std::string message) {
  error_ = std::move(message);
  return status;
}

Status Machine::run_setup(std::uint32_t function, Frame& frame) {
  const auto& fn = program_.functions().at(function);
  if (fn.setup < 0) return Status::Ok;
  return run(function, static_cast<std::uint32_t>(fn.setup), frame);
}

Status Machine::run_main(std::uint32_t function, Frame& frame) {
  return run(function, program_.functions().at(function).main, frame);
}

Status Machine::run(std::uint32_t function, std::uint32_t pc, Frame& frame) {
  const auto& fn = program_.functions()[function];
  if (frame.static_memory.size() < fn.source->static_size) {
    return fail(Status::BadFrame,
                fmt::format("function {} needs {} bytes of static memory, the "
                            "frame has {}",
                            function, fn.source->static_size, frame.static_memory.size()));
  }
  for (std::size_t k = 0; k < fn.user_slots.size(); ++k) {
    if (fn.user_slots[k] > frame.user_slots[k]) {
      return fail(Status::BadFrame,
                  fmt::format("function {} uses {} user slot(s) of space {}, the "
                              "frame has {}",
                              function, fn.user_slots[k], k, frame.user_slots[k]));
    }
  }
  std::array<std::uint8_t*, kSpaceCount> base{};
  base[static_cast<std::size_t>(Space::Static)] = frame.static_memory.data();
  base[static_cast<std::size_t>(Space::Scratch32)] = scratch32_.data();
  base[static_cast<std::size_t>(Space::Scratch64)] = scratch64_.data();
  base[static_cast<std::size_t>(Space::Input)] = frame.input.data();
  base[static_cast<std::size_t>(Space::Output)] = frame.output.data();
  // Constants are never written: the compiler rejects them as destinations.
  base[static_cast<std::size_t>(Space::Constant)] = const_cast<std::uint8_t*>(program_.constants());
  for (std::size_t k = 0; k < frame.user.size(); ++k) {
    base[static_cast<std::size_t>(Space::UserInBool) + k] = frame.user[k];
  }

  const Operation* code = program_.code().data();
  std::int64_t budget = options_.instruction_budget;
  for (;;) {
    const Operation& op = code[pc];
#define D (base[static_cast<std::size_t>(op.dst_space)] + op.dst)
#define S (base[static_cast<std::size_t>(op.src_space)] + op.src)
    switch (op.code) {
      case Code::End:
        return Status::Ok;
      case Code::Copy4:
        std::memcpy(D, S, 4);
        break;
      case Code::Copy8:
        std::memcpy(D, S, 8);
        break;
      case Code::Copy12:
        std::memcpy(D, S, 12);
        break;
      case Code::NegI:
        st<std::uint32_t>(D, 0u - u(D));
        break;
      case Code::NegF:
        st<float>(D, -f(D));
        break;
      case Code::NegV: {
        const auto v = ldv(D);
        st<Vec3>(D, {-v.x, -v.y, -v.z});
        break;
      }
      case Code::Not:
        st_bool(D, u(D) == 0);
        break;
      case Code::AddI:
        st<std::uint32_t>(D, u(D) + u(S));
        break;
      case Code::AddF:
        st<float>(D, f(D) + f(S));
        break;
      case Code::AddV: {
        const auto a = ldv(D), b = ldv(S);
        st<Vec3>(D, {a.x + b.x, a.y + b.y, a.z + b.z});
        break;
      }
      case Code::SubI:
        st<std::uint32_t>(D, u(D) - u(S));
        break;
      case Code::SubF:
        st<float>(D, f(D) - f(S));
        break;
      case Code::SubV: {
        const auto a = ldv(D), b = ldv(S);
        st<Vec3>(D, {a.x - b.x, a.y - b.y, a.z - b.z});
        break;
      }
      case Code::MulI:
        st<std::uint32_t>(D, u(D) * u(S));
        break;
      case Code::MulF:
        st<float>(D, f(D) * f(S));
        break;
      case Code::DivI:
        st<std::int32_t>(D, div_i(i(D), i(S)));
        break;
      case Code::DivU:
        st<std::uint32_t>(D, u(S) == 0 ? 0 : u(D) / u(S));
        break;
      case Code::DivF:
        st<float>(D, f(D) / f(S));
        break;
      case Code::ModI:
        st<std::int32_t>(D, mod_i(i(D), i(S)));
        break;
      case Code::ModU:
        st<std::uint32_t>(D, u(S) == 0 ? 0 : u(D) % u(S));
        break;
      case Code::IncI:
        st<std::uint32_t>(D, u(D) + 1);
        break;
      case Code::IncF:
        st<float>(D, f(D) + 1.0f);
        break;
      case Code::DecI:
        st<std::uint32_t>(D, u(D) - 1);
        break;
      case Code::DecF:
        st<float>(D, f(D) - 1.0f);
        break;
      case Code::ScaleV: {
        const auto v = ldv(D);
        const auto k = f(S);
        st<Vec3>(D, {v.x * k, v.y * k, v.z * k});
        break;
      }
      case Code::DivideV: {
        const auto v = ldv(D);
        const auto k = f(S);
        st<Vec3>(D, {v.x / k, v.y / k, v.z / k});
        break;
      }
      // Shift counts are taken modulo 32, as the Switch's ARM64 shift instructions do.
      case Code::Shl:
        st<std::uint32_t>(D, u(D) << (u(S) & 31));
        break;
      case Code::ShrI:
        st<std::int32_t>(D, i(D) >> (u(S) & 31));
        break;
      case Code::ShrU:
        st<std::uint32_t>(D, u(D) >> (u(S) & 31));
        break;
      case Code::LtI:
        st_bool(D, i(D) < i(S));
        break;
      case Code::LtU:
        st_bool(D, u(D) < u(S));
        break;
      case Code::LtF:
        st_bool(D, f(D) < f(S));
        break;
      case Code::LeI:
        st_bool(D, i(D) <= i(S));
        break;
      case Code::LeU:
        st_bool(D, u(D) <= u(S));
        break;
      case Code::LeF:
        st_bool(D, f(D) <= f(S));
        break;
      case Code::GtI:
        st_bool(D, i(D) > i(S));
        break;
      case Code::GtU:
        st_bool(D, u(D) > u(S));
        break;
      case Code::GtF:
        st_bool(D, f(D) > f(S));
        break;
      case Code::GeI:
        st_bool(D, i(D) >= i(S));
        break;
      case Code::GeU:
        st_bool(D, u(D) >= u(S));
        break;
      case Code::GeF:
        st_bool(D, f(D) >= f(S));
        break;
      case Code::EqW:
        st_bool(D, u(D) == u(S));
        break;
      case Code::EqB:
        st_bool(D, (u(D) != 0) == (u(S) != 0));
        break;
      case Code::EqF:
        st_bool(D, f(D) == f(S));
        break;
      case Code::EqV:
        st_bool(D, ldv(D) == ldv(S));
        break;
      case Code::EqS:
        st_bool(D, std::strcmp(ld<const char*>(D), ld<const char*>(S)) == 0);
        break;
      case Code::NeW:
        st_bool(D, u(D) != u(S));
        break;
      case Code::NeB:
        st_bool(D, (u(D) != 0) != (u(S) != 0));
        break;
      case Code::NeF:
        st_bool(D, f(D) != f(S));
        break;
      case Code::NeV:
        st_bool(D, !(ldv(D) == ldv(S)));
        break;
      case Code::NeS:
        st_bool(D, std::strcmp(ld<const char*>(D), ld<const char*>(S)) != 0);
        break;
      case Code::And:
        st<std::uint32_t>(D, u(D) & u(S));
        break;
      case Code::Xor:
        st<std::uint32_t>(D, u(D) ^ u(S));
        break;
      case Code::Or:
        st<std::uint32_t>(D, u(D) | u(S));
        break;
      case Code::LogicalAnd:
        st_bool(D, u(D) != 0 && u(S) != 0);
        break;
      case Code::LogicalOr:
        st_bool(D, u(D) != 0 || u(S) != 0);
        break;
      case Code::Call: {
        const auto& site = program_.calls()[op.aux];
        std::uint8_t* block = D;
        if (site.function != nullptr) {
          CallContext context{frame.host, &site.signature};
          (*site.function)(context, block);
        } else if (options_.missing_functions == MissingFunctionPolicy::ZeroAndLogOnce) {
          std::memset(block, 0, value_size(site.signature.result));
          if (!site.reported.exchange(true)) {
            spdlog::warn("EXB: no user function is registered for \"{}\"; it returns zero",
                         site.signature.text);
          }
        } else {
          return fail(
              Status::MissingFunction,
              fmt::format("no user function is registered for \"{}\"", site.signature.text));
        }
        break;
      }
      case Code::JumpIfZero:
        if (u(D) != 0) break;
        [[fallthrough]];
      case Code::Jump:
        if (op.src != 0 && (budget -= op.src) < 0) {
          return fail(Status::BudgetExhausted,
                      fmt::format("function {} ran past its budget of {} instructions", function,
                                  options_.instruction_budget));
        }
        pc = op.aux;
        continue;
    }
#undef D
#undef S
    ++pc;
  }
}

}  // namespace ainb::exb
