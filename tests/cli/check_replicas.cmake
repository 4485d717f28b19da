# `aisim run --replicas N -j J`: N seeds in child processes, each an ordinary run in OUT/replica-NNNN/, and
# OUT/results.json their statistics, recomputed here from the replicas' own results (aisim_results_check replicas).
# Bad counts are refused with exit 2 before anything runs.
file(REMOVE_RECURSE "${OUT}")
execute_process(COMMAND "${AISIM}" run "${SCENARIO}" --replicas 3 -j 2 --seed 5 --out "${OUT}" --progress none
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "replicas: exit ${rc}\n${out}\n${err}")
endif()
foreach(want "3 replicas (seeds 5-7), 3 finished" "GPU utilization" " ± " "node failures")
  string(FIND "${out}" "${want}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "the summary lacks \"${want}\":\n${out}")
  endif()
endforeach()
execute_process(COMMAND "${CHECK}" replicas "${OUT}" 3 RESULT_VARIABLE rc OUTPUT_VARIABLE out)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "replica statistics:\n${out}")
endif()
# Replicas run in workers forked from the parent, one after another (app/executor); replica 3 is always a worker's
# second run. It must be the very run `aisim run --seed` makes on its own, outputs and all.
execute_process(COMMAND "${AISIM}" run "${SCENARIO}" --seed 7 --out "${OUT}-seed7" --progress none
                RESULT_VARIABLE rc OUTPUT_QUIET ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "the run of seed 7 alone: exit ${rc}\n${err}")
endif()
execute_process(COMMAND "${CHECK}" same "${OUT}/replica-0003/results.json" "${OUT}-seed7/results.json"
                RESULT_VARIABLE rc OUTPUT_VARIABLE out)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "replica 3 (seed 7) differs from the same seed run alone:\n${out}")
endif()
execute_process(COMMAND "${CMAKE_COMMAND}" -E compare_files "${OUT}/replica-0003/timeseries.csv"
                        "${OUT}-seed7/timeseries.csv" RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "replica 3's timeseries.csv differs from the same seed run alone")
endif()

# A replica folder reads back: `aisim report` draws its statistics (the summary's rows), and `aisim compare` shows
# means with their half-widths and calls no winner inside the intervals. Seed 7 alone against the set it belongs to:
# one of three samples lies within 1.16 sd of their mean, inside the 95 % interval (t = 4.30: 2.48 sd).
execute_process(COMMAND "${AISIM}" report "${OUT}" RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
file(READ "${OUT}/report.html" page)
string(FIND "${page}" "\"mode\":\"replicas\"" mode)
string(FIND "${page}" "\"label\":\"GPU utilization\"" row)
if(NOT rc EQUAL 0 OR mode EQUAL -1 OR row EQUAL -1)
  message(FATAL_ERROR "aisim report on a replica folder: exit ${rc}, page mode/rows found: ${mode} ${row}\n${err}")
endif()
execute_process(COMMAND "${AISIM}" compare "${OUT}" "${OUT}-seed7" --out "${OUT}-cmp" RESULT_VARIABLE rc
                OUTPUT_VARIABLE cmp ERROR_VARIABLE err)
string(REGEX MATCH "\n  GPU utilization +[0-9.]+ % ± [0-9.]+ % +[0-9.]+ % +[-+][0-9.]+ pt +not distinguishable at 95 %\n"
       util_row "${cmp}")
if(NOT rc EQUAL 0 OR NOT util_row)
  message(FATAL_ERROR "aisim compare of a replica set and one of its runs:\n${cmp}${err}")
endif()

foreach(bad "--replicas;0" "--replicas;10001" "--replicas;2;-j;0")
  file(REMOVE_RECURSE "${OUT}-bad")
  execute_process(COMMAND "${AISIM}" run "${SCENARIO}" ${bad} --out "${OUT}-bad" RESULT_VARIABLE rc
                  OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 2 OR EXISTS "${OUT}-bad")
    message(FATAL_ERROR "${bad}: expected exit 2 and nothing written, got ${rc}\n${err}")
  endif()
  string(FIND "${err}" "not in range" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "${bad}: the message does not say the value is out of range:\n${err}")
  endif()
endforeach()
