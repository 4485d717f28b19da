#include "models/analytics/serving_latency.hpp"

#include <catch2/catch.hpp>

#include <cmath>
#include <limits>

using namespace aisim::models;

TEST_CASE("serving latency: one period is an exponential with mean L1 / (1 - rho)", "[serving]") {
  CHECK(mean_response_s(100e-6, 0.5) == Approx(200e-6));
  CHECK(std::isinf(mean_response_s(100e-6, 1.0)));
  const std::vector<ServingPeriod> one{{1000, 200e-6}};
  CHECK(latency_quantile_s(one, 0.5) == Approx(200e-6 * std::log(2.0)).epsilon(1e-9));
  CHECK(latency_quantile_s(one, 0.99) == Approx(200e-6 * std::log(100.0)).epsilon(1e-9));
  CHECK(slo_attainment(one, 1e-3) == Approx(1.0 - std::exp(-5.0)));
}

TEST_CASE("serving latency: periods mix by their request counts; overload has no bound", "[serving]") {
  const double inf = std::numeric_limits<double>::infinity();
  const std::vector<ServingPeriod> mixed{{900, 100e-6}, {100, 1e-3}};
  const double q = latency_quantile_s(mixed, 0.95);
  // F(q) = 0.9 (1 - e^(-q/100us)) + 0.1 (1 - e^(-q/1ms)) = 0.95
  CHECK(0.9 * (1 - std::exp(-q / 100e-6)) + 0.1 * (1 - std::exp(-q / 1e-3)) == Approx(0.95).epsilon(1e-9));
  const std::vector<ServingPeriod> overloaded{{900, 100e-6}, {100, inf}};
  CHECK(std::isfinite(latency_quantile_s(overloaded, 0.5)));
  CHECK(std::isinf(latency_quantile_s(overloaded, 0.95)));
  CHECK(slo_attainment(overloaded, 1.0) == Approx(0.9));
}
