# Two runs of the same scenario and seed must give the same results.json apart from sim.wall_s.
foreach(i 1 2)
  file(REMOVE_RECURSE "${OUT}/${i}")
  execute_process(COMMAND "${AISIM}" run "${SCENARIO}" --out "${OUT}/${i}" --progress none --set /simulation/duration=2d
                  RESULT_VARIABLE rc OUTPUT_QUIET ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "run ${i} exited ${rc}: ${err}")
  endif()
endforeach()
execute_process(COMMAND "${CHECK}" same "${OUT}/1/results.json" "${OUT}/2/results.json" RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "the two runs differ")
endif()
