#include "ainb/gamedata/catalogue.hpp"

#include <algorithm>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "ainb/runtime/query_cycles.hpp"
#include "ainb/runtime/unhonoured.hpp"

namespace ainb::gamedata {

namespace {

constexpr const char* kCategories[] = {"AI", "Logic", "Sequence"};

// The file type a basic declared type stands for; nullopt for C++ type names.
std::optional<ParamType> basic_type(const std::string& declared) {
  if (declared == "Bool") return ParamType::Bool;
  if (declared == "Int") return ParamType::Int;
  if (declared == "Float") return ParamType::Float;
  if (declared == "String") return ParamType::String;
  if (declared == "Vector3") return ParamType::Vec3f;
  return std::nullopt;
}

// Whether a parameter of the file agrees with its declaration; the expected type otherwise.
std::optional<std::string> type_mismatch(const formats::NodeInputDefinition& d, ParamType type,
                                         std::string_view class_name) {
  if (const auto basic = basic_type(d.type)) {
    if (*basic == type) return std::nullopt;
    return std::string(param_type_name(*basic));
  }
  if (type == ParamType::Int) return std::nullopt;  // an enum, stored as an int
  if (type == ParamType::Pointer && class_name == d.type) return std::nullopt;
  return fmt::format("an int (enum) or a pointer to {}", d.type);
}

std::string describe(ParamType type, std::string_view class_name) {
  if (type == ParamType::Pointer) return fmt::format("a pointer to {}", class_name);
  return std::string(param_type_name(type));
}

template <typename Param, typename Find>
void check_parameters(const Model& m, const Node& n, std::uint32_t index, bool outputs,
                      const std::vector<formats::NodeInputDefinition>& declared, Find of_type,
                      std::vector<LintFinding>& findings) {
  using Kind = LintFinding::Kind;
  const char* what = outputs ? "output" : "input";
  std::vector<std::string_view> seen;
  for (std::size_t t = 0; t < kParamTypeCount; ++t) {
    for (const Param& p : of_type(m, n, static_cast<ParamType>(t))) {
      seen.push_back(p.name);
      const formats::NodeInputDefinition* d = nullptr;
      for (const auto& candidate : declared) {
        if (candidate.name == p.name) d = &candidate;
      }
      if (d == nullptr) {
        findings.push_back({outputs ? Kind::ExtraOutput : Kind::ExtraInput, index,
                            std::string(n.name), std::string(p.name),
                            fmt::format("{} {} ({}) is not declared for the class", what, p.name,
                                        describe(p.type, p.class_name))});
      } else if (const auto expected = type_mismatch(*d, p.type, p.class_name)) {
        findings.push_back({outputs ? Kind::OutputType : Kind::InputType, index,
                            std::string(n.name), std::string(p.name),
                            fmt::format("{} {} is {}, but the class declares {} ({})", what, p.name,
                                        describe(p.type, p.class_name), *expected, d->type)});
      }
    }
  }
  for (const auto& d : declared) {
    if (std::find(seen.begin(), seen.end(), d.name) != seen.end()) continue;
    findings.push_back({outputs ? Kind::MissingOutput : Kind::MissingInput, index,
                        std::string(n.name), d.name,
                        fmt::format("declared {} {} ({}) is missing", what, d.name, d.type)});
  }
}

// N of "Node.Product.<N>.aidefn.byml.zs", digits only; empty for any other name.
std::string_view product_version(std::string_view name) {
  constexpr std::string_view kPrefix = "Node.Product.", kSuffix = ".aidefn.byml.zs";
  if (name.size() <= kPrefix.size() + kSuffix.size() || !name.starts_with(kPrefix) ||
      !name.ends_with(kSuffix)) {
    return {};
  }
  const auto digits = name.substr(kPrefix.size(), name.size() - kPrefix.size() - kSuffix.size());
  const bool numeric =
      std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; });
  return numeric ? digits : std::string_view();
}

// Whether version a is below b, as numbers of any length (leading zeros aside).
bool older(std::string_view a, std::string_view b) {
  a.remove_prefix(std::min(a.find_first_not_of('0'), a.size()));
  b.remove_prefix(std::min(b.find_first_not_of('0'), b.size()));
  return a.size() != b.size() ? a.size() < b.size() : a < b;
}

}  // namespace

