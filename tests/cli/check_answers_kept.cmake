# Every run kept in tests/cli/golden (tests/cli/golden/update.sh) gives the same key metrics again, within 1e-6:
# a change meant to be behaviour-neutral (at full fidelity above all, the reference aggregate is checked against)
# moves no answer. Needs AISIM, CHECK, SOURCE_DIR, OUT.
file(GLOB kept_files "${SOURCE_DIR}/tests/cli/golden/*.json")
list(LENGTH kept_files n)
if(n EQUAL 0)
  message(FATAL_ERROR "no kept runs in ${SOURCE_DIR}/tests/cli/golden")
endif()
set(moved "")
foreach(kept ${kept_files})
  get_filename_component(name "${kept}" NAME_WE)
  file(READ "${kept}" doc)
  string(JSON scenario GET "${doc}" scenario)
  string(JSON fidelity GET "${doc}" fidelity)
  file(REMOVE_RECURSE "${OUT}/${name}")
  execute_process(COMMAND "${AISIM}" run "${SOURCE_DIR}/${scenario}" --out "${OUT}/${name}" --progress none
                          --set /simulation/fidelity=${fidelity}
                  WORKING_DIRECTORY "${SOURCE_DIR}" RESULT_VARIABLE rc OUTPUT_QUIET ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${name}: aisim run ${scenario} exited ${rc}: ${err}")
  endif()
  execute_process(COMMAND "${CHECK}" match "${kept}" "${OUT}/${name}/results.json" 1e-6
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out)
  if(NOT rc EQUAL 0)
    list(APPEND moved "${name} (${scenario} at ${fidelity}):\n${out}")
  endif()
endforeach()
if(moved)
  string(REPLACE ";" "\n" moved "${moved}")
  message(FATAL_ERROR "answers moved from those kept in tests/cli/golden (rerun tests/cli/golden/update.sh only "
                      "when the change is meant):\n${moved}")
endif()
message(STATUS "${n} kept runs give the same answers")
