# Runs at every build: writes version_info.cpp only when the commit changed, so an unchanged tree rebuilds nothing.
execute_process(COMMAND git -C "${SRC}" rev-parse --short=12 HEAD OUTPUT_VARIABLE AISIM_GIT_COMMIT
                OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET RESULT_VARIABLE rc)
if(NOT rc EQUAL 0 OR AISIM_GIT_COMMIT STREQUAL "")
  set(AISIM_GIT_COMMIT "unknown")
endif()
execute_process(COMMAND git -C "${SRC}" status --porcelain --untracked-files=no OUTPUT_VARIABLE dirty
                OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
if(NOT dirty STREQUAL "")
  string(APPEND AISIM_GIT_COMMIT "-dirty")
endif()
set(AISIM_VERSION "${AISIM_VERSION}")
configure_file("${IN}" "${OUT}.new" @ONLY)
file(COPY_FILE "${OUT}.new" "${OUT}" ONLY_IF_DIFFERENT)
file(REMOVE "${OUT}.new")
