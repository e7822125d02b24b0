#include <cstdio>
#include "ainb/loader.hpp"
int main(int argc, char** argv) {
  int bad = 0;
  for (int i = 1; i < argc; ++i) {
    try {
      auto m = ainb::load_file(argv[i]);
      std::printf("ok %s nodes=%zu plugs=%zu\n", argv[i], m->nodes.size(), m->plugs.size());
    } catch (const ainb::LoadError& e) {
      std::printf("ERR %s\n", e.what());
      ++bad;
    }
  }
  return bad;
}
