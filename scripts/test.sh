#!/usr/bin/env bash
# The test command of the README: builds a preset (default: release) and runs the whole suite.
# Tests that read ../shared/corpus fail (never skip) when CI is set and the corpus is missing.
set -euo pipefail
cd "$(dirname "$0")/.."
preset="${1:-release}"
scripts/build.sh "$preset"
ctest --preset "$preset" -j "$(nproc)"
