#!/usr/bin/env bash
# Runs every scenarios/bench/*.json once, each in its own process, and prints wall time, peak memory and events.
# Wall time is the machine's and varies with load: benchmarks report it, tests never assert on it.
set -euo pipefail
aisim=${1:-build/bin/aisim}
out=${2:-build/bench}
mkdir -p "$out"
# The same rows as JSON (bench.json) for a script to compare between commits.
printf '%-21s %7s %9s %9s %11s %9s %12s\n' scenario GPUs sim_days wall_s peak_MiB events events_per_s
json="$out/bench.json"
printf '{"commit": "%s", "rows": [' "$(git rev-parse --short HEAD 2>/dev/null || echo unknown)" > "$json"
sep=""
for f in scenarios/bench/*.json; do
  name=$(basename "$f" .json)
  /usr/bin/time -f '%e %M' -o "$out/$name.time" "$aisim" run "$f" --out "$out/$name" --progress none > "$out/$name.log"
  read -r wall rss_kib < "$out/$name.time"
  results="$out/$name/results.json"
  gpus=$(grep -A1 '^  "gpu": {' "$results" | grep -o '[0-9][0-9]*' | head -1)
  simulated=$(grep -o '"simulated_s": [0-9.e+]*' "$results" | tail -1 | awk '{print $2}')
  events=$(grep -o '"events": [0-9]*' "$results" | tail -1 | awk '{print $2}')
  awk -v n="$name" -v g="$gpus" -v s="$simulated" -v w="$wall" -v m="$rss_kib" -v e="$events" 'BEGIN {
    printf "%-21s %7d %9.1f %9.2f %11.1f %9d %12.0f\n", n, g, s / 86400, w, m / 1024, e, (w > 0 ? e / w : 0) }'
  awk -v n="$name" -v g="$gpus" -v s="$simulated" -v w="$wall" -v m="$rss_kib" -v e="$events" -v sep="$sep" 'BEGIN {
    printf "%s\n  {\"scenario\": \"%s\", \"gpus\": %d, \"simulated_days\": %.1f, \"wall_s\": %.2f, \"peak_MiB\": %.1f, \"events\": %d, \"events_per_s\": %.0f}",
      sep, n, g, s / 86400, w, m / 1024, e, (w > 0 ? e / w : 0) }' >> "$json"
  sep=","
done
printf '\n]}\n' >> "$json"
echo "(also in $json)"

# Fidelity full as nodes grow: scenarios/bench/llm-16k-30d (30 days) at 128, 512 and 2,048 nodes of 8 GPUs.
# Goals (issue 34): 2,048 nodes in at most 60 s and 2 GiB; wall time growing at most as nodes x log(nodes).
echo
printf '%-26s %7s %9s %11s %9s %14s\n' full_fidelity nodes wall_s peak_MiB events wall_vs_NlogN
prev_wall=""
prev_n=""
for n in 128 512 2048; do
  name="full-$n"
  /usr/bin/time -f '%e %M' -o "$out/$name.time" "$aisim" run scenarios/bench/llm-16k-30d.json \
    --set /cluster/node_groups/0/count=$n --set /workloads/0/gpus=$((n * 8)) --set /simulation/fidelity=full \
    --out "$out/$name" --progress none > "$out/$name.log"
  read -r wall rss_kib < "$out/$name.time"
  events=$(grep -o '"events": [0-9]*' "$out/$name/results.json" | tail -1 | awk '{print $2}')
  # How the wall time grew from the previous row, against how n log n grew (1.0: exactly n log n; above: faster).
  awk -v n="$n" -v w="$wall" -v m="$rss_kib" -v e="$events" -v pw="$prev_wall" -v pn="$prev_n" 'BEGIN {
    g = (pw != "" && pw > 0) ? sprintf("%.2f", (w / pw) / ((n * log(n)) / (pn * log(pn)))) : "-"
    printf "%-26s %7d %9.2f %11.1f %9d %14s\n", "llm-16k-30d", n, w, m / 1024, e, g }'
  prev_wall=$wall
  prev_n=$n
done

# A multi-tenant cluster's year at fidelity aggregate (tests/bench/cluster_scenario.py: three node groups, pre-training
# runs, fine-tuning lanes, weekly preprocessing, two inference fleets scaling twice a day, three tiers, node, drive,
# enclosure and controller failures) over 10k/30k/100k GPUs x 30/90/365 days. Goals (issue 34): 100,000 GPUs for
# 365 days in at most 10 s and 1 GiB; wall time linear in GPUs x days. Each row stops at BENCH_CLUSTER_MAX_WALL
# (default 5min; sim_days then shows how far it got).
echo
printf '%-26s %7s %9s %9s %11s %9s %16s\n' cluster_mix GPUs sim_days wall_s peak_MiB events us_per_GPU_day
for gpus in 10000 30000 100000; do
  for days in 30 90 365; do
    name="cluster-$((gpus / 1000))k-${days}d"
    python3 tests/bench/cluster_scenario.py "$gpus" "$days" "$PWD/scenarios/drives" > "$out/$name.json"
    /usr/bin/time -f '%e %M' -o "$out/$name.time" "$aisim" run "$out/$name.json" --out "$out/$name" \
      --progress none --max-wall "${BENCH_CLUSTER_MAX_WALL:-5min}" > "$out/$name.log" 2>&1 || true
    read -r wall rss_kib < "$out/$name.time"
    results="$out/$name/results.json"
    simulated=$(grep -o '"simulated_s": [0-9.e+]*' "$results" | tail -1 | awk '{print $2}')
    events=$(grep -o '"events": [0-9]*' "$results" | tail -1 | awk '{print $2}')
    awk -v n="$name" -v g="$gpus" -v s="$simulated" -v w="$wall" -v m="$rss_kib" -v e="$events" 'BEGIN {
      printf "%-26s %7d %9.1f %9.2f %11.1f %9d %16.3f\n", n, g, s / 86400, w, m / 1024, e,
        (s > 0 ? w / (g * s / 86400) * 1e6 : 0) }'
  done
done

# Years of blocked writes: scenarios/failures.json over 1 to 30 years. Its warm tier fills with validated models
# after about 1.8 years; from then on a thousand copies wait for space, checkpoints block on the full hot tier and
# node failures restart the job. Goal (issue 55): wall time linear in the simulated years (30 years never finished
# while each waiting writer woke at every release and a failed run's writes waited on).
echo
printf '%-26s %7s %9s %11s %9s %12s
' blocked_writes years wall_s peak_MiB events wall_s_per_y
for years in 1 2 4 8 16 30; do
  name="blocked-${years}y"
  /usr/bin/time -f '%e %M' -o "$out/$name.time" "$aisim" run scenarios/failures.json \
    --set /simulation/duration=${years}y --out "$out/$name" --progress none --no-report > "$out/$name.log"
  read -r wall rss_kib < "$out/$name.time"
  events=$(grep -o '"events": [0-9]*' "$out/$name/results.json" | tail -1 | awk '{print $2}')
  awk -v y="$years" -v w="$wall" -v m="$rss_kib" -v e="$events" 'BEGIN {
    printf "%-26s %7d %9.2f %11.1f %9d %12.2f\n", "failures.json", y, w, m / 1024, e, w / y }'
done

# The memory estimate that refuses runs before they start (aisim check --json's memory.model_bytes) against the
# peak a run of the platform really takes: scenarios/lifecycle.json's job across 32,000 to 128,000 nodes of 8 GPUs at
# fidelity full (a routing table over every pair of node sets) and aggregate, ten simulated minutes (the platform
# alone). Goal (issue 55): the estimate at or above the peak and within 25 % of it.
echo
printf '%-26s %9s %11s %11s %11s %9s\n' memory_estimate nodes fidelity estimate_MiB peak_MiB ratio
for spec in 32000:full 64000:full 128000:full 128000:aggregate; do
  n=${spec%%:*}
  fidelity=${spec##*:}
  name="memory-$n-$fidelity"
  sets=(--set /cluster/node_groups/0/count=$n --set /workloads/0/gpus=$((n * 8)) --set /simulation/fidelity=$fidelity
        --set /simulation/duration=10min)
  estimate=$("$aisim" check scenarios/lifecycle.json "${sets[@]}" --json |
    python3 -c 'import json, sys; print(json.load(sys.stdin)["memory"]["model_bytes"])')
  /usr/bin/time -f '%e %M' -o "$out/$name.time" "$aisim" run scenarios/lifecycle.json "${sets[@]}" --out "$out/$name" \
    --progress none --no-report > "$out/$name.log" 2>&1
  read -r wall rss_kib < "$out/$name.time"
  awk -v n="$n" -v f="$fidelity" -v e="$estimate" -v m="$rss_kib" 'BEGIN {
    printf "%-26s %9d %11s %11.1f %11.1f %9.2f\n", "lifecycle.json", n, f, e / 1048576, m / 1024, e / (m * 1024) }'
done

# The GUI: from a value typed into the parameter panel to the charts redrawn (check, child run, files, charts,
# paint), on the default scenario, offscreen. Goal: under 0.5 s.
gui_bench="$(dirname "$aisim")/aisim_gui_latency"
if [ -x "$gui_bench" ]; then
  echo
  printf '%-26s %7s %9s %9s %9s %12s\n' gui changes min_s median_s max_s simulate_s
  QT_QPA_PLATFORM=offscreen "$gui_bench" "$aisim" scenarios/default.json 10 2> "$out/gui_latency.log"
fi

# Replicas in parallel: 8 seeds of scenarios/failures.json with -j 2 against the same 8 one after another (-j 1).
# Goal on 2 cores: at least 1.8x faster.
echo
printf '%-26s %9s %9s %9s\n' replicas serial_s parallel_s speedup
/usr/bin/time -f '%e' -o "$out/replicas-j1.time" "$aisim" run scenarios/failures.json --replicas 8 -j 1 \
  --out "$out/replicas-j1" --progress none > /dev/null
/usr/bin/time -f '%e' -o "$out/replicas-j2.time" "$aisim" run scenarios/failures.json --replicas 8 -j 2 \
  --out "$out/replicas-j2" --progress none > /dev/null
awk -v a="$(cat "$out/replicas-j1.time")" -v b="$(cat "$out/replicas-j2.time")" 'BEGIN {
  printf "%-26s %9.2f %9.2f %9.2f\n", "failures.json x8, -j 2", a, b, (b > 0 ? a / b : 0) }'

# Sweeps: 1,000 points of scenarios/default.json cut to one simulated day (10 enclosure counts x 100 checkpoint
# intervals), on 1 and 2 local workers and on 1 and 2 MPI ranks. Goals on 2 cores: at most 30 s, and at least 1.8x
# faster with 2 workers (or ranks) than with 1. Per point: the wall time each run took in its worker (parse,
# simulate, write results.json and timeseries.csv) and the simulation alone (results' sim.wall_s); the difference
# is the overhead a point pays beyond simulating.
echo
printf '%-26s %9s %9s %9s %14s %14s %14s\n' sweep_1000_points one_s two_s speedup point_ms simulate_ms overhead_ms
sweep_args=(sweep scenarios/default.json --vary /storage/hot/enclosures=1..10:1
            --vary /workloads/0/checkpoint/interval=5min..500min:5min --set /simulation/duration=1d --progress none)
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_btl_vader_single_copy_mechanism=none
# Three trials of each, interleaved, and the median: two processes at once on this shared 2-core VM vary by 30%.
median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
rm -f "$out"/sweep-*.times
for how in workers mpi; do
  for trial in 1 2 3; do
    for n in 1 2; do
      rm -rf "$out/sweep-$how-$n"
      if [ "$how" = workers ]; then
        cmd=("$aisim" "${sweep_args[@]}" -j "$n")
      else
        cmd=(mpirun --oversubscribe -n "$n" "$aisim" "${sweep_args[@]}")
      fi
      /usr/bin/time -f '%e' -a -o "$out/sweep-$how-$n.times" "${cmd[@]}" --out "$out/sweep-$how-$n" > /dev/null
    done
  done
  for n in 1 2; do median < "$out/sweep-$how-$n.times" > "$out/sweep-$how-$n.time"; done
  # Per point, from the one-worker sweep: its children's wall times (sweep.json) and the simulations' own.
  read -r point_ms sim_ms < <(python3 - "$out/sweep-$how-1" <<'PY'
import json, sys, glob
d = json.load(open(sys.argv[1] + "/sweep.json"))
walls = [p["wall_s"] for p in d["points"]]
sims = [json.load(open(f))["sim"]["wall_s"] for f in glob.glob(sys.argv[1] + "/points/*/results.json")]
print(1000 * sum(walls) / len(walls), 1000 * sum(sims) / len(sims))
PY
)
  awk -v h="$how" -v a="$(cat "$out/sweep-$how-1.time")" -v b="$(cat "$out/sweep-$how-2.time")" -v p="$point_ms" \
    -v s="$sim_ms" 'BEGIN { printf "%-26s %9.2f %9.2f %9.2f %14.1f %14.1f %14.1f\n",
      (h == "workers" ? "-j 1 vs -j 2" : "mpirun -n 1 vs -n 2"), a, b, (b > 0 ? a / b : 0), p, s, p - s }'
