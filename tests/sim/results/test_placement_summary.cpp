// The summary's placement table (sim/results/placement.hpp): how chances read.
#include "sim/results/placement.hpp"

#include <catch2/catch.hpp>

using aisim::models::Json;
using aisim::sim::format_placement;

namespace {

Json row(double annual_loss, const Json& breakeven) {
  return Json{{"class", "active_checkpoint"},
              {"storage", "hot"},
              {"annual_loss_probability", annual_loss},
              {"value_usd", 1000.0},
              {"expected_loss_usd_per_year", 1000.0 * annual_loss},
              {"protection", "replica on cold"},
              {"protection_usd_per_year", 376.0},
              {"verdict", "enough"},
              {"breakeven_probability", breakeven}};
}

} // namespace

TEST_CASE("placement summary: chances read as percentages with their digits, never in exponent form", "[results]") {
  // A certain loss printed "1e+02 %" with two significant digits.
  std::string t = format_placement(Json{{"placement", Json::array({row(1.0, 0.376)})}});
  INFO(t);
  CHECK(t.find("100 %") != std::string::npos);
  CHECK(t.find("e+") == std::string::npos);
  CHECK(t.find("(protection pays above a 37.6 % chance)") != std::string::npos);
  // Below 10 %: two digits; below 0.1 %: odds.
  t = format_placement(Json{{"placement", Json::array({row(0.054, 0.0054), row(2e-5, nullptr)})}});
  INFO(t);
  CHECK(t.find("5.4 %") != std::string::npos);
  CHECK(t.find("(protection pays above a 0.54 % chance)") != std::string::npos);
  CHECK(t.find("1 in 50,000") != std::string::npos);
}
