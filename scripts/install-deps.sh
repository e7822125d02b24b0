#!/usr/bin/env bash
# Installs the Debian 12 packages one purpose needs, only those that are missing, so the set-up
# commands of the README can run this every time at no cost:
#
#   scripts/install-deps.sh main    the `ainb` program and the bundled example (scripts/run-example.sh)
#   scripts/install-deps.sh tests   and the whole test suite, benchmarks, Python module, browser tests
#   scripts/install-deps.sh wasm    the `ainb` program's and the WebAssembly build's (docs/web.md)
#   scripts/install-deps.sh ci      and what only CI adds: clang and libFuzzer, clang-format (the default)
set -euo pipefail

purpose="${1:-ci}"
main=(
  cmake ninja-build g++ git
  ccache                   # compiler cache (docs/building.md)
  libfmt-dev               # formatting (error messages, output)
  libboost-container-dev   # formats/: Boost.Container (header-only use)
  libboost-dev             # ainb-game --serve: Boost.Beast's WebSocket server (header-only)
  libspdlog-dev            # the command line's warning lines
  nlohmann-json3-dev       # JSON dumps
  libcli11-dev             # the `ainb` command line
  libzstd-dev              # formats/: zstd (TotK .zs files and dictionaries)
)
tests=(
  doctest-dev              # tests
  libbenchmark-dev         # benchmarks/
  liblua5.4-dev            # benchmarks/exb_bench (the Lua 5.4 comparison)
  libyaml-cpp-dev          # tests: reading the reference .roead.yml renderings
  python3-dev              # hosts/python: `import ainb` (Debian's python3)
  pybind11-dev             # hosts/python: the extension module
  python3-pytest           # tests/python
  python3-yaml             # tests/git/test_mod_ci.py: reads examples/mod-ci's workflow to run its steps
  graphviz                 # hosts: dot lays out `ainb graph --svg` and the graphs of the HTML pages
  chromium                 # tests/browser: the HTML pages in a real (headless) browser
)
wasm=(
  emscripten               # the `wasm` preset (Emscripten 3.1.6)
  nodejs                   # tests/web and the JavaScript API in Node; builds the page
  chromium                 # tests/web: the page in a real (headless) browser
  chromium-driver          # tests/web: driven as a person would (WebDriver)
  python3-selenium         # tests/web: the WebDriver client
  python3-pytest           # tests/web: the page's tests
)
ci=(
  clang-format             # scripts/check-format.sh
  clang                    # the `asan` preset and its libFuzzer harnesses (clang 14)
  libfuzzer-14-dev         # scripts/fuzz.sh: libFuzzer
  libclang-rt-14-dev       # ASan + UBSan runtimes for clang
  zstd                     # scripts/fuzz.sh: decompresses the corpus packs into SARC seeds
)
case "$purpose" in
  main) packages=("${main[@]}") ;;
  tests) packages=("${main[@]}" "${tests[@]}") ;;
  wasm) packages=("${main[@]}" "${wasm[@]}") ;;
  ci) packages=("${main[@]}" "${tests[@]}" "${wasm[@]}" "${ci[@]}") ;;
  *) echo "install-deps: unknown purpose '$purpose' (main, tests, wasm or ci)" >&2; exit 2 ;;
esac

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

if ((${#missing[@]} == 0)); then
  exit 0
fi

echo "install-deps: installing ${#missing[@]} Debian packages: ${missing[*]}"
sudo=""
if [[ $(id -u) -ne 0 ]]; then sudo="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