std::vector<std::filesystem::path> romfs_node_definitions(const std::filesystem::path& romfs) {
  std::vector<std::filesystem::path> found;
  for (const auto* category : kCategories) {
    const auto folder = romfs / category / "NodeDefinition";
    std::error_code error;
    if (!std::filesystem::is_directory(folder, error)) continue;
    std::filesystem::path newest;
    std::string newest_version;
    for (std::filesystem::directory_iterator it(folder, error), end; !error && it != end;
         it.increment(error)) {
      const auto name = it->path().filename().string();
      const auto version = product_version(name);
      if (version.empty()) continue;
      // Equal numbers ("120", "0120"): the first name in sort order, so the choice is stable.
      if (newest.empty() || older(newest_version, version) ||
          (!older(version, newest_version) && it->path() < newest)) {
        newest = it->path();
        newest_version = version;
      }
    }
    if (error) {
      throw LoadError(folder.string(), "node definitions", 0,
                      fmt::format("cannot read the folder: {}", error.message()));
    }
    if (!newest.empty()) found.push_back(newest);
  }
  return found;
}

formats::NodeCatalogue load_node_definitions(const std::vector<std::string>& specs,
                                             const std::filesystem::path& romfs,
                                             const formats::ZstdDictionaries* dictionaries) {
  formats::NodeCatalogue catalogue;
  for (const auto& spec : specs)
    catalogue.merge(formats::NodeCatalogue::from_spec(spec, dictionaries));
  if (specs.empty() && !romfs.empty()) {
    for (const auto& path : romfs_node_definitions(romfs))
      catalogue.merge(formats::NodeCatalogue::from_file(path, dictionaries));
  }
  return catalogue;
}

std::optional<Value> declared_value(const formats::NodeInputDefinition& d, ParamType type) {
  const auto basic = basic_type(d.type);
  if (!basic || *basic != type) return std::nullopt;
  return std::visit(
      [&](const auto& v) -> std::optional<Value> {
        using T = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<T, bool>) {
          return Value{v};
        } else if constexpr (std::is_same_v<T, std::int64_t>) {
          return Value{static_cast<std::int32_t>(v)};
        } else if constexpr (std::is_same_v<T, double>) {
          return Value{static_cast<float>(v)};
        } else if constexpr (std::is_same_v<T, std::string>) {
          return Value{std::string_view(v)};
        } else {
          return Value{
              Vec3f{static_cast<float>(v[0]), static_cast<float>(v[1]), static_cast<float>(v[2])}};
        }
      },
      d.default_value);
}

runtime::StubOutputDefaults catalogue_stub_outputs(const formats::NodeCatalogue& catalogue) {
  return [&catalogue](std::string_view node_class, const Output& output) -> std::optional<Value> {
    for (const auto* category : kCategories) {
      const auto* definition = catalogue.find(category, node_class);
      if (definition == nullptr) continue;
      const auto* declared = definition->find_output(output.name);
      return declared ? declared_value(*declared, output.type) : std::nullopt;
    }
    return std::nullopt;
  };
}

namespace {

// Levenshtein distance, for names a letter or two off.
std::size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j)
    row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const auto above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

// The declared class closest to a misspelt `name`: at most 3 edits, and fewer than a quarter of
// its letters ("" when none is that close, or two are equally close).
std::string nearest_class(const formats::NodeCatalogue& catalogue, std::string_view name) {
  std::string best;
  std::size_t best_distance = std::min<std::size_t>(3, name.size() / 4) + 1;
  bool tie = false;
  for (const auto& c : catalogue.classes()) {
    if (c.name == best) continue;  // the same class in another category
    const auto d = edit_distance(name, c.name);
    if (d < best_distance) {
      best = c.name;
      best_distance = d;
      tie = false;
    } else if (d == best_distance && !best.empty()) {
      tie = true;
    }
  }
  return tie ? std::string() : best;
}

}  // namespace

const char* lint_kind_name(LintFinding::Kind kind) {
  using Kind = LintFinding::Kind;
  switch (kind) {
    case Kind::UnknownClass:
      return "unknown-class";
    case Kind::WrongCategory:
      return "wrong-category";
    case Kind::MissingInput:
      return "missing-input";
    case Kind::ExtraInput:
      return "extra-input";
    case Kind::InputType:
      return "input-type";
    case Kind::MissingOutput:
      return "missing-output";
    case Kind::ExtraOutput:
      return "extra-output";
    case Kind::OutputType:
      return "output-type";
    case Kind::NotHonoured:
      return "not-honoured";
    case Kind::AbsentPlug:
      return "absent-plug";
    case Kind::QueryCycle:
      return "query-cycle";
    case Kind::MultiSourceMark:
      return "multi-source-mark";
    case Kind::UnlistedModule:
      return "unlisted-module";
  }
  return "";
}

namespace {

std::string_view class_of(const Node& n) {
  return n.type == NodeType::UserDefined ? n.name : node_type_name(n.type);
}

// The module array names a module by its path: the module node's name and ".ainb".
bool module_listed(const Model& m, const Node& n) {
  return std::any_of(m.modules.begin(), m.modules.end(), [&](const Module& mod) {
    return mod.path.size() == n.name.size() + 5 && mod.path.starts_with(n.name) &&
           mod.path.ends_with(".ainb");
  });
}

}  // namespace

