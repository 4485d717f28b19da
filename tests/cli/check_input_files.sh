#!/bin/bash
# Files handed to aisim that are not what they should be: an endless device, a folder, a results.json that is a
# link to one. Each is a clear error naming it (exit 2), read no further than the input limit. And a scenario whose
# timeseries would not fit in memory.
set -u
AISIM=$1
SCENARIO=$2
OUT=$3
rm -rf "$OUT"
mkdir -p "$OUT"
fail() { echo "FAIL: $*"; exit 1; }
expect() { # expect WANT_RC PATTERN COMMAND...
  local want=$1 pattern=$2
  shift 2
  "$@" > "$OUT/out" 2> "$OUT/err"
  local rc=$?
  [ $rc -eq "$want" ] && grep -q -- "$pattern" "$OUT/err" || fail "$*: exit $rc: $(cat "$OUT/err")"
  grep -q "internal error" "$OUT/err" && fail "$*: an internal error: $(cat "$OUT/err")"
  return 0
}
expect 2 "/dev/zero: larger than 256 MiB" "$AISIM" check /dev/zero
expect 2 "/dev/zero: larger than 256 MiB" "$AISIM" run /dev/zero --out "$OUT/zero"
[ -e "$OUT/zero" ] && fail "a refused scenario left $OUT/zero"
expect 2 "$OUT: a folder, not a file" "$AISIM" check "$OUT"
mkdir -p "$OUT/results"
ln -s /dev/zero "$OUT/results/results.json"
expect 2 "not a results folder" "$AISIM" report "$OUT/results"
expect 2 "results.json" "$AISIM" compare "$OUT/results" "$OUT/results" --out "$OUT/cmp"
# A timeseries no machine could hold (a microsecond over a week: about 1.7e5 GB) is refused before the run, with
# the key and a resolution that fits; nothing is written.
expect 2 "/simulation/timeseries_resolution: the timeseries would have 6.05e+11 rows" \
  "$AISIM" run "$SCENARIO" --set /simulation/timeseries_resolution=1us --out "$OUT/fine"
grep -q "expected a resolution of at least" "$OUT/err" || fail "no resolution that fits: $(cat "$OUT/err")"
[ -e "$OUT/fine" ] && fail "a refused run left $OUT/fine"
# A model no machine here could hold (ten million GPUs at fidelity full on scenarios/lifecycle.json's leaves of 16
# nodes: 78,000 node sets, a routing table of about 210 GB) is refused before the run, naming the key and the
# estimate, with fidelity aggregate (about 1.6 GB) as the way out; nothing is written.
LIFECYCLE="$(dirname "$SCENARIO")/lifecycle.json"
huge=(--set /cluster/node_groups/0/count=1250000 --set /workloads/0/gpus=10000000 --set /simulation/fidelity=full)
expect 2 "/simulation/fidelity: the model of 1,250,000 nodes at fidelity full would need about" \
  "$AISIM" run "$LIFECYCLE" "${huge[@]}" --out "$OUT/huge"
grep -q 'expected fidelity "aggregate"' "$OUT/err" || fail "no way out named: $(cat "$OUT/err")"
[ -e "$OUT/huge" ] && fail "a refused run left $OUT/huge"
# `aisim check` refuses what `aisim run` refuses before simulating (it said "ok" to both), in text and as JSON.
expect 2 "/simulation/fidelity: the model of 1,250,000 nodes at fidelity full would need about" \
  "$AISIM" check "$LIFECYCLE" "${huge[@]}"
expect 2 "/simulation/timeseries_resolution: the timeseries would have 6.05e+11 rows" \
  "$AISIM" check "$SCENARIO" --set /simulation/timeseries_resolution=1us
"$AISIM" check "$SCENARIO" --set /simulation/timeseries_resolution=1us --json > "$OUT/check.json"
[ $? -eq 2 ] || fail "check --json of a timeseries that does not fit did not exit 2"
python3 - "$OUT/check.json" <<'PY' || fail "check --json: $(cat "$OUT/check.json")"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["ok"] is False
assert [e["pointer"] for e in d["errors"]] == ["/simulation/timeseries_resolution"]
assert d["memory"]["timeseries_bytes"] > d["memory"]["available_bytes"] > 0
PY
# The warnings README promises before a long run, from check as from run: fidelity full past 256 nodes where a
# system's servers stay apart (failures.json: 2,048 nodes, both systems can fail), named in --json's warnings too.
expect 0 '/simulation/fidelity: warning: fidelity full with 2,048 nodes keeps each server of "hot", "warm" apart' \
  "$AISIM" check "$(dirname "$SCENARIO")/failures.json" --set /simulation/fidelity=full
"$AISIM" check "$(dirname "$SCENARIO")/failures.json" --set /simulation/fidelity=full --json > "$OUT/full.json" ||
  fail "check --json of failures.json at full did not exit 0"
python3 - "$OUT/full.json" <<'PY' || fail "check --json: no warning at /simulation/fidelity: $(cat "$OUT/full.json")"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["ok"] is True and [w["pointer"] for w in d["warnings"]] == ["/simulation/fidelity"]
PY
# Past 10 million rows a run warns how many and how much memory (docs/commands.md): a day at 8 ms is 10,800,000 rows, about
# 3.1 GB. A machine without that memory to spare refuses it instead, which is checked above.
"$AISIM" check "$SCENARIO" --set /simulation/duration=1d --set /simulation/timeseries_resolution=8ms > /dev/null \
  2> "$OUT/rows.err"
rc=$?
if [ $rc -eq 0 ]; then
  grep -q "/simulation/timeseries_resolution: warning: timeseries.csv will have 10,800,000 rows (about" "$OUT/rows.err" ||
    fail "no warning past 10 million rows: $(cat "$OUT/rows.err")"
else
  grep -q "the timeseries would have 1.08e+07 rows" "$OUT/rows.err" || fail "10.8 million rows: exit $rc: $(cat "$OUT/rows.err")"
  echo "note: this machine cannot spare 3.1 GB: the warning past 10 million rows was not reached"
fi
echo "input files: ok"
