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
