# End to end: `aisim calibrate FILE --quick --size 256MiB` on a new file in the build tree (a real disk; /tmp may
# be tmpfs), then the outputs' schema, a scenario that names the drive file, and --refit giving the same drive
# file from the raw measurements; then two short write points through --write --point. Read-only for the sweep:
# a quick --write sweep moves tens of GB through the disk, too much for every test run (the fit of writes is
# unit-tested on synthetic data). The test files are removed afterwards.
file(REMOVE_RECURSE "${OUT}")
file(MAKE_DIRECTORY "${OUT}")
set(target "${OUT}/probe.dat")
execute_process(COMMAND "${AISIM}" calibrate "${target}" --quick --size 256MiB --out "${OUT}/drive.json"
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
file(REMOVE "${target}")
message("${out}")
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "aisim calibrate exited with ${rc}\nstderr:\n${err}")
endif()
foreach(f drive.json drive.raw.json drive.fit.json)
  if(NOT EXISTS "${OUT}/${f}")
    message(FATAL_ERROR "aisim calibrate did not write ${f}")
  endif()
endforeach()
file(GLOB leftovers "${OUT}/.*.tmp")
if(leftovers)
  message(FATAL_ERROR "temporary files left behind: ${leftovers}")
endif()
execute_process(COMMAND "${CHECK}" "${OUT}/drive.json" "${OUT}/drive.raw.json" "${OUT}/drive.fit.json"
                RESULT_VARIABLE rc ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "the outputs fail their checks:\n${err}")
endif()

# A scenario names the measured drive file directly.
execute_process(COMMAND "${AISIM}" run "${SCENARIO}" --out "${OUT}/scenario" --progress none
                        --set "/drives/gen4-tlc/file=${OUT}/drive.json"
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "a scenario using the measured drive failed (${rc}):\n${err}")
endif()

# --refit redoes the fit offline: the same drive file, byte for byte.
execute_process(COMMAND "${AISIM}" calibrate --refit "${OUT}/drive.raw.json" --out "${OUT}/refit/drive.json"
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "aisim calibrate --refit exited with ${rc}\nstderr:\n${err}")
endif()
file(READ "${OUT}/drive.json" first)
file(READ "${OUT}/refit/drive.json" second)
if(NOT first STREQUAL second)
  message(FATAL_ERROR "--refit gave a different drive file")
endif()
if(EXISTS "${OUT}/refit/drive.raw.json")
  message(FATAL_ERROR "--refit wrote raw measurements it did not take")
endif()

# Writes, briefly: two points on a small new file, raw measurements only.
set(wtarget "${OUT}/write-probe.dat")
execute_process(COMMAND "${AISIM}" calibrate "${wtarget}" --size 64MiB --write --point write:random:4KiB:16
                        --point write:seq:128KiB:4 --runtime 0.3s --out "${OUT}/write-points.json"
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
file(REMOVE "${wtarget}")
message("${out}")
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "aisim calibrate --write --point exited with ${rc}\nstderr:\n${err}")
endif()
file(READ "${OUT}/write-points.json" points)
string(JSON n LENGTH "${points}" points)
string(JSON op GET "${points}" points 1 op)
string(JSON iops GET "${points}" points 1 iops)
string(JSON p99 GET "${points}" points 1 clat_ns percentile "99.000000")
if(NOT n EQUAL 2 OR NOT op STREQUAL "write" OR NOT iops GREATER 0 OR NOT p99 GREATER 0)
  message(FATAL_ERROR "write points: expected 2 write points with iops and p99, got ${n} (${op}, ${iops}, ${p99})")
endif()
