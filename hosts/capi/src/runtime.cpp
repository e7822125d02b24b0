// The runtime handle: its settings, module directories, generic node classes and EXB user
// functions (their arguments and result through the block a signature lays out).

#include "ainb/exb/signature.hpp"
#include "ainb/gamedata/generic_nodes.hpp"

#include "handles.hpp"

using namespace ainb;
using namespace ainb::capi;

namespace {

// ainb_value_type numbers the types as exb::Value's alternatives do: none, then the value types
// in the order of the EXB data type table.
static_assert(AINB_VALUE_NONE == 0 &&
              AINB_VALUE_BOOL == 1 + exb::value_type_index(exb::DataType::Bool) &&
              AINB_VALUE_INT == 1 + exb::value_type_index(exb::DataType::Int) &&
              AINB_VALUE_UINT == 1 + exb::value_type_index(exb::DataType::UInt) &&
              AINB_VALUE_FLOAT == 1 + exb::value_type_index(exb::DataType::Float) &&
              AINB_VALUE_STRING == 1 + exb::value_type_index(exb::DataType::String) &&
              AINB_VALUE_VEC3F == 1 + exb::value_type_index(exb::DataType::Vec3f));

ainb_value_type c_type(exb::DataType type) {
  const auto k = exb::value_type_index(type);
  return k < exb::kValueTypeCount ? static_cast<ainb_value_type>(1 + k) : AINB_VALUE_NONE;
}

// The union member that holds values of scalar C++ type T: the C API's one list of them (a
// Vec3 is the ainb_vec3f `v`, converted where it is read or written).
template <typename T>
auto& member(decltype(ainb_value::as)& as) {
  if constexpr (std::is_same_v<T, bool>) {
    return as.b;
  } else if constexpr (std::is_same_v<T, std::int32_t>) {
    return as.i;
  } else if constexpr (std::is_same_v<T, std::uint32_t>) {
    return as.u;
  } else if constexpr (std::is_same_v<T, float>) {
    return as.f;
  } else {
    static_assert(std::is_same_v<T, const char*>);
    return as.s;
  }
}

// An argument, read from the call's block by the EXB library's conversion.
ainb_value from_block(exb::DataType type, const std::uint8_t* at) {
  ainb_value v{};
  std::visit(
      [&](const auto& x) {
        using T = std::decay_t<decltype(x)>;
        if constexpr (!std::is_same_v<T, std::monostate>) {
          if constexpr (std::is_same_v<T, exb::Vec3>) {
            v.as.v = {x.x, x.y, x.z};
          } else {
            member<T>(v.as) = x;
          }
          v.type = c_type(exb::detail::data_type_of<T>());
        }
      },
      exb::read_value(type, at));
  return v;
}

// The result, of the signature's type whatever `v.type` says, written by the same conversion.
void to_block(exb::DataType type, ainb_value v, std::uint8_t* at) {
  static constexpr std::array<std::uint8_t, 12> kZero{};
  auto value = exb::read_value(type, kZero.data());  // a value of `type`, set below
  std::visit(
      [&](auto& x) {
        using T = std::decay_t<decltype(x)>;
        if constexpr (std::is_same_v<T, exb::Vec3>) {
          x = {v.as.v.x, v.as.v.y, v.as.v.z};
        } else if constexpr (!std::is_same_v<T, std::monostate>) {
          x = member<T>(v.as);
        }
      },
      value);
  exb::store_value(value, at);
}

constexpr std::size_t kMaxArguments = 16;

}  // namespace

