// Hello, actor: the smallest embedding. One AI file, a node class and two lambda nodes, one
// guard ticked at 60 frames per second. (hosts/embedding/ is the full game loop.)

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "ainb/runtime/runtime.hpp"

using namespace ainb::runtime;

struct Guard {  // the game's actor, which nodes reach through NodeContext::host()
  float x = 0;
  int attacks = 0;
};

// Waits `Time` seconds. One object serves every Wait node of every actor: what belongs to one
// node of one actor (the frames left) lives in its state block.
class Wait : public StatefulNodeClass<int> {
 public:
  Wait() : StatefulNodeClass(kEnter) {}
  void on_enter(NodeContext& c, int& frames) override {
    frames = static_cast<int>(c.property<float>("Time") * 60);
  }
  Result on_update(NodeContext&, int& frames) override {
    return --frames > 0 ? Result::Running : Result::Success;
  }
};

int main(int argc, char** argv) {
  Runtime runtime;
  runtime.add<Wait>("Wait");
  runtime.add("MoveTo", [](NodeContext& c) {  // walks along x to the destination
    auto& guard = *static_cast<Guard*>(c.host());
    const float left = c.input<ainb::Vec3f>("Destination").x - guard.x;
    guard.x += std::copysign(std::min(std::abs(left), c.input<float>("Speed") / 60), left);
    return std::abs(left) <= c.input<float>("Speed") / 60 ? Result::Success : Result::Running;
  });
  runtime.add("Attack", [](NodeContext& c) {
    ++static_cast<Guard*>(c.host())->attacks;
    return Result::Success;
  });

  Guard guard;
  Instance actor(runtime.load(argc > 1 ? argv[1] : "patrol.root.ainb"), {.host = &guard});
  actor.start("Root");
  actor.tick_while_running(600);  // patrols: walks to PatrolPoint, waits, walks on the spot...
  actor.set_bool("IsEnemyNear", true);
  actor.tick_while_running(60);  // ...and attacks once it sees the enemy
  std::printf("frame %llu: the guard is at x = %.2f and attacked %d times\n",
              static_cast<unsigned long long>(actor.frame()), guard.x, guard.attacks);
}
