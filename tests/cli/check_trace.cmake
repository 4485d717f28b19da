# `aisim run --trace` as a user opens it: a run with storage failures and a rebuild, one with copies between tiers,
# one long run bounded to a few events; each checked as the viewers need it (aisim_results_check trace).
file(REMOVE_RECURSE "${OUT}")
function(run_traced name scenario max)
  set(extra)
  if(max)
    set(extra --trace-max-events ${max})
  endif()
  execute_process(COMMAND "${AISIM}" run "${scenario}" --out "${OUT}/${name}" --progress none
                          --trace "${OUT}/${name}.trace.json" ${extra}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "aisim run --trace ${scenario}: exit ${rc}\n${out}\n${err}")
  endif()
  if(NOT max)
    set(max 200000)
  endif()
  execute_process(COMMAND "${CHECK}" trace "${OUT}/${name}.trace.json" ${max} RESULT_VARIABLE rc OUTPUT_VARIABLE out)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "trace of ${scenario} broken:\n${out}")
  endif()
endfunction()
function(expect_in file what)
  file(READ "${file}" text)
  string(FIND "${text}" "${what}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "expected ${what} in ${file}")
  endif()
endfunction()

run_traced(rebuild "${SRC}/validation/storage-rebuild-competes/scenario.json" "")
foreach(what [["name":"train"]] [["name":"train I/O"]] [["name":"checkpoint write to jbof"]] [["rebuild enclosure 1"]]
        [[ out"]] [["name":"training"]] [["merged":false]])
  expect_in("${OUT}/rebuild.trace.json" "${what}")
endforeach()
run_traced(tiers "${SRC}/scenarios/multi-tier.json" "")
expect_in("${OUT}/tiers.trace.json" [["cold copies in"]])
expect_in("${OUT}/tiers.trace.json" [["copy from warm"]])
# Bounded: a month of failures in at most 100 events, and the trace says it merged them.
run_traced(bounded "${SRC}/scenarios/failures.json" 100)
expect_in("${OUT}/bounded.trace.json" [["merged":true]])
expect_in("${OUT}/bounded.trace.json" [[trace merged past 100 events]])
# One run per trace.
execute_process(COMMAND "${AISIM}" run "${SRC}/scenarios/default.json" --replicas 2 --trace "${OUT}/r.json"
                        --out "${OUT}/replicas" RESULT_VARIABLE rc ERROR_VARIABLE err OUTPUT_QUIET)
if(NOT rc EQUAL 2 OR EXISTS "${OUT}/r.json")
  message(FATAL_ERROR "--trace with --replicas: exit ${rc}, expected 2 and no trace\n${err}")
endif()
