#!/usr/bin/env bash
# Shows that a change moved code without changing behaviour: builds REV (default: origin/main, else main) in a
# scratch worktree, runs every scenario in scenarios/ and scenarios/bench/ with its aisim and with this tree's
# (build/bin/aisim, built first by `make build`), and compares results.json apart from sim.wall_s and
# provenance.git_commit, timeseries.csv byte for byte, and the table `aisim validate` prints apart from wall times.
# Not a ctest test: it builds a second tree (minutes on 2 cores). Usage: tests/layout/same-results.sh [REV]
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
rev=${1:-$(git -C "$root" rev-parse --verify -q origin/main || echo main)}
work=${SAME_RESULTS_DIR:-$root/build/same-results}
new_bin=$root/build/bin/aisim
check=$root/build/bin/aisim_results_check
[[ -x $new_bin && -x $check ]] || { echo "same-results: build this tree first (make build)" >&2; exit 2; }

rm -rf "$work" && mkdir -p "$work/old" "$work/new"
git -C "$root" worktree add --detach "$work/base-src" "$rev" >/dev/null
trap 'git -C "$root" worktree remove --force "$work/base-src" >/dev/null 2>&1 || true' EXIT
echo "same-results: building $rev in $work/base-build"
cmake -S "$work/base-src" -B "$work/base-build" -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build "$work/base-build" -j "$(nproc)" --target aisim >/dev/null
old_bin=$work/base-build/bin/aisim

failures=0
for scenario in "$root"/scenarios/*.json "$root"/scenarios/bench/*.json; do
  stem=$(basename "$scenario" .json)
  for side in old new; do
    bin=$old_bin; [[ $side == new ]] && bin=$new_bin
    if ! "$bin" run "$scenario" --out "$work/$side/$stem" --progress none >/dev/null 2>"$work/$side/$stem.stderr"; then
      echo "FAIL $stem: the $side build's run failed ($work/$side/$stem.stderr)"
      failures=$((failures + 1))
      continue 2
    fi
  done
  if "$check" same-model "$work/old/$stem/results.json" "$work/new/$stem/results.json" >/dev/null &&
     cmp -s "$work/old/$stem/timeseries.csv" "$work/new/$stem/timeseries.csv" &&
     cmp -s "$work/old/$stem.stderr" "$work/new/$stem.stderr"; then
    echo "same $stem"
  else
    echo "FAIL $stem: results.json, timeseries.csv or the warnings differ ($work/{old,new}/$stem)"
    failures=$((failures + 1))
  fi
done

# The validation table, wall-clock columns aside.
strip_times() { sed -E 's/[0-9]+\.[0-9]+ s\b/<time>/g; s/in [0-9.]+ ?s/in <time>/g'; }
"$old_bin" validate --dir "$root/validation" 2>&1 | strip_times >"$work/old/validate.txt" || true
"$new_bin" validate --dir "$root/validation" 2>&1 | strip_times >"$work/new/validate.txt" || true
if cmp -s "$work/old/validate.txt" "$work/new/validate.txt"; then
  echo "same aisim validate ($(wc -l <"$work/new/validate.txt") lines)"
else
  echo "FAIL aisim validate: the tables differ"; diff "$work/old/validate.txt" "$work/new/validate.txt" | head -20
  failures=$((failures + 1))
fi
[[ $failures -eq 0 ]] && echo "same-results: no difference from $rev" || echo "same-results: $failures differences"
exit $((failures > 0))
