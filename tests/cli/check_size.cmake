# `aisim size` on answers known by hand. default.json's checkpoint is 70e9 parameters x 14 bytes = 980 GB, written
# through 2 x 400 Gb/s = 100 GB/s per enclosure, so a 2 s write needs 980 / (2 x 100) = 4.9, i.e. 5 enclosures (4
# give 2.45 s); and 4 enclosures (400 GB/s) write 5 s worth, 2,000 GB, of at most 142.9e9 parameters: 140e9 on a
# 10e9 grid. Bad input is refused with exit 2.
set(base --set /simulation/duration=1d -j 2)
file(REMOVE_RECURSE "${OUT}")
execute_process(COMMAND "${AISIM}" size "${SCENARIO}" --vary /storage/hot/enclosures=1..16:1
                        --target "checkpoint_write_p99_s<=2" ${base} --out "${OUT}/enclosures"
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "size enclosures: exit ${rc}\n${out}\n${err}")
endif()
foreach(want "answer: /storage/hot/enclosures = 5: 1.96 s" "method: bisection" "/storage/hot/enclosures = 4: 2.45 s (misses by"
             "knee: /storage/hot/enclosures = 7")
  string(FIND "${out}" "${want}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "size enclosures: the output lacks \"${want}\":\n${out}")
  endif()
endforeach()
file(READ "${OUT}/enclosures/size.json" doc)
string(JSON answer GET "${doc}" answer values /storage/hot/enclosures)
string(JSON runs GET "${doc}" runs_made)
if(NOT answer EQUAL 5 OR runs GREATER 12)
  message(FATAL_ERROR "size.json: answer ${answer}, ${runs} runs (bisection over 16 values takes at most 12)")
endif()

execute_process(COMMAND "${AISIM}" size "${SCENARIO}" --vary /workloads/0/checkpoint/parameters=10e9..300e9:10e9
                        --maximize /workloads/0/checkpoint/parameters --target "checkpoint_write_p99_s<=5" ${base}
                        --out "${OUT}/parameters" RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
string(FIND "${out}" "answer: /workloads/0/checkpoint/parameters = 140000000000: 4.9 s" at)
if(NOT rc EQUAL 0 OR at EQUAL -1)
  message(FATAL_ERROR "size --maximize: exit ${rc}\n${out}\n${err}")
endif()

set(cases
    "--vary~/storage/hot/enclosures=1..4:1~--target~gpu_utilization>=0.9|the metrics are:"
    "--vary~/storage/hot/enclosures=1..4:1~--target~checkpoint_write_p99_s<=0.5|the best reached is 2.45 s at /storage/hot/enclosures = 4"
    "--vary~/cluster/node_groups/0/gpu=H100-SXM,B200~--target~checkpoint_write_p99_s<=2|must be increasing numbers"
    "--vary~/storage/hot/enclosures=1..4:1~--target~checkpoint_write_p99_s=2|expected METRIC>=VALUE")
foreach(c ${cases})
  string(REPLACE "|" ";" parts "${c}")
  list(GET parts -1 want)
  list(REMOVE_AT parts -1)
  string(REPLACE "~" ";" parts "${parts}")
  execute_process(COMMAND "${AISIM}" size "${SCENARIO}" ${parts} ${base} --out "${OUT}/bad" RESULT_VARIABLE rc
                  OUTPUT_VARIABLE out ERROR_VARIABLE err)
  string(FIND "${err}" "${want}" at)
  if(NOT rc EQUAL 2 OR at EQUAL -1)
    message(FATAL_ERROR "size ${parts}: expected exit 2 saying \"${want}\", got ${rc}:\n${err}")
  endif()
endforeach()
