// The EXB machine at run time: strings and the pointers it follows, jumps and the instruction
// budget, the setup block and static memory, user functions and bindings, no allocation during
// an evaluation, and the machines each thread lends.

#include <cstdint>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include <doctest/doctest.h>

#include "ainb/exb/binding.hpp"
#include "ainb/exb/machine.hpp"
#include "ainb/exb/thread_machines.hpp"
#include "ainb/loader.hpp"
#include "allocation_counter.hpp"
#include "corpus.hpp"
#include "corpus_functions.hpp"
#include "exb_vm_fixture.hpp"

using namespace ainb;
using namespace ainb::exb;
using namespace ainb::test;

TEST_CASE("strings: the machine follows only pointers the program or the host gave it") {
  // A file can write an int over half of a string pointer. Such a value reads as "": in
  // comparisons, in the output the host reads back, and as a user function's argument.
  ExbSpec spec;
  spec.pool = std::string("Burn\0\0Name( String, String )\0", 30);  // "" at 5, signature at 6
  spec.signatures = {6};
  spec.instructions = {{2, kString, kStatic, kImmStr, 0, 0},    // GMem[0] = "Burn"
                       {2, kInt, kStatic, kImm, 4, 0x1234},     // half of it overwritten
                       {2, kString, kOut, kStatic, 0, 0},       // output = the broken pointer
                       {2, kString, kStatic, kStatic, 8, 0},    // GMem[8] = the broken pointer
                       {20, kString, kStatic, kImmStr, 8, 5},   // GMem[8] = (it == "")
                       {2, kString, kStatic, kStatic, 16, 0},   // the call's argument
                       {27, kString, 16, 0, 0, 0},              // GMem[16] = Name(GMem[16])
                       {2, kString, kStatic, kStatic, 24, 16},  // a trusted result, copied
                       {20, kString, kStatic, kImmStr, 24, 0},  // GMem[24] = (it == "Burn")
                       {20, kString, kStatic, kImmStr, 0, 0},   // GMem[0] = (broken == "Burn")
                       {1, 0, 0, 0, 0, 0}};
  spec.functions = {{-1, 0, 0, 11, kString, kInt, 0x20, 0, 0}};
  UserFunctions functions;
  std::string seen = "not called";
  static const char* const kBurn = "Burn";
  functions.add("Name( String, String )", [&](const char* s) {
    seen = s;
    return kBurn;  // the host's own string: comparable for the rest of the run
  });
  Fixture fx(spec, &functions);
  REQUIRE(fx.run() == Status::Ok);
  CHECK(fx.at<std::uint32_t>(8) == 1);   // the broken pointer reads as ""
  CHECK(fx.at<std::uint32_t>(24) == 1);  // the host's result compares as itself
  CHECK(fx.at<std::uint32_t>(0) == 0);   // and the broken one is not "Burn"
  CHECK(seen == "");
  const char* output = nullptr;
  std::memcpy(&output, fx.frame.output.data(), sizeof output);
  REQUIRE(output != nullptr);
  CHECK(std::string_view(output) == "");
  // Its string bookkeeping: the string input, and the last 32 string results of user functions.
  CHECK(fx.machine->memory_bytes() ==
        sizeof(Machine) + fx.program->arena_size() + (1 + 32) * sizeof(const char*));
}

TEST_CASE("a machine keeps string bookkeeping only for programs that pass strings") {
  Fixture fx(ExbSpec{});  // one Int -> Int function, no calls
  CHECK(fx.machine->memory_bytes() == sizeof(Machine) + fx.program->arena_size());
}

TEST_CASE("jumps and the instruction budget") {
  // GMem[0] = 5; loop: GMem[0] -= 1; GMem[4] = GMem[0] > 0 ... counts down to zero.
  ExbSpec spec;
  spec.instructions = {{2, kInt, kStatic, kImm, 0, 5},     // 0
                       {11, kInt, kStatic, kImm, 0, 0},    // 1: DEC
                       {10, kInt, kStatic, kImm, 8, 0},    // 2: INC GMem[8] (iterations)
                       {2, kInt, kStatic, kStatic, 4, 0},  // 3
                       {28, 0, kStatic, 0, 4, 6},          // 4: JZE GMem[4] -> 6
                       {29, 0, 0, 0, 0, 1},                // 5: JMP 1
                       {1, 0, 0, 0, 0, 0}};                // 6: END
  spec.functions = {{-1, 0, 0, 7, kInt, kInt, 0x10, 0, 0}};
  Fixture fx(spec);
  REQUIRE(fx.run() == Status::Ok);
  CHECK(fx.at<std::int32_t>(0) == 0);
  CHECK(fx.at<std::int32_t>(8) == 5);

  spec.instructions[0].rhs = 60000;  // 60000 iterations x 5 instructions > 100,000
  Fixture slow(spec);
  CHECK(slow.run() == Status::BudgetExhausted);
  CHECK(slow.machine->error() == "function 0 ran past its budget of 100000 instructions");

  spec.instructions[1] = {29, 0, 0, 0, 0, 1};  // JMP to itself: an endless loop
  Fixture endless(spec);
  CHECK(endless.run() == Status::BudgetExhausted);
}

