# `aisim sweep`: a grid and a Latin sample of default.json, each point an ordinary run (its results the very ones
# `aisim run --set` gives), sweep.csv one row per point in plain decimals, and bad input refused with exit 2 and
# nothing written.
set(base --set /simulation/duration=1d --progress none -j 2)
file(REMOVE_RECURSE "${OUT}")
execute_process(COMMAND "${AISIM}" sweep "${SCENARIO}" --vary /storage/hot/enclosures=2,4
                        --vary /workloads/0/checkpoint/interval=15min..1h:x2 ${base} --out "${OUT}/grid"
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "grid sweep: exit ${rc}\n${out}\n${err}")
endif()
foreach(want "grid of 2 x 3 = 6 points" "6 finished, 0 failed" "Pareto front" "sweep.csv: ")
  string(FIND "${out}" "${want}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "the sweep's summary lacks \"${want}\":\n${out}")
  endif()
endforeach()
file(STRINGS "${OUT}/grid/sweep.csv" rows)
list(LENGTH rows n)
if(NOT n EQUAL 7)
  message(FATAL_ERROR "sweep.csv: expected a header and 6 rows, got ${n}:\n${rows}")
endif()
list(GET rows 0 header)
if(NOT header MATCHES "^point,status,/storage/hot/enclosures,/workloads/0/checkpoint/interval \\[min\\],gpu_utilization_fraction,.*total_usd.*,pareto,error$")
  message(FATAL_ERROR "sweep.csv header: ${header}")
endif()
list(GET rows 6 last)
if(NOT last MATCHES "^6,ok,4,60,0\\.9[0-9]+,")
  message(FATAL_ERROR "sweep.csv's last row is not point 6 (4 enclosures, 60 min) with its utilization: ${last}")
endif()
string(REGEX MATCH "[0-9]e[-+]?[0-9]" exponent "${rows}")
if(exponent)
  message(FATAL_ERROR "sweep.csv holds a number with an exponent (${exponent}); plain decimals expected")
endif()
string(FIND "${rows}" ",1," front)
if(front EQUAL -1)
  message(FATAL_ERROR "no point of the grid is marked on the Pareto front")
endif()
# Point 6 is an ordinary run: the same results as `aisim run` with the same --set, and within the contract.
execute_process(COMMAND "${AISIM}" run "${SCENARIO}" --set /simulation/duration=1d --set /storage/hot/enclosures=4
                        --set /workloads/0/checkpoint/interval=60min --out "${OUT}/alone" --progress none
                RESULT_VARIABLE rc OUTPUT_QUIET ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "the run alone: exit ${rc}\n${err}")
endif()
foreach(args "same;${OUT}/grid/points/point-000006/results.json;${OUT}/alone/results.json"
             "contract;${OUT}/grid/points/point-000006/results.json")
  execute_process(COMMAND "${CHECK}" ${args} RESULT_VARIABLE rc OUTPUT_VARIABLE out)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "point 6 against `aisim run`: ${args}\n${out}")
  endif()
endforeach()
file(READ "${OUT}/grid/sweep.json" doc)
string(JSON state GET "${doc}" state)
string(JSON npoints LENGTH "${doc}" points)
string(JSON v6 GET "${doc}" points 5 values /workloads/0/checkpoint/interval)
if(NOT state STREQUAL "finished" OR NOT npoints EQUAL 6 OR NOT v6 STREQUAL "60min")
  message(FATAL_ERROR "sweep.json: state ${state}, ${npoints} points, point 6's interval ${v6}")
endif()
file(READ "${OUT}/grid/sweep.html" page LIMIT 200)
string(FIND "${page}" "<!DOCTYPE html>" at)
if(NOT at EQUAL 0)
  message(FATAL_ERROR "no sweep.html beside sweep.json")
endif()
# A second sweep into the same folder is refused: --resume finishes a sweep, nothing overwrites one.
execute_process(COMMAND "${AISIM}" sweep "${SCENARIO}" --vary /storage/hot/enclosures=2 ${base} --out "${OUT}/grid"
                RESULT_VARIABLE rc OUTPUT_QUIET ERROR_VARIABLE err)