done
cmp -s "$out/sweep-workers-2/sweep.csv" "$out/sweep-mpi-2/sweep.csv" && echo "(sweep.csv identical on 2 workers and 2 ranks)" ||
  echo "WARNING: sweep.csv differs between 2 workers and 2 ranks"
# Starting aisim itself, as a child that is exec'd rather than forked pays it (the GUI's runs, MPI ranks).
/usr/bin/time -f '%e' -o "$out/start.time" bash -c "for i in \$(seq 20); do '$aisim' --version > /dev/null; done"
awk -v t="$(cat "$out/start.time")" 'BEGIN { printf "%-26s %9.1f ms each (20 starts)\n", "aisim start-up", t / 20 * 1000 }'

# The io_uring probe against fio on the same file in build/bench (a real file system, never /tmp), interleaved
# round by round: 4 KiB random reads at QD1 and QD32, 128 KiB and 1 MiB sequential reads and writes. Goal: IOPS
# within 5% of fio's at every point (where the machine's own noise lets a run resolve 5%). Needs fio; skipped
# without it or with BENCH_PROBE=0.
echo
if [ "${BENCH_PROBE:-1}" = 0 ]; then
  echo "probe vs fio: skipped (BENCH_PROBE=0)"
elif ! command -v fio > /dev/null; then
  echo "probe vs fio: skipped (fio is not installed: make deps installs it)"
else
  rounds=${BENCH_PROBE_ROUNDS:-3}
  runtime=${BENCH_PROBE_RUNTIME:-2}
  echo "probe vs fio (validation/calibration/run.sh, $rounds rounds of $runtime s per point and tool, 1 GiB file):"
  AISIM="$aisim" ROUNDS=$rounds RUNTIME=$runtime SIZE=1GiB \
    validation/calibration/run.sh "$out/probe-vs-fio.dat" > "$out/probe-vs-fio.log" 2>&1 ||
    echo "probe vs fio: failed, see $out/probe-vs-fio.log"
  sed -n '/^IOPS ratio/,$p' "$out/probe-vs-fio.log"
  echo "(the full table, latencies included: $out/probe-vs-fio.log)"
fi
