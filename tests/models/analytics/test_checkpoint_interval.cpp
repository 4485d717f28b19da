#include "models/analytics/checkpoint_interval.hpp"

#include <catch2/catch.hpp>

using aisim::models::daly_interval_s;

// The points in ../shared/validation-data/reliability.json (Daly 2006, delta = 5 min).
TEST_CASE("Daly's checkpoint interval matches the published points", "[interval]") {
  CHECK(daly_interval_s(300, 24 * 3600) / 60 == Approx(116.7).epsilon(0.001));
  CHECK(daly_interval_s(300, 6 * 3600) / 60 == Approx(56.7).epsilon(0.001));
  CHECK(daly_interval_s(300, 15 * 60) / 60 == Approx(9.14).epsilon(0.001));
  CHECK(daly_interval_s(3600, 1000) == 1000); // a checkpoint longer than two MTBFs: checkpoint every MTBF
}
