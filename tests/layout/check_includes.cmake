# The layering of models/, sim/, app/ and gui/ as a test: each folder may include only the folders below it (the
# READMEs say why), only sim/ (the simulator core) includes SimGrid, and only gui/ includes Qt. The CMake targets
# link the same way; this catches an include that would compile only because a header reaches further than its
# target links.
# Run with -DSRC=<source tree>.
cmake_minimum_required(VERSION 3.25)

# Folder -> the folders its files may include (besides the standard library and the third-party libraries).
set(models_all models/common models/hardware models/scenario models/cluster models/analytics models/cost
    models/calibration)
set(allow_models/common models/common)
set(allow_models/hardware models/common models/hardware)
set(allow_models/scenario models/common models/hardware models/scenario)
set(allow_models/cluster models/common models/hardware models/scenario models/cluster)
set(allow_models/analytics models/common models/analytics)
set(allow_models/cost models/common models/hardware models/scenario models/cost)
set(allow_models/calibration models/common models/hardware models/calibration)
set(allow_sim/platform ${models_all} sim/platform)
set(allow_sim/engine ${models_all} sim/platform sim/engine)
set(allow_sim/results ${models_all} sim/engine sim/results)
# The applications around the core. Only app/cli runs the simulator (through sim/engine and sim/results); the
# probe measures a drive, sweeps plan and tabulate runs that the executor starts as child processes, validation
# runs its cases the same way and reads their results.json, the report draws results folders from their files.
set(allow_app/probe models/common models/hardware models/calibration app/probe)
set(allow_app/executor app/executor)
set(allow_app/sweep ${models_all} app/executor app/sweep)
set(allow_app/report models/common app/report)
set(allow_app/validation ${models_all} sim/results app/executor app/sweep app/validation)
set(allow_app/cli ${models_all} sim/engine sim/results app/probe app/report app/executor app/sweep app/validation
    app/cli)
# The GUI edits scenarios with the models and runs `aisim` as a child process: it never includes sim/ or app/.
set(allow_gui ${models_all} gui)

set(failures "")
file(GLOB_RECURSE sources RELATIVE "${SRC}" "${SRC}/models/*.hpp" "${SRC}/models/*.cpp" "${SRC}/sim/*.hpp"
     "${SRC}/sim/*.cpp" "${SRC}/sim/*.cpp.in" "${SRC}/app/*.hpp" "${SRC}/app/*.cpp" "${SRC}/gui/*.hpp"
     "${SRC}/gui/*.cpp")
if(NOT sources)
  message(FATAL_ERROR "no sources found under ${SRC}/models, ${SRC}/sim or ${SRC}/app")
endif()
foreach(f ${sources})
  get_filename_component(folder "${f}" DIRECTORY)
  if(NOT DEFINED allow_${folder})
    string(APPEND failures "${f}: its folder ${folder} has no rule in tests/layout/check_includes.cmake\n")
    continue()
  endif()
  file(STRINGS "${SRC}/${f}" includes REGEX "^[ \t]*#[ \t]*include[ \t]*[<\"]")
  foreach(line ${includes})
    string(REGEX REPLACE "^[ \t]*#[ \t]*include[ \t]*[<\"]([^>\"]+)[>\"].*" "\\1" header "${line}")
    if(header MATCHES "^(simgrid|xbt)/" AND NOT f MATCHES "^sim/")
      string(APPEND failures "${f}: includes the SimGrid header <${header}>; only sim/ uses SimGrid\n")
    elseif(header MATCHES "^Q[A-Za-z]*(/|$)" AND NOT f MATCHES "^gui/")
      string(APPEND failures "${f}: includes the Qt header <${header}>; only gui/ uses Qt\n")
    elseif(header MATCHES "^(models|sim|app|gui)/")
      get_filename_component(target_folder "${header}" DIRECTORY)
      if(NOT target_folder IN_LIST allow_${folder})
        string(REPLACE ";" ", " allowed "${allow_${folder}}")
        string(APPEND failures "${f}: includes ${header}, but ${folder} may include only ${allowed}\n")
      endif()
    endif()
  endforeach()
endforeach()
if(failures)
  message(FATAL_ERROR "layering broken:\n${failures}")
endif()
list(LENGTH sources n)
message(STATUS "checked the includes of ${n} files")
