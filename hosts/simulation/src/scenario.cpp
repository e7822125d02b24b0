#include "ainb/simulation/scenario.hpp"

#include <fstream>
#include <limits>

#include <fmt/format.h>

namespace ainb::simulation {

namespace {

// Reads one scenario file, remembering where it is so errors name the JSON path.
class Reader {
 public:
  explicit Reader(const std::string& name) : name_(name) {}

  [[noreturn]] void fail(const std::string& path, const std::string& what) const {
    throw ScenarioError(fmt::format("{}: {}: {}", name_, path.empty() ? "/" : path, what));
  }
  void expect_object(const nlohmann::json& j, const std::string& path) const {
    if (!j.is_object()) fail(path, "expected an object");
  }
  void expect_array(const nlohmann::json& j, const std::string& path) const {
    if (!j.is_array()) fail(path, "expected an array");
  }
  std::uint64_t count(const nlohmann::json& j, const std::string& path,
                      std::uint64_t max = UINT64_MAX) const {
    if (!j.is_number_unsigned() && !(j.is_number_integer() && j.get<std::int64_t>() >= 0)) {
      fail(path, "expected a non-negative integer");
    }
    if (j.get<std::uint64_t>() > max) fail(path, fmt::format("expected at most {}", max));
    return j.get<std::uint64_t>();
  }
  bool flag(const nlohmann::json& j, const std::string& path) const {
    if (!j.is_boolean()) fail(path, "expected true or false");
    return j.get<bool>();
  }
  std::string text(const nlohmann::json& j, const std::string& path) const {
    if (!j.is_string()) fail(path, "expected a string");
    return j.get<std::string>();
  }
  runtime::Result result(const nlohmann::json& j, const std::string& path) const {
    const auto s = text(j, path);
    if (s == "Running") return runtime::Result::Running;
    if (s == "Success") return runtime::Result::Success;
    if (s == "Failure") return runtime::Result::Failure;
    fail(path, fmt::format("\"{}\" is not a result (Running, Success or Failure)", s));
  }
  // Only the keys listed: a misspelt key is an error, not silently ignored.
  void only(const nlohmann::json& j, const std::string& path,
            std::initializer_list<std::string_view> keys) const {
    for (const auto& [key, value] : j.items()) {
      if (std::find(keys.begin(), keys.end(), key) == keys.end()) {
        std::string known;
        for (const auto k : keys)
          known += fmt::format("{}{}", known.empty() ? "" : ", ", k);
        fail(path + "/" + key, fmt::format("unknown key (expected one of: {})", known));
      }
    }
  }
  std::map<std::string, nlohmann::json> values(const nlohmann::json& j,
                                               const std::string& path) const {
    expect_object(j, path);
    std::map<std::string, nlohmann::json> out;
    for (const auto& [key, value] : j.items()) {
      if (!value.is_primitive() && !value.is_array()) fail(path + "/" + key, "expected a value");
      out.emplace(key, value);
    }
    return out;
  }

