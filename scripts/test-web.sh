#!/usr/bin/env bash
# The WebAssembly build's tests (docs/web.md): builds the `wasm` preset and the native `ainb` its
# results are compared with, then runs the Node tests of tests/web (the JavaScript API, and every
# real file's trace against the native CLI's).
#   scripts/test-web.sh [NODE-TEST-ARGS...]
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/build.sh wasm
[[ -x build/release/hosts/cli/ainb ]] || scripts/build.sh release ainb
node --test "$@" tests/web/*.test.mjs
