#!/bin/bash
# `aisim sweep` when things go wrong: a point whose run is killed is recorded with its outcome while the others
# finish (exit 1); a sweep killed outright keeps its finished points, and --resume runs only the rest and ends with
# the sweep.csv of a sweep never interrupted.
set -u
AISIM=$1
SCENARIO=$2
OUT=$3
LONG_DAYS=${4:-3650} # point 2's simulated days: the sanitizer build, ten times slower or more, passes fewer
rm -rf "$OUT"
mkdir -p "$OUT"
fail() { echo "FAIL: $*"; exit 1; }
# Point 2 simulates ten years (a few seconds), long enough to be killed while it runs; the others one or two days.
VARY=(--vary "/simulation/duration=1d,${LONG_DAYS}d,2d" --progress none -j 1)

# Waits until point 2's run has started (its log exists), then prints the pid of the sweep's running child.
running_child() {
  local sweep=$1 dir=$2
  for _ in $(seq 1 600); do
    if [ -e "$dir/points/point-000002/run.log" ]; then
      local child
      child=$(pgrep -P "$sweep" | head -1)
      [ -n "$child" ] && { echo "$child"; return 0; }
    fi
    sleep 0.05
  done
  return 1
}

# 1. A crashing point: its child killed with SIGKILL.
"$AISIM" sweep "$SCENARIO" "${VARY[@]}" --out "$OUT/crash" > "$OUT/crash.out" 2>&1 &
sweep=$!
child=$(running_child $sweep "$OUT/crash") || fail "point 2 never started"
kill -9 "$child"
wait $sweep
rc=$?
[ $rc -eq 1 ] || fail "a sweep with a killed point exited $rc, expected 1: $(cat "$OUT/crash.out")"
grep -q "^2,failed,$LONG_DAYS," "$OUT/crash/sweep.csv" || fail "point 2 not recorded as failed: $(cat "$OUT/crash/sweep.csv")"
grep -q '^3,ok,2,' "$OUT/crash/sweep.csv" || fail "point 3 did not run after the crash"
grep -q 'killed by signal 9' "$OUT/crash/sweep.json" || fail "sweep.json does not say how point 2 ended"
grep -q 'killed by signal 9' "$OUT/crash.out" || fail "the summary does not say how point 2 ended"

# 2. The whole sweep killed while point 2 runs (its process group, as a lost session would), then resumed.
setsid "$AISIM" sweep "$SCENARIO" "${VARY[@]}" --out "$OUT/killed" > /dev/null 2>&1 &
sweep=$!
running_child $sweep "$OUT/killed" > /dev/null || fail "point 2 never started in the sweep to kill"
kill -9 -- -$sweep
wait $sweep 2> /dev/null
[ -e "$OUT/killed/points/point-000001/results.json" ] || fail "point 1's results did not survive the kill"
[ -e "$OUT/killed/points/point-000002/results.json" ] && fail "point 2 finished before the kill: the test proves nothing"
touch -d '2000-01-01' "$OUT/killed/points/point-000001/results.json"
"$AISIM" sweep "$SCENARIO" "${VARY[@]}" --out "$OUT/killed" --resume > "$OUT/resume.out" 2>&1 ||
  fail "--resume exited $?: $(cat "$OUT/resume.out")"
grep -q '3 finished, 0 failed (2 run in this call, 1 finished before)' "$OUT/resume.out" ||
  fail "--resume did not run exactly the 2 unfinished points: $(cat "$OUT/resume.out")"
[ "$(stat -c %Y "$OUT/killed/points/point-000001/results.json")" -lt 1000000000 ] || fail "--resume ran point 1 again"
"$AISIM" sweep "$SCENARIO" "${VARY[@]}" --out "$OUT/straight" > /dev/null 2>&1 || fail "the uninterrupted sweep failed"
cmp "$OUT/killed/sweep.csv" "$OUT/straight/sweep.csv" || fail "the resumed sweep.csv differs from an uninterrupted one"

# 3. Ctrl+C (SIGINT) while point 2 runs: it is stopped, nothing more starts, the rest are recorded as not run and the
#    sweep exits 130 with its files written.
"$AISIM" sweep "$SCENARIO" "${VARY[@]}" --out "$OUT/int" > "$OUT/int.out" 2>&1 &
sweep=$!
running_child $sweep "$OUT/int" > /dev/null || fail "point 2 never started in the sweep to interrupt"
kill -INT $sweep
wait $sweep
rc=$?
[ $rc -eq 130 ] || fail "an interrupted sweep exited $rc, expected 130: $(cat "$OUT/int.out")"
grep -q '^1,ok,1,' "$OUT/int/sweep.csv" && grep -q "^2,not_run,$LONG_DAYS," "$OUT/int/sweep.csv" &&
  grep -q '^3,not_run,2,' "$OUT/int/sweep.csv" || fail "the interrupted sweep's table: $(cat "$OUT/int/sweep.csv")"
grep -q '"state": "interrupted"' "$OUT/int/sweep.json" || fail "sweep.json does not say it was interrupted"

# 4. --resume with other arguments is refused.
"$AISIM" sweep "$SCENARIO" --vary /simulation/duration=1d,2d --out "$OUT/killed" --resume > "$OUT/other.out" 2>&1
rc=$?
[ $rc -eq 2 ] && grep -q 'started with another' "$OUT/other.out" || fail "--resume with other --vary: exit $rc"
echo "sweep crash and resume: ok"
