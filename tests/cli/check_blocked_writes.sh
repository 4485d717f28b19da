#!/bin/bash
# Writes blocked by full storage over years (scenarios/failures.json for 4 years: its warm tier fills with validated
# models after about 1.8 years, then the hot tier with the checkpoints they pin). A checkpoint write waiting for space
# dies with the run that made it: a node failure's restart ends its wait, so it never stops the job at the window's
# end (1,599 such writes each recorded the job as failed on the hot tier before). The copies the job's runs leave
# behind (validated models) wait on; one still waiting when the period ends was never written, and the job, which
# ran to the end, is not failed for it (it once read "failed: storage warm full" after running the whole period):
# its blocked_writes say how many of its writes waited and for how long.
set -u
AISIM=$1
CHECK=$2
OUT=$3
rm -rf "$OUT"
fail() { echo "FAIL: $*"; exit 1; }
"$AISIM" run scenarios/failures.json --set /simulation/duration=4y --out "$OUT" --progress none --no-report \
  > /dev/null || fail "the run failed"
"$CHECK" contract "$OUT/results.json" || fail "the results contract is broken"
python3 - "$OUT/results.json" <<'PY' || exit 1
import collections, json, sys
r = json.load(open(sys.argv[1]))
def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)
events = collections.Counter((e["storage"], e["action"]) for e in r["capacity_events"])
if events[("hot", "blocked")] == 0 or events[("warm", "blocked")] == 0:
    fail(f"expected writes blocked on both tiers: {dict(events)}")
if events[("hot", "failed_job")] != 0 or events[("warm", "failed_job")] != 0:
    fail(f"writes still waiting at the period's end failed the job: {dict(events)}")
job = r["jobs"][0]
if job["status"] != "ok" or job["end_s"] < r["sim"]["simulated_s"]:
    fail(f"the job ran to the end and should be ok: {job['status']} {job.get('failure')} at {job['end_s']}")
b = job["blocked_writes"]
if b["count"] != events[("hot", "blocked")] + events[("warm", "blocked")] or not 0 < b["longest_fraction_of_window"] <= 1:
    fail(f"the job's blocked_writes do not count its waits: {b}")
print("blocked writes: ok")
PY
