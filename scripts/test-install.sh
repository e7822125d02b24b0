#!/usr/bin/env bash
# Installs an already built preset (default: release) to a temporary prefix, then builds the
# consumer project tests/install/ against it with find_package(ainb) and runs its programs: the
# C++ libraries, libainb.so and the static C API, and the installed `ainb` program. Fails when
# any step fails or a program does not print what it should. The temporary folder is removed.
set -euo pipefail
cd "$(dirname "$0")/.."
preset="${1:-release}"
build="build/$preset"
example="$PWD/$build/examples/patrol.root.ainb"
if [[ ! -f "$build/CMakeCache.txt" || ! -f "$example" ]]; then
  echo "test-install: build the $preset preset first (scripts/build.sh $preset)" >&2
  exit 1
fi

work="$(mktemp -d "${TMPDIR:-/tmp}/ainb-install.XXXXXX")"
trap 'rm -rf "$work"' EXIT
prefix="$work/prefix"

cmake --install "$build" --prefix "$prefix" >"$work/install.log" || { cat "$work/install.log"; exit 1; }
for file in lib/cmake/ainb/ainbConfig.cmake lib/cmake/ainb/ainbConfigVersion.cmake \
  lib/cmake/ainb/ainbTargets.cmake include/ainb/ainb.h include/ainb/runtime/instance.hpp \
  include/ainb/runtime/detail/scheduler.hpp include/ainb/runtime/detail/graph_arrays.hpp \
  lib/libainb.so lib/libainb_runtime.a bin/ainb; do
  [[ -e "$prefix/$file" ]] || { echo "test-install: $file is not installed" >&2; exit 1; }
done
# What must stay out of the package: test support, harnesses, the build's warning options.
if grep -q "ainb_options\|ainb_test_builder\|ainb_fuzz" "$prefix"/lib/cmake/ainb/*.cmake; then
  echo "test-install: the exported targets name an internal target" >&2
  exit 1
fi

cmake -S tests/install -B "$work/build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_PREFIX_PATH="$prefix" >"$work/configure.log" || { cat "$work/configure.log"; exit 1; }
cmake --build "$work/build" -j "$(nproc)" >"$work/build.log" || { cat "$work/build.log"; exit 1; }

# Runs a program, which must succeed, and prints the line of its output that holds `expected`.
expect() {
  local expected="$1"
  shift
  local output
  output="$("$@")"
  if ! grep -F -- "$expected" <<<"$output"; then
    echo "$output"
    echo "test-install: expected \"$expected\" from $*" >&2
    exit 1
  fi
}
expect "consumer: 10 nodes, rewritten byte for byte, 23 JSON keys, 5 MoveTo updates in 10 frames" "$work/build/consumer" "$example" MoveTo
expect "consumer_c: 10 nodes, 5 MoveTo updates in 10 frames, 1 block of" "$work/build/consumer_c" "$example" MoveTo
expect "consumer_c: 10 nodes, 5 MoveTo updates in 10 frames, 1 block of" "$work/build/consumer_c_static" "$example" MoveTo
expect "nodes               10" "$prefix/bin/ainb" info "$example"
# The Python package, where the build put it under the prefix (when the build has it).
if grep -q "^AINB_PYTHON_EXECUTABLE:INTERNAL=" "$build/CMakeCache.txt"; then
  python="$(sed -n 's/^AINB_PYTHON_EXECUTABLE:INTERNAL=//p' "$build/CMakeCache.txt")"
  site="$(find "$prefix/lib" -path '*-packages/ainb/__init__.py' -printf '%h\n' | head -1)"
  [[ -n "$site" ]] || { echo "test-install: the Python package is not installed" >&2; exit 1; }
  expect "consumer.py: 10 nodes, rewritten byte for byte, MoveTo updated 2 times" \
    env PYTHONPATH="$(dirname "$site")" "$python" tests/install/consumer.py "$example"
fi
echo "test-install: installed, consumer built and run in ${SECONDS} s"
