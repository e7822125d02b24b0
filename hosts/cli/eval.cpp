// `ainb eval`: run one EXB function of a file, so a person can see what an expression computes.

#include <algorithm>
#include <cctype>
#include <optional>
#include <ostream>
#include <stdexcept>
#include <type_traits>
#include <variant>

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

// `text` as a value of `type`; a string points into `storage`. Nullopt when it is not one.
std::optional<exb::Value> parse_value(std::string_view text, DataType type, std::string& storage) {
  try {
    switch (type) {
      case DataType::Bool:
        if (text != "true" && text != "false" && text != "1" && text != "0") return std::nullopt;
        return text == "true" || text == "1";
      case DataType::Int:
        return whole(text,
                     [](const std::string& t, std::size_t* used) { return std::stoi(t, used, 0); });
      case DataType::UInt: {
        const auto wide = whole(
            text, [](const std::string& t, std::size_t* used) { return std::stoull(t, used, 0); });
        if (text.starts_with('-') || wide > 0xFFFFFFFFu) return std::nullopt;
        return static_cast<std::uint32_t>(wide);
      }
      case DataType::Float:
        return whole(text,
                     [](const std::string& t, std::size_t* used) { return std::stof(t, used); });
      case DataType::Vec3f: {
        float v[3];
        std::string rest(text);
        for (int i = 0; i < 3; ++i) {
          std::size_t used = 0;
          v[i] = std::stof(rest, &used);
          rest = rest.substr(used);
          if (i < 2) {
            if (rest.empty() || rest[0] != ',') return std::nullopt;
            rest = rest.substr(1);
          }
        }
        if (!rest.empty()) return std::nullopt;
        return exb::Vec3{v[0], v[1], v[2]};
      }
      case DataType::String:
        storage = std::string(text);
        return storage.c_str();
      default:
        return std::nullopt;
    }
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

// `text` as a value of `type` in a value block (zeros after it).
bool parse_value(std::string_view text, DataType type, std::array<std::uint8_t, 12>& bytes,
                 std::string& storage) {
  const auto value = parse_value(text, type, storage);
  if (value) exb::write_value(*value, bytes);
  return value.has_value();
}

// The value of `type` at `bytes`, as `ainb eval` prints it.
std::string format_value(DataType type, const std::uint8_t* bytes) {
  return std::visit(
      [](const auto& v) -> std::string {
        using T = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<T, std::monostate>) {
          return "(none)";
        } else if constexpr (std::is_same_v<T, bool>) {
          return v ? "true" : "false";
        } else if constexpr (std::is_same_v<T, float>) {
          return fmt::format("{}", v);
        } else if constexpr (std::is_same_v<T, exb::Vec3>) {
          return fmt::format("({}, {}, {})", v.x, v.y, v.z);
        } else if constexpr (std::is_same_v<T, const char*>) {
          return fmt::format("\"{}\"", v != nullptr ? v : "");
        } else {
          return std::to_string(v);
        }
      },
      exb::read_value(type, bytes));
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
  for (std::size_t k = exb::kValueTypeCount; k < 2 * exb::kValueTypeCount; ++k) {
    const auto type = exb::kValueTypes[k - exb::kValueTypeCount];
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
