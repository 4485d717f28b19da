#include "models/analytics/checkpoint_interval.hpp"

#include <catch2/catch.hpp>

#include <cmath>

using aisim::models::daly_interval_s;
using aisim::models::expected_goodput;
using aisim::models::young_interval_s;

// The points in validation/reference-data/reliability.json (Daly 2006, delta = 5 min).
TEST_CASE("Daly's checkpoint interval matches the published points", "[interval]") {
  CHECK(daly_interval_s(300, 24 * 3600) / 60 == Approx(116.7).epsilon(0.001));
  CHECK(daly_interval_s(300, 6 * 3600) / 60 == Approx(56.7).epsilon(0.001));
  CHECK(daly_interval_s(300, 15 * 60) / 60 == Approx(9.14).epsilon(0.001));
  CHECK(daly_interval_s(3600, 1000) == 1000); // a checkpoint longer than two MTBFs: checkpoint every MTBF
}

TEST_CASE("goodput: Daly's complete model, peaking at his interval", "[interval]") {
  // Without failures, every checkpoint costs its delta: tau / (tau + delta).
  CHECK(expected_goodput(1800, 60, 600, 0) == Approx(1800.0 / 1860.0));
  // Rare failures: goodput tends to tau / (tau + delta) x (1 - (tau + delta) / (2M) - R / M) (first order in 1/M).
  const double tau = 3600, delta = 60, restart = 600, m = 1e7;
  CHECK(expected_goodput(tau, delta, restart, m) ==
        Approx(tau / (tau + delta) * (1 - (tau + delta) / (2 * m) - restart / m)).epsilon(1e-6));
  // The goodput is highest near Daly's interval and higher there than at half or twice Young's.
  const double mtbf = 6 * 3600.0, d = 120;
  const double daly = daly_interval_s(d, mtbf), young = young_interval_s(d, mtbf);
  CHECK(young == Approx(std::sqrt(2 * d * mtbf)));
  const double best = expected_goodput(daly, d, 600, mtbf);
  for (double f : {0.5, 0.8, 1.25, 2.0})
    CHECK(expected_goodput(daly * f, d, 600, mtbf) < best);
  CHECK(best >= expected_goodput(young, d, 600, mtbf) - 1e-6);
}
