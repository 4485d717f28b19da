#!/usr/bin/env bash
# Runs every libFuzzer target of a fuzz build (make fuzz): each for SECONDS, or for RUNS executions when given,
# from its grown corpus (BUILD/corpus/NAME) and its seeds (BUILD/fuzz-targets.txt, written by CMake). Prints one
# line per target and exits 1 when any found a crash, hang, leak, sanitizer report or ran out of memory, naming
# the input libFuzzer saved.
# Usage: [FUZZ_SEED=N] run-fuzz.sh BUILD_DIR SECONDS [RUNS] [TARGET...]
set -uo pipefail
build=${1:?usage: run-fuzz.sh BUILD_DIR SECONDS [RUNS] [TARGET...]}
seconds=${2:?seconds per target}
runs=${3:-}
shift 3 2>/dev/null || shift $#
only=("$@")
list="$build/fuzz-targets.txt"
here=$(cd "$(dirname "$0")" && pwd)
[[ -f $list ]] || { echo "run-fuzz.sh: $list is missing (configure with: cmake --preset fuzz)" >&2; exit 2; }

export ASAN_OPTIONS=detect_leaks=1:strict_string_checks=1:check_initialization_order=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
limit=(-max_total_time="$seconds")
seed=()
[[ -n ${FUZZ_SEED:-} ]] && seed=(-seed="$FUZZ_SEED") # a fixed seed: the same mutations again, to replay a run
[[ -n $runs ]] && limit=(-runs="$runs")
failed=0
printf '%-14s %12s %8s %10s %9s %7s  %s\n' target executions time_s exec_per_s peak_MiB corpus result
while read -r name seeds; do
  [[ -z $name || $name == \#* ]] && continue
  if [[ ${#only[@]} -gt 0 && ! " ${only[*]} " =~ " $name " ]]; then continue; fi
  bin="$build/bin/fuzz_$name"
  corpus="$build/corpus/$name"
  art="$build/artifacts/$name"
  log="$build/fuzz-$name.log"
  mkdir -p "$corpus" "$art"
  # A dictionary of the input's tokens (dict/NAME.dict, else the JSON one) lets mutations change a value's type
  # or unit instead of mostly breaking the syntax.
  dict="$here/dict/$name.dict"
  [[ -f $dict ]] || dict="$here/dict/json.dict"
  # shellcheck disable=SC2086  # the seed folders are one word each
  "$bin" -dict="$dict" -artifact_prefix="$art/" -timeout=10 -rss_limit_mb=2048 -max_len=32768 -print_final_stats=1 \
    "${limit[@]}" "${seed[@]}" "$corpus" $seeds > "$log" 2>&1
  rc=$?
  stat() { sed -n "s/^stat::$1: *//p" "$log" | tail -1; }
  execs=$(stat number_of_executed_units)
  time_s=$(sed -n 's/.*Done \([0-9]*\) runs in \([0-9]*\) second.*/\2/p' "$log" | tail -1)
  rate=$(stat average_exec_per_sec)
  rss=$(stat peak_rss_mb)
  size=$(find "$corpus" -type f | wc -l)
  if [[ $rc -eq 0 ]]; then
    result=ok
  else
    failed=1
    found=$(grep -o "Test unit written to [^ ]*" "$log" | tail -1 | sed 's/Test unit written to //')
    kind=$(grep -m1 -oE "ERROR: (AddressSanitizer|LeakSanitizer|UndefinedBehaviorSanitizer|libFuzzer): [a-z-]+|runtime error: .*|aisim fuzz: property broken: .*" "$log")
    result="FAILED (exit $rc): ${kind:-see $log}; input: ${found:-none saved}; log: $log"
  fi
  printf '%-14s %12s %8s %10s %9s %7s  %s\n' "$name" "${execs:-?}" "${time_s:-?}" "${rate:-?}" "${rss:-?}" "$size" "$result"
done < "$list"
exit $failed