TEST_CASE("the setup block runs on enter, and static memory persists across evaluations") {
  ExbSpec spec;
  spec.instructions = {{2, kInt, kStatic, kImm, 0, 10},  // setup: GMem[0] = 10
                       {1, 0, 0, 0, 0, 0},
                       {10, kInt, kStatic, kImm, 0, 0},  // main: GMem[0] += 1; Out = GMem[0]
                       {2, kInt, kOut, kStatic, 0, 0},
                       {1, 0, 0, 0, 0, 0}};
  spec.functions = {{0, 2, 2, 3, kInt, kInt, 4, 0, 0}};
  Fixture fx(spec);
  auto out = [&] {
    std::int32_t v;
    std::memcpy(&v, fx.frame.output.data(), 4);
    return v;
  };
  REQUIRE(fx.machine->run_setup(0, fx.frame) == Status::Ok);
  REQUIRE(fx.run() == Status::Ok);
  CHECK(out() == 11);
  REQUIRE(fx.run() == Status::Ok);
  CHECK(out() == 12);
  // A second context has its own static memory.
  std::array<std::uint8_t, 4> other{};
  Frame second;
  second.static_memory = other;
  REQUIRE(fx.machine->run_main(0, second) == Status::Ok);
  std::int32_t v;
  std::memcpy(&v, second.output.data(), 4);
  CHECK(v == 1);
  // Too little static memory is refused, not overrun.
  Frame small;
  CHECK(fx.machine->run_main(0, small) == Status::BadFrame);
}

TEST_CASE("user functions: typed registration, argument blocks, host context, missing ones") {
  ExbSpec spec;
  auto signature = [&spec](std::string_view text) {
    spec.signatures.push_back(static_cast<std::uint32_t>(spec.pool.size()));
    spec.pool += text;
    spec.pool.push_back('\0');
  };
  signature("GetBBCodeFloat( Float, Int )");
  signature("(Vector3F).Normalized( Vector3F )");
  signature("Actor.Pos( Vector3F )");
  spec.param_region = f32s({3, 0, 4});
  // CFN: bytes 2-3 the static offset of the block (lhs/rhs source bytes), bytes 4-7 the index.
  spec.instructions = {{2, kInt, kStatic, kImm, 0, 4},    // GMem[0] = 4 (the code)
                       {27, kFloat, 0, 0, 0, 0},          // CFN GetBBCodeFloat, GMem[0]
                       {2, kVec, kStatic, kParam, 4, 0},  // GMem[4] = (3, 0, 4)
                       {27, kVec, 4, 0, 1, 0},            // CFN (Vector3F).Normalized, GMem[4]
                       {27, kVec, 16, 0, 2, 0},           // CFN Actor.Pos, GMem[16]
                       {1, 0, 0, 0, 0, 0}};
  spec.functions = {{-1, 0, 0, 6, kInt, kInt, 0x1C, 0, 0}};

  UserFunctions functions;
  functions.add("GetBBCodeFloat( Float, Int )",
                [](std::int32_t code) { return static_cast<float>(code) * 0.5f; });
  functions.add("(Vector3F).Normalized( Vector3F )", [](Vec3 v) {
    const float n = std::sqrt(v.x * v.x + v.y * v.y + v.z * v.z);
    return Vec3{v.x / n, v.y / n, v.z / n};
  });
  struct Actor {
    Vec3 pos;
  } actor{{7, 8, 9}};
  functions.add("Actor.Pos( Vector3F )",
                [](CallContext& context) { return static_cast<Actor*>(context.host)->pos; });
  Fixture fx(spec, &functions);
  fx.frame.host = &actor;
  CHECK(fx.program->missing_functions().empty());
  REQUIRE(fx.run() == Status::Ok);
  CHECK(fx.at<float>(0) == 2.0f);
  CHECK(fx.at<Vec3>(4) == Vec3{0.6f, 0.0f, 0.8f});
  CHECK(fx.at<Vec3>(16) == Vec3{7, 8, 9});

  SUBCASE("a missing function is reported at load and follows the policy at run time") {
    UserFunctions some;
    some.add("GetBBCodeFloat( Float, Int )", [](std::int32_t) { return 1.0f; });
    Fixture strict(spec, &some);
    // (Vector3F).Normalized is a standard function: only the game's Actor.Pos is missing.
    CHECK(strict.program->missing_functions() == std::vector<std::string>{"Actor.Pos( Vector3F )"});
    CHECK(strict.run() == Status::MissingFunction);
    CHECK(strict.machine->error() ==
          "no user function is registered for \"Actor.Pos( Vector3F )\"");
    CHECK(strict.at<Vec3>(4) == Vec3{0.6f, 0.0f, 0.8f});
  }
  SUBCASE("registration checks the C++ types against the signature") {
    UserFunctions bad;
    CHECK_THROWS_WITH(bad.add("GetBBCodeFloat( Float, Int )", [](float) { return 1.0f; }),
                      "signature \"GetBBCodeFloat( Float, Int )\" means Float( Int ) but the "
                      "function is Float( Float )");
    CHECK_THROWS_WITH(bad.add("Broken( Float", [] { return 1.0f; }),
                      "signature \"Broken( Float\": missing \")\"");
  }
}

