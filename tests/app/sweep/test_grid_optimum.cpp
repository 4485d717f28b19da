#include "app/sweep/grid_optimum.hpp"

#include <catch2/catch.hpp>

#include <cmath>

using namespace aisim::app;

namespace {

// Goodput of checkpointing every x seconds: 1 - checkpoint cost / x - x / (2 MTBF), peaking at Young's sqrt(2 C M).
double goodput(double x) { return 1.0 - 50.0 / x - x / (2 * 3600.0); }

std::vector<double> geometric(double from, double ratio, int n) {
  std::vector<double> v;
  for (int i = 0; i < n; ++i)
    v.push_back(from * std::pow(ratio, i));
  return v;
}

} // namespace

TEST_CASE("the peak of a/x + b*x on a geometric grid is found between grid points", "[grid_optimum]") {
  const auto x = geometric(300, 1.2, 8);
  std::vector<double> y;
  for (double v : x)
    y.push_back(goodput(v));
  const auto r = find_grid_optimum(x, y, true);
  REQUIRE(r.outcome == OptimumOutcome::found);
  CHECK(r.message.empty());
  CHECK(r.fitted == 5);
  CHECK(x[r.best] == Approx(622.08));             // the grid's best point is 3.7 % off the peak ...
  CHECK(r.value == Approx(600.0).epsilon(0.002)); // ... the fitted vertex is not (the curve is symmetric in log x)
}

TEST_CASE("a parabola's vertex is recovered exactly on a linear scale", "[grid_optimum]") {
  const std::vector<double> x{1, 2, 3, 4, 5, 6};
  std::vector<double> y;
  for (double v : x)
    y.push_back(7.0 - (v - 3.3) * (v - 3.3));
  const auto r = find_grid_optimum(x, y, false);
  REQUIRE(r.outcome == OptimumOutcome::found);
  CHECK(r.value == Approx(3.3));
  CHECK(r.best == 2);
}

TEST_CASE("a minimum is found when asked for", "[grid_optimum]") {
  const std::vector<double> x{1, 2, 3, 4};
  const std::vector<double> y{5, 1.5, 1.5, 5}; // symmetric about 2.5
  const auto r = find_grid_optimum(x, y, false, false);
  REQUIRE(r.outcome == OptimumOutcome::found);
  CHECK(r.value == Approx(2.5));
}

TEST_CASE("a best point at the grid's end gives no answer", "[grid_optimum]") {
  const auto x = geometric(60, 1.5, 5); // all below the peak at 600 s: goodput still rising at the top
  std::vector<double> y;
  for (double v : x)
    y.push_back(goodput(v));
  const auto r = find_grid_optimum(x, y, true);
  CHECK(r.outcome == OptimumOutcome::at_edge);
  CHECK(r.best == 4);
  CHECK(r.message.find("high end") != std::string::npos);
}

TEST_CASE("a metric that does not bend down around its best point gives no answer", "[grid_optimum]") {
  // The best point is inside, but its neighbourhood curves up (a dip beside it): noise, not a peak.
  const std::vector<double> x{1, 2, 3, 4, 5};
  const std::vector<double> y{2.0, 0.0, 2.1, 0.0, 2.0};
  const auto r = find_grid_optimum(x, y, false);
  CHECK(r.outcome == OptimumOutcome::not_peak);
}

TEST_CASE("bad grids are refused", "[grid_optimum]") {
  CHECK(find_grid_optimum({1, 2}, {0, 1}, false).outcome == OptimumOutcome::bad_input);
  CHECK(find_grid_optimum({1, 3, 2}, {0, 1, 0}, false).outcome == OptimumOutcome::bad_input);
  CHECK(find_grid_optimum({0, 1, 2}, {0, 1, 0}, true).outcome == OptimumOutcome::bad_input);
  CHECK(find_grid_optimum({1, 2, 3}, {0, 1}, false).outcome == OptimumOutcome::bad_input);
}
