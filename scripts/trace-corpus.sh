#!/usr/bin/env bash
# Traces every command of every real AI file (corpus/ainb, bulk/ainb and wide/ainb) for 1,000 frames
# under four option sets and prints one line per run: the SHA-256 of its JSON-lines trace and
# summary, the options and the file. A refactor that must not change behaviour compares the output
# before and after (docs/architecture.md, "Checking a refactor").
#   scripts/trace-corpus.sh [AINB-BINARY] > manifest.txt
# AINB_TRACE_SHARD=K/N traces only every Nth file from the Kth (1-based), so N copies can run at
# once; compare sorted outputs then.
set -euo pipefail
cd "$(dirname "$0")/.."
ainb=${1:-build/release/hosts/cli/ainb}
corpus=${AINB_CORPUS:-../shared/corpus}
[[ -d $corpus/ainb && -d $corpus/bulk/ainb && -d $corpus/wide/ainb ]] || { echo "trace-corpus: no corpus at $corpus" >&2; exit 1; }

option_sets=(
  "--restart --generic-nodes --stub-children --stub-missing-modules"
  "--restart --ambiguous-readings --stub-children --stub-missing-modules --seed 3"
  "--restart --stub-missing-modules --simultaneous-ends-first --seed 7"
  "--stub-missing-modules"
)

commands_of() {
  # The names under "commands:" in `ainb info`, or one empty name for a file without commands.
  "$ainb" info "$1" | awk '/^commands: none/ {print ""; exit} /^commands:/ {on=1; next}
                          on && /^$/ {exit} on {print $1}'
}

shard=${AINB_TRACE_SHARD:-1/1}
index=0
for f in "$corpus"/ainb/*.ainb "$corpus"/bulk/ainb/*.ainb "$corpus"/wide/ainb/*.ainb; do
  index=$((index + 1))
  (( (index - ${shard%/*}) % ${shard#*/} == 0 )) || continue
  while IFS= read -r command; do
    for options in "${option_sets[@]}"; do
      # shellcheck disable=SC2086
      args=(run "$f" --frames 1000 --modules "$(dirname "$f")" $options --trace -)
      [[ -n $command ]] && args+=(--command "$command")
      # Log lines carry a timestamp; the rest of standard error is part of the behaviour.
      sum=$("$ainb" "${args[@]}" 2>&1 | sed -E 's/^\[[0-9-]+ [0-9:.]+\] //' | sha256sum | cut -c1-16)
      echo "$sum ${command:--} [$options] $(basename "$f")"
    done
  done < <(commands_of "$f")
done
