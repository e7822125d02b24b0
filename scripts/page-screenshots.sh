#!/usr/bin/env bash
# Writes the screenshots of the HTML pages in docs/images/ (docs/report.md, the README): a run of a
# real file with its modules, a regression of the bundled edit, an exploration; each page made by
# the release build and photographed by headless Chromium, as the browser tests open them.
#   scripts/page-screenshots.sh [CORPUS]   (default ../shared/corpus)
set -euo pipefail
cd "$(dirname "$0")/.."
corpus=${1:-../shared/corpus}
ainb=build/release/hosts/cli/ainb
examples=build/release/examples
out=docs/images
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$out"

shot() {  # PAGE.html HASH PNG
  chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --no-first-run \
    --user-data-dir="$tmp/profile" --window-size=1400,900 --screenshot="$3" "file://$(realpath "$1")#$2" \
    2>/dev/null
}

"$ainb" run "$corpus/ainb/Toby.utility.root.ainb" --modules "$corpus/bulk/ainb" --modules "$corpus/ainb" \
  --stub-missing-modules --generic-nodes --stub-children --restart --frames 600 --html "$tmp/run.html" \
  >/dev/null 2>&1
shot "$tmp/run.html" "file=0&frame=240&node=5" "$out/run-page.png"

"$ainb" regress "$examples/patrol.root.ainb" "$examples/patrol.edited.root.ainb" \
  --scenario examples/patrol.scenario.json --html "$tmp/regress.html" >/dev/null 2>&1 || true
shot "$tmp/regress.html" "file=0&frame=4&side=1&node=2" "$out/regress-page.png"

"$ainb" explore "$corpus/ainb/Toby.utility.root.ainb" --stub-missing-modules --runs 300 \
  --html "$tmp/coverage.html" >/dev/null 2>&1
shot "$tmp/coverage.html" "file=0&node=95" "$out/coverage-page.png"
ls -l "$out"
