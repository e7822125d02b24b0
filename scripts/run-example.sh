#!/usr/bin/env bash
# The main job of the README: builds the release preset and simulates the bundled example under
# its scenario, printing a readable trace and a summary.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/build.sh release
build/release/hosts/cli/ainb run build/release/examples/patrol.root.ainb \
  --scenario examples/patrol.scenario.json --trace - --format text
