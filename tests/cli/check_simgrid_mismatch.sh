#!/usr/bin/env bash
# With a SimGrid release aisim was not checked on (faked by preloading a library whose sg_version_get says 3.33.0),
# `aisim run` refuses before simulating: exit 1, one line naming the version found and the one checked, nothing
# written. Usage: check_simgrid_mismatch.sh AISIM FAKE_LIB SCENARIO OUT
set -euo pipefail
aisim=$1 fake=$2 scenario=$3 out=$4
rm -rf "$out" && mkdir -p "$out"
# (The sanitizer build's ASan runtime would refuse a preloaded library ahead of it; the fake needs no checking.)
export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0
set +e
LD_PRELOAD=$fake "$aisim" run "$scenario" --out "$out/run" --progress none >"$out/stdout" 2>"$out/stderr"
rc=$?
set -e
want="aisim: SimGrid 3.33.0 found; aisim was built against 3.32.0 and checked on 3.32.0, and relies on internals of that release (sim/engine/simgrid_internals.hpp)"
[[ $rc -eq 1 ]] || { echo "exit $rc, expected 1"; cat "$out/stderr"; exit 1; }
[[ "$(cat "$out/stderr")" == "$want" ]] || { echo "stderr:"; cat "$out/stderr"; echo "expected:"; echo "$want"; exit 1; }
[[ ! -e $out/run ]] || { echo "a refused run wrote $out/run"; exit 1; }
# The same binary without the fake runs.
"$aisim" run "$scenario" --out "$out/run" --progress none --set /simulation/duration=1h >/dev/null
echo "refused 3.33.0 with: $want"
