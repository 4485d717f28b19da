# A validation folder whose case files have mistakes: `aisim validate --dir NAME` must exit with status 2 and print
# exactly NAME.expected on stderr, before running anything.
execute_process(COMMAND "${AISIM}" validate --dir "${NAME}" RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
file(READ "${NAME}.expected" expected)
if(NOT rc EQUAL 2)
  message(FATAL_ERROR "expected exit status 2, got ${rc}\nstdout:\n${out}\nstderr:\n${err}")
endif()
if(NOT err STREQUAL expected)
  message(FATAL_ERROR "stderr differs from ${NAME}.expected\n--- expected\n${expected}--- got\n${err}")
endif()
if(NOT out STREQUAL "")
  message(FATAL_ERROR "a bad validation folder ran something:\n${out}")
endif()
