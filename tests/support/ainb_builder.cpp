#include "ainb_builder.hpp"

#include <algorithm>
#include <cstring>
#include <map>
#include <stdexcept>

#include "ainb/bit_cast.hpp"
#include "ainb/byte_writer.hpp"
#include "ainb/loader.hpp"

namespace ainb::test {

namespace {

class StringPool {
 public:
  std::uint32_t operator()(const std::string& s) {
    if (auto it = offsets_.find(s); it != offsets_.end()) return it->second;
    const auto offset = static_cast<std::uint32_t>(bytes_.size());
    bytes_.insert(bytes_.end(), s.begin(), s.end());
    bytes_.push_back(0);
    offsets_.emplace(s, offset);
    return offset;
  }
  const std::vector<std::uint8_t>& bytes() const { return bytes_; }

 private:
  std::map<std::string, std::uint32_t> offsets_;
  std::vector<std::uint8_t> bytes_;
};

struct Builder {
  explicit Builder(const AinbSpec& s) : spec(s) {}

  const AinbSpec& spec;
  ByteWriter out;
  StringPool pool;
  std::array<std::vector<const BuildProperty*>, kParamTypeCount> properties;
  std::array<std::vector<const BuildInput*>, kParamTypeCount> inputs;
  std::array<std::vector<const BuildOutput*>, kParamTypeCount> outputs;
  std::array<std::uint32_t, kHeaderSlotCount> offsets{};  // header slots (header_slot)

  void value(const BuildValue& v, ParamType type) {
    switch (type) {
      case ParamType::Int:
        out.u32(static_cast<std::uint32_t>(std::get<std::int32_t>(v)));
        break;
      case ParamType::Bool:
        out.u32(std::get<bool>(v) ? 1 : 0);
        break;
      case ParamType::Float:
        out.f32(std::get<float>(v));
        break;
      case ParamType::String:
        out.u32(pool(std::get<std::string>(v)));
        break;
      case ParamType::Vec3f: {
        const auto& vec = std::get<Vec3f>(v);
        out.f32(vec.x);
        out.f32(vec.y);
        out.f32(vec.z);
        break;
      }
      case ParamType::Pointer:
        out.u32(0);
        break;
    }
  }

  template <typename T>
  std::array<Range, kParamTypeCount> collect(
      const std::vector<T>& items, std::array<std::vector<const T*>, kParamTypeCount>& all) {
    std::array<Range, kParamTypeCount> ranges{};
    for (std::size_t t = 0; t < kParamTypeCount; ++t) {
      ranges[t].base = static_cast<std::uint32_t>(all[t].size());
      for (const auto& item : items) {
        if (static_cast<std::size_t>(item.type) == t) all[t].push_back(&item);
      }
      ranges[t].count = static_cast<std::uint32_t>(all[t].size()) - ranges[t].base;
    }
    return ranges;
  }

