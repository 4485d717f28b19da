#!/usr/bin/env bash
# aisim's io_uring probe and fio side by side on the same file: 4 KiB random read at QD1 and QD32, 128 KiB
# sequential read and write at QD8, 1 MiB sequential read and write at QD4. Prints IOPS, bandwidth, p50 and p99 of
# each tool, their differences and ratio, and how much each tool's own rounds differ (the machine's noise). See
# README.md here. `make bench` runs it with ROUNDS=3 RUNTIME=2 SIZE=1GiB.
#
# Usage: validation/calibration/run.sh [FILE]
#   FILE     the test file (default ./aisim-calibration-validation.dat); created at $SIZE and filled with
#            incompressible data by the probe if missing, and then removed at the end unless KEEP=1.
#   AISIM    the aisim binary (default: build/bin/aisim of this checkout)
#   SIZE     size of a new FILE (default 4GiB)
#   RUNTIME  measured seconds per run (default 5; each run has a 1 s warm-up before it)
#   ROUNDS   rounds of every case with both tools back to back, their order alternating (default 5)
#   READS_ONLY=1  skip the write cases (they overwrite FILE's contents, never anything else)
# Needs fio (Debian: apt-get install fio) and python3.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
AISIM=${AISIM:-$root/build/bin/aisim}
FILE=${1:-$PWD/aisim-calibration-validation.dat}
SIZE=${SIZE:-4GiB}
RUNTIME=${RUNTIME:-5}
ROUNDS=${ROUNDS:-5}

for tool in fio python3; do
  command -v "$tool" >/dev/null || { echo "run.sh: needs $tool" >&2; exit 2; }
done
[ -x "$AISIM" ] || { echo "run.sh: no aisim binary at $AISIM (build first, or set AISIM)" >&2; exit 2; }

# Results go beside the test file, on the same disk (never /tmp: it may be tmpfs, and it is not the point here).
work=$(mktemp -d "$(dirname "$FILE")/aisim-calibration-results.XXXXXX")
created=0
cleanup() {
  rm -rf "$work"
  if [ "$created" = 1 ] && [ "${KEEP:-0}" != 1 ]; then rm -f "$FILE"; fi
}
trap cleanup EXIT

if [ ! -e "$FILE" ]; then
  echo "creating $FILE ($SIZE of incompressible data) with the probe..."
  "$AISIM" calibrate "$FILE" --size "$SIZE" --point read:random:4KiB:1 --runtime 1s --out "$work/create.json" \
    >/dev/null
  created=1
fi

# name, probe point, fio rw, fio bs, fio iodepth
cases=(
  "rand4k-qd1 read:random:4KiB:1 randread 4k 1"
  "rand4k-qd32 read:random:4KiB:32 randread 4k 32"
  "seq128k-qd8 read:sequential:128KiB:8 read 128k 8"
  "seq1m-qd4 read:sequential:1MiB:4 read 1m 4"
)
if [ "${READS_ONLY:-0}" != 1 ]; then
  cases+=(
    "seq128k-qd8-write write:sequential:128KiB:8 write 128k 8"
    "seq1m-qd4-write write:sequential:1MiB:4 write 1m 4"
  )
fi

run_probe() { # name spec round
  local write=()
  [[ $2 == write:* ]] && write=(--write)
  "$AISIM" calibrate "$FILE" --point "$2" "${write[@]}" --runtime "${RUNTIME}s" --out "$work/probe-$1-$3.json" \
    >/dev/null
}
run_fio() { # name rw bs depth round
  local hipri=()
  # Polled completion when the probe used it, so both tools complete I/O the same way.
  if [ -f "$work/probe-$1-1.json" ] && grep -q '"completion": "polled"' "$work/probe-$1-1.json"; then hipri=(--hipri); fi
  fio --name="$1" --filename="$FILE" --ioengine=io_uring --direct=1 --fixedbufs --registerfiles "${hipri[@]}" \
    --rw="$2" --bs="$3" --iodepth="$4" --ramp_time=1 --runtime="$RUNTIME" --time_based \
    --output-format=json >"$work/fio-$1-$5.json"
}

