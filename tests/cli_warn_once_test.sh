#!/bin/sh
# The command line says the missing modules once per run, in one line over every file it loaded,
# though `ainb regress` loads each file once per side and scenario (Toby.utility.root calls 19
# modules the corpus lacks: one line, not 19 or 38); the same for missing user functions. Lines
# read like a tool's: "warning: ...", no time stamp. --verbose says each module on a line of its
# own, with where it was searched and the node calling it.
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
modules="EnemyCommon.Common.ControlConfusePresentaition.module.ainb, \
EnemyCommon.Common.sendpressbreakobjectmessage.module.ainb, \
EnemyCommon.common.checkcontactconfusionininterrupt.module.ainb, \
EnemyCommon.common.checkisbattletargetdead.module.ainb, \
EnemyCommon.common.checkseethroughmasktarget.module.ainb, \
EnemyCommon.common.receiveinvestigaterequestmessage.module.ainb, \
EnemyCommon.common.receivereactiondamagerequestmessage.module.ainb, \
EnemyCommon.common.receivetargetdiscoverrequestmessage.module.ainb, \
EnemyUber.brain.sendbattletargetdiscoverrequestmessage.module.ainb, \
EnemyUber.brain.sendmessageforreturndamage.module.module.ainb, \
EnemyUber.brain.stealthattack.module.ainb, \
EnemyUber.weathercheck.brain.module.ainb, \
SelectorTobyShouldEscape.module.ainb, \
Toby.Patrol.module.ainb, \
_LocalModule_2fce4810bfb3.module.ainb, \
_LocalModule_49c457efe66f.module.ainb, \
_LocalModule_c0c88ab744a8.module.ainb, \
_LocalModule_f245116aaa26.module.ainb, \
_LocalModule_fb9ca8611fe0.module.ainb"
expected="warning: 19 modules not found, run as stubs: $modules (--verbose: where each was searched)
warning: 2 user functions not registered, the expressions calling them give their stored values: \
GetBBCodeBool( Bool, Int ), GetBBCodeVector3F( Vector3F, Int ) (--verbose: the files calling each)"
status=0
check() {  # NAME EXPECTED ACTUAL
  if [ "$2" != "$3" ]; then
    printf '%s: expected on stderr:\n%s\ngot:\n%s\n' "$1" "$2" "$3" >&2
    status=1
  fi
}
check "ainb regress" "$expected" \
  "$("$1" regress "$file" "$file" --frames 5 --stub-missing-modules 2>&1 >/dev/null)"
check "ainb run" "$expected" "$("$1" run "$file" --frames 5 --stub-missing-modules 2>&1 >/dev/null)"
verbose=$("$1" regress "$file" "$file" --frames 5 --stub-missing-modules --verbose 2>&1 >/dev/null)
check "ainb regress --verbose: the lines of modules" 19 "$(printf '%s\n' "$verbose" | grep -c '^warning: module ".*" not found (searched ')"
check "ainb regress --verbose: a module's line" \
  "warning: module \"Toby.Patrol.module.ainb\" not found (searched $2/ainb), run as a stub: called by $file node 95" \
  "$(printf '%s\n' "$verbose" | grep 'Toby.Patrol')"
check "ainb regress --verbose: the lines" 21 "$(printf '%s\n' "$verbose" | grep -c '^warning: ')"
exit $status
