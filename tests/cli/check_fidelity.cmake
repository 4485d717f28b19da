# The aggregated simulation (one host per job and node group) must agree with the full one within 1%.
foreach(f aggregate full)
  file(REMOVE_RECURSE "${OUT}/${f}")
  execute_process(COMMAND "${AISIM}" run "${SCENARIO}" --out "${OUT}/${f}" --progress none --set /simulation/fidelity=${f}
                  RESULT_VARIABLE rc OUTPUT_QUIET ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "fidelity ${f} exited ${rc}: ${err}")
  endif()
endforeach()
execute_process(COMMAND "${CHECK}" agree "${OUT}/aggregate/results.json" "${OUT}/full/results.json" 0.01
                RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "aggregate and full fidelity disagree by more than 1%")
endif()
# EXTRA: more metrics (JSON pointers into results.json, ';'-separated) that must agree within 1% too.
file(READ "${OUT}/aggregate/results.json" agg)
file(READ "${OUT}/full/results.json" full)
foreach(ptr ${EXTRA})
  string(REGEX REPLACE "^/" "" path "${ptr}")
  string(REPLACE "/" ";" keys "${path}")
  string(JSON a GET "${agg}" ${keys})
  string(JSON f GET "${full}" ${keys})
  execute_process(COMMAND awk -v a=${a} -v f=${f} "BEGIN { d = a - f; if (d < 0) d = -d; e = f < 0 ? -f : f; exit (d <= 0.01 * e) ? 0 : 1 }"
                  RESULT_VARIABLE same)
  if(NOT same EQUAL 0)
    message(FATAL_ERROR "${ptr}: aggregate ${a}, full ${f}: more than 1% apart")
  endif()
endforeach()
