#!/usr/bin/env bash
# The main job of the README: builds the release preset and runs `ainb` on a bundled example.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/build.sh release
build/release/hosts/cli/ainb info build/release/examples/patrol.root.ainb