if(NOT rc EQUAL 2 OR NOT err MATCHES "already holds a sweep")
  message(FATAL_ERROR "a second sweep into the same folder: exit ${rc}\n${err}")
endif()

# A Latin sample: 4 points of a 11 x 5 grid, reproducible from its seed.
foreach(run a b)
  execute_process(COMMAND "${AISIM}" sweep "${SCENARIO}" --vary /storage/hot/enclosures=2..12:1
                          --vary /workloads/0/checkpoint/interval=10min..4h:x2 --sample latin:4 --sample-seed 7
                          ${base} --out "${OUT}/latin-${run}" RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0 OR NOT out MATCHES "latin sample of 4 from a grid of 55 \\(seed 7\\)")
    message(FATAL_ERROR "latin sample: exit ${rc}\n${out}\n${err}")
  endif()
endforeach()
execute_process(COMMAND "${CMAKE_COMMAND}" -E compare_files "${OUT}/latin-a/sweep.csv" "${OUT}/latin-b/sweep.csv"
                RESULT_VARIABLE rc)
file(STRINGS "${OUT}/latin-a/sweep.csv" rows)
list(LENGTH rows n)
if(NOT rc EQUAL 0 OR NOT n EQUAL 5)
  message(FATAL_ERROR "the same Latin sample twice: different files, or not 4 rows (${n})")
endif()

# Bad input: exit 2, the flag named, nothing written.
set(cases
    "/storage/hot/enclosuers=2,4|did you mean \"enclosures\""
    "/storage/hot/port_speed=400GB,800GB|a rate needs"
    "/storage/hot/enclosures=8..2:1|empty range"
    "/storage/hot/port_speed=100Gbps..1TB:x2|do not convert"
    "/storage/hot/enclosures=1..1000:1~--vary~/workloads/0/checkpoint/interval=1..1001:1|more than 1,000,000")
foreach(c ${cases})
  string(REPLACE "|" ";" parts "${c}") # VARY~MORE ARGS|MESSAGE
  string(REPLACE "~" ";" parts "${parts}")
  list(GET parts -1 want)
  list(REMOVE_AT parts -1)
  file(REMOVE_RECURSE "${OUT}/bad")
  execute_process(COMMAND "${AISIM}" sweep "${SCENARIO}" --vary ${parts} --out "${OUT}/bad" RESULT_VARIABLE rc
                  OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 2 OR EXISTS "${OUT}/bad")
    message(FATAL_ERROR "--vary ${parts}: expected exit 2 and nothing written, got ${rc}\n${err}")
  endif()
  string(FIND "${err}" "${want}" at)
  string(FIND "${err}" "--vary" flag)
  if(at EQUAL -1 OR flag EQUAL -1)
    message(FATAL_ERROR "--vary ${parts}: the message does not name the flag and say \"${want}\":\n${err}")
  endif()
endforeach()

