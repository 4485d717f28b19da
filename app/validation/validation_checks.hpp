// Running a validation case's checks: the case's own run (once, for its plain checks), each search and optimum
// through the executor, and each check's outcome against its reference and tolerance.
#pragma once

#include "app/validation/validation_case.hpp"

#include "models/common/json_reader.hpp"

#include <filesystem>
#include <string>
#include <vector>

namespace aisim::app {

// One run's results.json, or why there is none.
struct RunResult {
  int rc = -1;
  models::Json results;
  std::filesystem::path out;
  std::string failure() const { return "run exited " + std::to_string(rc) + ", see " + (out / "run.log").string(); }
};

// Runs `aisim run` (`exe`) on the case in a child process, into `out`, with `extra` overrides after the case's own.
RunResult run_and_read(const std::string& exe, const Case& c, const std::filesystem::path& out,
                       const std::vector<std::string>& extra);

// What a check found: the value, its signed error, the verdict ("pass", "FAIL ..."), and lines to print under it.
struct Outcome {
  std::string got = "-", err = "-", verdict = "FAIL";
  bool pass = false;
  std::string detail; // printed under the row (a search's probes)
};

// Check `i` of the case: read from `base` (the case's own run) for a plain check, else its search or optimum run
// under `out`.
Outcome run_check(const std::string& exe, const Case& c, size_t i, const RunResult& base,
                  const std::filesystem::path& out);

// The table's metric column ("max n: /gpu/utilization>=0.9", "argmax /cost/... [s]") and numbers as printed.
std::string metric_label(const Check& k);
std::string format_value(double v);

} // namespace aisim::app
