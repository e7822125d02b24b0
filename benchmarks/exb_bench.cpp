// EXB machine speed, side by side in one run:
//   corpus/<file>#<function>  every corpus function, ns per evaluation and per executed instruction
//   loop/{exb,native,lua}     x = x*a + b; y = y*b - a; i += 1 until i == n (same work in each)
//   straight/{exb,native,lua} 32 dependent float operations, no branches; each evaluation's
//                             result is the next one's input, so every variant runs one long
//                             dependent chain (a CPU cannot overlap evaluations in any of them)
// then a summary of the ratios. Lua 5.4 is used by this benchmark only.
//
//   build/release/benchmarks/exb_bench [--corpus DIR] [benchmark flags]

#include <cmath>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <map>

#include <benchmark/benchmark.h>
#include <fmt/format.h>

extern "C" {
#include <lauxlib.h>
#include <lua.h>
#include <lualib.h>
}

#include "ainb/exb/machine.hpp"
#include "ainb/loader.hpp"
#include "bench_common.hpp"
#include "corpus_functions.hpp"
#include "exb_assembler.hpp"

using namespace ainb;
using namespace ainb::exb;

namespace {

constexpr std::uint8_t kInt = 3, kFloat = 4;
constexpr std::uint8_t kImm = 0, kStatic = 2, kParam = 3, kIn = 6, kOut = 5;

struct Compiled {
  std::vector<std::uint8_t> bytes;
  Section section;
  std::unique_ptr<Program> program;
};

Compiled compile(const test::ExbSpec& spec, const UserFunctions* functions = nullptr) {
  Compiled c;
  c.bytes = test::assemble(spec);
  c.section = decode(ByteReader(c.bytes, "bench"));
  c.program = std::make_unique<Program>(c.section, "bench", functions);
  return c;
}

std::vector<std::uint8_t> floats(std::initializer_list<float> values) {
  std::vector<std::uint8_t> out(values.size() * 4);
  std::memcpy(out.data(), values.begin(), out.size());
  return out;
}

// ---- loop: 9 EXB instructions per iteration --------------------------------------------------
constexpr std::int32_t kIterations = 1000;

test::ExbSpec loop_spec() {
  test::ExbSpec s;
  s.param_region = floats({1.0001f, 0.5f, 0.0f});
  // GMem: x@0 a@4 b@8 y@12 i@16 n@20 c@24
  s.instructions = {{2, kFloat, kStatic, kIn, 0, 0},            // 0  x = In
                    {2, kFloat, kStatic, kParam, 4, 0},         // 1  a = 1.0001
                    {2, kFloat, kStatic, kParam, 8, 4},         // 2  b = 0.5
                    {2, kFloat, kStatic, kParam, 12, 8},        // 3  y = 0
                    {2, kInt, kStatic, kImm, 16, 0},            // 4  i = 0
                    {2, kInt, kStatic, kImm, 20, kIterations},  // 5  n
                    {7, kFloat, kStatic, kStatic, 0, 4},        // 6  x *= a        <- loop
                    {5, kFloat, kStatic, kStatic, 0, 8},        // 7  x += b
                    {7, kFloat, kStatic, kStatic, 12, 8},       // 8  y *= b
                    {6, kFloat, kStatic, kStatic, 12, 4},       // 9  y -= a
                    {10, kInt, kStatic, kImm, 16, 0},           // 10 i += 1
                    {2, kInt, kStatic, kStatic, 24, 16},        // 11 c = i
                    {16, kInt, kStatic, kStatic, 24, 20},       // 12 c = c < n
                    {28, 0, kStatic, 0, 24, 15},                // 13 if !c goto 15
                    {29, 0, 0, 0, 0, 6},                        // 14 goto 6
                    {5, kFloat, kStatic, kStatic, 0, 12},       // 15 x += y
                    {2, kFloat, kOut, kStatic, 0, 0},           // 16 Out = x
                    {1, 0, 0, 0, 0, 0}};
  s.functions = {
      {-1, 0, 0, static_cast<std::uint32_t>(s.instructions.size()), kFloat, kFloat, 28, 0, 0}};
  return s;
}

// Runs function 0 of `spec` on input 1.0 and reports ns per executed instruction. With `chain`
// each evaluation's output is the next one's input.
void run_exb(benchmark::State& state, const test::ExbSpec& spec, bool chain) {
  const auto c = compile(spec);
  Machine machine(*c.program);
  std::vector<std::uint8_t> memory(c.program->static_size());
  Frame frame;
  frame.static_memory = memory;
  const float input = 1.0f;
  std::memcpy(frame.input.data(), &input, 4);
  machine.run_main_counted(0, frame);
  const auto executed = machine.executed();
  for (auto _ : state) {
    machine.run_main(0, frame);
    if (chain) frame.input = frame.output;
  }
  benchmark::DoNotOptimize(frame.output);
  state.counters["instructions"] = static_cast<double>(executed);
  state.counters["ns_per_instruction"] =
      benchmark::Counter(static_cast<double>(executed) * static_cast<double>(state.iterations()),
                         benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}

void loop_exb(benchmark::State& state) {
  run_exb(state, loop_spec(), false);
}

void loop_native(benchmark::State& state) {
  float input = 1.0f, a = 1.0001f, b = 0.5f;
  for (auto _ : state) {
    benchmark::DoNotOptimize(input);
    benchmark::DoNotOptimize(a);
    float x = input, y = 0.0f;
    for (std::int32_t i = 0; i < kIterations;) {
      x = x * a + b;
      y = y * b - a;
      ++i;
    }
    benchmark::DoNotOptimize(x + y);
  }
}

const char* kLuaLoop = R"(
function loop(x, a, b, n)
  local y = 0.0
  local i = 0
  while true do
    x = x * a + b
    y = y * b - a
    i = i + 1
    if not (i < n) then break end
  end
  return x + y
end
function straight(x, a, b)
)";

// ---- straight: 32 dependent float operations -------------------------------------------------
test::ExbSpec straight_spec() {
  test::ExbSpec s;
  s.param_region = floats({1.0001f, 0.5f});
  s.instructions.push_back({2, kFloat, kStatic, kIn, 0, 0});
  for (int k = 0; k < 8; ++k) {
    s.instructions.push_back({7, kFloat, kStatic, kParam, 0, 0});  // x *= a
    s.instructions.push_back({5, kFloat, kStatic, kParam, 0, 4});  // x += b
    s.instructions.push_back({6, kFloat, kStatic, kParam, 0, 0});  // x -= a
    s.instructions.push_back({8, kFloat, kStatic, kParam, 0, 0});  // x /= a
  }
  s.instructions.push_back({2, kFloat, kOut, kStatic, 0, 0});
  s.instructions.push_back({1, 0, 0, 0, 0, 0});
  s.functions = {
      {-1, 0, 0, static_cast<std::uint32_t>(s.instructions.size()), kFloat, kFloat, 4, 0, 0}};
  return s;
}

void straight_exb(benchmark::State& state) {
  run_exb(state, straight_spec(), true);
}

void straight_native(benchmark::State& state) {
  float x = 1.0f, a = 1.0001f, b = 0.5f;
  benchmark::DoNotOptimize(a);
  benchmark::DoNotOptimize(b);
  for (auto _ : state) {
    for (int k = 0; k < 8; ++k) {
      x *= a;
      x += b;
      x -= a;
      x /= a;
    }
    benchmark::DoNotOptimize(x);  // the next evaluation starts from this one's result
  }
}

std::string lua_straight_body() {
  std::string body;
  for (int k = 0; k < 8; ++k)
    body += "  x = x * a\n  x = x + b\n  x = x - a\n  x = x / a\n";
  return body + "  return x\nend\n";
}

void call_lua(benchmark::State& state, const char* function, int arguments) {
  lua_State* L = luaL_newstate();
  luaL_openlibs(L);
  const auto script = std::string(kLuaLoop) + lua_straight_body();
  if (luaL_dostring(L, script.c_str()) != LUA_OK) {
    state.SkipWithError(lua_tostring(L, -1));
    lua_close(L);
    return;
  }
  double x = 1.0;
  for (auto _ : state) {
    lua_getglobal(L, function);
    lua_pushnumber(L, arguments == 4 ? 1.0 : x);  // straight: chained like the others
    lua_pushnumber(L, 1.0001);
    lua_pushnumber(L, 0.5);
    if (arguments == 4) lua_pushinteger(L, kIterations);
    lua_call(L, arguments, 1);
    x = lua_tonumber(L, -1);
    lua_pop(L, 1);
  }
  benchmark::DoNotOptimize(x);
  lua_close(L);
}

// ---- corpus functions ------------------------------------------------------------------------
struct CorpusFunction {
  std::shared_ptr<const Model> model;
  std::shared_ptr<Program> program;
  std::uint32_t function;
};

UserFunctions& corpus_functions() {
  static UserFunctions functions = test::corpus_user_functions();
  return functions;
}

void corpus_function(benchmark::State& state, CorpusFunction target) {
  Machine machine(*target.program);
  FrameStorage storage(*target.program, target.function, 1);
  auto& frame = storage.frame();
  const float input = 2.0f;
  std::memcpy(frame.input.data(), &input, 4);
  machine.run_main_counted(target.function, frame);
  const auto executed = machine.executed();
  for (auto _ : state) {
    machine.run_main(target.function, frame);
    benchmark::DoNotOptimize(frame.output);
  }
  state.counters["instructions"] = static_cast<double>(executed);
  state.counters["ns_per_instruction"] =
      benchmark::Counter(static_cast<double>(executed) * static_cast<double>(state.iterations()),
                         benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}

// Keeps the results for the summary printed after the run.
class SummaryReporter : public benchmark::ConsoleReporter {
 public:
  std::map<std::string, double> ns;  // real time per iteration
  std::map<std::string, double> per_instruction;
  void ReportRuns(const std::vector<Run>& runs) override {
    ConsoleReporter::ReportRuns(runs);
    for (const auto& run : runs) {
      if (run.run_type == Run::RT_Aggregate && run.aggregate_name != "median") continue;
      const auto name = run.run_name.function_name;
      ns[name] = run.GetAdjustedRealTime();
      if (const auto it = run.counters.find("ns_per_instruction"); it != run.counters.end()) {
        per_instruction[name] = it->second.value * 1e9;
      }
    }
  }
};

}  // namespace

int main(int argc, char** argv) {
  std::vector<char*> args;
  const auto corpus = bench::take_corpus_argument(argc, argv, args);
  static std::vector<CorpusFunction> targets;
  const auto files = bench::corpus_files(corpus);
  if (!files.empty()) {
    for (const auto& path : files) {
      auto model = load_file(path);
      if (!model->expressions) continue;
      auto program =
          std::make_shared<Program>(*model->expressions, model->name, &corpus_functions());
      for (std::uint32_t f = 0; f < program->functions().size(); ++f) {
        targets.push_back({model, program, f});
        benchmark::RegisterBenchmark(fmt::format("corpus/{}#{}", path.stem().string(), f).c_str(),
                                     corpus_function, targets.back());
      }
    }
  } else {
    std::cerr << "exb_bench: no corpus at " << corpus.string() << "; corpus functions skipped\n";
  }
  benchmark::RegisterBenchmark("loop/exb", loop_exb);
  benchmark::RegisterBenchmark("loop/native", loop_native);
  benchmark::RegisterBenchmark("loop/lua", [](benchmark::State& s) { call_lua(s, "loop", 4); });
  benchmark::RegisterBenchmark("straight/exb", straight_exb);
  benchmark::RegisterBenchmark("straight/native", straight_native);
  benchmark::RegisterBenchmark("straight/lua",
                               [](benchmark::State& s) { call_lua(s, "straight", 3); });

  int count = static_cast<int>(args.size());
  benchmark::Initialize(&count, args.data());
  SummaryReporter reporter;
  benchmark::RunSpecifiedBenchmarks(&reporter);
  benchmark::Shutdown();

  auto& ns = reporter.ns;
  double corpus_total = 0, corpus_instructions_ns = 0;
  std::size_t corpus_count = 0;
  for (const auto& [name, value] : reporter.per_instruction) {
    if (name.starts_with("corpus/")) {
      corpus_total += ns[name];
      corpus_instructions_ns += value;
      ++corpus_count;
    }
  }
  std::cout << "\nsummary (ratios from this run)\n";
  if (corpus_count > 0) {
    std::cout << fmt::format(
        "  corpus functions: {} functions, mean {:.1f} ns per evaluation, "
        "mean {:.2f} ns per executed instruction\n",
        corpus_count, corpus_total / static_cast<double>(corpus_count),
        corpus_instructions_ns / static_cast<double>(corpus_count));
  }
  if (ns.count("loop/exb") && ns.count("loop/native") && ns.count("loop/lua")) {
    std::cout << fmt::format(
        "  loop:     exb {:.2f} ns/instruction; exb / native = {:.2f}x; "
        "exb / Lua 5.4 = {:.2f}x\n",
        reporter.per_instruction["loop/exb"], ns["loop/exb"] / ns["loop/native"],
        ns["loop/exb"] / ns["loop/lua"]);
  }
  if (ns.count("straight/exb") && ns.count("straight/native") && ns.count("straight/lua")) {
    std::cout << fmt::format(
        "  straight: exb {:.2f} ns/instruction; exb / native = {:.2f}x; "
        "exb / Lua 5.4 = {:.2f}x\n",
        reporter.per_instruction["straight/exb"], ns["straight/exb"] / ns["straight/native"],
        ns["straight/exb"] / ns["straight/lua"]);
  }
  return 0;
}
