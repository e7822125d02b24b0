#include "ainb/formats/text.hpp"

#include <fmt/format.h>

namespace ainb::formats {

namespace {

std::string base64(std::span<const std::uint8_t> data) {
  static constexpr char kAlphabet[] =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  out.reserve((data.size() + 2) / 3 * 4);
  for (std::size_t i = 0; i < data.size(); i += 3) {
    const std::uint32_t chunk = (std::uint32_t{data[i]} << 16) |
                                (i + 1 < data.size() ? std::uint32_t{data[i + 1]} << 8 : 0) |
                                (i + 2 < data.size() ? std::uint32_t{data[i + 2]} : 0);
    out += kAlphabet[(chunk >> 18) & 63];
    out += kAlphabet[(chunk >> 12) & 63];
    out += i + 1 < data.size() ? kAlphabet[(chunk >> 6) & 63] : '=';
    out += i + 2 < data.size() ? kAlphabet[chunk & 63] : '=';
  }
  return out;
}

// Floats keep a decimal point so they read back as floats, not integers.
template <typename T>
std::string number(T value) {
  auto text = fmt::format("{}", value);
  if (text.find_first_of(".eEn") == std::string::npos) text += ".0";
  return text;
}

bool needs_quotes(std::string_view text) {
  if (text.empty()) return true;
  if (text == "true" || text == "false" || text == "null" || text == "~") return true;
  if (text.front() == ' ' || text.back() == ' ') return true;
  if (std::string_view("-?:,[]{}#&*!|>'\"%@`0123456789.+").find(text.front()) !=
      std::string_view::npos) {
    return true;
  }
  for (const char c : text) {
    if (c == ':' || c == '#' || c == '\n' || c == '\t' || static_cast<unsigned char>(c) < 0x20) {
      return true;
    }
  }
  return false;
}

std::string yaml_string(std::string_view text) {
  if (!needs_quotes(text)) return std::string(text);
  std::string out = "\"";
  for (const char c : text) {
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\t':
        out += "\\t";
        break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          out += fmt::format("\\x{:02x}", static_cast<unsigned char>(c));
        } else {
          out += c;
        }
    }
  }
  return out + "\"";
}

class BymlPrinter {
 public:
  std::string out;

  // Writes `value` after a "key:" or "-" that is already on the line.
  void value(const byml::Value& node, int indent) {
    using Type = byml::Value::Type;
    switch (node.type()) {
      case Type::Hash: {
        const auto& items = node.as_hash();
        if (items.empty()) {
          out += " {}\n";
          return;
        }
        out += '\n';
        for (const auto& [key, child] : items) {
          pad(indent);
          out += yaml_string(key) + ':';
          value(child, indent + 2);
        }
        return;
      }
      case Type::Hash32Map: {
        const auto& items = node.as_hash32();
        out += items.empty() ? " !h {}\n" : " !h\n";
        for (const auto& [key, child] : items) {
          pad(indent);
          out += fmt::format("{}:", key);
          value(child, indent + 2);
        }
        return;
      }
      case Type::Array: {
        const auto& items = node.as_array();
        if (items.empty()) {
          out += " []\n";
          return;
        }
        out += '\n';
        for (const auto& child : items) {
          pad(indent);
          out += '-';
          value(child, indent + 2);
        }
        return;
      }
      default:
        out += ' ' + scalar(node) + '\n';
    }
  }

 private:
  void pad(int indent) { out.append(static_cast<std::size_t>(indent), ' '); }

  static std::string scalar(const byml::Value& node) {
    using Type = byml::Value::Type;
    switch (node.type()) {
      case Type::Null:
        return "null";
      case Type::Bool:
        return node.as_bool() ? "true" : "false";
      case Type::Int:
        return fmt::format("{}", node.as_int());
      case Type::UInt:
        return fmt::format("!u {:#010x}", node.as_uint());
      case Type::Float:
        return number(node.as_float());
      case Type::Int64:
        return fmt::format("!l {}", node.as_int64());
      case Type::UInt64:
        return fmt::format("!ul {}", node.as_uint64());
      case Type::Double:
        return "!f64 " + number(node.as_double());
      case Type::String:
        return yaml_string(node.as_string());
      case Type::Binary:
        return "!!binary " + base64(node.as_binary().data);
      case Type::File:
        return fmt::format("!!file {}  # alignment {:#x}", base64(node.as_binary().data),
                           node.as_binary().alignment);
      default:
        return "?";
    }
  }
};

class AampPrinter {
 public:
  explicit AampPrinter(const aamp::NameTable& names) : names_(names) {}
  std::string out;

