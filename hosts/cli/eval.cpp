// `ainb eval`: run one EXB function of a file, so a person can see what an expression computes.

#include <algorithm>
#include <cctype>
#include <cstring>
#include <ostream>
#include <stdexcept>

#include <fmt/format.h>

#include "ainb/exb/machine.hpp"
#include "commands.hpp"
#include "registration.hpp"

namespace ainb::cli {

namespace {

using exb::DataType;

// `parse` (std::stoi and its kin) applied to all of `text`: trailing characters are an error.
template <typename Parse>
auto whole(std::string_view text, Parse parse) {
  const std::string copy(text);
  std::size_t used = 0;
  const auto value = parse(copy, &used);
  if (used != copy.size()) throw std::invalid_argument("trailing characters");
  return value;
}

// Parses `text` as a value of `type` into `bytes`; strings point into `storage`.
bool parse_value(std::string_view text, DataType type, std::array<std::uint8_t, 12>& bytes,
                 std::string& storage) {
  bytes.fill(0);
  try {
    switch (type) {
      case DataType::Bool: {
        if (text != "true" && text != "false" && text != "1" && text != "0") return false;
        const std::uint32_t v = (text == "true" || text == "1") ? 1 : 0;
        std::memcpy(bytes.data(), &v, 4);
        return true;
      }
      case DataType::Int: {
        const std::int32_t v = whole(
            text, [](const std::string& t, std::size_t* used) { return std::stoi(t, used, 0); });
        std::memcpy(bytes.data(), &v, 4);
        return true;
      }
      case DataType::UInt: {
        const auto wide = whole(
            text, [](const std::string& t, std::size_t* used) { return std::stoull(t, used, 0); });
        if (text.starts_with('-') || wide > 0xFFFFFFFFu) return false;
        const auto v = static_cast<std::uint32_t>(wide);
        std::memcpy(bytes.data(), &v, 4);
        return true;
      }
      case DataType::Float: {
        const float v =
            whole(text, [](const std::string& t, std::size_t* used) { return std::stof(t, used); });
        std::memcpy(bytes.data(), &v, 4);
        return true;
      }
      case DataType::Vec3f: {
        float v[3];
        std::string rest(text);
        for (int i = 0; i < 3; ++i) {
          std::size_t used = 0;
          v[i] = std::stof(rest, &used);
          rest = rest.substr(used);
          if (i < 2) {
            if (rest.empty() || rest[0] != ',') return false;
            rest = rest.substr(1);
          }
        }
        if (!rest.empty()) return false;
        std::memcpy(bytes.data(), v, 12);
        return true;
      }
      case DataType::String: {
        storage = std::string(text);
        const char* p = storage.c_str();
        std::memcpy(bytes.data(), &p, sizeof p);
        return true;
      }
      default:
        return false;
    }
  } catch (const std::exception&) {
    return false;
  }
}

std::string format_value(DataType type, const std::uint8_t* bytes) {
  auto f = [&](int i) {
    float v;
    std::memcpy(&v, bytes + 4 * i, 4);
    return v;
  };
  switch (type) {
    case DataType::Bool: {
      std::uint32_t v;
      std::memcpy(&v, bytes, 4);
      return v != 0 ? "true" : "false";
    }
    case DataType::Int: {
      std::int32_t v;
      std::memcpy(&v, bytes, 4);
      return std::to_string(v);
    }
    case DataType::UInt: {
      std::uint32_t v;
      std::memcpy(&v, bytes, 4);
      return std::to_string(v);
    }
    case DataType::Float:
      return fmt::format("{}", f(0));
    case DataType::Vec3f:
      return fmt::format("({}, {}, {})", f(0), f(1), f(2));
    case DataType::String: {
      const char* p;
      std::memcpy(&p, bytes, sizeof p);
      return fmt::format("\"{}\"", p != nullptr ? p : "");
    }
    default:
      return "(none)";
  }
}

}  // namespace

int run_eval(const Model& model, const EvalRequest& request, std::ostream& out, std::ostream& err) {
  if (!model.expressions) {
    err << "error: " << model.name << " has no EXB section\n";
    return kExitUsage;
  }
  const auto& section = *model.expressions;
  if (request.function >= section.functions.size()) {
    err << "error: --function " << request.function << ": the file has " << section.functions.size()
        << " functions\n";
    return kExitUsage;
  }
  exb::UserFunctions functions;
  for (const auto& spec : request.user) {
    const auto eq = spec.rfind('=');
    const auto sig =
        eq == std::string::npos ? std::nullopt : exb::parse_signature(spec.substr(0, eq));
    std::array<std::uint8_t, 12> value{};
    std::string storage;
    if (!sig || !parse_value(spec.substr(eq + 1), sig->result, value, storage) ||
        sig->result == DataType::String) {
      err << "error: --user " << spec << ": expected SIGNATURE=VALUE with a number, bool or x,y,z "
          << "of the signature's result type\n";
      return kExitUsage;
    }
    if (std::find(section.signatures.begin(), section.signatures.end(), sig->text) ==
        section.signatures.end()) {
      err << "warning: --user " << spec << ": the file calls no function \"" << sig->text << "\"\n";
    }
    functions.add_constant(sig->text, value);
  }
  const exb::Program program(section, model.name, &functions);
  const auto& fn = section.functions[request.function];

  exb::FrameStorage storage(program, request.function);  // user slots start zeroed
  auto& frame = storage.frame();
  const auto memory = storage.static_memory();
  if (!request.static_hex.empty()) {
    const auto& hex = request.static_hex;
    if (!std::all_of(hex.begin(), hex.end(), [](unsigned char c) { return std::isxdigit(c); }) ||
        hex.size() % 2 != 0) {
      err << "error: --static " << hex
          << ": expected bytes as pairs of hex digits, without spaces (e.g. 0000c842)\n";
      return kExitUsage;
    }
    if (hex.size() / 2 > memory.size()) {
      err << "error: --static: " << hex.size() / 2 << " bytes, but function " << request.function
          << "'s static memory is " << memory.size() << " bytes\n";
      return kExitUsage;
    }
    for (std::size_t i = 0; i < hex.size(); i += 2) {
      memory[i / 2] = static_cast<std::uint8_t>(std::stoul(hex.substr(i, 2), nullptr, 16));
    }
  }
  std::string input_storage;
  if (!request.input.empty() &&
      (fn.input_type == DataType::None || fn.input_type == DataType::Immediate)) {
    err << "error: --input " << request.input << ": function " << request.function
        << " takes no input\n";
    return kExitUsage;
  }
  if (!request.input.empty() &&
      !parse_value(request.input, fn.input_type, frame.input, input_storage)) {
    err << "error: --input " << request.input << ": not a " << exb::data_type_name(fn.input_type)
        << " value\n";
    return kExitUsage;
  }
  const auto& compiled = program.functions()[request.function];

  exb::MachineOptions options;
  options.keep_static_memory = true;  // --static seeds it even for functions that overwrite it
  exb::Machine machine(program, options);
  auto status = machine.run_setup(request.function, frame);
  if (status == exb::Status::Ok) status = machine.run_main(request.function, frame);
  if (status != exb::Status::Ok) {
    err << "error: " << machine.error() << '\n';
    if (status == exb::Status::MissingFunction) {
      err << "pass its result with --user 'SIGNATURE=VALUE'\n";
    }
    return kExitLoadError;
  }
  if (fn.output_type != DataType::None && fn.output_type != DataType::Immediate) {
    out << exb::data_type_name(fn.output_type) << ' '
        << format_value(fn.output_type, frame.output.data()) << '\n';
  }
  static constexpr DataType kSlotTypes[] = {DataType::Bool,  DataType::Int,    DataType::UInt,
                                            DataType::Float, DataType::String, DataType::Vec3f};
  for (std::size_t k = 6; k < 12; ++k) {
    const auto type = kSlotTypes[k - 6];
    for (std::uint32_t slot = 0; slot < compiled.user_slots[k]; ++slot) {
      out << "UserOut " << exb::data_type_name(type) << '[' << slot
          << "] = " << format_value(type, storage.slots(k) + slot * exb::value_size(type)) << '\n';
    }
  }
  return kExitOk;
}

Command add_eval_command(CLI::App& app) {
  auto request = std::make_shared<EvalRequest>();
  auto* eval =
      app.add_subcommand("eval", "Run one EXB function (setup, then main) and print its output");
  auto run = with_model(*eval, [request](const Model& model, std::ostream& out, std::ostream& err) {
    try {
      return run_eval(model, *request, out, err);
    } catch (const LoadError& e) {  // the EXB verifier rejected the function
      err << "error: " << e.what() << '\n';
      return kExitLoadError;
    }
  });
  eval->add_option("--function", request->function, "Function index")->required();
  eval->add_option("--input", request->input,
                   "The input value: an integer, a float, true/false, text, or x,y,z");
  eval->add_option("--static", request->static_hex,
                   "Initial static memory as hex bytes (e.g. 0a000000)");
  eval->add_option("--user", request->user,
                   "SIGNATURE=VALUE: a user function returning VALUE (repeatable)");
  return {eval, run};
}

}  // namespace ainb::cli
