#!/usr/bin/env bash
# report.html, compare.html and sweep.html in a real browser (Debian's headless Chromium): runs shipped scenarios, renders their
# pages and a comparison, and checks that every chart drew (a canvas with painted pixels and data behind it), that
# the console stayed silent (no error, no blocked load), that no network request was made, and that each page has
# the sections a planner expects. Leaves a screenshot of each page in WORK for people to look at.
# Usage: check_report.sh AISIM SOURCE_DIR WORK
set -euo pipefail
aisim=$1 src=$2 work=$3
browser=$(command -v chromium || command -v chromium-browser || true)
[[ -n "$browser" ]] || { echo "FAIL: no chromium (make installs it from .ci/debian-packages.txt)"; exit 1; }
rm -rf "$work"
mkdir -p "$work"
"$aisim" run "$src/scenarios/default.json" --out "$work/default" --progress none >/dev/null
"$aisim" run "$src/scenarios/jbof-vs-array-risk.json" --out "$work/risk" --progress none >/dev/null
"$aisim" run "$src/scenarios/multi-tier.json" --out "$work/tiers" --progress none >/dev/null
"$aisim" compare "$work/default" "$work/risk" --out "$work/compare" >/dev/null
"$aisim" sweep "$src/scenarios/default.json" --vary /storage/hot/enclosures=2..5:1 \
  --vary /workloads/0/checkpoint/interval=15min..1h:x2 --set /simulation/duration=1d --out "$work/sweep" \
  --progress none >/dev/null

page_request='_dk_file://|"traffic_annotation":101845102'
fail=0
chrome() { # URL LOG EXTRA...: one headless run, its console and network traffic logged
  local url=$1 log=$2
  shift 2
  # Quiet the browser's own background traffic (updates, sign-in, spelling dictionaries); what is left of it is
  # told apart from the page's below.
  timeout 120 "$browser" --headless --no-sandbox --disable-gpu --disable-dev-shm-usage --no-first-run \
    --user-data-dir="$work/profile" \
    --disable-background-networking --disable-component-update --disable-sync --disable-default-apps \
    --disable-domain-reliability --disable-client-side-phishing-detection --no-pings \
    --disable-features=Translate,OptimizationHints,MediaRouter,SpellcheckService,AutofillServerCommunication \
    --enable-logging=stderr --v=0 --virtual-time-budget=10000 --window-size=1300,4000 \
    --log-net-log="$log.netlog.json" "$@" "$url" 2>"$log"
}
check() { # FOLDER PAGE SECTION...
  local name=$1/$2 dir=$work/$1 page=$2
  shift 2
  sed "s|PAGE|$page|" "$src/tests/report/check_page.html" >"$dir/probe.html"
  chrome "file://$dir/$page" "$dir/screenshot.log" --screenshot="$dir/screenshot.png" >/dev/null
  chrome "file://$dir/probe.html" "$dir/probe.log" --allow-file-access-from-files --dump-dom >"$dir/probe.dom"
  local result
  result=$(sed -n 's|.*<pre id="result">RESULT \(.*\)</pre>.*|\1|p' "$dir/probe.dom")
  if [[ -z "$result" ]]; then
    echo "FAIL $name: the probe did not report (see $dir/probe.dom, $dir/probe.log)"
    fail=1
    return
  fi
  echo "$name: $result"
  # Every chart drew: as many Chart.js charts as canvases, each painted and with data; the page's own count agrees.
  python3 - "$result" "$name" "$@" <<'PY' || fail=1
import json, sys
r, name, sections = json.loads(sys.argv[1]), sys.argv[2], sys.argv[3:]
problems = []
if r.get("probe_error"): problems.append("probe: " + r["probe_error"])
if r.get("canvases", 0) == 0: problems.append("no chart at all")
if r.get("charts") != r.get("canvases") or r.get("drawn_attribute") != r.get("canvases"):
    problems.append("charts %s, canvases %s, page says %s" % (r.get("charts"), r.get("canvases"), r.get("drawn_attribute")))
if r.get("blank"): problems.append("blank canvases: %s" % r["blank"])
if r.get("without_data"): problems.append("charts without data: %s" % r["without_data"])
if r.get("failed"): problems.append("page says: %s" % r["failed"])
if r.get("external"): problems.append("elements loading something: %s" % r["external"])
if r.get("empty_ranges"): problems.append("ranges whose ends print alike: %s" % r["empty_ranges"])
missing = [s for s in sections if s not in r.get("sections", [])]
if missing: problems.append("missing sections: %s (has %s)" % (missing, r.get("sections")))
for p in problems: print("FAIL %s: %s" % (name, p))
sys.exit(1 if problems else 0)
PY
  # The console stays silent: an error, an uncaught exception or a load the page's policy refused shows here.
  for log in "$dir/screenshot.log" "$dir/probe.log"; do
    if grep -q ':CONSOLE' "$log"; then
      echo "FAIL $name: console messages in $log:"
      grep ':CONSOLE' "$log" | head -5
      fail=1
    fi
    # No network: the net log records every URL request. A request the page made carries the page's
    # network isolation key (top-frame site file://) and Blink's traffic annotation (101845102, blink_resource_loader);
    # the browser's own background requests carry neither.
    if grep -Eq "$page_request" "$log.netlog.json"; then
      echo "FAIL $name: the page made network requests ($log.netlog.json):"
      grep -Eo '"key":"[^"]*_dk_file://[^"]*"' "$log.netlog.json" | sort -u | head -5
      fail=1
    fi
  done
  [[ -s "$dir/screenshot.png" ]] || { echo "FAIL $name: no screenshot"; fail=1; }
}

