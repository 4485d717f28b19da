# A what-if says what it is: a run with --set and no --out goes to results/<stem>+<hash of its overrides>/, so two
# what-ifs (a day cut to an hour, and that with one enclosure) never replace each other's results, its results.json records the command line, the scenario file with its
# SHA-256 and each override, its summary and report name the overrides, and `aisim compare` lists the inputs that
# differ above the metrics.
file(REMOVE_RECURSE "${OUT}")
file(MAKE_DIRECTORY "${OUT}")
set(short --set /simulation/duration=1h --progress none)
execute_process(COMMAND "${AISIM}" run "${SCENARIO}" ${short} WORKING_DIRECTORY "${OUT}" RESULT_VARIABLE rc
                OUTPUT_VARIABLE base_out ERROR_VARIABLE err)
execute_process(COMMAND "${AISIM}" run "${SCENARIO}" ${short} --set /storage/hot/enclosures=1 WORKING_DIRECTORY "${OUT}"
                RESULT_VARIABLE rc2 OUTPUT_VARIABLE out ERROR_VARIABLE err2)
if(NOT rc EQUAL 0 OR NOT rc2 EQUAL 0)
  message(FATAL_ERROR "runs: exit ${rc} and ${rc2}\n${err}\n${err2}")
endif()
file(GLOB folders RELATIVE "${OUT}/results" "${OUT}/results/*")
list(LENGTH folders n)
string(REGEX MATCH "results: (results/default\\+[0-9a-f]+)/results.json" where "${out}")
if(NOT n EQUAL 2 OR NOT where)
  message(FATAL_ERROR "two what-ifs of default.json should sit in two folders, the summary naming its own: ${folders}\n${out}")
endif()
set(dir "${OUT}/${CMAKE_MATCH_1}")
if(NOT out MATCHES "\nwhat-if: /simulation/duration = 1h, /storage/hot/enclosures = 1\n")
  message(FATAL_ERROR "the summary does not name the overrides:\n${out}")
endif()
file(READ "${dir}/results.json" r)
file(SHA256 "${SCENARIO}" want_hash)
string(JSON hash GET "${r}" provenance scenario_sha256)
string(JSON file GET "${r}" provenance scenario_file)
string(JSON n_over LENGTH "${r}" provenance overrides)
string(JSON pointer GET "${r}" provenance overrides 1 pointer)
string(JSON value GET "${r}" provenance overrides 1 value)
string(JSON arg GET "${r}" provenance command 1)
if(NOT hash STREQUAL want_hash OR NOT file STREQUAL "${SCENARIO}" OR NOT n_over EQUAL 2
   OR NOT pointer STREQUAL "/storage/hot/enclosures" OR NOT value STREQUAL "1" OR NOT arg STREQUAL "run")
  message(FATAL_ERROR "provenance: ${hash} (want ${want_hash}), ${file}, ${n_over} overrides, ${pointer} = ${value}, "
                      "command[1] ${arg}")
endif()
# The same what-if again lands in the same folder (the name is the overrides' hash, not a counter).
execute_process(COMMAND "${AISIM}" run "${SCENARIO}" ${short} --set /storage/hot/enclosures=1 WORKING_DIRECTORY "${OUT}"
                RESULT_VARIABLE rc OUTPUT_VARIABLE again ERROR_VARIABLE err)
file(GLOB folders RELATIVE "${OUT}/results" "${OUT}/results/*")
list(LENGTH folders n)
if(NOT rc EQUAL 0 OR NOT n EQUAL 2)
  message(FATAL_ERROR "the same what-if again: exit ${rc}, folders ${folders}\n${err}")
endif()

string(REGEX MATCH "results: (results/default\\+[0-9a-f]+)/results.json" base_where "${base_out}")
execute_process(COMMAND "${AISIM}" compare "${OUT}/${CMAKE_MATCH_1}" "${dir}" --out "${OUT}/cmp"
                RESULT_VARIABLE rc OUTPUT_VARIABLE cmp ERROR_VARIABLE err)
string(FIND "${cmp}" "inputs that differ (1):\n  /storage/hot/enclosures: A 4, B 1\n" listed)
string(FIND "${cmp}" "metric" table)
if(NOT rc EQUAL 0 OR listed EQUAL -1 OR table LESS listed)
  message(FATAL_ERROR "compare does not list the input that differs above the metrics:\n${cmp}${err}")
endif()
file(READ "${OUT}/cmp/compare.html" page)
string(FIND "${page}" "Inputs that differ" in_page)
if(in_page EQUAL -1)
  message(FATAL_ERROR "compare.html does not draw the inputs that differ")
endif()
