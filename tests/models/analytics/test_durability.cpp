#include "models/analytics/durability.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>

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
  // 17+3 with Backblaze's inputs (validation/reference-data/durability.json, computed_check): 0.405 % a year per
  // shard, 6.5-day replacement. The chain there: MTTDL 3.4023e10 years with parallel repair, 5.6751e9 serial.
  const double lambda = 0.00405, mu = 365 / 6.5;
  const auto parallel = group(20, 3, lambda, mu, RepairPolicy::parallel);
  const auto serial = group(20, 3, lambda, mu, RepairPolicy::serial);
  CHECK(mttdl_s(parallel) / kYear == Approx(3.4023e10).epsilon(1e-4));
  CHECK(mttdl_s(serial) / kYear == Approx(5.6751e9).epsilon(1e-4));
  CHECK(mttdl_closed_form_s(parallel) / mttdl_s(parallel) == Approx(1).epsilon(0.01));
  CHECK(mttdl_closed_form_s(serial) / mttdl_s(serial) == Approx(1).epsilon(0.01));
  // A loss this rare within 3 years: about 3 / MTTDL, kept to its digits rather than lost to rounding. The chain
  // starts with every drive up and takes about H_3 / mu (11.9 d) to fill its degraded states: 1.1 % less than that.
  const double p = loss_probability(parallel, 3 * kYear);
  CHECK(p == Approx(3 / 3.4023e10 * (1 - 11.9 / 1095)).epsilon(1e-3));
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

TEST_CASE("durability: codes that survive three or more failures keep their digits", "[durability]") {
  // failures.json's warm tier as erasure codes: 0.44 % a year per drive, back after a day and a rebuild (1.22 d).
  // Solving Q t = -1 gave 0 s for all of these (the chain's times differ by less than a double's resolution).
  const double lambda = -std::log1p(-0.0044), mu = 365 / 1.2155;
  struct Code {
    int n, f;
  };
  for (const Code c : {Code{11, 3}, Code{20, 4}, Code{80, 16}, Code{4, 3}, Code{24, 8}}) {
    CAPTURE(c.n, c.f);
    const auto g = group(c.n, c.f, lambda, mu, RepairPolicy::parallel);
    const double m = mttdl_s(g);
    REQUIRE(std::isfinite(m));
    // Rebuilds ~70,000 times faster than a drive fails: the first-order closed form is within (f + 1) n lambda / mu.
    CHECK(mttdl_closed_form_s(g) / m == Approx(1).epsilon((c.f + 1) * c.n * lambda / mu));
    // Over years the loss is 1 - exp(-t / MTTDL) but for the chain's start with every drive up: it takes about
    // H_f / mu to fill its degraded states (harmonic number H_f, 2.2 d for 8+3). A year's expected loss is data / MTTDL.
    double harmonic = 0;
    for (int i = 1; i <= c.f; ++i)
      harmonic += 1.0 / i;
    const double lag = harmonic / mu / 3;
    CHECK(loss_probability(g, 3 * kYear) == Approx(-std::expm1(-3 * kYear / m) * (1 - lag)).epsilon(lag / 10));
    CHECK(bytes_lost_per_year(g, 10, 1e12) == Approx(10 * 1e12 * kYear / m).epsilon(1e-12));
  }
  // One repair at a time: the closed form without f!.
  const auto serial = group(20, 4, lambda, mu, RepairPolicy::serial);
  CHECK(mttdl_closed_form_s(serial) / mttdl_s(serial) == Approx(1).epsilon(5 * 20 * lambda / mu));
}