  std::vector<std::uint8_t> run() {
    const bool v404 = spec.version == kVersion404;
    const std::uint32_t node_size = node_entry_size(spec.version);
    out.zeros(kHeaderSize);
    // Commands.
    for (const auto& c : spec.commands) {
      out.u32(pool(c.name));
      for (int i = 0; i < 16; ++i)
        out.u8(static_cast<std::uint8_t>(0x10 + i));
      out.u16(c.root);
      out.u16(c.secondary ? static_cast<std::uint16_t>(*c.secondary + 1) : 0);
    }
    // Node entries, body offsets patched later.
    const auto nodes_at = out.size();
    std::uint32_t attachment_base = 0, query_base = 0;
    for (std::size_t i = 0; i < spec.nodes.size(); ++i) {
      const auto& n = spec.nodes[i];
      out.u16(static_cast<std::uint16_t>(n.type));
      out.u16(n.index_override ? *n.index_override : static_cast<std::uint16_t>(i));
      out.u16(static_cast<std::uint16_t>(n.attachments.size()));
      out.u8(n.flags);
      out.u8(0);
      out.u32(pool(n.name));
      if (!v404) out.u32(0xABCD0000u + static_cast<std::uint32_t>(i));  // name hash
      out.u32(0);
      out.u32(0);  // body offset
      out.u32(0);  // EXB counts
      out.u32(0);  // multi-param count
      out.u32(attachment_base);
      out.u16(static_cast<std::uint16_t>(query_base));
      out.u16(static_cast<std::uint16_t>(n.queries.size()));
      out.u32(0);
      for (int g = 0; g < 16; ++g)
        out.u8(
            static_cast<std::uint8_t>(n.guid_from.value_or(static_cast<std::uint8_t>(i)) * 16 + g));
      attachment_base += static_cast<std::uint32_t>(n.attachments.size());
      query_base += static_cast<std::uint32_t>(n.queries.size());
    }
    write_blackboard();
    // Node bodies.
    for (std::size_t i = 0; i < spec.nodes.size(); ++i) {
      const auto& n = spec.nodes[i];
      out.patch32(nodes_at + static_cast<std::uint32_t>(i) * node_size + (v404 ? 0x10 : 0x14),
                  out.size());
      const auto props = collect(n.properties, properties);
      const auto ins = collect(n.inputs, inputs);
      const auto outs = collect(n.outputs, outputs);
      for (const auto& r : props) {
        out.u32(r.base);
        out.u32(r.count);
      }
      for (std::size_t t = 0; t < kParamTypeCount; ++t) {
        out.u32(ins[t].base);
        out.u32(ins[t].count);
        out.u32(outs[t].base);
        out.u32(outs[t].count);
      }
      std::array<std::vector<const BuildPlug*>, kPlugKindCount> by_kind;
      for (const auto& p : n.plugs)
        by_kind[static_cast<std::size_t>(p.kind)].push_back(&p);
      std::uint8_t base = 0;
      for (const auto& list : by_kind) {
        out.u8(static_cast<std::uint8_t>(list.size()));
        out.u8(list.empty() ? 0 : base);
        base = static_cast<std::uint8_t>(base + list.size());
      }
      const auto table = out.size();
      out.zeros(4u * base);
      std::uint32_t slot = 0;
      for (const auto& list : by_kind) {
        for (const auto* p : list) {
          out.patch32(table + 4 * slot++, out.size());
          const auto entry = out.size();
          out.u32(p->node);
          out.u32(p->kind == PlugKind::Transition ? p->transition : pool(p->name));
          out.append(p->extra);
          if (p->string_at_0xc) out.patch32(entry + 0xC, pool(*p->string_at_0xc));
        }
      }
    }
    // Attachments: index array, entries, parameter blocks.
    offsets[header_slot::kAttachmentIndices] = out.size();
    for (const auto& n : spec.nodes) {
      for (const auto a : n.attachments)
        out.u32(a);
    }
    offsets[header_slot::kAttachments] = out.size();
    const auto entries_at = out.size();
    const auto attachment_size = entry_size(header_slot::kAttachments, spec.version);
    out.zeros(attachment_size * spec.attachments.size());
    for (std::size_t i = 0; i < spec.attachments.size(); ++i) {
      const auto& a = spec.attachments[i];
      const auto entry = entries_at + static_cast<std::uint32_t>(i) * attachment_size;
      out.patch32(entry, pool(a.name));
      out.patch32(entry + 4, out.size());
      if (!v404) out.patch32(entry + 0xC, 0xA77A0000u + static_cast<std::uint32_t>(i));
      out.u32(0);  // debug word
      for (const auto& r : collect(a.properties, properties)) {
        out.u32(r.base);
        out.u32(r.count);
      }
      out.zeros(0x30);
    }
    write_properties();
    write_inputs_outputs();
    offsets[header_slot::kMultiParams] = out.size();
    for (const auto& source : spec.multi_sources) {
      out.u16(static_cast<std::uint16_t>(source.node));
      out.u16(static_cast<std::uint16_t>(source.output));
      out.u32(source.flags);
    }
    write_transitions();
    offsets[header_slot::kQueries] = out.size();
    for (const auto& n : spec.nodes) {
      for (const auto q : n.queries) {
        out.u16(q);
        out.u16(0);
      }
    }
    if (!spec.exb.empty()) {
      offsets[header_slot::kExpressions] = out.size();
      out.append(spec.exb);
    }
    offsets[header_slot::kModules] = out.size();
    out.u32(static_cast<std::uint32_t>(spec.modules.size()));
    for (const auto& m : spec.modules) {
      out.u32(pool(m.path));
      out.u32(pool(m.category));
      out.u32(m.count);
    }
    offsets[header_slot::kXLinkActions] = out.size();
    out.u32(static_cast<std::uint32_t>(spec.xlink_actions.size()));
    for (const auto& x : spec.xlink_actions) {
      out.u32(x.node);
      out.u32(pool(x.slot));
      out.u32(pool(x.action));
    }
    offsets[header_slot::kBlackboardIds] = out.size();
    out.u32(spec.blackboard_id);
    out.u32(0);
    if (!v404) {
      offsets[header_slot::kReplacements] = out.size();
      out.u8(0);
      out.u8(0);
      out.u16(static_cast<std::uint16_t>(spec.replacements.size()));
      out.u16(0xFFFF);
      out.u16(0xFFFF);
      for (const auto& r : spec.replacements) {
        out.u8(r.type);
        out.u8(0);
        out.u16(r.node);
        out.u16(r.target);
        out.u16(r.replacement);
      }
    }
    offsets[header_slot::kUnknown6C] = out.size();
    out.u32(0);
    offsets[header_slot::kEnumResolve] = out.size();
    out.u32(0);  // enum resolves
    offsets[header_slot::kUnknown50] = offsets[header_slot::kTransitions];
    offsets[header_slot::kCategoryName] = pool(spec.category);
    const auto file_name = pool(spec.file_name);
    offsets[header_slot::kStringPool] = out.size();
    out.append(pool.bytes());

    std::memcpy(out.written.data(), "AIB ", 4);
    out.patch32(0x04, spec.version);
    out.patch32(0x08, file_name);
    out.patch32(0x0C, static_cast<std::uint32_t>(spec.commands.size()));
    out.patch32(0x10, static_cast<std::uint32_t>(spec.nodes.size()));
    std::uint32_t query_nodes = 0;
    for (const auto& n : spec.nodes)
      query_nodes += (n.flags & node_flags::kIsQuery) ? 1 : 0;
    out.patch32(0x14, query_nodes);
    out.patch32(0x18, static_cast<std::uint32_t>(spec.attachments.size()));
    for (std::size_t i = 0; i < offsets.size(); ++i) {
      out.patch32(kHeaderSlots[i].at, offsets[i]);
    }
    return std::move(out.written);
  }

