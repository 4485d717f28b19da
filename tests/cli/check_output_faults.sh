#!/bin/bash
# What aisim must never lose or leave behind (issue 55): a user's folder where a file of the set goes is an error
# naming it (exit 2, before anything runs), not deleted; an output place that cannot be used is bad input (exit 2);
# an interrupted replica set commits no staging folder of a killed replica and cites only logs that exist; a --set
# pointer that is not UTF-8 is named.
set -u
AISIM=$1
SCENARIO=$2
OUT=$3
rm -rf "$OUT"
mkdir -p "$OUT"
fail() { echo "FAIL: $*"; exit 1; }
run() { "$AISIM" run "$SCENARIO" --progress jsonl "$@" > "$OUT/out" 2> "$OUT/err"; }

# A folder of the user's named results.json or timeseries.csv, holding the user's files: refused naming it, before
# the run (no progress), and kept whole. (Before: removed with its contents and replaced by aisim's file.)
for name in results.json timeseries.csv report.html; do
  dir="$OUT/in-the-way-$name"
  mkdir -p "$dir/$name"
  echo "mine" > "$dir/$name/notes.txt"
  run --out "$dir"
  rc=$?
  [ $rc -eq 2 ] && grep -q "$name: in the way: a folder aisim did not write" "$OUT/err" ||
    fail "a folder named $name in --out: exit $rc: $(cat "$OUT/err")"
  grep -q progress "$OUT/out" && fail "a folder named $name in the way was found only after simulating"
  [ "$(cat "$dir/$name/notes.txt")" = mine ] || fail "the user's $name/notes.txt was lost"
  [ -e "$dir/.aisim-outputs.json" ] && fail "a refused run committed a set into $dir"
done
# With --no-report a folder named report.html is not in the way, and stays.
run --out "$OUT/in-the-way-report.html" --no-report || fail "--no-report beside a folder named report.html: $(cat "$OUT/err")"
[ "$(cat "$OUT/in-the-way-report.html/report.html/notes.txt")" = mine ] || fail "--no-report lost report.html/notes.txt"
# A link named results.json (to a file of the user's) is not aisim's either.
mkdir -p "$OUT/link"
echo "theirs" > "$OUT/theirs.json"
ln -s "$OUT/theirs.json" "$OUT/link/results.json"
run --out "$OUT/link"
[ $? -eq 2 ] && grep -q "results.json: in the way: a link" "$OUT/err" || fail "a link named results.json: $(cat "$OUT/err")"
[ "$(cat "$OUT/theirs.json")" = theirs ] || fail "the file behind a link named results.json changed"
# aisim's own files are replaced: those its manifest lists, and in a folder from before manifests the files its
# runs write (a folder named replica-0001 without results.json is the user's).
run --out "$OUT/ours" || fail "a first run: $(cat "$OUT/err")"
run --out "$OUT/ours" --seed 5 || fail "a run over aisim's own set: $(cat "$OUT/err")"
rm "$OUT/ours/.aisim-outputs.json"
run --out "$OUT/ours" --seed 6 || fail "a run over a set from before manifests: $(cat "$OUT/err")"
mkdir -p "$OUT/replicas/replica-0002"
echo "mine" > "$OUT/replicas/replica-0002/notes.txt"
"$AISIM" run "$SCENARIO" --replicas 2 -j 1 --progress none --out "$OUT/replicas" > /dev/null 2> "$OUT/err"
[ $? -eq 2 ] && grep -q "replica-0002: in the way: a folder aisim did not write" "$OUT/err" ||
  fail "a folder of the user's named replica-0002: $(cat "$OUT/err")"
[ "$(cat "$OUT/replicas/replica-0002/notes.txt")" = mine ] || fail "replica-0002/notes.txt was lost"

# An output place that cannot be used is bad input: exit 2, nothing written.
run --out /dev/null/x
[ $? -eq 2 ] && grep -q "/dev/null/x: cannot create the output folder" "$OUT/err" || fail "--out /dev/null/x: $(cat "$OUT/err")"

# A replica set interrupted (SIGINT) while replicas run: exit 130, no killed replica's staging folder in the set,
# and every log the summary cites exists.
# (scenarios/failures.json over a year: about a second a replica)
"$AISIM" run "$(dirname "$SCENARIO")/failures.json" --replicas 6 -j 2 --progress none --set /simulation/duration=1y \
  --out "$OUT/stopped" \
  > "$OUT/stopped.out" 2> "$OUT/stopped.err" &
pid=$!
for _ in $(seq 200); do [ -n "$(ls -A "$OUT/.stopped.aisim-staging" 2> /dev/null)" ] && break; sleep 0.02; done
sleep 0.3
kill -INT "$pid"
wait "$pid"
rc=$?
[ $rc -eq 130 ] || fail "an interrupted replica set exited $rc: $(cat "$OUT/stopped.err")"
head -1 "$OUT/stopped.out" | grep -q ": failures, 6 replicas" ||
  fail "the summary of an interrupted set does not name its scenario: $(head -1 "$OUT/stopped.out")"
left=$(find "$OUT/stopped" "$OUT" -maxdepth 2 -name '*.aisim-staging' | head -3)
[ -z "$left" ] || fail "an interrupted replica set left staging folders: $left"
grep -o '(see [^)]*)' "$OUT/stopped.out" | sed 's/^(see //; s/)$//' | while read -r log; do
  [ -f "$log" ] || { echo "FAIL: the summary cites $log, which does not exist"; exit 1; }
done || exit 1

# A --set whose pointer is not UTF-8 names it, its bytes shown.
"$AISIM" check "$SCENARIO" --set "$(printf '/simulation/\xff=1')" > /dev/null 2> "$OUT/err"
[ $? -eq 2 ] && grep -qF -- '--set /simulation/\xFF: the pointer is not UTF-8 text' "$OUT/err" ||
  fail "a --set pointer that is not UTF-8: $(cat "$OUT/err")"
echo "output faults: ok"
