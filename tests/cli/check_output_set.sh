#!/bin/bash
# A run's outputs are committed as one set (sim/results/output_set): kill -9 at any moment leaves the previous set
# whole or the new one whole, never a mix; a second run into a folder being written is refused at once; a folder
# that is in the way or cannot be used is a clear error before anything is simulated (exit 2). What aisim must not
# touch (a user's folders in the way, another user's folder) is checked in check_output_faults.sh.
set -u
AISIM=$1
SCENARIO=$2
CHECK=$3
OUT=$4
rm -rf "$OUT"
mkdir -p "$OUT"
fail() { echo "FAIL: $*"; exit 1; }
run() { "$AISIM" run "$SCENARIO" --progress none "$@" > /dev/null 2>> "$OUT/errors.log"; }

# The two sets a kill may leave: seed 1's (the folder's before) and seed 2's (the run that is killed).
run --seed 1 --out "$OUT/ref-a" || fail "reference run A: $(cat "$OUT/errors.log")"
start=$(date +%s%N)
run --seed 2 --out "$OUT/ref-b" || fail "reference run B: $(cat "$OUT/errors.log")"
run_ns=$(( $(date +%s%N) - start ))
"$CHECK" same "$OUT/ref-a/results.json" "$OUT/ref-b/results.json" > /dev/null 2>&1 &&
  fail "seeds 1 and 2 give the same results: the test could not tell the sets apart"

# Which whole set the folder holds: a, b, or a description of what is wrong.
set_of() {
  local dir=$1 which=""
  for ref in a b; do
    if "$CHECK" same "$OUT/ref-$ref/results.json" "$dir/results.json" > /dev/null 2>&1; then which=$ref; fi
  done
  [ -n "$which" ] || { echo "results.json is neither set's"; return; }
  cmp -s "$OUT/ref-$which/timeseries.csv" "$dir/timeseries.csv" || { echo "results.json of $which beside another timeseries.csv"; return; }
  [ -s "$dir/report.html" ] || { echo "set $which without its report.html"; return; }
  cmp -s "$OUT/ref-$which/.aisim-outputs.json" "$dir/.aisim-outputs.json" || { echo "set $which without its manifest"; return; }
  echo "$which"
}

# kill -9 at moments spread over the run, the last ones around its end when the files are written and swapped in.
# Both sides of the race must be hit, or the test proves nothing: a kill before the swap (the previous set stays)
# and one after it (the new set is whole). The reference run's time is a guess on a loaded machine, so when no kill
# has yet landed after the swap, later moments are tried until one does.
seen_a=0; seen_b=0
kill_at() {
  local percent=$1
  run --seed 1 --out "$OUT/run" || fail "run A into the folder: $(cat "$OUT/errors.log")"
  "$AISIM" run "$SCENARIO" --progress none --seed 2 --out "$OUT/run" > /dev/null 2>&1 &
  pid=$!
  sleep "$(awk -v ns="$run_ns" -v p="$percent" 'BEGIN { printf "%.3f", ns * p / 100 / 1e9 }')"
  kill -9 "$pid" 2> /dev/null
  wait "$pid" 2> /dev/null
  got=$(set_of "$OUT/run")
  case "$got" in
    a) seen_a=$((seen_a + 1)) ;;
    b) seen_b=$((seen_b + 1)) ;;
    *) fail "killed at ${percent}% of a run: $got" ;;
  esac
}
for percent in 5 20 40 60 75 85 90 94 97 99 101 103 106 110; do kill_at $percent; done
for percent in 130 160 200 300 500 1000; do [ $seen_b -gt 0 ] && break; kill_at $percent; done
[ $seen_a -gt 0 ] || fail "no kill landed before the new set was swapped in"
[ $seen_b -gt 0 ] || fail "no kill landed after the new set was swapped in, even at 10 times the run's time"
echo "kill -9 at $((seen_a + seen_b)) moments: $seen_a left the previous set, $seen_b the new one, none a mix"
# The next run clears what a killed one left beside the folder.
run --seed 2 --out "$OUT/run" || fail "a run after the kills: $(cat "$OUT/errors.log")"
[ "$(set_of "$OUT/run")" = b ] || fail "the run after the kills: $(set_of "$OUT/run")"
[ -z "$(ls -A "$OUT" | grep aisim-staging)" ] || fail "a staging folder was left: $(ls -A "$OUT")"

