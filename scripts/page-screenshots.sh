#!/usr/bin/env bash
# Writes the screenshots of the HTML pages in docs/images/ (docs/report.md, the README): a run of a
# real file with its modules, a regression of the bundled edit, an exploration, a review of two
# versions of a folder (docs/review.md); each page made by
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
# A review: two real files edited through the text form (one changes behaviour), one added.
edit() {  # FILE OUT PYTHON-STATEMENT (on `form`, the text form)
  "$ainb" convert "$1" "$tmp/form.json" >/dev/null
  python3 -c "import json,sys; form=json.load(open(sys.argv[1])); $3; json.dump(form, open(sys.argv[1], 'w'))" \
    "$tmp/form.json"
  "$ainb" convert "$tmp/form.json" "$2" >/dev/null
}
mkdir -p "$tmp/base" "$tmp/head"
cp "$corpus/wide/ainb/UnderWaterFloatWait.actionseq.root.ainb" "$corpus/ainb/PlayerCamera.root.ainb" "$tmp/base"
cp "$corpus/ainb/Accessory_Battery.root.ainb" "$tmp/head"
edit "$tmp/base/UnderWaterFloatWait.actionseq.root.ainb" "$tmp/head/UnderWaterFloatWait.actionseq.root.ainb" \
  'form["nodes"][1]["inputs"]["float"][0]["default"] = 20.0'
edit "$tmp/base/PlayerCamera.root.ainb" "$tmp/head/PlayerCamera.root.ainb" \
  'form["nodes"][0]["inputs"]["int"][0]["default"] = 3'
(cd "$tmp" && "$OLDPWD/$ainb" review base head --generic-nodes --stub-missing-modules -o review >/dev/null 2>&1) || true
shot "$tmp/review/index.html" "" "$out/review-page.png"
ls -l "$out"
