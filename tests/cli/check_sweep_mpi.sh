#!/bin/bash
# `mpirun -n 2 aisim sweep` gives the sweep.csv of `aisim sweep -j 2`, byte for byte: ranks run points, rank 0
# gathers. Also with files sent back to rank 0 as from another machine (AISIM_MPI_SEND_FILES=1: each point then runs
# in a scratch folder of its rank's, removed afterwards), and `aisim run --replicas` through the same executor.
set -u
AISIM=$1
SCENARIO=$2
OUT=$3
rm -rf "$OUT"
mkdir -p "$OUT"
fail() { echo "FAIL: $*"; exit 1; }
# CI runs as root in a container: allow it, and use shared memory without cross-process copies (ptrace is denied).
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_btl_vader_single_copy_mechanism=none
export OMPI_MCA_rmaps_base_oversubscribe=1
MPIRUN=(mpirun --oversubscribe -n 2)
ARGS=(sweep "$SCENARIO" --vary /storage/hot/enclosures=2..7:1 --vary /workloads/0/checkpoint/interval=30min,1h
      --set /simulation/duration=1d --progress none)

"$AISIM" "${ARGS[@]}" -j 2 --out "$OUT/local" > "$OUT/local.out" 2>&1 || fail "local sweep: $(cat "$OUT/local.out")"
"${MPIRUN[@]}" "$AISIM" "${ARGS[@]}" --out "$OUT/mpi" > "$OUT/mpi.out" 2>&1 || fail "mpirun sweep: $(cat "$OUT/mpi.out")"
grep -q '12 finished, 0 failed.* on 2 MPI ranks of 1 worker each' "$OUT/mpi.out" || fail "the MPI sweep's summary: $(cat "$OUT/mpi.out")"
cmp "$OUT/local/sweep.csv" "$OUT/mpi/sweep.csv" || fail "sweep.csv differs between 2 MPI ranks and 2 local workers"

mkdir -p "$OUT/tmp"
AISIM_MPI_SEND_FILES=1 "${MPIRUN[@]}" -x AISIM_MPI_SEND_FILES -x TMPDIR="$OUT/tmp" "$AISIM" "${ARGS[@]}" \
  --out "$OUT/sent" > "$OUT/sent.out" 2>&1 || fail "mpirun sweep sending files: $(cat "$OUT/sent.out")"
cmp "$OUT/local/sweep.csv" "$OUT/sent/sweep.csv" || fail "sweep.csv differs when the points' files are sent to rank 0"
# Points go to whichever rank is free, so which ran where varies: every point must have arrived whole.
for p in "$OUT"/sent/points/point-*; do
  for f in results.json timeseries.csv run.log; do
    [ -s "$p/$f" ] || fail "$(basename "$p") arrived without $f"
  done
done
# Those that ran on rank 1 were committed by rank 0 as one set (its manifest names run.log, which a local run's
# own set does not hold), and left no staging folder behind.
grep -l '"run.log"' "$OUT"/sent/points/point-*/.aisim-outputs.json > /dev/null 2>&1 ||
  fail "no point sent to rank 0 was committed as a set"
if ls -A "$OUT/sent/points" | grep -q aisim-staging; then fail "a staging folder was left in $OUT/sent/points"; fi
[ -z "$(ls -A "$OUT/tmp" 2> /dev/null)" ] || fail "rank 1 left its scratch folders: $(ls "$OUT/tmp")"

"${MPIRUN[@]}" "$AISIM" sweep "$SCENARIO" --vary /storage/hot/enclosures=8..2:1 --out "$OUT/bad" > "$OUT/bad.out" 2>&1
rc=$?
[ $rc -eq 2 ] && grep -q 'empty range' "$OUT/bad.out" || fail "bad input under mpirun: exit $rc: $(cat "$OUT/bad.out")"
echo "sweep over MPI ranks: ok"
