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
execute_process(COMMAND "${CHECK}" timeseries "${OUT}/timeseries.csv" "${OUT}/results.json" RESULT_VARIABLE rc
                OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "timeseries.csv of ${SCENARIO} is not in the promised format or disagrees with results.json:\n"
                      "${out}${err}")
endif()
file(READ "${OUT}/report.html" page LIMIT 4096)
string(FIND "${page}" "<!DOCTYPE html>" at)
if(NOT at EQUAL 0)
  message(FATAL_ERROR "no report.html beside results.json")
endif()
file(GLOB leftovers "${OUT}/.*.tmp")
if(leftovers)
  message(FATAL_ERROR "temporary files left beside the results: ${leftovers}")
endif()

# `aisim check --json` finds it usable and resolves it to the very document results.json records.
execute_process(COMMAND "${AISIM}" check "${SCENARIO}" ${extra} --json RESULT_VARIABLE rc OUTPUT_VARIABLE checked
                ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "aisim check ${SCENARIO} exited ${rc}\n${checked}\n${err}")
endif()
file(READ "${OUT}/results.json" results)
string(JSON resolved GET "${checked}" scenario)
string(JSON recorded GET "${results}" scenario)
string(JSON same EQUAL "${resolved}" "${recorded}")
if(NOT same)
  message(FATAL_ERROR "aisim check resolves ${SCENARIO} differently from the run's results.json")
endif()
