#!/usr/bin/env bash
# Runs the libFuzzer harnesses of fuzz/ under ASan + UBSan (built by the `asan` preset, clang, beside
# the sanitized test suite), each for SECONDS (default 60), as many at a time as there are cores,
# and fails on any finding. Prints each harness's executions.
#
#   scripts/fuzz.sh [SECONDS] [HARNESS...]      harnesses: loader exb runtime byml aamp sarc zstd
#
# Seeds: the committed regression corpus (fuzz/regressions/<harness>/), the real files of
# ../shared/corpus (AINB files; their EXB sections; BYML, AAMP; the packs, decompressed to SARC;
# small files compressed for zstd) and the bundled examples when build/release has them. Each
# harness keeps the corpus it grows in build/fuzz/corpus/<harness>/ (so later runs start further),
# its log in build/fuzz/logs/<harness>.log, and a finding (crash, leak, timeout, sanitizer report,
# an exception other than the expected LoadError) in build/fuzz/findings/<harness>/. A finding
# that is fixed goes into fuzz/regressions/<harness>/, which the test suite replays.
# SECONDS 0 is no time limit. Extra libFuzzer flags come from FUZZ_FLAGS, e.g. the long run of
# docs/robustness.md: FUZZ_FLAGS=-runs=10000000 scripts/fuzz.sh 0 loader
set -euo pipefail
cd "$(dirname "$0")/.."

seconds="${1:-60}"
if (($# > 0)); then shift; fi
all=(loader exb runtime byml aamp sarc zstd text)
harnesses=("$@")
if ((${#harnesses[@]} == 0)); then harnesses=("${all[@]}"); fi
for h in "${harnesses[@]}"; do
  [[ " ${all[*]} " == *" $h "* ]] || { echo "fuzz: unknown harness '$h' (have: ${all[*]})" >&2; exit 2; }
done

scripts/build.sh asan fuzz_harnesses >/dev/null
corpus="${AINB_CORPUS:-../shared/corpus}"
out=build/fuzz
if [[ ! -d "$corpus" ]]; then
  echo "fuzz: no corpus at $corpus: seeding from fuzz/regressions and the examples only" >&2
fi

# Copies `$@` (existing regular files) into the seed folder $dir.
copy() { for f in "$@"; do [[ -f "$f" ]] && cp "$f" "$dir/"; done; return 0; }
ainb_files() { ls "$corpus"/ainb/*.ainb build/release/examples/*.ainb 2>/dev/null || true; }
u32() { od -An -t u4 -j "$2" -N 4 "$1" | tr -d ' '; }

seed() {
  local h="$1"
  dir="$out/seeds/$h"
  rm -rf "$dir" && mkdir -p "$dir"
  case "$h" in
    loader | runtime) copy $(ainb_files) ;;
    exb)  # 13 bytes of evaluation input (zeros), then the file's EXB section (header slot 0x44)
      for f in $(ainb_files); do
        local begin end
        begin=$(u32 "$f" 68) end=$(u32 "$f" 72)
        if ((begin != 0 && end > begin)); then
          # dd, not `tail | head`: under pipefail, head closing early kills tail with SIGPIPE.
          { head -c 13 /dev/zero
            dd if="$f" iflag=skip_bytes,count_bytes skip="$begin" count="$((end - begin))" status=none
          } >"$dir/$(basename "$f").exb"
        fi
      done ;;
    byml) copy $(ls "$corpus"/byml/* 2>/dev/null | grep -v '\.yml$') ;;
    aamp) copy $(ls "$corpus"/aamp/* 2>/dev/null | grep -v '\.yml$') ;;
    sarc)
      for f in "$corpus"/packs/*.pack.zs; do
        [[ -f "$f" ]] || continue
        zstd -q -d -f -D "$corpus/zsdic/pack.zsdic" "$f" -o "$dir/$(basename "$f" .zs).sarc" || true
      done ;;
    text) copy examples/*.json ;;  # the text form of the bundled examples
    zstd)
      copy "$corpus/zsdic/ZsDic.pack.zs" "$corpus"/packs/*.pack.zs
      local files
      mapfile -t files < <(ainb_files)
      for f in "${files[@]:0:4}"; do zstd -q -19 -c "$f" >"$dir/$(basename "$f").zs"; done ;;
  esac
}

# Inputs longer than this are cut: small inputs keep the executions per second high.
max_len() { case "$1" in exb) echo 4096 ;; loader | runtime) echo 8192 ;; *) echo 16384 ;; esac; }

# Runs one harness; its exit status goes to $out/logs/<harness>.status.
fuzz_one() {
  local h="$1" status=0
  # shellcheck disable=SC2086  # FUZZ_FLAGS is a list of flags
  nice -n 10 build/asan/fuzz/fuzz_"$h" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
    -max_len="$(max_len "$h")" -print_final_stats=1 -close_fd_mask=3 \
    -artifact_prefix="$out/findings/$h/" ${FUZZ_FLAGS:-} \
    "$out/corpus/$h" "$out/seeds/$h" "fuzz/regressions/$h" >"$out/logs/$h.log" 2>&1 || status=$?
  echo "$status" >"$out/logs/$h.status"
}

for h in "${harnesses[@]}"; do
  seed "$h"
  mkdir -p "$out/corpus/$h" "$out/findings/$h" "$out/logs"
  rm -f "$out/findings/$h"/* "$out/logs/$h.status"
done
running=0
for h in "${harnesses[@]}"; do
  if ((running >= $(nproc))); then wait -n || true; running=$((running - 1)); fi
  fuzz_one "$h" &
  running=$((running + 1))
done
wait

failed=()
printf '%-8s %12s %9s %8s %9s\n' harness executions exec/s corpus findings
for h in "${harnesses[@]}"; do
  status=$(cat "$out/logs/$h.status")
  figure() { sed -n "s/^stat::$1: *//p" "$out/logs/$h.log" | tail -1; }
  findings=$(find "$out/findings/$h" -type f | wc -l)
  printf '%-8s %12s %9s %8s %9s\n' "$h" "$(figure number_of_executed_units)" \
    "$(figure average_exec_per_sec)" "$(ls "$out/corpus/$h" | wc -l)" "$findings"
  if ((status != 0 || findings != 0)); then
    failed+=("$h")
    echo "fuzz: $h: FINDING (exit $status); log $out/logs/$h.log, input(s):" >&2
    find "$out/findings/$h" -type f >&2
    grep -m 5 -E "ERROR|SUMMARY|terminate|uncaught" "$out/logs/$h.log" >&2 || true
  fi
done

if ((${#failed[@]} != 0)); then
  echo "fuzz: findings in: ${failed[*]}" >&2
  exit 1
fi
echo "fuzz: no findings"
