#!/usr/bin/env bash
# The main job of the README: simulates the bundled example under its scenario, printing a
# readable trace and a summary. It installs only the packages the `ainb` program needs and builds
# only that program and the examples (scripts/test.sh builds the rest).
set -euo pipefail
cd "$(dirname "$0")/.."
echo "run-example: installing what the ainb program needs (if missing), building it, then running examples/patrol"
scripts/install-deps.sh main
build=build/release
if [[ ! -f "$build/CMakeCache.txt" ]]; then
  # A first configuration leaves out what only the tests need (scripts/test.sh turns it on).
  cmake --preset release -DAINB_BUILD_TESTS=OFF -DAINB_BUILD_BENCHMARKS=OFF -DAINB_PYTHON=OFF >/dev/null
fi
steps=$(ninja -C "$build" -n ainb examples | grep -c '^\[' || true)
echo "run-example: building the ainb program and the examples: $steps build steps"
cmake --build "$build" -j "$(nproc)" --target ainb examples
echo "run-example: ainb run $build/examples/patrol.root.ainb --scenario examples/patrol.scenario.json --trace - --format text"
"$build/hosts/cli/ainb" run "$build/examples/patrol.root.ainb" \
  --scenario examples/patrol.scenario.json --trace - --format text
