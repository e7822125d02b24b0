#!/usr/bin/env bash
# Fails when a C++ file differs from what clang-format (with the committed .clang-format) makes of it.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v clang-format >/dev/null || scripts/install-deps.sh
git ls-files '*.cpp' '*.hpp' '*.h' '*.c' | xargs clang-format --dry-run --Werror
echo "check-format: all files formatted"
