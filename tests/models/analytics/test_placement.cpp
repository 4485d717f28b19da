#include "models/analytics/placement.hpp"

#include <catch2/catch.hpp>

#include <cmath>

using namespace aisim::models;

TEST_CASE("placement: protection pays when the expected loss exceeds its cost", "[placement]") {
  // A 5 % yearly chance of losing a model worth $2M: -ln(0.95) = 0.05129 losses a year, $102.6k expected; a replica
  // at $30k a year pays.
  const auto a = advise({0.05, 2e6, {{"replica on cold", 30e3}, {"move to warm", 80e3}}});
  CHECK(a.verdict == Verdict::protect);
  CHECK(*a.expected_loss_usd_per_year == Approx(-std::log(0.95) * 2e6));
  CHECK(a.best->name == "replica on cold");
  CHECK(*a.breakeven_value_usd == Approx(30e3 / -std::log(0.95)));
  CHECK(*a.breakeven_probability == Approx(1 - std::exp(-0.015))); // 30k / 2M = 0.015 losses a year
}

TEST_CASE("placement: a JBOF is enough when the loss is cheap", "[placement]") {
  const auto a = advise({0.05, 100e3, {{"replica on cold", 30e3}}});
  CHECK(a.verdict == Verdict::enough);
  CHECK(*a.expected_loss_usd_per_year == Approx(-std::log(0.95) * 100e3));
  CHECK(*a.breakeven_probability == Approx(1 - std::exp(-0.3)));
}

TEST_CASE("placement: an unknown value gives the break-even value", "[placement]") {
  const auto a = advise({0.01, std::nullopt, {{"replica on cold", 12e3}}});
  CHECK(a.verdict == Verdict::value_unknown);
  CHECK_FALSE(a.expected_loss_usd_per_year);
  CHECK(*a.breakeven_value_usd == Approx(12e3 / -std::log(0.99)));
}

TEST_CASE("placement: nothing to lose, nothing to price", "[placement]") {
  CHECK(advise({0.0, 1e6, {{"x", 1.0}}}).verdict == Verdict::nothing_threatens);
  CHECK(advise({0.1, 1e6, {}}).verdict == Verdict::no_option);
  // Protection dearer than the data pays only with more than one loss a year: a break-even chance near certainty.
  const auto a = advise({0.5, 10e3, {{"x", 20e3}}});
  CHECK(a.verdict == Verdict::enough);
  CHECK(*a.breakeven_probability == Approx(1 - std::exp(-2.0)));
}

TEST_CASE("placement: snapshots remove only the losses they survive", "[placement]") {
  // 0.5 losses a year: 0.4 from threats that snapshots survive, 0.1 from drives that they share.
  const double p = 1 - std::exp(-0.5);
  const std::vector<ProtectionOption> options{{"snapshots on warm", 1e3, 0.4}, {"replica on cold", 10e3}};
  // Worth $100k: snapshots save 0.4 x 100k - 1k = $39k a year net, the replica 0.5 x 100k - 10k = $40k: the replica.
  const auto a = advise({p, 100e3, options});
  CHECK(a.verdict == Verdict::protect);
  CHECK(a.best->name == "replica on cold");
  // Worth unknown: snapshots pay first, at $1k / 0.4 = $2.5k a loss (the replica only at $20k).
  const auto b = advise({p, std::nullopt, options});
  CHECK(b.verdict == Verdict::value_unknown);
  CHECK(b.best->name == "snapshots on warm");
  CHECK(*b.breakeven_value_usd == Approx(2.5e3));
  // A partial option gives no break-even chance (the other causes stay).
  const auto c = advise({p, 3e3, {{"snapshots on warm", 1e3, 0.4}}});
  CHECK(c.verdict == Verdict::protect); // 0.4 x 3k = 1.2k > 1k
  CHECK_FALSE(c.breakeven_probability);
}