TEST_CASE("durability: more parity never shortens the time to data loss (every code up to 64+16)", "[durability]") {
  // Adding a parity piece adds a drive that can fail and one more failure tolerated; with repairs at any rate the
  // second wins. Drives from 0.2 % to 20 % a year, back after an hour to a month; and never rebuilt.
  for (const double afr : {0.002, 0.02, 0.2})
    for (const double repair_days : {1.0 / 24, 1.0, 30.0, 0.0})
      for (const auto policy : {RepairPolicy::parallel, RepairPolicy::serial})
        for (int data = 1; data <= 64; data = data < 4 ? data + 1 : data * 2) {
          const double lambda = -std::log1p(-afr), mu = repair_days > 0 ? 365 / repair_days : 0;
          double previous = 0, previous_p = 1;
          for (int parity = 0; parity <= 16; ++parity) {
            CAPTURE(afr, repair_days, data, parity);
            const auto g = group(data + parity, parity, lambda, mu, policy);
            const double m = mttdl_s(g), p = loss_probability(g, 5 * kYear);
            REQUIRE(std::isfinite(m));
            REQUIRE(m > 0);
            CHECK(m > previous);
            CHECK(p >= 0);
            CHECK(p <= previous_p * (1 + 1e-12));
            previous = m;
            previous_p = p;
          }
        }
}

namespace {
// A reference for the chain's loss probability by uniformization: P(t) = sum_k Poisson(k; L t) (I + Q / L)^k, all
// terms positive, so a loss of 1e-80 keeps its digits; slow (L t steps), so only for tests.
double uniformized_loss(const RedundancyGroup& g, double horizon_s) {
  const int f = g.tolerated;
  std::vector<double> fail(f + 1), repair(f + 1);
  double rate = 0;
  for (int i = 0; i <= f; ++i) {
    fail[i] = (g.drives - i) * g.failure_rate * horizon_s;
    repair[i] = i == 0 ? 0 : (g.repair == RepairPolicy::parallel ? i : 1) * g.repair_rate * horizon_s;
    rate = std::max(rate, fail[i] + repair[i]);
  }
  std::vector<double> v(f + 2, 0.0);
  v[0] = 1;
  double loss = 0, log_weight = -rate;
  const int steps = static_cast<int>(rate + 12 * std::sqrt(rate) + 60);
  for (int k = 0; k <= steps; ++k) {
    loss += std::exp(log_weight) * v[f + 1];
    std::vector<double> next(f + 2, 0.0);
    next[f + 1] = v[f + 1];
    for (int i = 0; i <= f; ++i) {
      next[i] += v[i] * (1 - (fail[i] + repair[i]) / rate);
      next[i + 1] += v[i] * fail[i] / rate;
      if (i > 0)
        next[i - 1] += v[i] * repair[i] / rate;
    }
    v = next;
    log_weight += std::log(rate) - std::log(k + 1.0);
  }
  return loss;
}
} // namespace

TEST_CASE("durability: a rare loss within a horizon keeps its digits, settled chain or not", "[durability]") {
  const double lambda = -std::log1p(-0.02), t = 5 * kYear;
  // Never rebuilt: the loss is the binomial tail of f + 1 or more of n drives failed by t (down to 4e-15 for 4+16).
  const double q = -std::expm1(-lambda * 5);
  for (const auto& [n, f] : {std::pair{15, 3}, {15, 11}, {20, 11}, {20, 16}, {80, 16}}) {
    double tail = 0;
    for (int k = f + 1; k <= n; ++k)
      tail += std::exp(std::lgamma(n + 1.0) - std::lgamma(k + 1.0) - std::lgamma(n - k + 1.0) + k * std::log(q) +
                       (n - k) * std::log1p(-q));
    CAPTURE(n, f);
    CHECK(loss_probability(group(n, f, lambda, 0, RepairPolicy::parallel), t) == Approx(tail).epsilon(1e-6));
  }
  // Rebuilt in a month, a day or an hour: the uniformized chain, down to 1e-87.
  for (const double mu : {12.0, 365.0, 8760.0})
    for (const auto& [n, f] : {std::pair{11, 3}, {20, 4}, {20, 16}, {80, 16}})
      for (const auto policy : {RepairPolicy::parallel, RepairPolicy::serial}) {
        const auto g = group(n, f, lambda, mu, policy);
        CAPTURE(mu, n, f);
        CHECK(loss_probability(g, t) == Approx(uniformized_loss(g, t)).epsilon(1e-6));
      }
}