std::vector<LintFinding> lint_builtins(const Model& m) {
  std::vector<LintFinding> findings;
  for (const auto& p : runtime::unhonoured_properties(m)) {
    findings.push_back(
        {LintFinding::Kind::NotHonoured, p.node, std::string(node_type_name(p.type)),
         std::string(p.property),
         fmt::format("{}: the run behaves as for {} ({})", runtime::describe(p),
                     p.param == ParamType::Bool ? "false" : "0", runtime::kUnhonouredDoc)});
  }
  for (std::uint32_t i = 0; i < m.nodes.size(); ++i) {
    const auto& n = m.nodes[i];
    if (n.type != NodeType::BoolSelector) continue;
    const auto plugs = m.plugs_of(n, PlugKind::Child);
    for (const std::string_view name : {"True", "False"}) {
      if (std::any_of(plugs.begin(), plugs.end(), [&](const Plug& p) { return p.name == name; }))
        continue;
      findings.push_back({LintFinding::Kind::AbsentPlug, i, std::string(node_type_name(n.type)),
                          std::string(name),
                          fmt::format("no {} plug: a {} input selects nothing and succeeds "
                                      "(docs/semantics.md, \"Built-in plugs and inputs\")",
                                      name, name == "True" ? "true" : "false")});
    }
  }
  for (const auto& cycle : runtime::query_cycles(m)) {
    const auto& first = m.nodes[cycle.front()];
    findings.push_back(
        {LintFinding::Kind::QueryCycle,
         cycle.front(),
         std::string(class_of(first)),
         {},
         fmt::format("{} are each other's queries (a query cycle): a query met "
                     "again while it is calculated gives the outputs it holds ({})",
                     runtime::describe_query_cycle(cycle), runtime::kQueryCycleDoc)});
  }
  for (std::uint32_t i = 0; i < m.nodes.size(); ++i) {
    const auto& n = m.nodes[i];
    for (const auto& p : m.plugs_of(n, PlugKind::Generic)) {
      if (p.multi_source_mark == 0) continue;
      findings.push_back(
          {LintFinding::Kind::MultiSourceMark, i, std::string(class_of(n)), std::string(p.name),
           fmt::format("generic plug {} holds the multi-source mark {} where the game's files name "
                       "a source node (as dt-12345/AINB writes it); the input reads all its "
                       "sources (docs/loader.md, \"Files modders' tools write\")",
                       p.name, p.multi_source_mark)});
    }
    if (n.is_module() && !module_listed(m, n)) {
      findings.push_back(
          {LintFinding::Kind::UnlistedModule, i, std::string(n.name), std::string(n.name),
           fmt::format("calls {}, which the file's module array does not list (the game may not "
                       "load it for this file; the run finds it by name)",
                       n.name)});
    }
  }
  std::stable_sort(findings.begin(), findings.end(),
                   [](const LintFinding& a, const LintFinding& b) { return a.node < b.node; });
  return findings;
}

std::vector<LintFinding> lint(const Model& m, const formats::NodeCatalogue& catalogue) {
  auto findings = lint_builtins(m);
  const std::string category(m.header.category_name);
  for (std::uint32_t i = 0; i < m.nodes.size(); ++i) {
    const auto& n = m.nodes[i];
    if (n.type != NodeType::UserDefined || n.is_module()) continue;
    const auto* definition = catalogue.find(category, n.name);
    if (definition == nullptr) {
      const auto elsewhere = catalogue.categories_of(n.name);
      if (elsewhere.empty()) {
        const auto near = nearest_class(catalogue, n.name);
        findings.push_back(
            {LintFinding::Kind::UnknownClass,
             i,
             std::string(n.name),
             {},
             fmt::format("class {} is not declared in any category{}", n.name,
                         near.empty() ? "" : fmt::format(" (did you mean {}?)", near))});
      } else {
        findings.push_back({LintFinding::Kind::WrongCategory,
                            i,
                            std::string(n.name),
                            {},
                            fmt::format("class {} is declared for {}, not for {} files", n.name,
                                        fmt::join(elsewhere, ", "), category)});
      }
      continue;
    }
    check_parameters<Input>(
        m, n, i, false, definition->inputs,
        [](const Model& mm, const Node& nn, ParamType t) { return mm.inputs_of(nn, t); }, findings);
    if (!definition->outputs.empty()) {
      check_parameters<Output>(
          m, n, i, true, definition->outputs,
          [](const Model& mm, const Node& nn, ParamType t) { return mm.outputs_of(nn, t); },
          findings);
    }
  }
  std::stable_sort(findings.begin(), findings.end(),
                   [](const LintFinding& a, const LintFinding& b) { return a.node < b.node; });
  return findings;
}

}  // namespace ainb::gamedata
