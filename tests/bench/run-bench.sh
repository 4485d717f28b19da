#!/usr/bin/env bash
# Runs every scenarios/bench/*.json once, each in its own process, and prints wall time, peak memory and events.
# Wall time is the machine's and varies with load: benchmarks report it, tests never assert on it.
set -euo pipefail
aisim=${1:-build/bin/aisim}
out=${2:-build/bench}
mkdir -p "$out"
printf '%-16s %7s %9s %9s %11s %9s %12s\n' scenario GPUs sim_days wall_s peak_MiB events events_per_s
for f in scenarios/bench/*.json; do
  name=$(basename "$f" .json)
  /usr/bin/time -f '%e %M' -o "$out/$name.time" "$aisim" run "$f" --out "$out/$name" --progress none > "$out/$name.log"
  read -r wall rss_kib < "$out/$name.time"
  results="$out/$name/results.json"
  gpus=$(grep -A1 '^  "gpu": {' "$results" | grep -o '[0-9][0-9]*' | head -1)
  simulated=$(grep -o '"simulated_s": [0-9.e+]*' "$results" | tail -1 | awk '{print $2}')
  events=$(grep -o '"events": [0-9]*' "$results" | tail -1 | awk '{print $2}')
  awk -v n="$name" -v g="$gpus" -v s="$simulated" -v w="$wall" -v m="$rss_kib" -v e="$events" 'BEGIN {
    printf "%-16s %7d %9.1f %9.2f %11.1f %9d %12.0f\n", n, g, s / 86400, w, m / 1024, e, (w > 0 ? e / w : 0) }'
done

# The GUI: from a value typed into the parameter panel to the charts redrawn (check, child run, files, charts,
# paint), on the default scenario, offscreen. Goal: under 0.5 s.
gui_bench="$(dirname "$aisim")/aisim_gui_latency"
if [ -x "$gui_bench" ]; then
  echo
  printf '%-26s %7s %9s %9s %9s %12s\n' gui changes min_s median_s max_s simulate_s
  QT_QPA_PLATFORM=offscreen "$gui_bench" "$aisim" scenarios/default.json 10 2> "$out/gui_latency.log"
fi