  void write_blackboard() {
    offsets[header_slot::kBlackboard] = out.size();
    std::vector<BlackboardType> types = {BlackboardType::String, BlackboardType::S32,
                                         BlackboardType::F32,    BlackboardType::Bool,
                                         BlackboardType::Vec3f,  BlackboardType::Pointer};
    if (spec.version >= kVersion408) types.insert(types.begin() + 2, BlackboardType::U32);
    std::vector<std::vector<const BuildBlackboardEntry*>> grouped(types.size());
    for (const auto& e : spec.blackboard) {
      const auto it = std::find(types.begin(), types.end(), e.type);
      if (it == types.end()) throw std::invalid_argument("blackboard type not in this version");
      grouped[static_cast<std::size_t>(it - types.begin())].push_back(&e);
    }
    std::uint16_t index = 0, value_offset = 0;
    for (std::size_t i = 0; i < types.size(); ++i) {
      out.u16(static_cast<std::uint16_t>(grouped[i].size()));
      out.u16(index);
      out.u16(value_offset);
      out.u16(0);
      index = static_cast<std::uint16_t>(index + grouped[i].size());
      const std::uint16_t size = types[i] == BlackboardType::Vec3f     ? 12
                                 : types[i] == BlackboardType::Pointer ? 0
                                                                       : 4;
      value_offset = static_cast<std::uint16_t>(value_offset + size * grouped[i].size());
    }
    for (const auto& group : grouped) {
      for (const auto* e : group) {
        std::uint32_t word = pool(e->name) | (std::uint32_t{e->inherit} << 22);
        if (e->file_reference) word |= 0x80000000u | (std::uint32_t{*e->file_reference} << 24);
        out.u32(word);
        out.u32(pool(e->notes));
      }
    }
    for (std::size_t i = 0; i < types.size(); ++i) {
      for (const auto* e : grouped[i]) {
        switch (types[i]) {
          case BlackboardType::String:
            out.u32(pool(std::get<std::string>(e->value)));
            break;
          case BlackboardType::S32:
            out.u32(static_cast<std::uint32_t>(std::get<std::int32_t>(e->value)));
            break;
          case BlackboardType::U32:
            out.u32(std::get<std::uint32_t>(e->value));
            break;
          case BlackboardType::F32:
            out.f32(std::get<float>(e->value));
            break;
          case BlackboardType::Bool:
            out.u32(std::get<bool>(e->value) ? 1 : 0);
            break;
          case BlackboardType::Vec3f:
            value(e->value, ParamType::Vec3f);
            break;
          case BlackboardType::Pointer:
            break;
        }
      }
    }
    for (const auto& path : spec.file_references) {
      out.u32(pool(path));
      out.u32(0x11111111);
      out.u32(0x22222222);
      out.u32(0x33333333);
    }
  }

  void write_properties() {
    offsets[header_slot::kProperties] = out.size();
    const auto table = out.size();
    out.zeros(4 * kParamTypeCount);
    for (std::size_t t = 0; t < kParamTypeCount; ++t) {
      out.patch32(table + 4 * static_cast<std::uint32_t>(t), out.size());
      for (const auto* p : properties[t]) {
        out.u32(pool(p->name));
        if (p->type == ParamType::Pointer) {
          out.u32(pool(p->class_name));
          out.u32(p->flags);
        } else {
          out.u32(p->flags);
          value(p->value, p->type);
        }
      }
    }
  }

