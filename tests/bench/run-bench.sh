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