TEST_CASE("binding: an expression parameter and an Element_Expression node") {
  const auto dir = ainb::test::corpus_dir();
  if (dir.empty()) return;
  const auto model = load_file(dir / "ainb/Toby.action.basicattack.module.ainb");
  UserFunctions functions;
  functions.add("GetBBCodeInt( Int, Int )", [](std::int32_t code) { return code + 100; });
  const Program program(*model->expressions, model->name, &functions);
  Machine machine(program);

  // Expression 2 is "In - 10" on floats: bound to a float parameter fed 12.5.
  const auto binding = bind_parameter(program, 2, DataType::Float);
  CHECK(binding.input_type() == DataType::Float);
  std::vector<std::uint8_t> memory(binding.static_size());
  exb::Value out;
  REQUIRE(binding.setup(machine, memory, nullptr) == Status::Ok);
  REQUIRE(binding.evaluate(machine, memory, 12.5f, out, nullptr) == Status::Ok);
  CHECK(std::get<float>(out) == 2.5f);

  // Expression 1 ignores its input: GetBBCodeInt(0) + 1.
  const auto counter = bind_parameter(program, 1, DataType::Int);
  std::vector<std::uint8_t> counter_memory(counter.static_size());
  REQUIRE(counter.evaluate(machine, counter_memory, std::monostate{}, out, nullptr) == Status::Ok);
  CHECK(std::get<std::int32_t>(out) == 101);

  CHECK_THROWS_WITH(bind_parameter(program, 2, DataType::Bool),
                    "expression 2 returns FLOAT, but the parameter is BOOL");
  CHECK_THROWS_WITH(bind_parameter(program, 10, DataType::Float),
                    "expression 10 does not exist (the file has 10)");

  // Expression 0 belongs to an Element_Expression node with two vec3f inputs, one vec3f output.
  std::array<std::uint16_t, 12> slots{};
  slots[5] = 2;   // UserIn vec3f
  slots[11] = 1;  // UserOut vec3f
  CHECK(check_user_slots(program, 0, slots).empty());
  slots[5] = 1;
  CHECK(check_user_slots(program, 0, slots) == "reads 2 vec3f input(s), the node has 1");
}

TEST_CASE("static memory is loaded and saved only when a run can observe it") {
  ExbSpec scratchpad;  // writes GMem[0] before reading it: nothing carries over between runs
  scratchpad.instructions = {{2, kInt, kStatic, kImm, 0, 5},
                             {5, kInt, kStatic, kImm, 0, 1},
                             {2, kInt, kOut, kStatic, 0, 0},
                             {1, 0, 0, 0, 0, 0}};
  scratchpad.functions = {{-1, 0, 0, 4, kInt, kInt, 4, 0, 0}};
  auto bytes = assemble(scratchpad);
  const auto section = decode(ByteReader(bytes, "vm.ainb"));
  const Program program(section, "vm.ainb", nullptr);
  CHECK_FALSE(program.functions()[0].static_memory_live);
  Machine machine(program);
  std::array<std::uint8_t, 4> memory = {0xAB, 0xAB, 0xAB, 0xAB};
  Frame frame;
  frame.static_memory = memory;
  REQUIRE(machine.run_main(0, frame) == Status::Ok);
  std::int32_t out;
  std::memcpy(&out, frame.output.data(), 4);
  CHECK(out == 6);
  CHECK(memory == std::array<std::uint8_t, 4>{0xAB, 0xAB, 0xAB, 0xAB});  // untouched

  ExbSpec counter = scratchpad;  // reads GMem[0] first: the count carries over
  counter.instructions = {
      {10, kInt, kStatic, kImm, 0, 0}, {2, kInt, kOut, kStatic, 0, 0}, {1, 0, 0, 0, 0, 0}};
  counter.functions = {{-1, 0, 0, 3, kInt, kInt, 4, 0, 0}};
  auto counter_bytes = assemble(counter);
  const auto counter_section = decode(ByteReader(counter_bytes, "vm.ainb"));
  const Program counting(counter_section, "vm.ainb", nullptr);
  CHECK(counting.functions()[0].static_memory_live);

  const auto dir = ainb::test::corpus_dir();
  if (dir.empty()) return;
  std::size_t dead = 0, total = 0;
  for (const auto& path : ainb::test::corpus_ainb_files()) {
    const auto model = load_file(path);
    if (!model->expressions) continue;
    const Program corpus(*model->expressions, model->name, nullptr);
    for (const auto& fn : corpus.functions()) {
      dead += fn.static_memory_live ? 0 : 1;
      ++total;
    }
  }
  // Only the function with jumps (Horablin.action.jumpoffceiling) is left live.
  CHECK(total == 22);
  CHECK(dead == 21);
}

