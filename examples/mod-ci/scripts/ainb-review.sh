#!/usr/bin/env bash
# `ainb review` of a mod's AI files for its CI and its pre-commit hook (examples/mod-ci/README.md):
#
#   scripts/ainb-review.sh [--out DIR] [--fail-on-different] BASE HEAD [REVIEW-OPTION...]
#   scripts/ainb-review.sh [--out DIR] [--fail-on-different] --staged [REVIEW-OPTION...]
#
# BASE and HEAD: git revisions (or folders, packs), as `ainb review` takes them. --staged: what the
# next commit holds (git's index) against HEAD, run in the repository's root (a relative DIR too).
# Writes DIR/summary.md, DIR/index.html and DIR/files/ (default: .git/ainb-review, outside the work
# tree), prints the summary and appends it to $GITHUB_STEP_SUMMARY when set. REVIEW-OPTIONs go to
# `ainb review` (--explore N, --generic-nodes...).
# The program: $AINB, else `ainb` on PATH.
# Exit: 0 the same behaviour, or a different one without --fail-on-different (a mod's edits are
# meant to change behaviour: the review reports them); 1 different with --fail-on-different;
# 2 an error (a file that does not load, a revision that does not exist): always a failure.
set -euo pipefail

usage() {
  sed -n '4,5s/^#   //p' "$0" >&2
  exit 2
}

out=""
fail_on_different=false
staged=false
while (($# > 0)); do
  case "$1" in
    --out) (($# >= 2)) || usage; out="$2"; shift 2 ;;
    --fail-on-different) fail_on_different=true; shift ;;
    --staged) staged=true; shift ;;
    *) break ;;
  esac
done

ainb="${AINB:-ainb}"
if ! command -v "$ainb" >/dev/null; then
  echo "ainb-review: '$ainb' not found (set AINB to the program's path or put ainb on PATH)" >&2
  exit 2
fi

if $staged; then
  # The index, not the work tree: pre-commit stashes unstaged edits but leaves untracked files,
  # and a plain `git commit` hook runs with both; only the staged *.ainb make the commit. The copy
  # is in .git, named by the files' paths in the repository, as HEAD's are.
  cd "$(git rev-parse --show-toplevel)"
  index="$(git rev-parse --git-path ainb-staged)"
  empty="$(git rev-parse --git-path ainb-empty)"
  trap 'rm -rf "$index" "$empty"' EXIT
  rm -rf "$index" "$empty"
  mkdir -p "$index" "$empty"
  git ls-files -z -- '*.ainb' | git checkout-index -z --stdin --prefix="$index/"
  base=HEAD
  # A first commit has no HEAD: everything staged is added.
  git rev-parse -q --verify 'HEAD^{commit}' >/dev/null || base="$empty"
  sides=("$base" "$index")
else
  (($# >= 2)) || usage
  sides=("$1" "$2")
  shift 2
fi

out="${out:-$(git rev-parse --git-path ainb-review 2>/dev/null || echo ainb-review)}"
# An earlier review's summary must not stand for this one when this one stops early (exit 2).
rm -rf "$out/files" "$out/summary.md" "$out/index.html"
code=0
"$ainb" review "${sides[@]}" -o "$out" "$@" >/dev/null || code=$?
if [[ -f "$out/summary.md" ]]; then
  cat "$out/summary.md"
  if [[ -n "${GITHUB_STEP_SUMMARY:-}" ]]; then
    cat "$out/summary.md" >>"$GITHUB_STEP_SUMMARY"
  fi
  echo "ainb-review: the review is in $out (open $out/index.html)" >&2
fi
if ((code == 1)) && ! $fail_on_different; then
  echo "ainb-review: AI files behave differently (reported, not failing: --fail-on-different makes it fail)" >&2
  code=0
fi
exit "$code"