for round in $(seq 1 "$ROUNDS"); do
  for c in "${cases[@]}"; do
    set -- $c
    echo "round $round/$ROUNDS: $1"
    # Alternate which tool goes first, so a drift of the machine does not favour one of them.
    if [ $((round % 2)) = 1 ]; then
      run_probe "$1" "$2" "$round"; run_fio "$1" "$3" "$4" "$5" "$round"
    else
      run_fio "$1" "$3" "$4" "$5" "$round"; run_probe "$1" "$2" "$round"
    fi
  done
done

names=()
for c in "${cases[@]}"; do names+=("${c%% *}"); done
python3 - "$work" "$ROUNDS" "${names[@]}" <<'PY'
import json, statistics, sys
work, rounds, cases = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
def probe(name, r):
    p = json.load(open(f"{work}/probe-{name}-{r}.json"))["points"][0]
    return p["iops"], p["bw_bytes"], p["clat_ns"]["percentile"]["50.000000"], p["clat_ns"]["percentile"]["99.000000"]
def fio(name, r):
    j = json.load(open(f"{work}/fio-{name}-{r}.json"))["jobs"][0]["write" if name.endswith("-write") else "read"]
    return j["iops"], j["bw_bytes"], j["clat_ns"]["percentile"]["50.000000"], j["clat_ns"]["percentile"]["99.000000"]
def spread(x):
    """How much one tool's own rounds differ: (max - min) / median."""
    return (max(x) - min(x)) / statistics.median(x)
rows = {c: ([probe(c, r) for r in range(1, rounds + 1)], [fio(c, r) for r in range(1, rounds + 1)]) for c in cases}
metrics = [("IOPS", 0, 0.05, lambda v: f"{v:,.0f}"), ("bandwidth", 1, 0.05, lambda v: f"{v / 1e6:,.1f} MB/s"),
           ("p50 clat", 2, 0.10, lambda v: f"{v / 1e3:,.1f} us"), ("p99 clat", 3, 0.10, lambda v: f"{v / 1e3:,.1f} us")]
print()
print(f"{rounds} rounds, the two tools back to back in each (order alternating). 'probe vs fio' is the median of")
print("the rounds' paired differences (probe - fio) / fio, with their range; 'noise' is how much one tool's own")
print("rounds differ: (max - min) / median. A difference smaller than the noise is not resolved by this run.")
print()
print("| case | metric | probe (median) | fio (median) | probe vs fio | paired range | target | noise probe / fio |")
print("|---|---|---|---|---|---|---|---|")
for c in cases:
    ours, theirs = rows[c]
    for label, i, tol, fmt in metrics:
        a = [x[i] for x in ours]
        b = [x[i] for x in theirs]
        d = [(x - y) / y for x, y in zip(a, b)]
        diff = statistics.median(d)
        na, nb = spread(a), spread(b)
        verdict = "within" if abs(diff) <= tol else "OUTSIDE"
        print(f"| {c} | {label} | {fmt(statistics.median(a))} | {fmt(statistics.median(b))} | {diff:+.1%} | "
              f"{min(d):+.0%} .. {max(d):+.0%} | {verdict} {tol:.0%} | {na:.0%} / {nb:.0%} |")
print()
print("per round, IOPS probe / fio:")
for c in cases:
    print(f"  {c}: " + ", ".join(f"{x[0]:,.0f} / {y[0]:,.0f}" for x, y in zip(*rows[c])))
print()
print("IOPS ratio probe / fio per point (median of the rounds' paired ratios; goal 0.95 .. 1.05):")
for c in cases:
    ours, theirs = rows[c]
    m = statistics.median([x[0] / y[0] for x, y in zip(ours, theirs)])
    noise = max(spread([x[0] for x in ours]), spread([y[0] for y in theirs]))
    if abs(m - 1) <= 0.05:
        verdict = "within 5%"
    elif rounds < 2:
        verdict = "outside 5% (one round: the noise is not measured)"
    elif noise > abs(m - 1):
        verdict = f"not resolved (the tools' own rounds differ by {noise:.0%})"
    else:
        verdict = "OUTSIDE 5%"
    print(f"  {c:<18} {m:6.3f}  {verdict}")
PY
