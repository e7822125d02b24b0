// `ainb info`: what a person wants to know about a file at a glance.

#include <map>

#include <fmt/format.h>

#include "commands.hpp"
#include "registration.hpp"

namespace ainb::cli {

namespace {

struct Lines {
  std::string text;
  template <typename... Args>
  void operator()(fmt::format_string<Args...> format, Args&&... args) {
    fmt::format_to(std::back_inserter(text), format, std::forward<Args>(args)...);
    text += '\n';
  }
};

}  // namespace

std::string format_info(const Model& m) {
  Lines line;
  line("file:        {}", m.name);
  line("name:        {}", m.header.file_name);
  line("version:     {:#x}", m.version());
  line("category:    {}", m.header.category_name);
  line("size:        {} bytes", m.bytes.size());
  line("{}", "");

  line("sections:");
  for (const auto& [section, count] : section_counts(m)) {
    if (section == "EXB functions" && m.expressions) {
      line("  {:<19} {} (EXB v{}, {} instructions)", section, count, m.expressions->version,
           m.expressions->instructions.size());
    } else {
      line("  {:<19} {}", section, count);
    }
  }

  auto describe = [&m](std::uint16_t index) {
    const auto& n = m.nodes[index];
    const auto type = node_type_name(n.type);
    if (n.name.empty()) return fmt::format("node {} {}", index, type);
    return fmt::format("node {} {} \"{}\"", index, type, n.name);
  };
  line("{}", "");
  if (m.commands.empty()) {
    line("commands: none (every node runs every frame)");
  } else {
    line("commands:");
    for (const auto& c : m.commands) {
      std::string roots = describe(c.root);
      if (c.secondary_root) roots += ", secondary " + describe(*c.secondary_root);
      line("  {:<24} -> {}", c.name, roots);
    }
  }

  std::map<std::string_view, std::size_t> histogram;
  for (const auto& n : m.nodes)
    ++histogram[node_type_name(n.type)];
  line("{}", "");
  line("node types:");
  for (const auto& [type, count] : histogram)
    line("  {:<32} {}", type, count);

  if (m.expressions && !m.expressions->signatures.empty()) {
    line("{}", "");
    line("{}", "user functions called by expressions (the host registers these):");
    for (const auto signature : m.expressions->signatures)
      line("  {}", signature);
  }

  if (!m.modules.empty()) {
    line("{}", "");
    line("modules:");
    for (const auto& mod : m.modules) {
      line("  {} ({}, {} instance{})", mod.path, mod.category, mod.instance_count,
           mod.instance_count == 1 ? "" : "s");
    }
  }
  return line.text;
}

Command add_info_command(CLI::App& app) {
  auto* info = app.add_subcommand("info", "Print a readable summary of a file");
  return {info, with_model(*info, [](const Model& model, std::ostream& out, std::ostream&) {
            out << format_info(model);
            return kExitOk;
          })};
}

}  // namespace ainb::cli
