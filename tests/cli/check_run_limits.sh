#!/bin/bash
# --max-events and --max-wall: a run they stop ends its period there, as the scenario's end would, writes its
# results marked as stopped and exits 3; its figures are those of a run of that shorter duration. A limit that is
# not reached changes nothing. Bad limits are refused before anything runs.
set -u
AISIM=$1
SCENARIO=$2
OUT=$3
CHECK=$4
rm -rf "$OUT"
mkdir -p "$OUT"
fail() { echo "FAIL: $*"; exit 1; }
json() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print($2)" "$1"; }

"$AISIM" run "$SCENARIO" --out "$OUT/full" --progress none --no-report > /dev/null || fail "the full run failed"
events=$(json "$OUT/full/results.json" 'd["sim"]["events"]')

# A limit not reached: the same results (the limit is looked at between finer slices, which change nothing).
"$AISIM" run "$SCENARIO" --out "$OUT/unreached" --progress none --no-report --max-events 1e12 --max-wall 1h \
  > /dev/null || fail "a run with limits it never reached exited $?"
# (The command line differs, --out and the limits; `same` leaves the invocation out.)
"$CHECK" same "$OUT/full/results.json" "$OUT/unreached/results.json" > /dev/null ||
  fail "a limit not reached changed the results"
cmp -s "$OUT/full/timeseries.csv" "$OUT/unreached/timeseries.csv" || fail "a limit not reached changed timeseries.csv"

# Stopped half way by events: exit 3, marked in results.json, the summary and the report, and its figures those of
# a run of the duration it reached.
"$AISIM" run "$SCENARIO" --out "$OUT/part" --progress none --max-events $((events / 2)) > "$OUT/part.txt" 2> "$OUT/part.err"
rc=$?
[ $rc -eq 3 ] || fail "a stopped run exited $rc, not 3: $(cat "$OUT/part.err")"
grep -q "^STOPPED EARLY: stopped by --max-events" "$OUT/part.txt" || fail "the summary does not say it stopped"
grep -q "aisim: stopped by --max-events" "$OUT/part.err" || fail "stderr does not say it stopped"
grep -q "stopped by --max-events" "$OUT/part/report.html" || fail "the report does not say it stopped"
[ "$(json "$OUT/part/results.json" 'd["sim"]["stopped"]["by"]')" = max_events ] || fail "results.json: no sim.stopped"
reached=$(json "$OUT/part/results.json" 'repr(d["sim"]["simulated_s"])')
"$AISIM" run "$SCENARIO" --out "$OUT/cut" --progress none --no-report --set "/simulation/duration=${reached}s" \
  > /dev/null || fail "the run of the reached duration failed"
python3 - "$OUT/part/results.json" "$OUT/cut/results.json" "$OUT/full/results.json" <<'PY' || exit 1
import json, sys
part, cut, full = (json.load(open(p)) for p in sys.argv[1:])
def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)
T, period = part["sim"]["simulated_s"], part["sim"]["stopped"]["period_s"]
if not (0 < T < period == full["sim"]["simulated_s"]):
    fail(f"stopped at {T} s of a {period} s period")
if not part["warnings"][0].startswith("stopped by --max-events"):
    fail("the stop is not the first warning")
shares = [part["gpu"]["utilization"]] + list(part["gpu"]["stall"].values())
if abs(sum(shares) - 1) > 1e-9:
    fail(f"GPU-time shares sum to {sum(shares)}")
for k in ("utilization",):
    if abs(part["gpu"][k] - cut["gpu"][k]) > 1e-3:
        fail(f"{k}: {part['gpu'][k]} stopped, {cut['gpu'][k]} run for that duration")
for jp, jc in zip(part["jobs"], cut["jobs"]):
    sp, sc = jp.get("steps", 0), jc.get("steps", 0)
    if abs(sp - sc) > max(2, 0.001 * sc):
        fail(f"job {jp['name']}: {sp} steps stopped, {sc} run for that duration")
    if sp >= [j for j in full["jobs"] if j["name"] == jp["name"]][0].get("steps", 0) > 0:
        fail(f"job {jp['name']}: as many steps stopped as in the whole period")
PY
# The stopped run meets the results contract: nothing after the stop counted (a failure drawn past it, reached by an
# actor asleep when the stop came, once counted a negative time out of service).
"$CHECK" contract "$OUT/part/results.json" || fail "the stopped run breaks the results contract"
rows=$(($(wc -l < "$OUT/part/timeseries.csv") - 1))
full_rows=$(($(wc -l < "$OUT/full/timeseries.csv") - 1))
[ "$rows" -lt "$full_rows" ] || fail "timeseries.csv of the stopped run has $rows rows, the whole period $full_rows"

# Stopped by wall time: a limit below what the run takes stops it in its first slices.
"$AISIM" run "$SCENARIO" --out "$OUT/wall" --progress none --no-report --max-wall 1us > /dev/null 2>&1
rc=$?
[ $rc -eq 3 ] || fail "--max-wall 1us exited $rc, not 3"
[ "$(json "$OUT/wall/results.json" 'd["sim"]["stopped"]["by"]')" = max_wall ] || fail "results.json: not stopped by max_wall"

# Replicas pass the limits on; a stopped replica is named and left out of the statistics.
"$AISIM" run "$SCENARIO" --out "$OUT/replicas" --progress none --replicas 2 -j 1 --max-events $((events / 2)) \
  > "$OUT/replicas.txt" 2>&1
rc=$?
[ $rc -eq 1 ] || fail "replicas stopped by a limit exited $rc, not 1"
grep -q "stopped by --max-wall or --max-events" "$OUT/replicas.txt" || fail "replicas: the stop is not named"
for r in "$OUT"/replicas/replica-*/results.json; do
  "$CHECK" contract "$r" || fail "$r breaks the results contract"
done

# Bad limits: exit 2 naming the flag, nothing written.
for bad in "--max-wall 0s" "--max-wall 10GB" "--max-wall soon" "--max-events 0" "--max-events 1.5" \
  "--max-events -3" "--max-events many" "--max-events 1e19"; do
  # shellcheck disable=SC2086
  "$AISIM" run "$SCENARIO" --out "$OUT/bad" --progress none $bad > /dev/null 2> "$OUT/bad.err"
  rc=$?
  [ $rc -eq 2 ] || fail "$bad: exit $rc, not 2"
  grep -q -- "${bad% *}" "$OUT/bad.err" || fail "$bad: the error does not name the flag: $(cat "$OUT/bad.err")"
  [ -e "$OUT/bad" ] && fail "$bad: something was written"
done
echo "run limits: ok"
