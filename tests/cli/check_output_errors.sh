#!/bin/bash
# Writes that cannot be done are clear errors naming the file and the system's reason, found before the simulation
# where they can be (exit 2, bad input: --progress jsonl then prints no progress), with the folder's previous set
# kept and nothing half-written left: a file-size limit after the simulation (exit 1), a full disk and a read-only
# one before it.
set -u
AISIM=$1
SCENARIO=$2
OUT=$3
rm -rf "$OUT"
mkdir -p "$OUT"
fail() { echo "FAIL: $*"; exit 1; }
leftovers() { find "$1" -name '*.aisim-staging' -o -name '.*.tmp' | head -3; }

"$AISIM" run "$SCENARIO" --progress none --out "$OUT/run" > /dev/null 2>&1 || fail "the first run"
cp "$OUT/run/results.json" "$OUT/before.json"

# A file-size limit (ulimit -f, in 1 KiB blocks) that results.json fits and timeseries.csv does not.
(ulimit -f 16; "$AISIM" run "$SCENARIO" --progress none --seed 9 --out "$OUT/run" > /dev/null 2> "$OUT/fsize.err")
rc=$?
[ $rc -eq 1 ] && grep -q "run/timeseries.csv: cannot write (File too large); the folder keeps what it held" \
  "$OUT/fsize.err" || fail "past a file-size limit: exit $rc: $(cat "$OUT/fsize.err")"
grep -q "internal error" "$OUT/fsize.err" && fail "a write failure reported as an internal error"
cmp -s "$OUT/before.json" "$OUT/run/results.json" || fail "a failed write changed the folder's results.json"
[ -z "$(leftovers "$OUT")" ] || fail "a failed write left $(leftovers "$OUT")"

# A full disk and a read-only one need a small file system of their own: a tmpfs, where this test may mount one.
mnt="$OUT/mnt"
mkdir -p "$mnt"
if ! mount -t tmpfs -o size=256k tmpfs "$mnt" 2> /dev/null; then
  echo "SKIP: cannot mount a tmpfs here (needs root with CAP_SYS_ADMIN): full and read-only disks not tried (the"
  echo "file-size limit case passed); ctest reports the test skipped"
  exit 77
fi
trap 'umount "$mnt" 2> /dev/null' EXIT
"$AISIM" run "$SCENARIO" --progress jsonl --out "$mnt/run" > "$OUT/full.out" 2> "$OUT/full.err"
rc=$?
[ $rc -eq 2 ] && grep -q "mnt/run: the run's files need about .* MB and its disk has .* MB free" "$OUT/full.err" ||
  fail "a disk too small: exit $rc: $(cat "$OUT/full.err")"
grep -q progress "$OUT/full.out" && fail "a disk too small was found only after simulating"
[ -z "$(ls -A "$mnt")" ] || fail "a refused run left $(ls -A "$mnt") on the small disk"

mkdir -p "$mnt/run"
mount -o remount,ro "$mnt" || fail "cannot make the tmpfs read-only"
"$AISIM" run "$SCENARIO" --progress jsonl --out "$mnt/run" > "$OUT/ro.out" 2> "$OUT/ro.err"
rc=$?
[ $rc -eq 2 ] && grep -q "Read-only file system" "$OUT/ro.err" && grep -q "$mnt" "$OUT/ro.err" ||
  fail "a read-only disk: exit $rc: $(cat "$OUT/ro.err")"
grep -q progress "$OUT/ro.out" && fail "a read-only disk was found only after simulating"
echo "output errors: ok"
