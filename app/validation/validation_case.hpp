// A validation case as its case.json describes it (validation/README.md): the scenario, its overrides, and the
// checks of the run against references: a metric's value, a search (the largest or cheapest knob value keeping a
// metric at a threshold) or an optimum (where a metric peaks over a grid of values).
#pragma once

#include "models/common/diagnostics.hpp"

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace aisim::app {

// The knob a search walks: min, min + step, ..., max.
struct SearchSpec {
  int64_t min = 1;
  int64_t max = 1; // (max - min) must be a multiple of step
  int64_t step = 1;
  double at_least = 0; // the threshold: the metric at or above it (at or below with at_most)
  bool at_most = false;
  bool cheapest = false; // the cheapest value meeting it (as `aisim size` gives) rather than the largest
};

// One value the search writes into the scenario at each probe: knob x times.
struct SearchVary {
  std::string pointer;
  int64_t times = 1;
};

// A check whose value is not read from one run but searched for: the largest knob value (accelerators, say) whose
// run keeps `metric` at or above `spec.at_least`.
struct Search {
  std::vector<std::string> sets; // overrides of every probe, after the case's own
  std::vector<SearchVary> vary;  // what the knob sets
  std::string metric;
  SearchSpec spec;
};

// A check whose value is where a metric peaks over a grid of knob values (the checkpoint interval that maximizes
// goodput, say): every value is run `replicas` times with seeds 1..replicas (the same seeds at every value, so the
// values are compared on the same failures), and the peak is fitted through the means (app/sweep/grid_optimum.hpp).
struct Optimum {
  std::vector<std::string> sets; // overrides of every run, after the case's own
  std::string vary;              // the pointer each value is written to
  std::vector<double> values;
  std::string suffix; // appended to each value when it is written ("s": a duration in seconds)
  bool log_scale = false;
  bool maximize = true;
  int replicas = 1;
  std::string metric;
};

struct Check {
  std::string metric; // JSON pointer into results.json; empty for a search or an optimum
  std::string per;    // optional JSON pointer: the value checked is metric / per (a rate per accelerator, say)
  std::optional<Search> search;
  std::optional<Optimum> optimum;
  double expected = 0;
  std::string expected_text; // non-empty: the metric is text (a bottleneck's tier) and must equal it
  double tolerance = 0;      // relative
  std::string unit;
  std::string known_failure; // non-empty: why the check is known to fail; its failure is printed, not counted
};

struct Case {
  std::string name;
  std::filesystem::path scenario;
  std::vector<std::string> sets;
  std::vector<Check> checks;
};

// The case in `dir` (its case.json), or nullopt with every problem of the file in `diag`.
std::optional<Case> read_case(const std::filesystem::path& dir, models::Diagnostics& diag);

} // namespace aisim::app