extern "C" {

ainb_runtime* ainb_runtime_create(void) {
  try {
    return new ainb_runtime;
  } catch (...) {
    return nullptr;
  }
}
void ainb_runtime_destroy(ainb_runtime* runtime) {
  delete runtime;
}
const char* ainb_runtime_last_error(const ainb_runtime* runtime) {
  return runtime == nullptr ? "no runtime" : runtime->last_error.c_str();
}

void ainb_runtime_set_stub_running_updates(ainb_runtime* rt, uint32_t updates) {
  if (rt != nullptr) rt->runtime.registry().stub_running_updates = updates;
}
ainb_status ainb_runtime_add_generic_nodes(ainb_runtime* rt) {
  if (rt == nullptr) return AINB_ERROR_ARGUMENT;
  try {
    gamedata::add_generic_nodes(rt->runtime.registry());
    return AINB_OK;
  } catch (const std::exception& e) {
    rt->last_error = e.what();
    return AINB_ERROR_ARGUMENT;
  }
}
ainb_status ainb_runtime_add_module_dir(ainb_runtime* rt, const char* directory) {
  if (rt == nullptr || directory == nullptr) return AINB_ERROR_ARGUMENT;
  rt->runtime.add_module_folder(directory);
  return AINB_OK;
}
void ainb_runtime_set_stub_missing_modules(ainb_runtime* rt, bool stub) {
  if (rt == nullptr) return;
  rt->runtime.options().missing_modules =
      stub ? runtime::MissingModulePolicy::Stub : runtime::MissingModulePolicy::Error;
}

void ainb_runtime_set_log(ainb_runtime* rt, ainb_log_callback callback, void* user_data) {
  if (rt == nullptr) return;
  if (callback == nullptr) {
    rt->log = nullptr;
    rt->runtime.set_log({});
    return;
  }
  // The C enums are the C++ ones' values (the C++ kinds of hosts' own warnings never arise here).
  static_assert(AINB_LOG_INFO == static_cast<int>(runtime::LogLevel::Info) &&
                AINB_LOG_WARNING == static_cast<int>(runtime::LogLevel::Warning));
  static_assert(AINB_LOG_MISSING_MODULE == static_cast<int>(runtime::LogKind::MissingModule) &&
                AINB_LOG_MISSING_FUNCTION == static_cast<int>(runtime::LogKind::MissingFunction) &&
                AINB_LOG_ALERT == static_cast<int>(runtime::LogKind::Alert));
  // A new sink each time: graphs loaded before keep theirs.
  rt->log =
      std::make_shared<const runtime::LogSink>([callback, user_data](const runtime::LogEvent& e) {
        const ainb_log_event event{static_cast<ainb_log_level>(e.level),
                                   static_cast<ainb_log_kind>(e.kind),
                                   to_c(e.file),
                                   e.node,
                                   to_c(e.subject),
                                   to_c(e.detail),
                                   to_c(e.message)};
        callback(&event, user_data);
      });
  // Loads report through the runtime; graphs and instances keep the shared sink.
  rt->runtime.set_log([sink = rt->log](const runtime::LogEvent& e) { (*sink)(e); });
}

ainb_status ainb_runtime_register_function(ainb_runtime* rt, const char* signature,
                                           ainb_function function, void* function_data) {
  if (rt == nullptr) return AINB_ERROR_ARGUMENT;
  if (signature == nullptr || function == nullptr) {
    rt->last_error = "register_function: a function needs a signature and a callback";
    return AINB_ERROR_ARGUMENT;
  }
  try {
    // The signature fixes the block's layout; the erased function reads it as the C++
    // registrations do (consecutive arguments at their natural sizes, result at the start).
    std::string error;
    const auto layout = exb::parse_signature(signature, &error);
    if (!layout) {
      rt->last_error = fmt::format("register_function: signature \"{}\": {}", signature, error);
      return AINB_ERROR_ARGUMENT;
    }
    if (layout->arguments.size() > kMaxArguments) {
      rt->last_error =
          fmt::format("register_function: signature \"{}\" has {} arguments (at most {})",
                      signature, layout->arguments.size(), kMaxArguments);
      return AINB_ERROR_ARGUMENT;
    }
    rt->runtime.functions().add_erased(signature, [layout = *layout, function, function_data](
                                                      exb::CallContext& c, std::uint8_t* block) {
      ainb_value args[kMaxArguments];
      std::uint32_t offset = 0;
      const auto n = layout.arguments.size();
      for (std::size_t k = 0; k < n; ++k) {
        args[k] = from_block(layout.arguments[k], block + offset);
        offset += exb::value_size(layout.arguments[k]);
      }
      ainb_value result{};
      result.type = c_type(layout.result);
      function(function_data, host_of(c.host), args, n, &result);
      raise_misuse(c.host);
      to_block(layout.result, result, block);
    });
    return AINB_OK;
  } catch (const std::exception& e) {
    rt->last_error = e.what();
    return AINB_ERROR_ARGUMENT;
  }
}

}  // extern "C"
