// The runtime handle: its settings, module directories, generic node classes and EXB user
// functions (their arguments and result through the block a signature lays out).

#include "ainb/exb/signature.hpp"
#include "ainb/gamedata/generic_nodes.hpp"

#include "handles.hpp"

using namespace ainb;
using namespace ainb::capi;

namespace {

ainb_value from_block(exb::DataType type, const std::uint8_t* at) {
  ainb_value v{};
  switch (type) {
    case exb::DataType::Bool:
      v.type = AINB_VALUE_BOOL;
      v.as.b = exb::detail::load<bool>(at);
      break;
    case exb::DataType::Int:
      v.type = AINB_VALUE_INT;
      v.as.i = exb::detail::load<std::int32_t>(at);
      break;
    case exb::DataType::UInt:
      v.type = AINB_VALUE_UINT;
      v.as.u = exb::detail::load<std::uint32_t>(at);
      break;
    case exb::DataType::Float:
      v.type = AINB_VALUE_FLOAT;
      v.as.f = exb::detail::load<float>(at);
      break;
    case exb::DataType::String:
      v.type = AINB_VALUE_STRING;
      v.as.s = exb::detail::load<const char*>(at);
      break;
    case exb::DataType::Vec3f: {
      const auto x = exb::detail::load<exb::Vec3>(at);
      v.type = AINB_VALUE_VEC3F;
      v.as.v = {x.x, x.y, x.z};
      break;
    }
    default:
      break;
  }
  return v;
}

void to_block(exb::DataType type, const ainb_value& v, std::uint8_t* at) {
  switch (type) {
    case exb::DataType::Bool:
      exb::detail::store(at, v.as.b);
      break;
    case exb::DataType::Int:
      exb::detail::store(at, v.as.i);
      break;
    case exb::DataType::UInt:
      exb::detail::store(at, v.as.u);
      break;
    case exb::DataType::Float:
      exb::detail::store(at, v.as.f);
      break;
    case exb::DataType::String:
      exb::detail::store(at, v.as.s);
      break;
    case exb::DataType::Vec3f:
      exb::detail::store(at, exb::Vec3{v.as.v.x, v.as.v.y, v.as.v.z});
      break;
    default:
      break;
  }
}

ainb_value_type c_type(exb::DataType type) {
  switch (type) {
    case exb::DataType::Bool:
      return AINB_VALUE_BOOL;
    case exb::DataType::Int:
      return AINB_VALUE_INT;
    case exb::DataType::UInt:
      return AINB_VALUE_UINT;
    case exb::DataType::Float:
      return AINB_VALUE_FLOAT;
    case exb::DataType::String:
      return AINB_VALUE_STRING;
    case exb::DataType::Vec3f:
      return AINB_VALUE_VEC3F;
    default:
      return AINB_VALUE_NONE;
  }
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