# The checks themselves, on pages broken on purpose, must catch what they look for, or a green run proves nothing:
# with its content policy, a page's attempt to load an image from the network is refused and said on the console;
# without it, the request goes out and the net log shows it; a console error shows on the console.
mkdir -p "$work/broken"
img='<img src="http://example.invalid/logo.png">'
sed "s|<main id=\"report\">|$img&|" "$work/default/report.html" >"$work/broken/policy.html"
sed -e '/Content-Security-Policy/d' -e "s|<main id=\"report\">|$img&|" "$work/default/report.html" \
  >"$work/broken/open.html"
sed 's|<main id="report">|<script>console.error("broken on purpose")</script>&|' "$work/default/report.html" \
  >"$work/broken/error.html"
for page in policy open error; do
  chrome "file://$work/broken/$page.html" "$work/broken/$page.log" --dump-dom >/dev/null
done
grep -q ':CONSOLE' "$work/broken/policy.log" || { echo "FAIL: the console check missed a refused load"; fail=1; }
grep -Eq "$page_request" "$work/broken/open.log.netlog.json" || { echo "FAIL: the network check missed a request"; fail=1; }
grep -q ':CONSOLE' "$work/broken/error.log" || { echo "FAIL: the console check missed a console error"; fail=1; }

check default report.html "Summary" "GPU utilization over time" "Jobs" "What limits each phase" "Storage systems" \
  "Checkpoint write times" "Cost over 3 y" "The scenario as run"
check risk report.html "Summary" "Failures" "Risk and placement" "What limits each phase"
check tiers report.html "Summary" "Storage systems" "What limits each phase"
check compare compare.html "Side by side"
check sweep sweep.html "Summary" "Pareto front" "Metrics against each parameter" "All points"
cp "$work/sweep/sweep.html" "$work/sweep/sweep.first.html"
"$aisim" report "$work/sweep" >/dev/null
cmp -s "$work/sweep/sweep.html" "$work/sweep/sweep.first.html" ||
  { echo "FAIL: aisim report made a different sweep page from the sweep's"; fail=1; }
# `aisim report` renders a folder again from its files alone: the same page as the run wrote.
cp "$work/default/report.html" "$work/default/report.first.html"
"$aisim" report "$work/default" >/dev/null
cmp -s "$work/default/report.html" "$work/default/report.first.html" ||
  { echo "FAIL: aisim report made a different page from the run's"; fail=1; }
[[ $fail -eq 0 ]] && echo "report pages: every chart drew, console silent, no network request"
exit $fail
