#!/usr/bin/env bash
# Keeps what aisim answers today (each run's key metrics, tests/cli/results_check.cpp `metrics`): every shipped
# scenario and validation case at its own fidelity, and at fidelity full the scenarios that check it against
# aggregate. scenario.answers_kept fails when a change moves one of them by more than 1e-6; when the move is meant
# (a model changed on purpose), rerun this and say in the commit which answers moved and why.
# Usage (from the source root): tests/cli/golden/update.sh [AISIM] [RESULTS_CHECK]
set -euo pipefail
aisim=${1:-build/bin/aisim}
check=${2:-build/bin/aisim_results_check}
here=tests/cli/golden
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
rm -f "$here"/*.json
keep() { # NAME SCENARIO [RUN ARGS...]
  local name=$1 scenario=$2
  shift 2
  "$aisim" run "$scenario" --out "$tmp/$name" --progress none "$@" > /dev/null
  "$check" metrics "$scenario" "$tmp/$name/results.json" > "$here/$name.json"
}
for f in scenarios/*.json; do keep "scenario-$(basename "$f" .json)" "$f"; done
keep scenario-lifecycle-full scenarios/lifecycle.json --set /simulation/fidelity=full
for f in tests/cli/scenarios/fidelity-*.json; do keep "$(basename "$f" .json)-full" "$f" --set /simulation/fidelity=full; done
# durability-simulated-vs-markov is a Monte Carlo of many replicas (half a minute); its own case checks it.
for f in validation/*/scenario.json; do
  case=$(basename "$(dirname "$f")")
  [[ $case == durability-simulated-vs-markov ]] || keep "validation-$case" "$f"
done
echo "kept $(ls "$here"/*.json | wc -l) runs in $here"
