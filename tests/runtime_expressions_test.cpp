// EXB expressions: an Element_Expression node, expression properties and inputs (selectors' among
// them), setup blocks run at each Enter of their node (a query's too), failed evaluations, and UInt
// results bound to Int parameters; observed and on the short paths.

#include <doctest/doctest.h>

#include "ainb/exb/assembler.hpp"
#include "exb_assembler.hpp"
#include "runtime_probe.hpp"

using namespace ainb;
using namespace ainb::runtime;
using namespace ainb::test;
using runtime::detail::arrays;  // the graph as the scheduler reads it

TEST_CASE("expressions: an Element_Expression node and an expression property") {
  // Function 0 (Element_Expression): UserOut bool[0] = UserIn int[0] + UserIn int[1] >= 10.
  // Function 1 (a float property): Out = In * 2.
  ExbSpec exb;
  exb.instructions = {{2, 3, 2, 10, 0, 0},                       // STR int GMem[0], UserIn[0]
                      {5, 3, 2, 10, 0, 1},                       // ADD int GMem[0], UserIn[1]
                      {19, 3, 2, 0, 0, 10},                      // GTE int GMem[0], 10
                      {2, 2, 9, 2, 0, 0},                        // STR bool UserOut[0], GMem[0]
                      {1, 0, 0, 0, 0, 0},   {2, 4, 2, 6, 0, 0},  // STR float GMem[0], In[0]
                      {7, 4, 2, 0, 0, 2},                        // MUL float GMem[0], 2
                      {2, 4, 5, 2, 0, 0},                        // STR float Out[0], GMem[0]
                      {1, 0, 0, 0, 0, 0}};
  exb.functions = {{-1, 0, 0, 5, 1, 1, 4, 0, 0}, {-1, 0, 5, 4, 4, 4, 4, 0, 0}};

  Harness h;
  h.probe("Counter", {R});
  struct Reader : NodeClass {
    std::vector<bool> ok;
    std::vector<float> speed;
    Result update(NodeContext& c) override {
      ok.push_back(c.input_bool("Ok"));
      speed.push_back(c.property_float("Speed"));
      return Result::Running;
    }
  };
  auto reader = std::make_shared<Reader>();
  h.registry.add("Reader", reader);

  AinbSpec spec;
  spec.exb = assemble(exb);
  spec.commands = {{"Root", 0, {}}};
  // As in the corpus, the Element_Expression is a query node of the node reading its output.
  BuildNode all{.type = NodeType::Simultaneous};
  all.plugs = {{PlugKind::Child, 1, ""}, {PlugKind::Child, 3, ""}};
  BuildNode counter = user("Counter");
  counter.outputs = {{ParamType::Int, "Count"}};
  BuildNode expression{.type = NodeType::Expression, .flags = node_flags::kIsQuery};
  expression.properties = {{ParamType::Int, "ExpressionBase", std::int32_t{0}, 0xC2000000u}};
  expression.inputs = {{ParamType::Int, "A", 1, 0, 0, std::int32_t{0}},
                       {ParamType::Int, "B", -1, 0, 0, std::int32_t{7}}};
  expression.outputs = {{ParamType::Bool, "Result", true}};
  BuildNode read = user("Reader");
  read.inputs = {{ParamType::Bool, "Ok", 2, 0, 0, false}};
  read.queries = {0};  // query node 0 = node 2, the expression
  read.properties = {{ParamType::Float, "Speed", 1.5f, 0xC2000001u}};
  spec.nodes = {all, counter, expression, read};
  h.load(spec);
  h.instance->start("Root");
  for (int i = 0; i < 4; ++i)
    h.tick();
  // Count is 1, 2, 3, 4; with B = 7 the sum reaches 10 in the third frame.
  CHECK(reader->ok == std::vector<bool>{false, false, true, true});
  CHECK(reader->speed == std::vector<float>{3.0f, 3.0f, 3.0f, 3.0f});
}

