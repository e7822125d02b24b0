#!/bin/sh
# On a terminal, the control characters of a file's names are shown as escapes, not obeyed; into a
# pipe the output keeps the file's bytes. `script` (util-linux, in every Debian) gives `ainb` a
# terminal. Usage: cli_terminal_test.sh AINB FILE OTHER (OTHER: another AI file, for ainb diff)
# (FILE's command is "Count ESC [2J U+009B 31m", its root node's name ends "ESC ]0;pwned BEL".)
set -u
esc=$(printf '\033')
on_terminal=$(script -qec "'$1' info '$2'" /dev/null) || { echo "ainb info failed: $on_terminal" >&2; exit 1; }
case "$on_terminal" in
  *"$esc"*) echo "an ESC byte reached the terminal:" >&2; printf '%s\n' "$on_terminal" | od -c | head >&2; exit 1 ;;
esac
for expected in 'Count\x1b[2J\xc2\x9b31m' 'ExecuteBlackboardSetS32\x1b]0;pwned\x07'; do
  case "$on_terminal" in
    *"$expected"*) ;;
    *) echo "expected $expected on the terminal, got:" >&2; printf '%s\n' "$on_terminal" >&2; exit 1 ;;
  esac
done
# Warnings and errors on a terminal's stderr are escaped too (a command name the file lacks).
err=$(script -qec "'$1' run '$2' --command 'No${esc}[2JSuch' --frames 1" /dev/null)
case "$err" in
  *"$esc"*) echo "an ESC byte reached the terminal's stderr: $err" >&2; exit 1 ;;
  *'No\x1b[2JSuch'*) ;;
  *) echo "expected the command's name escaped, got: $err" >&2; exit 1 ;;
esac
# ainb diff colours a terminal with escape sequences of its own, and still escapes the file's.
diff_on_terminal=$(script -qec "'$1' diff '$3' '$2'" /dev/null)
case "$diff_on_terminal" in
  *"$esc[2J"* | *"$esc]0;"*) echo "the file's control sequence reached the terminal:" >&2; printf '%s\n' "$diff_on_terminal" | od -c | head >&2; exit 1 ;;
esac
for expected in "$esc[1mfile$esc[m" 'command Count\x1b[2J\xc2\x9b31m: '"$esc[32madded$esc[m"; do
  case "$diff_on_terminal" in
    *"$expected"*) ;;
    *) echo "expected $expected in ainb diff on the terminal, got:" >&2; printf '%s\n' "$diff_on_terminal" >&2; exit 1 ;;
  esac
done
piped=$("$1" info "$2")
case "$piped" in
  *"Count$esc[2J"*) ;;
  *) echo "a pipe should get the file's bytes, got: $piped" >&2; exit 1 ;;
esac
