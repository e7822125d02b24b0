// Text -> model, the file as a whole: from_text(), and the reader's parts outside the nodes
// (layout, header, expressions, blackboard, commands, transitions and the tables after the
// nodes). The nodes are read in text_form_from_text_nodes.cpp.

#include <algorithm>
#include <cctype>
#include <memory>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "ainb/exb/assembler.hpp"
#include "ainb/exb/program.hpp"
#include "ainb/loader.hpp"
#include "ainb/writer/text_form.hpp"
#include "ainb/writer/writer.hpp"
#include "text_form_from_text.hpp"

namespace ainb::writer {

namespace detail {

namespace {

const json kNoEntries = json::object();  // an absent "blackboard"
const json kNoItems = json::array();     // absent "commands", "modules"

std::vector<std::uint8_t> parse_hex_bytes(const At& at) {
  const auto s = at.string();
  std::vector<std::uint8_t> out;
  std::size_t i = 0;
  while (i < s.size()) {
    if (s[i] == ' ') {
      ++i;
      continue;
    }
    if (i + 2 > s.size() || !std::isxdigit(static_cast<unsigned char>(s[i])) ||
        !std::isxdigit(static_cast<unsigned char>(s[i + 1]))) {
      at.fail("expected hex bytes (\"00 1f ...\")");
    }
    out.push_back(static_cast<std::uint8_t>(std::stoul(s.substr(i, 2), nullptr, 16)));
    i += 2;
  }
  return out;
}

}  // namespace

Guid parse_guid(const At& at) {
  const auto s = at.string();
  Guid g;
  const auto bad = [&] { at.fail(fmt::format("\"{}\" is not a GUID (8-4-4-4-12 hex digits)", s)); };
  if (s.size() != 36 || s[8] != '-' || s[13] != '-' || s[18] != '-' || s[23] != '-') bad();
  std::string digits;
  for (const char c : s) {
    if (c == '-') continue;
    if (!std::isxdigit(static_cast<unsigned char>(c))) bad();
    digits += c;
  }
  if (digits.size() != 32) bad();  // a dash where a digit belongs
  std::array<std::uint8_t, 16> b{};
  for (std::size_t i = 0; i < 16; ++i)
    b[i] = static_cast<std::uint8_t>(std::stoul(digits.substr(2 * i, 2), nullptr, 16));
  // The text is u32, u16, u16 in big-endian digit order, then 8 bytes as stored.
  g.bytes = {b[3], b[2], b[1],  b[0],  b[5],  b[4],  b[7],  b[6],
             b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15]};
  return g;
}

void FromText::run() {
  root_.only(
      {"format",       "version",       "file_name",        "category",      "header",
       "commands",     "blackboard",    "blackboard_files", "blackboard_id", "parent_blackboard_id",
       "nodes",        "attachments",   "transitions",      "modules",       "xlink_actions",
       "replacements", "enum_resolves", "section_0x58",     "expressions",   "layout"});
  if (root_.has("format")) {
    const auto format = root_["format"].string();
    if (format != kTextFormat) {
      root_["format"].fail(
          fmt::format("unknown format \"{}\" (expected \"{}\")", format, kTextFormat));
    }
  }
  const auto version = root_["version"].u32();
  if (version != kVersion404 && version != kVersion407 && version != kVersion408) {
    root_["version"].fail(fmt::format("unsupported AINB version {:#x}", version));
  }
  m_.header.version = version;
  m_.header.file_name = b_.keep(root_["file_name"].string());
  m_.header.category_name = b_.keep(root_["category"].string());
  read_layout();
  const auto nodes = root_["nodes"];
  node_count_ = nodes.array();
  if (node_count_ > 0x7FFF) nodes.fail(fmt::format("{} nodes, more than 32767", node_count_));
  read_expressions();
  read_blackboard();
  read_attachment_count();
  m_.nodes.resize(node_count_);
  // Outputs first: inputs name them.
  for (std::size_t i = 0; i < node_count_; ++i)
    read_outputs(nodes[i], i);
  for (std::size_t i = 0; i < node_count_; ++i)
    read_node(nodes[i], i);
  read_inputs_all(nodes);
  read_attachments();
  settle_expression_use();
  read_commands();
  read_transitions();
  for (std::size_t i = 0; i < node_count_; ++i)
    read_plugs(nodes[i], i);
  read_tail();
  read_header();
}

void FromText::read_layout() {
  if (!root_.has("layout")) return;
  const auto l = root_["layout"];
  l.only({"strings", "gaps", "padding", "queries", "unknown_0x50_is_queries", "unknown_0x6c_word",
          "zero_property_offsets", "empty_string_at_pool_end"});
  if (l.has("strings")) {
    const auto s = l["strings"];
    for (std::size_t i = 0; i < s.array(); ++i)
      b_.layout.strings.push_back(s[i].string());
  }
  if (l.has("gaps")) {
    const auto g = l["gaps"];
    for (std::size_t i = 0; i < g.array(); ++i) {
      g[i].only({"before", "bytes"});
      b_.layout.gaps.push_back({g[i]["before"].string(), parse_hex_bytes(g[i]["bytes"])});
    }
  }
  if (l.has("padding")) {
    const auto p = l["padding"];
    for (const auto& [key, value] : p.object().items()) {
      b_.layout.padding[key] = parse_hex_bytes(p[key]);
    }
  }
  if (l.has("unknown_0x50_is_queries")) {
    b_.layout.unknown_0x50_is_queries = l["unknown_0x50_is_queries"].boolean();
  }
  if (l.has("unknown_0x6c_word")) b_.layout.unknown_0x6c_word = l["unknown_0x6c_word"].u32();
  if (l.has("empty_string_at_pool_end")) {
    b_.layout.empty_string_at_pool_end = l["empty_string_at_pool_end"].boolean();
  }
  if (l.has("zero_property_offsets")) {
    b_.layout.zero_property_offsets = static_cast<std::uint8_t>(
        l["zero_property_offsets"].integer(0, (1 << kParamTypeCount) - 1));
  }
}

void FromText::read_header() {
  auto& h = m_.header;
  h.output_node_count = module_output_node_count(m_);
  std::uint32_t queries = 0;
  for (const auto& n : m_.nodes)
    queries += n.is_query() ? 1 : 0;
  h.query_count = queries;
  if (!root_.has("header")) return;
  const auto hd = root_["header"];
  hd.only({"category_value", "output_node_count", "query_count", "unknown_0x50", "unknown_0x54"});
  if (hd.has("category_value")) h.category = hd["category_value"].u32();
  h.offsets[header_slot::kCategory] = h.category;
  if (hd.has("output_node_count")) h.output_node_count = hd["output_node_count"].u32();
  if (hd.has("query_count")) h.query_count = hd["query_count"].u32();
  if (hd.has("unknown_0x50")) {
    h.offsets[header_slot::kUnknown50] = hd["unknown_0x50"].u32();
    b_.layout.unknown_0x50_is_queries = false;
  }
  if (hd.has("unknown_0x54")) h.offsets[header_slot::kUnknown54] = hd["unknown_0x54"].u32();
}

void FromText::read_expressions() {
  if (!root_.has("expressions") || root_["expressions"].j.is_null()) return;
  const auto e = root_["expressions"];
  e.only({"version", "static_size", "instance_count", "scratch32_size", "scratch64_size",
          "functions", "layout"});
  exb::AssemblySource src;
  src.version = static_cast<std::uint32_t>(e["version"].integer(1, 3));
  src.static_size = e["static_size"].u32();
  src.instance_count = e["instance_count"].u32();
  src.scratch32_size = e["scratch32_size"].u32();
  src.scratch64_size = e["scratch64_size"].u32();
  const auto fns = e["functions"];
  const auto type = [&](const At& at) {
    const auto name = at.string();
    if (const auto named = exb::data_type_named(name)) return *named;
    at.fail(fmt::format("unknown EXB data type \"{}\"", name));
  };
  const auto lines = [&](const At& at) {
    std::vector<std::string> out;
    for (std::size_t i = 0; i < at.array(); ++i)
      out.push_back(at[i].string());
    return out;
  };
  for (std::size_t f = 0; f < fns.array(); ++f) {
    const auto fn = fns[f];
    fn.only(
        {"input", "output", "static_size", "scratch32_size", "scratch64_size", "setup", "main"});
    exb::AssemblyFunction af;
    af.input_type = type(fn["input"]);
    af.output_type = type(fn["output"]);
    af.static_size = fn["static_size"].u32();
    af.scratch32_size = fn["scratch32_size"].u16();
    af.scratch64_size = fn["scratch64_size"].u16();
    if (fn.has("setup") && !fn["setup"].j.is_null()) af.setup = lines(fn["setup"]);
    af.main = lines(fn["main"]);
    src.functions.push_back(std::move(af));
  }
  if (e.has("layout")) {
    const auto l = e["layout"];
    l.only({"parameter_region", "strings", "signatures"});
    if (l.has("parameter_region")) src.param_region = parse_hex_bytes(l["parameter_region"]);
    if (l.has("strings")) src.strings = lines(l["strings"]);
    if (l.has("signatures")) src.signatures = lines(l["signatures"]);
  }
  try {
    b_.exb = exb::assemble(src);
  } catch (const exb::AssemblyError& err) {
    throw TextFormError(err.function() ? fmt::format("{}/functions/{}/{}/{}", e.path,
                                                     *err.function(), err.block(), err.line())
                                       : e.path,
                        err.reason());
  }
  try {
    m_.expressions = exb::decode(ByteReader(b_.exb, "EXB"));
  } catch (const LoadError& err) {
    e.fail(fmt::format("the assembled section does not decode: {}", err.reason()));
  }
}

void FromText::read_blackboard() {
  auto& bb = m_.blackboard;
  const auto types = blackboard_types(m_.version());
  const At j = root_.or_empty("blackboard", kNoEntries);
  j.object();
  for (const auto& item : j.j.items()) {
    const std::string& key = item.key();  // a plain name: clang 14 cannot capture bindings
    if (std::none_of(types.begin(), types.end(),
                     [&](BlackboardType t) { return blackboard_type_name(t) == key; })) {
      j[key].fail(fmt::format("no blackboard type \"{}\" in version {:#x}", key, m_.version()));
    }
  }
  std::uint32_t files = 0;
  if (root_.has("blackboard_files"))
    files = static_cast<std::uint32_t>(root_["blackboard_files"].array());
  std::uint32_t total = 0;
  for (const auto type : types) {
    const auto t = static_cast<std::size_t>(type);
    if (total > 0xFFFF) {
      j.fail(fmt::format("{} entries before the {} ones, past the 65,535 the format can index",
                         total, blackboard_type_name(type)));
    }
    bb.first[t] = static_cast<std::uint16_t>(total);
    const auto key = std::string(blackboard_type_name(type));
    if (!j.has(key)) continue;
    const auto list = j[key];
    const auto count = list.array();
    if (count > 0xFFFF) list.fail("too many entries");
    bb.count[t] = static_cast<std::uint16_t>(count);
    total += static_cast<std::uint32_t>(count);
    for (std::size_t i = 0; i < count; ++i) {
      const auto e = list[i];
      e.only({"name", "notes", "default", "inherit", "file_reference"});
      BlackboardEntry entry;
      entry.type = type;
      entry.name = b_.keep(e["name"].string());
      if (e.has("notes")) entry.notes = b_.keep(e["notes"].string());
      if (e.has("inherit")) {
        const auto name = e["inherit"].string();
        const auto it = std::find(kInherit.begin(), kInherit.end(), name);
        if (it == kInherit.end())
          e["inherit"].fail(fmt::format("unknown inherit mode \"{}\"", name));
        entry.inherit = static_cast<InheritMode>(it - kInherit.begin());
      }
      entry.raw_word = static_cast<std::uint32_t>(entry.inherit) << 22;
      if (e.has("file_reference")) {
        const auto ref = e["file_reference"].index(files, "blackboard files");
        if (ref > 0x7F) e["file_reference"].fail("index above 127");
        entry.file_reference = static_cast<std::uint8_t>(ref);
        entry.raw_word |= 0x80000000u | (ref << 24);
      }
      const auto def = [&]() -> At { return e["default"]; };
      switch (type) {
        case BlackboardType::String:
          entry.default_value = b_.keep(def().string());
          break;
        case BlackboardType::S32:
          entry.default_value = static_cast<std::int32_t>(def().integer(INT32_MIN, INT32_MAX));
          break;
        case BlackboardType::U32:
          entry.default_value = def().u32();
          break;
        case BlackboardType::F32:
          entry.default_value = def().f32();
          break;
        case BlackboardType::Bool:
          entry.default_value = def().boolean();
          break;
        case BlackboardType::Vec3f:
          entry.default_value = read_value(def(), ParamType::Vec3f);
          break;
        case BlackboardType::Pointer:
          entry.default_value = PointerValue{};
          break;
      }
      bb.entries.push_back(entry);
    }
  }
  if (files > 0) {
    const auto list = root_["blackboard_files"];
    for (std::size_t i = 0; i < files; ++i) {
      const auto f = list[i];
      f.only({"path", "path_hash", "name_hash", "extension_hash"});
      auto ref = file_reference(b_.keep(f["path"].string()));
      if (f.has("path_hash")) ref.path_hash = f["path_hash"].u32();
      if (f.has("name_hash")) ref.name_hash = f["name_hash"].u32();
      if (f.has("extension_hash")) ref.extension_hash = f["extension_hash"].u32();
      bb.file_references.push_back(ref);
    }
  }
  if (root_.has("blackboard_id")) m_.blackboard_id = root_["blackboard_id"].u32();
  if (root_.has("parent_blackboard_id")) {
    m_.parent_blackboard_id = root_["parent_blackboard_id"].u32();
  }
}

void FromText::read_commands() {
  const auto list = root_.or_empty("commands", kNoItems);
  for (std::size_t i = 0; i < list.array(); ++i) {
    const auto c = list[i];
    c.only({"name", "guid", "root", "root_name", "secondary_root"});
    Command cmd;
    cmd.name = b_.keep(c["name"].string());
    cmd.guid = c.has("guid") ? parse_guid(c["guid"]) : Guid{};
    cmd.root = static_cast<std::uint16_t>(c["root"].index(node_count_, "nodes"));
    if (c.has("secondary_root") && !c["secondary_root"].j.is_null()) {
      cmd.secondary_root =
          static_cast<std::uint16_t>(c["secondary_root"].index(node_count_, "nodes"));
    }
    m_.commands.push_back(cmd);
  }
}

void FromText::read_transitions() {
  if (!root_.has("transitions")) return;
  const auto list = root_["transitions"];
  for (std::size_t i = 0; i < list.array(); ++i) {
    const auto t = list[i];
    t.only({"word", "command"});
    Transition tr;
    tr.word = t["word"].u32();
    if (tr.type() == 0) tr.command = b_.keep(t["command"].string());
    m_.transitions.push_back(tr);
  }
}

PatchTarget FromText::read_patch(const At& p) {
  p.only({"node", "attachment", "property", "input", "index", "offset"});
  PatchTarget target;
  target.input = p.has("input");
  if (target.input == p.has("property")) p.fail("expected one of \"property\" and \"input\"");
  const auto kind = p[target.input ? "input" : "property"];
  const auto name = kind.string();
  std::size_t t = 0;
  while (t < kParamTypeCount && param_type_name(static_cast<ParamType>(t)) != name)
    ++t;
  if (t == kParamTypeCount) kind.fail(fmt::format("unknown parameter type \"{}\"", name));
  target.type = static_cast<ParamType>(t);
  Range range;
  std::string owner;
  if (p.has("attachment")) {
    if (target.input) p.fail("attachments have no inputs");
    const auto a = p["attachment"].index(m_.attachments.size(), "attachments");
    range = m_.attachments[a].properties[t];
    owner = fmt::format("attachment {}", a);
  } else {
    const auto n = p["node"].index(node_count_, "nodes");
    range = target.input ? m_.nodes[n].inputs[t] : m_.nodes[n].properties[t];
    owner = fmt::format("node {}", n);
  }
  target.index =
      range.base + static_cast<std::uint32_t>(p["index"].index(
                       range.count, fmt::format("{} {} of {}", name,
                                                target.input ? "inputs" : "properties", owner)));
  const auto size = target.input ? input_entry_size(target.type) : property_entry_size(target.type);
  target.offset = static_cast<std::uint32_t>(p["offset"].integer(0, size - 4));
  return target;
}

void FromText::read_tail() {
  const auto modules = root_.or_empty("modules", kNoItems);
  for (std::size_t i = 0; i < modules.array(); ++i) {
    const auto mod = modules[i];
    mod.only({"path", "category", "instance_count"});
    m_.modules.push_back({b_.keep(mod["path"].string()), b_.keep(mod["category"].string()),
                          mod["instance_count"].u32()});
  }
  if (root_.has("xlink_actions")) {
    const auto list = root_["xlink_actions"];
    for (std::size_t i = 0; i < list.array(); ++i) {
      const auto x = list[i];
      x.only({"node", "node_name", "slot", "action"});
      m_.xlink_actions.push_back({x["node"].index(node_count_, "nodes"),
                                  b_.keep(x["slot"].string()), b_.keep(x["action"].string())});
    }
  }
  if (root_.has("replacements") && !root_["replacements"].j.is_null()) {
    const auto r = root_["replacements"];
    if (m_.version() == kVersion404) r.fail("version 0x404 has no child replacement table");
    r.only({"applied", "node_count_after", "attachment_count_after", "entries"});
    ReplacementTable t;
    t.applied = r["applied"].boolean();
    t.node_count_after = static_cast<std::int16_t>(r["node_count_after"].integer(-32768, 32767));
    t.attachment_count_after =
        static_cast<std::int16_t>(r["attachment_count_after"].integer(-32768, 32767));
    const auto entries = r["entries"];
    for (std::size_t i = 0; i < entries.array(); ++i) {
      const auto e = entries[i];
      e.only({"type", "node", "target", "replacement_node"});
      Replacement rep;
      const auto type = e["type"].string();
      const auto it = std::find(kReplacementTypes.begin(), kReplacementTypes.end(), type);
      if (it == kReplacementTypes.end()) {
        e["type"].fail(fmt::format("unknown replacement type \"{}\"", type));
      }
      rep.type = static_cast<ReplacementType>(it - kReplacementTypes.begin());
      rep.node_index = static_cast<std::uint16_t>(e["node"].index(node_count_, "nodes"));
      const auto& n = m_.nodes[rep.node_index];
      const auto limit = rep.type == ReplacementType::RemoveAttachment
                             ? n.attachments.count
                             : n.plugs[static_cast<std::size_t>(PlugKind::Child)].count;
      rep.target = static_cast<std::uint16_t>(
          e["target"].index(limit, rep.type == ReplacementType::RemoveAttachment
                                       ? fmt::format("attachments on node {}", rep.node_index)
                                       : fmt::format("child plugs on node {}", rep.node_index)));
      if (rep.type == ReplacementType::ReplaceChild) {
        rep.replacement_node =
            static_cast<std::uint16_t>(e["replacement_node"].index(node_count_, "nodes"));
      }
      t.entries.push_back(rep);
    }
    m_.replacements = std::move(t);
  } else if (m_.version() != kVersion404) {
    m_.replacements = ReplacementTable{false, -1, -1, {}};
  }
  if (root_.has("enum_resolves")) {
    const auto list = root_["enum_resolves"];
    for (std::size_t i = 0; i < list.array(); ++i) {
      const auto e = list[i];
      e.only({"patch_offset", "patch", "class", "value"});
      EnumResolve resolve{0, b_.keep(e["class"].string()), b_.keep(e["value"].string())};
      if (e.has("patch")) {
        b_.patches.push_back({i, read_patch(e["patch"])});
      } else {
        resolve.patch_offset = e["patch_offset"].u32();
      }
      m_.enum_resolves.push_back(resolve);
    }
  }
  if (root_.has("section_0x58")) {
    const auto s = root_["section_0x58"];
    s.only({"description", "unknown"});
    Section0x58 sec;
    sec.description = b_.keep(s["description"].string());
    const auto unknown = s["unknown"];
    if (unknown.array() != 3) unknown.fail("expected 3 words");
    for (std::size_t i = 0; i < 3; ++i)
      sec.unknown[i] = unknown[i].u32();
    m_.section_0x58 = sec;
  }
}

}  // namespace detail