# Two runs into one folder: the second is refused at once, naming the folder; the first is not disturbed.
"$AISIM" run "$SCENARIO" --progress none --seed 2 --out "$OUT/busy" > /dev/null 2> "$OUT/first.err" &
pid=$!
for _ in $(seq 100); do [ -d "$OUT/.busy.aisim-staging" ] && break; sleep 0.02; done
"$AISIM" run "$SCENARIO" --progress none --seed 1 --out "$OUT/busy" > /dev/null 2> "$OUT/second.err"
rc=$?
wait "$pid" || fail "the first run into a shared folder failed: $(cat "$OUT/first.err")"
[ $rc -eq 2 ] && grep -q "busy: another aisim run is writing this folder" "$OUT/second.err" ||
  fail "the second run into a busy folder: exit $rc: $(cat "$OUT/second.err")"
[ "$(set_of "$OUT/busy")" = b ] || fail "the first run's set after a refused second: $(set_of "$OUT/busy")"

# A planner's own files in the folder stay.
echo "notes" > "$OUT/busy/notes.txt"
run --seed 1 --out "$OUT/busy" || fail "a run beside a planner's notes: $(cat "$OUT/errors.log")"
[ "$(set_of "$OUT/busy")" = a ] || fail "after a run beside a planner's notes: $(set_of "$OUT/busy")"
[ "$(cat "$OUT/busy/notes.txt")" = notes ] || fail "a planner's own file in the output folder was lost"

# Folders that cannot be the output: a file, the current folder. Exit 2 before simulating, nothing written.
echo x > "$OUT/a-file"
"$AISIM" run "$SCENARIO" --out "$OUT/a-file" > /dev/null 2> "$OUT/file.err"
rc=$?
[ $rc -eq 2 ] && grep -q "a-file: exists and is not a folder" "$OUT/file.err" || fail "--out a file: exit $rc: $(cat "$OUT/file.err")"
(cd "$OUT/busy" && "$AISIM" run "$SCENARIO" --out . > /dev/null 2> "$OUT/cwd.err")
rc=$?
[ $rc -eq 2 ] && grep -q "current folder" "$OUT/cwd.err" || fail "--out .: exit $rc: $(cat "$OUT/cwd.err")"
[ "$(set_of "$OUT/busy")" = a ] || fail "a refused --out . changed the folder: $(set_of "$OUT/busy")"
# A sweep holds its folder while it runs: a run into it is refused, and the sweep finishes unharmed.
"$AISIM" sweep "$SCENARIO" --vary /simulation/seed=1..6:1 -j 1 --progress none --out "$OUT/sweep" > /dev/null \
  2> "$OUT/sweep.err" &
pid=$!
for _ in $(seq 200); do [ -f "$OUT/sweep/sweep.json" ] && break; sleep 0.02; done
"$AISIM" run "$SCENARIO" --progress none --out "$OUT/sweep" > /dev/null 2> "$OUT/into-sweep.err"
rc=$?
wait "$pid" || fail "the sweep a run tried to write into: $(cat "$OUT/sweep.err")"
[ $rc -eq 2 ] && grep -q "sweep: another aisim run is writing this folder" "$OUT/into-sweep.err" ||
  fail "a run into a sweep's folder: exit $rc: $(cat "$OUT/into-sweep.err")"
[ "$(grep -c ',ok,' "$OUT/sweep/sweep.csv")" -eq 6 ] || fail "the sweep lost points: $(cat "$OUT/sweep/sweep.csv")"
[ -e "$OUT/sweep/results.json" ] && fail "the refused run wrote into the sweep's folder"
echo "output sets: ok"