  void write_inputs_outputs() {
    offsets[header_slot::kInputsOutputs] = out.size();
    const auto table = out.size();
    out.zeros(8 * kParamTypeCount);
    for (std::size_t t = 0; t < kParamTypeCount; ++t) {
      out.patch32(table + 8 * static_cast<std::uint32_t>(t), out.size());
      for (const auto* in : inputs[t]) {
        out.u32(pool(in->name));
        if (in->type == ParamType::Pointer) out.u32(pool(in->class_name));
        out.u16(static_cast<std::uint16_t>(in->node));
        out.u16(static_cast<std::uint16_t>(in->output));
        out.u32(in->flags);
        value(in->value, in->type);
      }
      out.patch32(table + 8 * static_cast<std::uint32_t>(t) + 4, out.size());
      for (const auto* o : outputs[t]) {
        out.u32(pool(o->name) | (o->is_output ? 0x80000000u : 0));
        if (o->type == ParamType::Pointer) out.u32(pool(o->class_name));
      }
    }
  }

  void write_transitions() {
    offsets[header_slot::kTransitions] = out.size();
    if (spec.transitions.empty()) return;
    const auto table = out.size();
    out.zeros(4 * spec.transitions.size());
    for (std::size_t i = 0; i < spec.transitions.size(); ++i) {
      out.patch32(table + 4 * static_cast<std::uint32_t>(i), out.size());
      out.u32(spec.transitions[i].word);
      if ((spec.transitions[i].word & 0xFF) == 0) out.u32(pool(spec.transitions[i].command));
    }
  }
};

void put_bb(std::vector<std::uint8_t>& v, std::optional<std::uint16_t> bb) {
  const std::uint16_t index = bb.value_or(0);
  const std::uint16_t flag = bb ? 0x8000 : 0;
  v.push_back(static_cast<std::uint8_t>(index));
  v.push_back(static_cast<std::uint8_t>(index >> 8));
  v.push_back(static_cast<std::uint8_t>(flag));
  v.push_back(static_cast<std::uint8_t>(flag >> 8));
}

void put_u32(std::vector<std::uint8_t>& v, std::uint32_t x) {
  for (int i = 0; i < 4; ++i)
    v.push_back(static_cast<std::uint8_t>(x >> (8 * i)));
}

}  // namespace

std::vector<std::uint8_t> build(const AinbSpec& spec) {
  return Builder(spec).run();
}

std::vector<std::uint8_t> s32_condition(std::int32_t value, std::optional<std::uint16_t> bb) {
  std::vector<std::uint8_t> v;
  put_bb(v, bb);
  put_u32(v, static_cast<std::uint32_t>(value));
  return v;
}

std::vector<std::uint8_t> f32_condition(float min, float max, std::optional<std::uint16_t> min_bb,
                                        std::optional<std::uint16_t> max_bb) {
  std::vector<std::uint8_t> v;
  put_bb(v, min_bb);
  put_u32(v, ainb::bit_cast<std::uint32_t>(min));
  put_bb(v, max_bb);
  put_u32(v, ainb::bit_cast<std::uint32_t>(max));
  v.insert(v.end(), 16, 0);
  return v;
}

std::vector<std::uint8_t> random_weight(float weight, std::optional<std::uint16_t> bb) {
  std::vector<std::uint8_t> v;
  put_bb(v, bb);
  put_u32(v, ainb::bit_cast<std::uint32_t>(weight));
  return v;
}

AinbSpec probe_steers_selector() {
  AinbSpec spec;
  spec.commands = {{"Root", 0, {}}};
  BuildNode seq{.type = NodeType::Sequential};
  seq.properties = {{ParamType::Bool, "IsUpdateNextInFrame", true}};
  seq.plugs = {{PlugKind::Child, 1, ""}, {PlugKind::Child, 2, ""}};
  BuildNode probe{.name = "Probe"};
  probe.outputs = {{ParamType::Bool, "Flag"}};
  BuildNode choose{.type = NodeType::BoolSelector};
  choose.inputs = {{ParamType::Bool, "Input", 1, 0, 0, false}};
  choose.plugs = {{PlugKind::Child, 3, "True"}, {PlugKind::Child, 4, "False"}};
  spec.nodes = {seq, probe, choose, BuildNode{.name = "Yes"}, BuildNode{.name = "No"}};
  return spec;
}

std::shared_ptr<const Model> load_spec(const AinbSpec& spec) {
  return ainb::load(build(spec), spec.file_name + ".ainb");
}

}  // namespace ainb::test
