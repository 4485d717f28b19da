# Runs one scenario in its own process and checks its results.json against the contract.
# SETS, when given, is a list of --set assignments applied on the command line.
file(REMOVE_RECURSE "${OUT}")
set(extra)
foreach(s ${SETS})
  list(APPEND extra --set "${s}")
endforeach()
execute_process(COMMAND "${AISIM}" run "${SCENARIO}" --out "${OUT}" --progress none ${extra} RESULT_VARIABLE rc
                OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "aisim run ${SCENARIO} exited ${rc}\n${out}\n${err}")
endif()
execute_process(COMMAND "${CHECK}" contract "${OUT}/results.json" RESULT_VARIABLE rc OUTPUT_VARIABLE out
                ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "results contract broken for ${SCENARIO}:\n${out}${err}")
endif()
if(NOT EXISTS "${OUT}/timeseries.csv")
  message(FATAL_ERROR "no timeseries.csv beside results.json")
endif()
file(GLOB leftovers "${OUT}/.*.tmp")
if(leftovers)
  message(FATAL_ERROR "temporary files left beside the results: ${leftovers}")
endif()