std::vector<std::uint8_t> from_text(const nlohmann::ordered_json& text, const std::string& name) {
  detail::Built built;
  detail::FromText(text, built).run();
  const auto write_and_load = [&] {
    std::vector<std::uint8_t> bytes;
    try {
      bytes = write(built.model, built.layout);
    } catch (const WriteError& e) {  // a count or offset past what the format stores
      throw TextFormError("", e.what());
    }
    std::shared_ptr<const Model> loaded;
    try {
      loaded = load(bytes, name);
    } catch (const LoadError& e) {
      throw TextFormError("", "the written file does not load: " + std::string(e.what()));
    }
    // The EXB verifier too, as a runtime would compile the expressions: an offset past static
    // memory or a jump out of its block is refused here, not when the file first runs.
    if (loaded->expressions) {
      try {
        const exb::Program verified(*loaded->expressions, name, nullptr);
      } catch (const LoadError& e) {
        throw TextFormError("/expressions",
                            "the EXB verifier refuses it: " + std::string(e.what()));
      }
    }
    return std::pair{bytes, loaded};
  };
  auto [bytes, written] = write_and_load();
  if (!built.patches.empty()) {
    // Enum resolves that name a parameter entry patch wherever the writer put it; the offsets
    // are fixed-size fields, so the second write lays out the same bytes around them.
    for (const auto& [resolve, target] : built.patches) {
      const auto t = static_cast<std::size_t>(target.type);
      const auto entries = target.input ? written->inputs[t].size() : written->properties[t].size();
      if (target.index >= entries) {  // the writer keeps the flat arrays as the model has them
        throw TextFormError("", "an enum resolve's parameter is missing from the written file");
      }
      const auto start = target.input ? written->inputs[t][target.index].offset
                                      : written->properties[t][target.index].offset;
      built.model.enum_resolves[resolve].patch_offset = start + target.offset;
    }
    bytes = write_and_load().first;
  }
  return bytes;
}

}  // namespace ainb::writer
