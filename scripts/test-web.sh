#!/usr/bin/env bash
# The WebAssembly build's tests (docs/web.md): builds the `wasm` preset, the native `ainb` its
# results are compared with and `ainb-game` (which streams to the page), then runs the Node tests of
# tests/web (the JavaScript API, and every real file's trace against the native CLI's) beside the
# page's tests in headless Chromium (tests/web/test_*.py): two processes, one core each.
#   scripts/test-web.sh [NODE-TEST-ARGS...]
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/build.sh wasm
[[ -x build/release/hosts/cli/ainb ]] || scripts/build.sh release ainb
# tests/web/test_live.py streams from the embedding example's game (ainb-game --serve).
[[ -x build/release/hosts/embedding/ainb-game ]] || scripts/build.sh release ainb-game
node_log=$(mktemp)
trap 'rm -f "$node_log"' EXIT
node --test "$@" tests/web/*.test.mjs > "$node_log" 2>&1 &
node_tests=$!
page=0
/usr/bin/python3 -m pytest -q -p no:cacheprovider tests/web || page=$?
node=0
wait "$node_tests" || node=$?
echo "== Node tests (tests/web/*.test.mjs)"
cat "$node_log"
echo "== exit codes: page tests $page, Node tests $node"
((page == 0 && node == 0))
