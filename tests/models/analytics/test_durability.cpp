#include "models/analytics/durability.hpp"

#include <catch2/catch.hpp>

#include <cmath>

using namespace aisim::models;

namespace {
constexpr double kYear = 365.0 * 86400.0;
RedundancyGroup group(int n, int f, double lambda_per_year, double mu_per_year, RepairPolicy r) {
  return {n, f, lambda_per_year / kYear, mu_per_year / kYear, r};
}
} // namespace

TEST_CASE("durability: without rebuilds the chain is the order statistics of independent failures", "[durability]") {
  const double lambda = 0.05, t = 3 * kYear, q = 1 - std::exp(-lambda * 3); // a drive failed within 3 years
  // A 2-way mirror loses data when both copies fail: q^2; it lasts 1/(2 lambda) + 1/lambda on average.
  const auto mirror = group(2, 1, lambda, 0, RepairPolicy::parallel);
  CHECK(loss_probability(mirror, t) == Approx(q * q).epsilon(1e-9));
  CHECK(mttdl_s(mirror) / kYear == Approx(1.5 / lambda));
  // RAID 5 of 5 drives survives no failure or one: 1 - (1-q)^5 - 5 q (1-q)^4.
  const auto raid5 = group(5, 1, lambda, 0, RepairPolicy::serial);
  CHECK(loss_probability(raid5, t) == Approx(1 - std::pow(1 - q, 5) - 5 * q * std::pow(1 - q, 4)).epsilon(1e-9));
  // A 3-way mirror: all three must fail, and it lasts (1/3 + 1/2 + 1) / lambda.
  const auto triple = group(3, 2, lambda, 0, RepairPolicy::parallel);
  CHECK(loss_probability(triple, t) == Approx(q * q * q).epsilon(1e-9));
  CHECK(mttdl_s(triple) / kYear == Approx((1.0 / 3 + 1.0 / 2 + 1) / lambda));
}

TEST_CASE("durability: with rebuilds, the exact MTTDL of one tolerated failure", "[durability]") {
  // One failure tolerated: MTTDL = ((2n - 1) lambda + mu) / (n (n - 1) lambda^2) (both repair policies agree with a
  // single failed drive). n = 2 is the mirror, (3 lambda + mu) / (2 lambda^2).
  for (int n : {2, 5, 11}) {
    const double lambda = 1.0 / 114.0, mu = 365.0; // MTTF 1 M hours in years, one-day rebuilds
    const double exact = ((2 * n - 1) * lambda + mu) / (n * (n - 1) * lambda * lambda);
    CHECK(mttdl_s(group(n, 1, lambda, mu, RepairPolicy::serial)) / kYear == Approx(exact).epsilon(1e-9));
    CHECK(mttdl_s(group(n, 1, lambda, mu, RepairPolicy::parallel)) / kYear == Approx(exact).epsilon(1e-9));
    // Patterson, Gibson and Katz's approximation mu / (n (n-1) lambda^2) is within (2n-1) lambda / mu of it.
    const auto g = group(n, 1, lambda, mu, RepairPolicy::serial);
    CHECK(mttdl_closed_form_s(g) / mttdl_s(g) == Approx(1.0).epsilon((2 * n - 1) * lambda / mu));
  }
}

TEST_CASE("durability: wide codes agree with the closed forms when rebuilds are fast", "[durability]") {
  // 17+3 with Backblaze's inputs (../shared/validation-data/durability.json, computed_check): 0.405 % a year per
  // shard, 6.5-day replacement. The chain there: MTTDL 3.4023e10 years with parallel repair, 5.6751e9 serial.
  const double lambda = 0.00405, mu = 365 / 6.5;
  const auto parallel = group(20, 3, lambda, mu, RepairPolicy::parallel);
  const auto serial = group(20, 3, lambda, mu, RepairPolicy::serial);
  CHECK(mttdl_s(parallel) / kYear == Approx(3.4023e10).epsilon(1e-4));
  CHECK(mttdl_s(serial) / kYear == Approx(5.6751e9).epsilon(1e-4));
  CHECK(mttdl_closed_form_s(parallel) / mttdl_s(parallel) == Approx(1).epsilon(0.01));
  CHECK(mttdl_closed_form_s(serial) / mttdl_s(serial) == Approx(1).epsilon(0.01));
  // A loss this rare within 3 years: about 3 / MTTDL, kept to its digits rather than lost to rounding.
  const double p = loss_probability(parallel, 3 * kYear);
  CHECK(p == Approx(3 / 3.4023e10).epsilon(1e-3));
  // A thousand such groups: a thousand times as likely; a year's expected loss is groups x bytes / MTTDL.
  CHECK(loss_probability(parallel, 3 * kYear, 1000) == Approx(1000 * p).epsilon(1e-6));
  CHECK(bytes_lost_per_year(parallel, 1000, 17e12) == Approx(1000 * 17e12 / 3.4023e10).epsilon(1e-4));
}

TEST_CASE("durability: P+Q with one repair at a time is the RAID survey's formula; parallel repair doubles it",
          "[durability]") {
  // Chen et al. 1994, section 3.4.1: MTTF^3 / (G (G-1) (G-2) MTTR^2) for one group of G = 16, MTTF 200,000 h,
  // MTTR 1 h (validation/durability-chen1994-raid6-pq checks the parallel chain against the published figure).
  const double hours_per_year = kYear / 3600, lambda = hours_per_year / 200000, mu = hours_per_year;
  const double survey_years = std::pow(200000.0, 3) / (16 * 15 * 14) / hours_per_year;
  const auto serial = group(16, 2, lambda, mu, RepairPolicy::serial);
  const auto parallel = group(16, 2, lambda, mu, RepairPolicy::parallel);
  CHECK(mttdl_s(serial) / kYear == Approx(survey_years).epsilon(1e-3));
  CHECK(mttdl_s(parallel) / mttdl_s(serial) == Approx(2.0).epsilon(1e-3));
}

TEST_CASE("durability: the transient solution settles to the exponential of the MTTDL", "[durability]") {
  // RAID 6 of 10 drives at a high failure rate so that loss is likely: after the first days, P(t) follows
  // 1 - exp(-t / MTTDL) to within the time the chain takes to settle (about a rebuild).
  const auto g = group(10, 2, 0.5, 52, RepairPolicy::serial); // weekly rebuilds, drives failing twice a year each
  const double m = mttdl_s(g);
  for (double years : {1.0, 5.0, 20.0})
    CHECK(loss_probability(g, years * kYear) == Approx(-std::expm1(-years * kYear / m)).epsilon(0.05));
  CHECK(loss_probability(g, 0) == 0);
  CHECK(loss_probability(group(10, 2, 0, 52, RepairPolicy::serial), kYear) == 0);
  CHECK(std::isinf(mttdl_s(group(10, 2, 0, 52, RepairPolicy::serial))));
}

TEST_CASE("durability: an annual failure rate is a per-second rate of the same yearly chance", "[durability]") {
  const double lambda = failure_rate_from_afr(0.0044);
  CHECK(1 - std::exp(-lambda * kYear) == Approx(0.0044));
  CHECK_THROWS(mttdl_s(group(3, 3, 0.1, 1, RepairPolicy::serial)));
}
