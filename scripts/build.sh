#!/usr/bin/env bash
# Configures and builds one CMake preset (default: release), installing missing packages first;
# with TARGET..., only those targets and what they need.
#   scripts/build.sh [PRESET] [TARGET...]
set -euo pipefail
cd "$(dirname "$0")/.."
preset="${1:-release}"
if (($# > 0)); then shift; fi
case "$preset" in
  asan) scripts/install-deps.sh ci ;;  # clang and libFuzzer
  wasm) scripts/install-deps.sh wasm ;;  # Emscripten and Node.js
  *) scripts/install-deps.sh tests ;;
esac
cmake --preset "$preset" >/dev/null
if (($# > 0)); then
  cmake --build "build/$preset" -j "$(nproc)" --target "$@"
else
  cmake --build --preset "$preset" -j "$(nproc)"
fi
