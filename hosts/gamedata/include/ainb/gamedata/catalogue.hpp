#pragma once

// The node catalogue (formats/node_definitions.hpp) put to work: stub outputs for classes no
// host implements, and `ainb lint`'s checks of a file against the declarations.

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "ainb/formats/node_definitions.hpp"
#include "ainb/runtime/node_class.hpp"

namespace ainb::gamedata {

// The node definitions of a romfs: for each of AI, Logic and Sequence, the file
// ROMFS/<category>/NodeDefinition/Node.Product.<N>.aidefn.byml.zs with the highest N (compared as
// numbers: 120 is newer than 99), in that category order; a category without one is skipped.
std::vector<std::filesystem::path> romfs_node_definitions(const std::filesystem::path& romfs);

// The catalogue the ainb commands use: each `--defs` argument (PATH or CATEGORY=PATH,
// NodeCatalogue::from_spec) merged in order; without any, the romfs's own definitions
// (romfs_node_definitions) when `romfs` is not empty. Throws LoadError.
formats::NodeCatalogue load_node_definitions(const std::vector<std::string>& specs,
                                             const std::filesystem::path& romfs,
                                             const formats::ZstdDictionaries* dictionaries);

// The declared default of an output (or input) as a value of `type`, or nullopt when the
// declaration's type does not give one of that type (e.g. an enum's default name for an Int
// output). String values view the catalogue's strings.
std::optional<Value> declared_value(const formats::NodeInputDefinition& declaration,
                                    ParamType type);

// NodeRegistry::stub_outputs from a catalogue: a stub writes the declared default of each output
// the catalogue declares for its class (categories AI, Logic, Sequence searched in that order);
// other outputs keep the type's zero. The catalogue must outlive the graphs built with it.
runtime::StubOutputDefaults catalogue_stub_outputs(const formats::NodeCatalogue& catalogue);

// One disagreement between a file and the catalogue.
struct LintFinding {
  enum class Kind {
    UnknownClass,   // no category declares the class
    WrongCategory,  // declared, but for other file categories
    MissingInput,   // declared, the node has none of that name
    ExtraInput,     // the node has one the class does not declare
    InputType,      // declared with another type
    MissingOutput,  // the same for outputs, when the catalogue declares outputs
    ExtraOutput,
    OutputType,
    // The file's own structure, checked without a catalogue:
    NotHonoured,      // a property set to a value the runtime does not implement (unhonoured.hpp)
    AbsentPlug,       // a BoolSelector without its True or False plug: that value selects nothing
    QueryCycle,       // queries that are their own queries (query_cycles.hpp)
    MultiSourceMark,  // a generic plug holding a multi-source input's mark, as a tool writes it
    UnlistedModule,   // a module node whose module the file's module array does not list
  };
  Kind kind = Kind::UnknownClass;
  std::uint32_t node = 0;
  std::string node_class;
  std::string parameter;  // empty for class findings
  std::string message;    // readable, without the node prefix
  // Notes: the file is as the game (or a tool the game accepts the output of) has it, and the
  // runtime has a documented reading, so lint reports it without counting it as a finding.
  bool is_note() const {
    return kind == Kind::NotHonoured || kind == Kind::QueryCycle || kind == Kind::MultiSourceMark;
  }
};
const char* lint_kind_name(LintFinding::Kind kind);  // "unknown-class", "wrong-category", ...

// Without a catalogue: the findings of kinds NotHonoured, AbsentPlug, QueryCycle (at the cycle's
// first node), MultiSourceMark and UnlistedModule; `node_class` is the class or type's name
// (Element_Sequential), `parameter` the property, plug or module.
std::vector<LintFinding> lint_builtins(const Model& model);

// lint_builtins, then every UserDefined node that is not a module call. Types: the catalogue's
// Bool, Int, Float, String and Vector3 are the file's bool, int, float, string and vec3f; any other
// declared type is a C++ type name, which the file stores as an int (an enum) or as a pointer
// of that class name. Properties are not checked (no catalogue declares them).
std::vector<LintFinding> lint(const Model& model, const formats::NodeCatalogue& catalogue);

}  // namespace ainb::gamedata
