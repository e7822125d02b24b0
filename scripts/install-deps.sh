#!/usr/bin/env bash
# Installs the Debian 12 packages the build needs, but only those that are missing, so the
# set-up commands of the README can run this every time at no cost.
set -euo pipefail

packages=(
  cmake ninja-build g++ git
  libfmt-dev               # formatting (error messages, output)
  libboost-container-dev   # formats/: Boost.Container (header-only use)
  libspdlog-dev            # the command line's warning lines
  doctest-dev              # tests
  nlohmann-json3-dev       # JSON dumps
  libcli11-dev             # the `ainb` command line
  libbenchmark-dev         # benchmarks/
  liblua5.4-dev            # benchmarks/exb_bench (the Lua 5.4 comparison)
  libzstd-dev              # formats/: zstd (TotK .zs files and dictionaries)
  zlib1g-dev               # formats/: CRC32 of AAMP names
  libyaml-cpp-dev          # tests: reading the reference .roead.yml renderings
  python3-dev              # hosts/python: `import ainb` (Debian's python3)
  pybind11-dev             # hosts/python: the extension module
  python3-pytest           # tests/python
  clang-format             # scripts/check-format.sh
  clang                    # scripts/fuzz.sh: the `fuzz` preset (clang 14)
  libfuzzer-14-dev         # scripts/fuzz.sh: libFuzzer
  libclang-rt-14-dev       # scripts/fuzz.sh: ASan + UBSan runtimes for clang
  zstd                     # scripts/fuzz.sh: decompresses the corpus packs into SARC seeds
  graphviz                 # hosts: dot lays out `ainb graph --svg` and the graphs of the HTML pages
  chromium                 # tests/browser: the HTML pages in a real (headless) browser
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

if ((${#missing[@]} == 0)); then
  exit 0
fi

echo "install-deps: installing ${missing[*]}"
sudo=""
if [[ $(id -u) -ne 0 ]]; then sudo="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
