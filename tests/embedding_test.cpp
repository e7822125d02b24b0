// The embedding example (hosts/embedding): its node classes act on the world as documented, and
// ticking actors on several threads gives exactly the single-threaded result.

#include <doctest/doctest.h>

#include <cmath>
#include <filesystem>

#include "ainb/loader.hpp"
#include "ainb/writer/text_form.hpp"
#include "build_paths.hpp"
#include "game.hpp"
#include "support/scratch.hpp"

using namespace ainb;

namespace {

const std::filesystem::path kPatrol = ainb::test::examples_dir() / "patrol.root.ainb";

game::GameOptions patrol(std::size_t actors, std::uint32_t threads = 1) {
  return {.file = kPatrol, .actors = actors, .threads = threads};
}

}  // namespace

TEST_CASE("embedding example: a guard walks to its patrol point, waits there and walks back") {
  game::Game world(patrol(100));  // a 10 x 10 grid; the player starts at (20,0,20), walks away
  // Every parameter the example's classes declare is in the file's nodes (a misspelt name would
  // read zero and stop the guards).
  CHECK(world.graph().unresolved_parameters().empty());
  const auto& guard = world.actors()[0];  // home (0,0,0): never within 8 m of the player
  // PatrolPoint (10,0,-4) is 10.77 m away; PatrolSpeed 1.5 m/s walks 0.025 m a frame, so the
  // 431st update arrives.
  world.run(430);
  CHECK(guard.arrivals == 0);
  CHECK(world.instance(0).blackboard("IsEnemyNear") != nullptr);
  world.run(1);
  CHECK(guard.arrivals == 1);
  CHECK(guard.position.x == 10.0f);
  CHECK(guard.position.z == -4.0f);
  // Wait's Time is 2 s: 120 frames, the last of them the update that succeeds.
  world.run(119);
  CHECK(guard.waits == 0);
  world.run(1);
  CHECK(guard.waits == 1);
  // The Sequential loops: MoveTo is entered again and heads home.
  world.run(431);
  CHECK(guard.arrivals == 2);
  CHECK(guard.position.x == 0.0f);
  CHECK(guard.position.z == 0.0f);
  CHECK(std::abs(guard.walked - 2 * 10.7703f) < 0.01f);
  CHECK(guard.attacks == 0);
}

TEST_CASE("embedding example: a guard that sees the player leaves its walk and attacks") {
  game::Game world(patrol(400));  // a 20 x 20 grid; the player starts at (40,0,40), inside it
  world.run(1);
  std::size_t seeing = 0, attacking = 0;
  for (std::size_t i = 0; i < world.actors().size(); ++i) {
    const auto& a = world.actors()[i];
    const auto* near = world.instance(i).blackboard("IsEnemyNear");
    REQUIRE(near != nullptr);
    CHECK(std::get<bool>(*near) == a.sees_player);
    seeing += a.sees_player ? 1 : 0;
    attacking += a.attacks;
    // Attack (node 2) is active exactly for the guards that see the player.
    CHECK(world.instance(i).is_active(2) == a.sees_player);
    CHECK(world.instance(i).is_active(4) == !a.sees_player);  // MoveTo
  }
  CHECK(seeing > 0);
  CHECK(attacking == seeing);
}

TEST_CASE("embedding example: actors ticked on three threads end exactly as on one") {
  game::Game one(patrol(600, 1)), three(patrol(600, 3));
  one.run(700);
  three.run(700);
  for (std::size_t i = 0; i < 600; ++i) {
    const auto &a = one.actors()[i], &b = three.actors()[i];
    CHECK(a.position.x == b.position.x);
    CHECK(a.position.z == b.position.z);
    CHECK(a.arrivals == b.arrivals);
    CHECK(a.waits == b.waits);
    CHECK(a.attacks == b.attacks);
  }
}

TEST_CASE(
    "embedding example: a reload between frames moves every guard on two threads to the edit; a "
    "bad save changes nothing") {
  // The designer's copy of the patrol, and the same with PatrolSpeed's default doubled.
  const auto file = test::fresh_dir("embedding-reload") / "patrol.root.ainb";
  std::filesystem::copy_file(kPatrol, file);
  auto text = writer::to_text(*load_file(kPatrol));
  auto& floats = text["blackboard"]["f32"];
  REQUIRE(floats[0]["name"] == "PatrolSpeed");
  floats[0]["default"] = 3.0;
  const auto faster = writer::from_text(text);

  game::Game world({.file = file, .actors = 100, .threads = 2});  // guard 0 far from the player
  const auto& guard = world.actors()[0];
  world.run(100);  // 2.5 m of the 10.77 m to the patrol point, at 0.025 m a frame

  test::write_file(file, std::string_view("AINB half-saved"));
  const auto refused = world.reload();
  CHECK_FALSE(refused);
  CHECK(refused.error == file.string() +
                             ": header at offset 0x0: file is 15 bytes, too small for the "
                             "0x74-byte header");
  CHECK(std::get<float>(*world.instance(0).blackboard("PatrolSpeed")) == 1.5f);

  test::write_file(file, faster);
  REQUIRE(world.reload());
  for (std::size_t i = 0; i < world.actors().size(); ++i) {
    CHECK(&world.instance(i).graph() == &world.graph());
    // An edited default takes effect: no one wrote the entry.
    CHECK(std::get<float>(*world.instance(i).blackboard("PatrolSpeed")) == 3.0f);
  }
  // The command starts again: MoveTo, away from home, heads back there (2.5 m at 0.05 m a frame;
  // the float steps leave 2e-6 m for the 51st).
  world.run(50);
  CHECK(guard.arrivals == 0);
  world.run(1);
  CHECK(guard.arrivals == 1);
  CHECK(guard.position.x == 0.0f);
}