 private:
  const std::string& name_;
};

// A node's behaviour (a class's, or one node's in "at"): the keys of docs/simulation.md.
NodeBehaviour parse_behaviour(const Reader& r, const nlohmann::json& spec,
                              const std::string& path) {
  NodeBehaviour b;
  if (spec.contains("from")) b.from = r.count(spec["from"], path + "/from", kMaxFrames);
  if (spec.contains("child")) {
    // A plug name, or the enum value of a `__CHILD_ENUM` plug (SelectorBSA*Updater classes).
    if (spec["child"].is_number()) {
      b.child_enum = static_cast<std::uint32_t>(
          r.count(spec["child"], path + "/child", std::numeric_limits<std::uint32_t>::max()));
    } else if (spec["child"].is_object()) {
      // {"plug": K}: the K-th child plug, for plugs that share a name.
      const auto& child = spec["child"];
      r.only(child, path + "/child", {"plug"});
      if (!child.contains("plug")) r.fail(path + "/child", "missing key \"plug\"");
      b.child_plug = static_cast<std::uint32_t>(
          r.count(child["plug"], path + "/child/plug", std::numeric_limits<std::uint32_t>::max()));
    } else {
      b.child = r.text(spec["child"], path + "/child");
    }
  }
  if (spec.contains("running") && spec["running"].is_object()) {
    // {"property": NAME, "scale": K}: each node's property, times K, rounded.
    const auto& running = spec["running"];
    const auto at = path + "/running";
    r.only(running, at, {"property", "scale"});
    if (!running.contains("property")) r.fail(at, "missing key \"property\"");
    b.running_property = r.text(running["property"], at + "/property");
    if (running.contains("scale")) {
      if (!running["scale"].is_number() || running["scale"].get<double>() < 0) {
        r.fail(at + "/scale", "expected a non-negative number");
      }
      b.running_scale = running["scale"].get<double>();
    }
  } else if (spec.contains("running")) {
    b.running = static_cast<std::uint32_t>(r.count(spec["running"], path + "/running", UINT32_MAX));
  }
  if (spec.contains("result") && spec["result"].is_object()) {
    const auto& cond = spec["result"];
    const auto at = path + "/result";
    r.only(cond, at, {"if", "then", "else"});
    if (!cond.contains("if")) r.fail(at, "missing key \"if\" (a blackboard entry)");
    NodeBehaviour::ResultIf result_if;
    result_if.entry = r.text(cond["if"], at + "/if");
    if (cond.contains("then")) result_if.then = r.result(cond["then"], at + "/then");
    if (cond.contains("else")) result_if.otherwise = r.result(cond["else"], at + "/else");
    b.result_if = std::move(result_if);
  } else if (spec.contains("result")) {
    b.result = r.result(spec["result"], path + "/result");
  }
  if (spec.contains("outputs")) b.outputs = r.values(spec["outputs"], path + "/outputs");
  if (spec.contains("frames")) {
    const auto& list = spec["frames"];
    r.expect_array(list, path + "/frames");
    for (std::size_t i = 0; i < list.size(); ++i) {
      const auto at = fmt::format("{}/frames/{}", path, i);
      const auto& item = list[i];
      r.expect_object(item, at);
      r.only(item, at, {"frame", "result", "outputs"});
      if (!item.contains("frame")) r.fail(at, "missing key \"frame\"");
      NodeBehaviour::Override o;
      o.frame = r.count(item["frame"], at + "/frame");
      if (item.contains("result")) o.result = r.result(item["result"], at + "/result");
      if (item.contains("outputs")) o.outputs = r.values(item["outputs"], at + "/outputs");
      b.overrides.push_back(std::move(o));
    }
  }
  return b;
}

}  // namespace

Scenario parse_scenario(const nlohmann::json& json, const std::string& name) {
  Reader r(name);
  Scenario s;
  s.name = name;
  r.expect_object(json, "");
  r.only(json, "",
         {"seed", "frames", "command", "restart", "blackboard", "commands", "nodes", "at", "force",
          "functions"});
  if (json.contains("seed")) s.seed = r.count(json["seed"], "/seed");
  if (json.contains("frames")) s.frames = r.count(json["frames"], "/frames", kMaxFrames);
  if (json.contains("command")) s.command = r.text(json["command"], "/command");
  if (json.contains("restart")) s.restart = r.flag(json["restart"], "/restart");
  if (json.contains("blackboard")) {
    const auto& list = json["blackboard"];
    r.expect_array(list, "/blackboard");
    for (std::size_t i = 0; i < list.size(); ++i) {
      const auto path = fmt::format("/blackboard/{}", i);
      const auto& item = list[i];
      r.expect_object(item, path);
      r.only(item, path, {"frame", "name", "value", "file"});
      if (!item.contains("name")) r.fail(path, "missing key \"name\"");
      if (!item.contains("value")) r.fail(path, "missing key \"value\"");
      s.blackboard.push_back({item.contains("frame") ? r.count(item["frame"], path + "/frame") : 0,
                              r.text(item["name"], path + "/name"), item["value"], path + "/value",
                              item.contains("file") ? r.text(item["file"], path + "/file") : ""});
    }
  }
  if (json.contains("commands")) {
    const auto& list = json["commands"];
    r.expect_array(list, "/commands");
    for (std::size_t i = 0; i < list.size(); ++i) {
      const auto path = fmt::format("/commands/{}", i);
      const auto& item = list[i];
      r.expect_object(item, path);
      r.only(item, path, {"frame", "command"});
      if (!item.contains("frame")) r.fail(path, "missing key \"frame\"");
      if (!item.contains("command")) r.fail(path, "missing key \"command\"");
      s.commands.push_back({r.count(item["frame"], path + "/frame"),
                            r.text(item["command"], path + "/command"), path + "/command"});
    }
  }
  if (json.contains("nodes")) {
    const auto& nodes = json["nodes"];
    r.expect_object(nodes, "/nodes");
    for (const auto& [cls, spec] : nodes.items()) {
      const auto path = "/nodes/" + cls;
      r.expect_object(spec, path);
      r.only(spec, path, {"from", "running", "result", "outputs", "frames", "child"});
      s.nodes.emplace(cls, parse_behaviour(r, spec, path));
    }
  }
  if (json.contains("at")) {
    const auto& list = json["at"];
    r.expect_array(list, "/at");
    for (std::size_t i = 0; i < list.size(); ++i) {
      const auto path = fmt::format("/at/{}", i);
      const auto& item = list[i];
      r.expect_object(item, path);
      r.only(item, path,
             {"file", "node", "class", "from", "running", "result", "outputs", "frames", "child"});
      if (!item.contains("node")) r.fail(path, "missing key \"node\"");
      if (!item.contains("class")) r.fail(path, "missing key \"class\"");
      Scenario::NodeAt at;
      if (item.contains("file")) at.file = r.text(item["file"], path + "/file");
      at.cls = r.text(item["class"], path + "/class");
      at.node = static_cast<std::uint32_t>(
          r.count(item["node"], path + "/node", std::numeric_limits<std::uint32_t>::max()));
      auto spec = item;
      for (const auto* key : {"file", "node", "class"})
        spec.erase(key);
      at.behaviour = parse_behaviour(r, spec, path);
      at.path = path;
      s.at.push_back(std::move(at));
    }
  }
  if (json.contains("force")) {
    const auto& list = json["force"];
    r.expect_array(list, "/force");
    for (std::size_t i = 0; i < list.size(); ++i) {
      const auto path = fmt::format("/force/{}", i);
      const auto& item = list[i];
      r.expect_object(item, path);
      r.only(item, path, {"file", "node", "result", "frame", "frames"});
      if (!item.contains("node")) r.fail(path, "missing key \"node\"");
      if (!item.contains("result")) r.fail(path, "missing key \"result\"");
      Scenario::Force force;
      if (item.contains("file")) force.file = r.text(item["file"], path + "/file");
      force.node = static_cast<std::uint32_t>(
          r.count(item["node"], path + "/node", std::numeric_limits<std::uint32_t>::max()));
      force.result = r.result(item["result"], path + "/result");
      if (item.contains("frame")) force.frame = r.count(item["frame"], path + "/frame", kMaxFrames);
      if (item.contains("frames")) {
        force.frames = r.count(item["frames"], path + "/frames", kMaxFrames);
        if (*force.frames == 0) r.fail(path + "/frames", "expected at least 1");
      }
      force.path = path;
      s.force.push_back(std::move(force));
    }
  }
  if (json.contains("functions")) {
    const auto& functions = json["functions"];
    r.expect_object(functions, "/functions");
    s.functions = r.values(functions, "/functions");
  }
  return s;
}

Scenario load_scenario(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw ScenarioError(fmt::format("{}: cannot be read", path.string()));
  nlohmann::json json;
  try {
    json = nlohmann::json::parse(in);
  } catch (const nlohmann::json::exception& e) {  // syntax, or a number past double
    throw ScenarioError(fmt::format("{}: not valid JSON: {}", path.string(), e.what()));
  }
  return parse_scenario(json, path.string());
}

namespace {

nlohmann::ordered_json values_json(const std::map<std::string, nlohmann::json>& values) {
  nlohmann::ordered_json out = nlohmann::ordered_json::object();
  for (const auto& [name, value] : values)
    out[name] = value;
  return out;
}

nlohmann::ordered_json behaviour_json(const NodeBehaviour& b) {
  nlohmann::ordered_json spec = nlohmann::ordered_json::object();
  if (b.from != 0) spec["from"] = b.from;
  if (b.child) spec["child"] = *b.child;
  if (b.child_enum) spec["child"] = *b.child_enum;
  if (b.child_plug) spec["child"] = {{"plug", *b.child_plug}};
  if (b.running_property) {
    spec["running"] = {{"property", *b.running_property}, {"scale", b.running_scale}};
  } else if (b.running != 0) {
    spec["running"] = b.running;
  }
  if (b.result_if) {
    spec["result"] = {{"if", b.result_if->entry},
                      {"then", runtime::result_name(b.result_if->then)},
                      {"else", runtime::result_name(b.result_if->otherwise)}};
  } else if (b.result != runtime::Result::Success) {
    spec["result"] = runtime::result_name(b.result);
  }
  if (!b.outputs.empty()) spec["outputs"] = values_json(b.outputs);
  if (!b.overrides.empty()) {
    auto& frames = spec["frames"] = nlohmann::ordered_json::array();
    for (const auto& o : b.overrides) {
      nlohmann::ordered_json item{{"frame", o.frame}};
      if (o.result) item["result"] = runtime::result_name(*o.result);
      if (!o.outputs.empty()) item["outputs"] = values_json(o.outputs);
      frames.push_back(std::move(item));
    }
  }
  return spec;
}

}  // namespace

nlohmann::ordered_json scenario_json(const Scenario& s) {
  nlohmann::ordered_json j = nlohmann::ordered_json::object();
  if (s.seed) j["seed"] = *s.seed;
  if (s.frames) j["frames"] = *s.frames;
  if (s.command) j["command"] = *s.command;
  if (s.restart) j["restart"] = *s.restart;
  if (!s.blackboard.empty()) {
    auto& list = j["blackboard"] = nlohmann::ordered_json::array();
    for (const auto& set : s.blackboard) {
      nlohmann::ordered_json item;
      if (set.frame != 0) item["frame"] = set.frame;
      if (!set.file.empty()) item["file"] = set.file;
      item["name"] = set.entry;
      item["value"] = set.value;
      list.push_back(std::move(item));
    }
  }
  if (!s.commands.empty()) {
    auto& list = j["commands"] = nlohmann::ordered_json::array();
    for (const auto& c : s.commands)
      list.push_back({{"frame", c.frame}, {"command", c.command}});
  }
  if (!s.nodes.empty()) {
    auto& nodes = j["nodes"] = nlohmann::ordered_json::object();
    for (const auto& [cls, b] : s.nodes)
      nodes[cls] = behaviour_json(b);
  }
  if (!s.at.empty()) {
    auto& list = j["at"] = nlohmann::ordered_json::array();
    for (const auto& at : s.at) {
      nlohmann::ordered_json item;
      if (!at.file.empty()) item["file"] = at.file;
      item["node"] = at.node;
      item["class"] = at.cls;
      const auto behaviour = behaviour_json(at.behaviour);
      for (const auto& [key, value] : behaviour.items())
        item[key] = value;
      list.push_back(std::move(item));
    }
  }
  if (!s.force.empty()) {
    auto& list = j["force"] = nlohmann::ordered_json::array();
    for (const auto& force : s.force) {
      nlohmann::ordered_json item;
      if (!force.file.empty()) item["file"] = force.file;
      item["node"] = force.node;
      item["result"] = runtime::result_name(force.result);
      if (force.frame != 1) item["frame"] = force.frame;
      if (force.frames) item["frames"] = *force.frames;
      list.push_back(std::move(item));
    }
  }
  if (!s.functions.empty()) j["functions"] = values_json(s.functions);
  return j;
}

}  // namespace ainb::simulation
