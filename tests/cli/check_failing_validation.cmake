# aisim validate's own verdicts, on tests/cli/failing-validation/ (DIR): wrong expectations give FAIL rows and exit 1;
# a known failure is printed and not gated (exit 0); a known failure that passes fails the run (exit 1, "drop the
# mark"). Without this a comparison that always passed would keep validation.all green.
function(validate name want_rc)
  execute_process(COMMAND "${AISIM}" validate --dir "${DIR}" --case ${name} RESULT_VARIABLE rc OUTPUT_VARIABLE out
                  ERROR_VARIABLE err)
  if(NOT rc EQUAL want_rc)
    message(FATAL_ERROR "validate --case ${name}: exit ${rc}, expected ${want_rc}\n${out}${err}")
  endif()
  set(out "${out}" PARENT_SCOPE)
endfunction()
function(expect_line pattern)
  string(REGEX MATCH "${pattern}" found "${out}")
  if(NOT found)
    message(FATAL_ERROR "no line matching '${pattern}' in:\n${out}")
  endif()
endfunction()

validate(wrong-expected 1)
expect_line("wrong-expected +/jobs/0/utilization \\[fraction\\] +1 +0\\.99[0-9]* +-0\\.[0-9]+% +1\\.0% +pass\n")
expect_line("wrong-expected +/jobs/0/steps \\[steps\\] +100000 +86[34][0-9][0-9] +-13\\.[0-9]+% +1\\.0% +FAIL\n")
expect_line("wrong-expected +/jobs/0/kind[^\n]+inference +training [^\n]+FAIL\n")
expect_line("wrong-expected +/jobs/0/no_such_metric[^\n]+FAIL \\(no metric /jobs/0/no_such_metric in results.json\\)\n")
expect_line("\n1 passed, 3 failed\n")

validate(known-failure 0)
expect_line("known-failure +/jobs/0/steps[^\n]+known failure, not gated: FAIL\n")
expect_line("1 known failure, not gated")
expect_line("\n0 passed, 0 failed\n")

validate(known-failure-passes 1)
expect_line("known-failure-passes +/jobs/0/steps[^\n]+FAIL: passes, but listed as a known failure \\(drop the mark\\)\n")
expect_line("\n0 passed, 1 failed\n")
