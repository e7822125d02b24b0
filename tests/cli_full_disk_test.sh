#!/bin/sh
# `ainb` on a full disk (/dev/full as standard output) fails with a message instead of exiting 0
# with its output lost. Usage: cli_full_disk_test.sh AINB FILE
err=$("$1" info "$2" 2>&1 >/dev/full)
rc=$?
expected="error: cannot write the output: No space left on device"
if [ "$rc" != 1 ] || [ "$err" != "$expected" ]; then
  echo "expected exit 1 and \"$expected\", got exit $rc and \"$err\"" >&2
  exit 1
fi
