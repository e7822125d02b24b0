// The host's log sink (runtime/log.hpp): what a graph's build and an instance's ticks report to
// it, exactly, and that the library itself writes nothing to standard error, with a sink or
// without.

#include <cstdio>
#include <string>
#include <vector>

#include <unistd.h>

#include <doctest/doctest.h>
#include <fmt/format.h>

#include "ainb/exb/assembler.hpp"
#include "allocation_counter.hpp"
#include "runtime_probe.hpp"

using namespace ainb;
using namespace ainb::runtime;
using namespace ainb::test;

namespace {

// A LogEvent, its views copied.
struct Logged {
  LogLevel level;
  LogKind kind;
  std::string file;
  std::int64_t node;
  std::string subject, detail, message;
  bool operator==(const Logged&) const = default;
};
struct Recorder {
  std::vector<Logged> events;
  const LogSink sink = [this](const LogEvent& e) {
    events.push_back({e.level, e.kind, std::string(e.file), e.node, std::string(e.subject),
                      std::string(e.detail), std::string(e.message)});
  };
};

// A file of one Element_Alert saying `message` (and succeeding) as its command's root.
AinbSpec alert_file(const std::string& name, const std::string& message) {
  AinbSpec spec;
  spec.file_name = name;
  spec.commands = {{"Root", 0, {}}};
  BuildNode alert{.type = NodeType::Alert};
  alert.inputs = {{ParamType::String, "Message", -1, 0, 0, message}};
  spec.nodes = {alert};
  return spec;
}

// A file whose command runs module `calls` (node 0) and then a second call of it (node 1).
AinbSpec caller_file(const std::string& name, const std::string& calls) {
  AinbSpec spec;
  spec.file_name = name;
  spec.commands = {{"Run", 2, {}}};
  BuildNode both{.type = NodeType::Simultaneous};
  both.plugs = {{PlugKind::Child, 0, ""}, {PlugKind::Child, 1, ""}};
  spec.nodes = {BuildNode{.name = calls, .flags = node_flags::kIsModule},
                BuildNode{.name = calls, .flags = node_flags::kIsModule}, both};
  spec.modules = {{calls + ".ainb"}};
  return spec;
}

// A file whose node (a stub) has an input bound to an expression calling the user function
// GetBBCodeInt.
AinbSpec function_file() {
  exb::AssemblySource source;
  source.functions = {
      {.output_type = exb::DataType::Int,
       .static_size = 4,
       .main = {"STR int GMem[0x0], int 5", "CFN GetBBCodeInt( Int, Int ), GMem[0x0]",
                "STR int Out[0x0], int GMem[0x0]", "END"}}};
  AinbSpec spec;
  spec.file_name = "Calls.root";
  spec.exb = exb::assemble(source);
  spec.commands = {{"Root", 0, {}}};
  BuildNode reader{.name = "Reader"};
  reader.inputs = {{ParamType::Int, "Value", -1, 0, 0xC2000000u, std::int32_t{7}}};
  spec.nodes = {reader};
  return spec;
}

// What the calls of `f` write to file descriptor 2 (std::cerr, stderr, spdlog's default logger).
template <typename F>
std::string stderr_of(F&& f) {
  std::fflush(stderr);
  std::FILE* capture = std::tmpfile();
  REQUIRE(capture != nullptr);
  const int saved = ::dup(STDERR_FILENO);
  REQUIRE(saved >= 0);
  ::dup2(::fileno(capture), STDERR_FILENO);
  f();
  std::fflush(stderr);
  ::dup2(saved, STDERR_FILENO);
  ::close(saved);
  std::string text;
  std::rewind(capture);
  for (int c; (c = std::fgetc(capture)) != EOF;)
    text.push_back(static_cast<char>(c));
  std::fclose(capture);
  return text;
}

}  // namespace

// A failed comparison shows the events.
template <>
struct doctest::StringMaker<std::vector<Logged>> {
  static doctest::String convert(const std::vector<Logged>& events) {
    std::string text;
    for (const auto& e : events) {
      text += fmt::format("\n  {{{} {} {} node {} subject \"{}\" detail \"{}\" message \"{}\"}}",
                          e.level == LogLevel::Info ? "info" : "warning", log_kind_name(e.kind),
                          e.file, e.node, e.subject, e.detail, e.message);
    }
    return text.c_str();
  }
};