TEST_CASE("expressions: selector inputs, and setup blocks run at each Enter of their node") {
  // Function 0 feeds a Bool selector: its setup block zeroes a counter in static memory when the
  // selector is entered; its main block counts the evaluations and says whether the count has
  // reached 3. Function 1 feeds an S32 selector: GetBBCodeInt(5), a user function.
  exb::AssemblySource exb_source;
  exb_source.functions = {
      {.output_type = exb::DataType::Bool,
       .static_size = 8,
       .setup = std::vector<std::string>{"STR int GMem[0x0], int 0", "END"},
       .main = {"ADD int GMem[0x0], int 1", "STR int GMem[0x4], int GMem[0x0]",
                "GTE int GMem[0x4], int 3", "STR bool Out[0x0], bool GMem[0x4]", "END"}},
      {.output_type = exb::DataType::Int,
       .static_size = 4,
       .main = {"STR int GMem[0x0], int 5", "CFN GetBBCodeInt( Int, Int ), GMem[0x0]",
                "STR int Out[0x0], int GMem[0x0]", "END"}}};
  exb::UserFunctions functions;
  functions.add("GetBBCodeInt( Int, Int )", [](std::int32_t code) { return code * 10; });

  Harness h;
  for (const auto* name : {"Yes", "No", "Fifty", "Seven", "Other"})
    h.probe(name, {R});
  h.options.functions = &functions;
  AinbSpec spec;
  spec.exb = exb::assemble(exb_source);
  spec.commands = {{"Root", 0, {}}};
  BuildNode both{.type = NodeType::Simultaneous};
  both.plugs = {{PlugKind::Child, 1, ""}, {PlugKind::Child, 2, ""}};
  BuildNode counted{.type = NodeType::BoolSelector};
  counted.inputs = {{ParamType::Bool, "Input", -1, 0, 0xC2000000u, false}};
  counted.plugs = {{PlugKind::Child, 3, "True"}, {PlugKind::Child, 4, "False"}};
  BuildNode coded{.type = NodeType::S32Selector};
  coded.inputs = {{ParamType::Int, "Input", -1, 0, 0xC2000001u, std::int32_t{7}}};
  coded.plugs = {{PlugKind::Child, 5, "", 0, s32_condition(50)},
                 {PlugKind::Child, 6, "", 0, s32_condition(7)},
                 {PlugKind::Child, 7, "", 0, s32_condition(0)}};
  spec.nodes = {both,       counted,       coded,         user("Yes"),
                user("No"), user("Fifty"), user("Seven"), user("Other")};
  h.load(spec);
  // Only the selector whose expression has a setup block leaves the short paths.
  CHECK(arrays(*h.graph).nodes()[1].runs_setup);
  CHECK_FALSE(arrays(*h.graph).nodes()[1].plain_composite);
  CHECK_FALSE(arrays(*h.graph).nodes()[2].runs_setup);
  CHECK(arrays(*h.graph).nodes()[2].plain_composite);

  const auto run = [&] {
    // The Enter's choice is the first evaluation (count 1), each Update's the next.
    CHECK(h.step([&] { h.instance->start("Root"); }) == Log{"enter No", "enter Fifty"});
    CHECK(h.tick() == Log{"update No", "update Fifty"});                            // 2
    CHECK(h.tick() == Log{"leave No", "enter Yes", "update Yes", "update Fifty"});  // 3
    // (A Simultaneous leaves its children last first.)
    CHECK(h.step([&] { h.instance->stop(); }) == Log{"leave Fifty", "leave Yes"});
    // A new Enter runs the setup block again: the count starts over.
    CHECK(h.step([&] { h.instance->start("Root"); }) == Log{"enter No", "enter Fifty"});
  };
  SUBCASE("observed") {
    run();
  }
  SUBCASE("on the short paths") {
    h.unobserved();
    run();
  }
  SUBCASE("without the user function") {
    h.options.functions = nullptr;
    h.load(spec);
    SUBCASE("a failed evaluation gives the input's stored value") {
      CHECK(h.step([&] { h.instance->start("Root"); }) == Log{"enter No", "enter Seven"});
    }
    SUBCASE("on the short paths too") {
      h.unobserved();
      CHECK(h.step([&] { h.instance->start("Root"); }) == Log{"enter No", "enter Seven"});
    }
  }
}