  void list(const aamp::ParameterList& node, int indent) {
    out += " !list\n";
    pad(indent);
    out += node.objects.empty() ? "objects: {}\n" : "objects:\n";
    for (const auto& [hash, object] : node.objects) {
      pad(indent + 2);
      out += name(hash) + ": !obj";
      out += object.parameters.empty() ? " {}\n" : "\n";
      for (const auto& [parameter_hash, parameter] : object.parameters) {
        pad(indent + 4);
        out += name(parameter_hash) + ": " + value(parameter) + '\n';
      }
    }
    pad(indent);
    out += node.lists.empty() ? "lists: {}\n" : "lists:\n";
    for (const auto& [hash, child] : node.lists) {
      pad(indent + 2);
      out += name(hash) + ':';
      list(child, indent + 4);
    }
  }

 private:
  void pad(int indent) { out.append(static_cast<std::size_t>(indent), ' '); }

  std::string name(std::uint32_t hash) const {
    if (const auto* known = names_.find(hash)) return yaml_string(*known);
    return fmt::format("{}", hash);
  }

  static std::string floats(const std::vector<float>& values) {
    std::string text = "[";
    for (std::size_t i = 0; i < values.size(); ++i) {
      if (i) text += ", ";
      text += number(values[i]);
    }
    return text + "]";
  }

  static std::string value(const aamp::Parameter& parameter) {
    using T = aamp::ParameterType;
    const std::string tag = std::string("!") + aamp::type_name(parameter.type) + ' ';
    switch (parameter.type) {
      case T::Bool:
        return std::get<bool>(parameter.value) ? "true" : "false";
      case T::F32:
        return number(std::get<float>(parameter.value));
      case T::Int:
        return fmt::format("{}", std::get<std::int32_t>(parameter.value));
      case T::U32:
        return fmt::format("!u {:#x}", std::get<std::uint32_t>(parameter.value));
      case T::Vec2:
      case T::Vec3:
      case T::Vec4:
      case T::Color:
      case T::Quat:
      case T::BufferF32:
        return tag + floats(std::get<std::vector<float>>(parameter.value));
      case T::String32:
      case T::String64:
      case T::String256:
        return tag + yaml_string(std::get<std::string>(parameter.value));
      case T::StringRef:
        return yaml_string(std::get<std::string>(parameter.value));
      case T::Curve1:
      case T::Curve2:
      case T::Curve3:
      case T::Curve4: {
        std::string text = tag + "[";
        const auto& curves = std::get<std::vector<aamp::Curve>>(parameter.value);
        for (std::size_t c = 0; c < curves.size(); ++c) {
          if (c) text += ", ";
          text += fmt::format("{}, {}", curves[c].a, curves[c].b);
          for (const float f : curves[c].floats)
            text += ", " + number(f);
        }
        return text + "]";
      }
      case T::BufferInt:
        return tag +
               fmt::format("[{}]",
                           fmt::join(std::get<std::vector<std::int32_t>>(parameter.value), ", "));
      case T::BufferU32:
        return tag +
               fmt::format("[{}]",
                           fmt::join(std::get<std::vector<std::uint32_t>>(parameter.value), ", "));
      case T::BufferBinary:
        return tag + "!!binary " + base64(std::get<std::vector<std::uint8_t>>(parameter.value));
    }
    return "?";
  }

  const aamp::NameTable& names_;
};

}  // namespace

std::string to_text(const byml::Document& document) {
  BymlPrinter printer;
  printer.out = fmt::format("# BYML v{}, {} endian\n", document.version,
                            document.byte_order == std::endian::little ? "little" : "big");
  if (document.root.is_null()) {
    printer.out += "null\n";
    return printer.out;
  }
  printer.out += "root:";
  printer.value(document.root, 2);
  return printer.out;
}

std::string to_text(const aamp::ParameterIO& io, const aamp::NameTable& names) {
  AampPrinter printer(names);
  printer.out = fmt::format("# AAMP v2, {} endian\n!io\nversion: {}\ntype: {}\n",
                            io.byte_order == std::endian::little ? "little" : "big", io.version,
                            yaml_string(io.type));
  printer.out += (names.find(io.root_name_hash) ? yaml_string(*names.find(io.root_name_hash))
                                                : fmt::format("{}", io.root_name_hash)) +
                 ':';
  printer.list(io.root, 2);
  return printer.out;
}

std::string to_text(const Sarc& archive) {
  std::string out = fmt::format("# SARC, {} endian, version {:#x}, {} files (name: size)\n",
                                archive.byte_order() == std::endian::little ? "little" : "big",
                                archive.version(), archive.files().size());
  for (const auto& file : archive.files()) {
    const auto name =
        file.name.empty() ? fmt::format("{:#010x}", file.name_hash) : yaml_string(file.name);
    out += fmt::format("{}: {}\n", name, file.size);
  }
  return out;
}

}  // namespace ainb::formats