# --yes lets the same 1,001,000-point grid past the count: what stops it now is the next check (a --set that breaks
# the scenario, so that nothing of the million runs starts), and nothing is written either.
file(REMOVE_RECURSE "${OUT}/bad")
execute_process(COMMAND "${AISIM}" sweep "${SCENARIO}" --vary /storage/hot/enclosures=1..1000:1
                        --vary /workloads/0/checkpoint/interval=1..1001:1 --set /simulation/duration=-1h --yes
                        --out "${OUT}/bad" RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
string(FIND "${err}" "more than 1,000,000" counted)
if(NOT rc EQUAL 2 OR EXISTS "${OUT}/bad" OR NOT counted EQUAL -1 OR NOT err MATCHES "/simulation/duration")
  message(FATAL_ERROR "--yes on a 1,001,000-point grid: expected the count accepted and the broken --set refused "
                      "(exit 2, nothing written), got exit ${rc}\n${err}")
endif()

# One value per --vary and --set: a scenario given after them stays the scenario (it was once taken as a value).
file(REMOVE_RECURSE "${OUT}/order")
execute_process(COMMAND "${AISIM}" sweep --vary /storage/hot/enclosures=2,4 --set /simulation/duration=1h
                        "${SCENARIO}" --out "${OUT}/order" --progress none RESULT_VARIABLE rc OUTPUT_QUIET
                ERROR_VARIABLE err)
execute_process(COMMAND "${AISIM}" run --set /simulation/duration=1h "${SCENARIO}" --out "${OUT}/order-run"
                        --progress none RESULT_VARIABLE rc2 OUTPUT_QUIET ERROR_VARIABLE err2)
if(NOT rc EQUAL 0 OR NOT rc2 EQUAL 0)
  message(FATAL_ERROR "options before the scenario: sweep exit ${rc}, run exit ${rc2}\n${err}\n${err2}")
endif()

# A one-parameter sweep records where more of it stops helping (aisim size's knee), per metric with a direction:
# enclosures 1-8 for one day, where utilization improves up to a few enclosures and then barely.
file(REMOVE_RECURSE "${OUT}/knee")
execute_process(COMMAND "${AISIM}" sweep "${SCENARIO}" --vary /storage/hot/enclosures=1..8:1 ${base} --out "${OUT}/knee"
                RESULT_VARIABLE rc OUTPUT_QUIET ERROR_VARIABLE err)
file(READ "${OUT}/knee/sweep.json" doc)
string(JSON knee_point ERROR_VARIABLE missing GET "${doc}" knees gpu_utilization_fraction point)
if(NOT rc EQUAL 0 OR missing)
  message(FATAL_ERROR "one-parameter sweep: exit ${rc}, no knee of utilization in sweep.json (${missing})\n${err}")
endif()
string(JSON knee_value GET "${doc}" knees gpu_utilization_fraction value)
math(EXPR at "${knee_point} - 1")
string(JSON point_value GET "${doc}" points ${at} values "/storage/hot/enclosures")
if(NOT knee_value EQUAL point_value OR knee_value LESS 2 OR knee_value GREATER 7)
  message(FATAL_ERROR "the knee (point ${knee_point}, ${knee_value} enclosures) is not inside the range or not its point's value")
endif()

# --replicas (docs/commands.md): each point a replica set of N seeds, its results.json the set's statistics, and sweep.csv's
# table gains the 95% half-widths of utilization and cost.
file(REMOVE_RECURSE "${OUT}/replicas")
execute_process(COMMAND "${AISIM}" sweep "${SCENARIO}" --vary /workloads/0/checkpoint/interval=15min,1h --replicas 3
                        ${base} --out "${OUT}/replicas"
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "sweep --replicas 3: exit ${rc}\n${out}\n${err}")
endif()
foreach(p 1 2)
  foreach(r 1 2 3)
    if(NOT EXISTS "${OUT}/replicas/points/point-00000${p}/replica-000${r}/results.json")
      message(FATAL_ERROR "point ${p} lacks replica ${r}")
    endif()
  endforeach()
  file(READ "${OUT}/replicas/points/point-00000${p}/results.json" set)
  string(JSON kind GET "${set}" kind)
  string(JSON finished GET "${set}" replicas finished)
  if(NOT kind STREQUAL "replicas" OR NOT finished EQUAL 3)
    message(FATAL_ERROR "point ${p}'s results.json is not a set of 3 finished replicas: ${kind}, ${finished}")
  endif()
endforeach()
file(STRINGS "${OUT}/replicas/sweep.csv" rows)
list(GET rows 0 header)
if(NOT header MATCHES ",gpu_utilization_ci95_half_width_fraction,total_usd_ci95_half_width,pareto,error$")
  message(FATAL_ERROR "sweep.csv of replica sets lacks the half-widths: ${header}")
endif()
list(GET rows 1 first)
if(NOT first MATCHES "^1,ok,15min,0\\.[0-9]+,.*,[0-9.e-]+,[0-9.e+-]+,[01],$")
  message(FATAL_ERROR "sweep.csv's first replica-set row: ${first}")
endif()
