// What a sweep runs: the axes given with --vary (each a JSON pointer into the scenario and the values it takes) and
// the points chosen from their grid (all of them, a random subset, or a Latin hypercube). Pure: no runs, no files
// beyond an @file of values, so the plan can be checked, stored for --resume and compared.
#pragma once

#include "models/common/json_reader.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace aisim::app {

struct SweepAxis {
  std::string spec;                 // the --vary argument as given, for messages
  std::string flag = "--vary";      // the option it came from, for messages
  std::string pointer;              // where the values go (a --set pointer)
  std::vector<models::Json> values; // in order; a range is expanded by its step
  // When every value is a number, or a number followed by the same unit ("400Gbps"): the unit ("" for plain
  // numbers) and each value's number, so tables and charts show numbers with the unit in the header.
  std::optional<std::string> unit;
  std::vector<double> numbers;
  bool range = false; // from A..B:STEP
};

// Reads one --vary argument, POINTER=VALUES, where VALUES is
//   a list              1,2,4,8   or   H100,B200   (each item read as --set reads a value: JSON where it parses)
//   a range with a step 8..64:8   or   400Gbps..1600Gbps:x2   (additive step, with or without a unit, or xK)
//   a JSON array        [{"kind": "jbof", ...}, {"kind": "array", ...}]   (whole sub-objects)
//   @FILE               a JSON array in a file
// On failure returns nullopt and sets *error to a message naming the argument.
std::optional<SweepAxis> parse_vary(const std::string& arg, std::string* error);

// one_at_a_time: a sensitivity's points (sensitivity.hpp), never parsed from --sample.
enum class SampleMode { grid, random, latin, one_at_a_time };

struct SampleSpec {
  SampleMode mode = SampleMode::grid;
  uint64_t count = 0; // points asked for (random, latin)
  uint64_t seed = 1;
};

// "grid", "random:N" or "latin:N" (N >= 1).
std::optional<SampleSpec> parse_sample(const std::string& text, std::string* error);

// One point: which value of each axis it takes.
struct SweepPoint {
  std::vector<uint32_t> choice; // index into axes[k].values
};

struct SweepPlan {
  std::vector<SweepAxis> axes;
  SampleSpec sample;
  std::vector<SweepPoint> points;
  double grid_size = 0;    // the full grid's point count (a double: it can exceed any integer)
  uint64_t duplicates = 0; // Latin samples that landed on a grid point already taken (dropped)
  std::string description; // "grid of 3 x 4 = 12 points", "latin sample of 50 from a grid of 1,000,000"
};

// Fills axis.unit and axis.numbers when every value is a number or a number with the same unit.
void find_unit(SweepAxis& axis);

// A plain decimal for a computed value: whole numbers as integers, others without float noise
// (0.30000000000000004, 12 significant digits) and without an exponent, which a quantity does not parse.
std::string plain_decimal(double v);

// The full grid's size, saturating.
double grid_size(const std::vector<SweepAxis>& axes);

// The points of the plan. A grid enumerates every combination, the last axis fastest (as nested loops in the
// order given). random:N takes N distinct grid points (all of them, in grid order, when N covers the grid); latin:N
// splits each axis into N equal strata and takes each stratum once per axis, in random pairings, so every axis is
// covered evenly whatever N is. Both are reproducible from the seed. The caller bounds the count first
// (points_to_run) so a grid of 10^12 is refused before it is built.
SweepPlan plan_sweep(std::vector<SweepAxis> axes, const SampleSpec& sample);

// How many points the plan would run, before building it.
double points_to_run(const std::vector<SweepAxis>& axes, const SampleSpec& sample);

// The --set assignment of axis k's value at a point: "POINTER=VALUE" with the value as compact JSON.
std::string assignment(const SweepAxis& axis, uint32_t value_index);

// The plan as JSON (axes with their values, sample, points' choices), stored in sweep.json: --resume compares it.
models::Json plan_json(const SweepPlan& plan);

} // namespace aisim::app
