#!/bin/sh
# `ainb regress` shows each warning once, though it loads each file once per side and scenario
# (Toby.utility.root has 19 missing modules: 19 lines, not 38).
# Usage: cli_warn_once_test.sh AINB CORPUS_DIR
file="$2/ainb/Toby.utility.root.ainb"
if [ ! -f "$file" ]; then
  if [ -n "$CI" ]; then
    echo "the corpus is missing: $file (CI is set)" >&2
    exit 1
  fi
  echo "no corpus at $2: skipped"
  exit 77
fi
lines=$("$1" regress "$file" "$file" --frames 5 --stub-missing-modules 2>&1 >/dev/null | grep -c "not found")
if [ "$lines" != 19 ]; then
  echo "expected 19 module warnings, got $lines" >&2
  exit 1
fi