TEST_CASE("log: an Element_Alert's file, node and message reach the sink, a module's too") {
  Recorder log;
  SUBCASE("the top-level file") {
    auto graph = std::make_shared<Graph>(load_spec(alert_file("Alert.root", "unexpected form")),
                                         NodeRegistry{});
    Instance instance(graph, InstanceOptions{.log = &log.sink});
    instance.start("Root");
    instance.tick();
    CHECK(log.events == std::vector<Logged>{{LogLevel::Info, LogKind::Alert, "Alert.root.ainb", 0,
                                             "", "", "unexpected form"}});
  }
  SUBCASE("a module's node, through its caller's instance") {
    MemoryResolver modules;
    modules.add("Inner.module.ainb", load_spec(alert_file("Inner.module", "from inside")));
    auto spec = caller_file("Outer.root", "Inner.module");
    spec.nodes.resize(1);  // one call
    spec.commands = {{"Run", 0, {}}};
    auto graph =
        std::make_shared<Graph>(load_spec(spec), NodeRegistry{}, GraphOptions{.modules = &modules});
    Instance instance(graph, InstanceOptions{.log = &log.sink});
    instance.start("Run");
    instance.tick();
    CHECK(log.events == std::vector<Logged>{{LogLevel::Info, LogKind::Alert, "Inner.module.ainb", 0,
                                             "", "", "from inside"}});
  }
  SUBCASE("no sink: no event, and a tick allocates nothing either way") {
    auto graph = std::make_shared<Graph>(load_spec(alert_file("Alert.root", "unexpected form")),
                                         NodeRegistry{});
    const LogSink quiet = [](const LogEvent&) {};
    for (const LogSink* sink : {static_cast<const LogSink*>(nullptr), &quiet}) {
      Instance instance(graph, InstanceOptions{.log = sink});
      instance.start("Root");
      const auto before = allocations();
      instance.tick();
      instance.start("Root");
      instance.tick();
      CHECK(allocations() == before);
    }
  }
  SUBCASE("a sink that throws faults the instance, as an observer would") {
    auto graph = std::make_shared<Graph>(load_spec(alert_file("Alert.root", "unexpected form")),
                                         NodeRegistry{});
    const LogSink throwing = [](const LogEvent&) { throw std::runtime_error("disk full"); };
    Instance instance(graph, InstanceOptions{.log = &throwing});
    instance.start("Root");
    instance.tick();
    REQUIRE(instance.state() == CommandState::Faulted);
    CHECK(instance.fault()->call == "log sink");
    CHECK(instance.fault()->message == "disk full");
  }
}

TEST_CASE("log: building a graph reports each missing module and user function once per file") {
  Recorder log;
  SUBCASE("a missing module, called twice by the root and once by a module") {
    MemoryResolver modules;
    modules.add("Mid.module.ainb", load_spec(caller_file("Mid.module", "Gone.module")));
    auto root = caller_file("Top.root", "Gone.module");
    root.nodes[1].name = "Mid.module";
    root.modules = {{"Gone.module.ainb"}, {"Mid.module.ainb"}};
    const Graph graph(
        load_spec(root), NodeRegistry{},
        GraphOptions{
            .modules = &modules, .missing_modules = MissingModulePolicy::Stub, .log = &log.sink});
    const std::string where = "searched 1 module(s) held in memory";
    CHECK(log.events == std::vector<Logged>{{LogLevel::Warning, LogKind::MissingModule,
                                             "Top.root.ainb", 0, "Gone.module.ainb", where,
                                             "module \"Gone.module.ainb\" not found (" + where +
                                                 "); node 0 runs as a stub"}});
    // Mid's own calls of Gone.module are the same file: said once in the build.
  }
  SUBCASE("where a directory resolver searched") {
    const DirectoryResolver nowhere({"/nonexistent/romfs"});
    const Graph graph(
        load_spec(caller_file("Top.root", "Gone.module")), NodeRegistry{},
        GraphOptions{
            .modules = &nowhere, .missing_modules = MissingModulePolicy::Stub, .log = &log.sink});
    CHECK(log.events ==
          std::vector<Logged>{{LogLevel::Warning, LogKind::MissingModule, "Top.root.ainb", 0,
                               "Gone.module.ainb", "searched /nonexistent/romfs",
                               "module \"Gone.module.ainb\" not found (searched "
                               "/nonexistent/romfs); node 0 runs as a stub"}});
  }
  SUBCASE("a user function nobody registered") {
    const Graph graph(load_spec(function_file()), NodeRegistry{}, GraphOptions{.log = &log.sink});
    CHECK(log.events ==
          std::vector<Logged>{{LogLevel::Warning, LogKind::MissingFunction, "Calls.root.ainb", -1,
                               "GetBBCodeInt( Int, Int )", "",
                               "user function \"GetBBCodeInt( Int, Int )\" is not registered; "
                               "expressions that call it give their stored values"}});
  }
  SUBCASE("an empty sink is no sink") {
    const LogSink empty;
    CHECK_NOTHROW(Graph(load_spec(function_file()), NodeRegistry{}, GraphOptions{.log = &empty}));
  }
}

TEST_CASE("log: the runtime writes nothing to standard error, with a sink or without") {
  Recorder log;
  for (const LogSink* sink : {static_cast<const LogSink*>(nullptr), &log.sink}) {
    CAPTURE(sink != nullptr);
    const auto text = stderr_of([&] {
      MemoryResolver modules;
      modules.add("Inner.module.ainb", load_spec(alert_file("Inner.module", "from inside")));
      auto spec = caller_file("Outer.root", "Gone.module");
      spec.nodes[1].name = "Inner.module";
      spec.modules = {{"Gone.module.ainb"}, {"Inner.module.ainb"}};
      auto graph = std::make_shared<Graph>(
          load_spec(spec), NodeRegistry{},
          GraphOptions{
              .modules = &modules, .missing_modules = MissingModulePolicy::Stub, .log = sink});
      const Graph functions(load_spec(function_file()), NodeRegistry{}, GraphOptions{.log = sink});
      Instance instance(graph, InstanceOptions{.log = sink});
      instance.start("Run");
      for (int i = 0; i < 3; ++i)
        instance.tick();
      Instance calls(std::make_shared<Graph>(load_spec(function_file()), NodeRegistry{}),
                     InstanceOptions{.log = sink});
      calls.start("Root");
      calls.tick();
    });
    CHECK(text == "");
  }
  // The sink heard them all: the missing module, the missing function, the module's alert.
  std::vector<LogKind> kinds;
  for (const auto& e : log.events)
    kinds.push_back(e.kind);
  CHECK(kinds ==
        std::vector<LogKind>{LogKind::MissingModule, LogKind::MissingFunction, LogKind::Alert});
}
