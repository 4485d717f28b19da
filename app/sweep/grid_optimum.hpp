// Where a metric peaks over a grid of knob values (a checkpoint interval, say), from the metric's mean at each
// value. `aisim validate`'s optimum checks use it: Daly's interval is where goodput peaks, and a case compares the
// peak the simulator finds with it.
//
// The grid's best point alone would quantize the answer to the grid's spacing and be as noisy as one mean, so the
// peak is the vertex of a least-squares parabola through the best point and up to two neighbours on each side
// (in log(value) when the grid is geometric: a waste of the form a/x + b*x is symmetric in log x about its minimum).
// A best point at either end of the grid, or a fitted curve that does not bend down, gives no answer.
#pragma once

#include <string>
#include <vector>

namespace aisim::app {

enum class OptimumOutcome {
  found,     // `value` is the fitted peak
  at_edge,   // the best point is the first or last value: the peak may lie outside the grid
  not_peak,  // the parabola through the best point's neighbourhood does not bend down (noise, or a flat metric)
  bad_input, // fewer than 3 points, values not increasing, a non-positive value on a log scale
};

struct GridOptimum {
  OptimumOutcome outcome = OptimumOutcome::bad_input;
  double value = 0;    // the fitted peak's knob value when found
  size_t best = 0;     // index of the best grid point
  int fitted = 0;      // how many points the parabola was fitted to
  std::string message; // why there is no answer; empty when found
};

// `values` strictly increasing, `means[i]` the metric at values[i]; `maximize` false looks for a minimum.
GridOptimum find_grid_optimum(const std::vector<double>& values, const std::vector<double>& means, bool log_scale,
                              bool maximize = true);

} // namespace aisim::app