TEST_CASE("an evaluation allocates nothing") {
  const auto functions = ainb::test::corpus_user_functions();
  std::size_t evaluations = 0;
  for (const auto& path : ainb::test::corpus_ainb_files()) {
    const auto model = load_file(path);
    if (!model->expressions) continue;
    const Program program(*model->expressions, model->name, &functions);
    Machine machine(program);
    std::vector<std::uint8_t> memory(program.static_size());
    std::array<std::vector<std::uint8_t>, 12> slots;
    Frame frame;
    frame.static_memory = memory;
    for (std::size_t k = 0; k < 12; ++k) {
      slots[k].assign(16 * 12, 0);
      frame.user[k] = slots[k].data();
      frame.user_slots[k] = 16;
    }
    // No test macros inside the measured loop: they may allocate themselves.
    bool all_ok = true;
    const auto before = ainb::test::allocations();
    for (int round = 0; round < 100; ++round) {
      for (std::uint32_t f = 0; f < program.functions().size(); ++f) {
        all_ok = all_ok && machine.run_main(f, frame) == Status::Ok;
        ++evaluations;
      }
    }
    const auto allocated = ainb::test::allocations() - before;
    CHECK(all_ok);
    CHECK_MESSAGE(allocated == 0, path.filename().string());
  }
  MESSAGE(evaluations << " evaluations, no allocation");
}

TEST_CASE("a thread lends one machine per program and options, and another to a nested run") {
  // Making a machine sweeps those of programs that have gone (earlier tests'): done first, with
  // a program that lives to the end, so the count below moves only by this test's machines.
  Fixture sweeper({}), a({}), b({});
  { const auto sweep = thread_machine(*sweeper.program); }
  const auto kept = thread_machines_kept();
  Machine* first = nullptr;
  Machine* second = nullptr;
  {
    const auto lease = thread_machine(*a.program);
    first = &*lease;
    CHECK(&lease->program() == a.program.get());
    // A run further up the stack holds it: a nested borrow gets a machine of its own.
    const auto nested = thread_machine(*a.program);
    second = &*nested;
    CHECK(second != first);
    CHECK(&nested->program() == a.program.get());
  }
  CHECK(thread_machines_kept() == kept + 2);
  const auto before = ainb::test::allocations();
  Machine* again = nullptr;
  {
    const auto lease = thread_machine(*a.program);
    again = &*lease;
  }
  CHECK(ainb::test::allocations() == before);  // lending a kept machine allocates nothing
  CHECK(again == second);                      // the most recently lent of the two
  {
    const auto other_program = thread_machine(*b.program);
    CHECK(&other_program->program() == b.program.get());
    const auto other_options = thread_machine(*a.program, {.instruction_budget = 7});
    CHECK(&*other_options != first);
  }
  CHECK(thread_machines_kept() == kept + 4);
  // Another thread has machines of its own.
  const Machine* theirs = nullptr;
  std::thread([&] { theirs = &*thread_machine(*a.program); }).join();
  CHECK(theirs != first);

  // A program's machines go when the program has gone and the thread makes its next machine.
  a.program.reset();
  CHECK(thread_machines_kept() == kept + 4);
  Fixture c({});
  { const auto lease = thread_machine(*c.program); }
  CHECK(thread_machines_kept() == kept + 2);  // b's, and c's new one

  // A program moved to another object is another program to the machines: theirs refers to the
  // object it was made for.
  Program moved(std::move(*c.program));
  const auto lease = thread_machine(moved);
  CHECK(&lease->program() == &moved);
  CHECK(moved.identity().serial() != c.program->identity().serial());
}
