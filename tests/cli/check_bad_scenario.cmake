# A bad scenario (or a good one with bad --set overrides) must exit with status 2, print exactly NAME.expected on stderr, and write nothing.
# NAME.set, when present, holds one --set assignment per line, applied on the command line.
file(REMOVE_RECURSE "${OUT}")
set(extra)
if(EXISTS "${NAME}.set")
  file(STRINGS "${NAME}.set" sets)
  foreach(s ${sets})
    list(APPEND extra --set "${s}")
  endforeach()
endif()
execute_process(COMMAND "${AISIM}" run "${NAME}.json" --out "${OUT}" --progress none ${extra} RESULT_VARIABLE rc
                OUTPUT_VARIABLE out ERROR_VARIABLE err)
file(READ "${NAME}.expected" expected)
if(NOT rc EQUAL 2)
  message(FATAL_ERROR "expected exit status 2, got ${rc}\nstderr:\n${err}")
endif()
if(NOT err STREQUAL expected)
  message(FATAL_ERROR "stderr differs from ${NAME}.expected\n--- expected\n${expected}--- got\n${err}")
endif()
if(EXISTS "${OUT}")
  message(FATAL_ERROR "a bad scenario left output in ${OUT}")
endif()

# Replicas check the scenario once, in the parent: the same messages, exit 2, no replica folders.
execute_process(COMMAND "${AISIM}" run "${NAME}.json" --out "${OUT}" --progress none --replicas 2 ${extra}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 2 OR NOT err STREQUAL expected OR EXISTS "${OUT}")
  message(FATAL_ERROR "--replicas: exit ${rc}, stderr differs or output left
--- expected
${expected}--- got
${err}")
endif()

# `aisim check` makes the same checks without simulating: the same messages, its own last line, exit 2.
execute_process(COMMAND "${AISIM}" check "${NAME}.json" ${extra} RESULT_VARIABLE rc OUTPUT_VARIABLE out
                ERROR_VARIABLE err)
string(REGEX REPLACE "aisim: [^\n]*: the scenario has errors; nothing was run or written\n$" "" diagnostics
                     "${expected}")
if(NOT rc EQUAL 2 OR NOT err STREQUAL "${diagnostics}aisim: ${NAME}.json: the scenario has errors\n")
  message(FATAL_ERROR "aisim check: exit ${rc}, stderr differs\n--- expected\n${diagnostics}--- got\n${err}")
endif()
# --json: one document on stdout with ok false and every error's pointer as the text names it.
execute_process(COMMAND "${AISIM}" check "${NAME}.json" ${extra} --json RESULT_VARIABLE rc OUTPUT_VARIABLE out
                ERROR_VARIABLE err)
if(NOT rc EQUAL 2)
  message(FATAL_ERROR "aisim check --json: exit ${rc}, expected 2\n${err}")
endif()
string(JSON ok GET "${out}" ok)
string(JSON n LENGTH "${out}" errors)
if(ok OR n EQUAL 0)
  message(FATAL_ERROR "aisim check --json: ok=${ok} with ${n} errors\n${out}")
endif()
math(EXPR last "${n} - 1")
foreach(i RANGE ${last})
  string(JSON pointer GET "${out}" errors ${i} pointer)
  string(JSON text GET "${out}" errors ${i} message)
  set(line "${NAME}.json:${pointer}: ${text}")
  if(pointer STREQUAL "") # the whole file: no pointer in the text
    set(line "${NAME}.json: ${text}")
  endif()
  string(FIND "${diagnostics}" "${line}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "aisim check --json: error ${i} (${pointer}: ${text}) is not among the messages\n${diagnostics}")
  endif()
endforeach()