TEST_CASE("expressions: an Int parameter takes a UInt result's bits, on every path") {
  // EXB v3 functions may return UInt; the loader binds them to Int parameters. Without an input
  // the S32 selector reads the result typed, with one through Instance::evaluate: both see 1.
  for (const bool with_input : {false, true}) {
    exb::AssemblySource source;
    source.version = 3;
    source.functions = {{.input_type = with_input ? exb::DataType::Int : exb::DataType::None,
                         .output_type = exb::DataType::UInt,
                         .static_size = 4,
                         .main = {"STR uint Out[0x0], uint 1", "END"}}};
    Harness h;
    for (const auto* name : {"One", "Other"})
      h.probe(name, {R});
    AinbSpec spec;
    spec.exb = exb::assemble(source);
    spec.commands = {{"Root", 0, {}}};
    BuildNode s32{.type = NodeType::S32Selector};
    s32.inputs = {{ParamType::Int, "Input", -1, 0, 0xC2000000u, std::int32_t{0}}};
    s32.plugs = {{PlugKind::Child, 1, "", 0, s32_condition(1)},
                 {PlugKind::Child, 2, "", 0, s32_condition(0)}};
    spec.nodes = {s32, user("One"), user("Other")};
    h.load(spec);
    CAPTURE(with_input);
    CHECK(h.step([&] { h.instance->start("Root"); }) == Log{"enter One"});
  }
}

TEST_CASE("expressions: the setup blocks of a query's expressions run when the query is entered") {
  // An Element_Expression query and a user query whose input is an expression: each setup block
  // sets a counter to 10, each main block adds 1 and gives it.
  exb::AssemblySource source;
  source.functions = {
      {.static_size = 4,
       .setup = std::vector<std::string>{"STR int GMem[0x0], int 10", "END"},
       .main = {"ADD int GMem[0x0], int 1", "STR int UserOut[0x0], int GMem[0x0]", "END"}},
      {.output_type = exb::DataType::Int,
       .static_size = 4,
       .setup = std::vector<std::string>{"STR int GMem[0x0], int 10", "END"},
       .main = {"ADD int GMem[0x0], int 1", "STR int Out[0x0], int GMem[0x0]", "END"}}};
  struct Reader : NodeClass {
    std::string input;
    std::vector<std::int32_t> seen;
    Reader(std::string name, Result result) : input(std::move(name)), result_(result) {}
    Result update(NodeContext& c) override {
      seen.push_back(c.input_int(input));
      return result_;
    }
    Result result_;
  };
  for (const bool observed : {true, false}) {
    auto reader = std::make_shared<Reader>("N", R);
    auto query_reader = std::make_shared<Reader>("M", S);
    Harness h;
    h.registry.add("Reader", reader);
    h.registry.add("QueryReader", query_reader);
    AinbSpec spec;
    spec.exb = exb::assemble(source);
    spec.commands = {{"Root", 0, {}}};
    BuildNode read = user("Reader");
    read.inputs = {{ParamType::Int, "N", 1, 0, 0, std::int32_t{0}}};
    read.queries = {0, 1};
    BuildNode expression{.type = NodeType::Expression, .flags = node_flags::kIsQuery};
    expression.properties = {{ParamType::Int, "ExpressionBase", std::int32_t{0}, 0xC2000000u}};
    expression.outputs = {{ParamType::Int, "Sum", true}};
    BuildNode query = user("QueryReader");
    query.flags = node_flags::kIsQuery;
    query.inputs = {{ParamType::Int, "M", -1, 0, 0xC2000001u, std::int32_t{0}}};
    spec.nodes = {read, expression, query};
    h.load(spec);
    if (!observed) h.unobserved();
    h.instance->start("Root");
    h.tick();
    CAPTURE(observed);
    // The queries are calculated at the reader's Enter (11) and again before its one Update
    // (12), which reads the expression's second result; without the setup blocks, 1 and 2.
    CHECK(reader->seen == std::vector<std::int32_t>{12});
    CHECK(query_reader->seen == std::vector<std::int32_t>{11, 12});
  }
}
