#include "models/analytics/stats.hpp"

#include <catch2/catch.hpp>

using namespace aisim::models;

TEST_CASE("summaries use the nearest-rank percentile", "[stats]") {
  std::vector<double> v;
  for (int i = 100; i >= 1; --i)
    v.push_back(i);
  const auto s = summarize(v);
  CHECK(s.count == 100);
  CHECK(s.mean == Approx(50.5));
  CHECK(s.p50 == 50);
  CHECK(s.p99 == 99);
  CHECK(s.max == 100);
  CHECK(summarize({}).count == 0);
  CHECK(summarize({7}).p99 == 7);
}

TEST_CASE("mean interval: Student's t over replicas", "[stats]") {
  // 1, 2, 3, 4, 5: mean 3, sd sqrt(2.5); t(0.975, 4 dof) = 2.776445 (tables), half-width 2.776445 x 1.5811 / sqrt 5.
  const auto m = mean_interval({1, 2, 3, 4, 5});
  CHECK(m.mean == Approx(3));
  CHECK(m.sd == Approx(std::sqrt(2.5)));
  CHECK(m.half_width == Approx(2.776445 * std::sqrt(2.5) / std::sqrt(5.0)).epsilon(1e-6));
  CHECK(m.min == 1);
  CHECK(m.max == 5);
  CHECK(m.count == 5);
  // Many replicas: t tends to the normal 1.959964.
  std::vector<double> many(10000);
  for (size_t i = 0; i < many.size(); ++i)
    many[i] = i % 2 ? 1.0 : -1.0;
  CHECK(mean_interval(many).half_width == Approx(1.960201 * mean_interval(many).sd / 100).epsilon(1e-5));
  // One replica has no interval; none has nothing.
  CHECK(std::isnan(mean_interval({7}).half_width));
  CHECK(mean_interval({}).count == 0);
}

TEST_CASE("histogram: about sqrt(n) equal-width bins from the smallest to the largest sample", "[stats]") {
  std::vector<double> v;
  for (int i = 0; i < 100; ++i)
    v.push_back(i);
  const auto h = histogram(v);
  REQUIRE(h.counts.size() == 10);
  REQUIRE(h.edges.size() == 11);
  CHECK(h.edges.front() == 0);
  CHECK(h.edges.back() == 99);
  size_t total = 0;
  for (auto c : h.counts)
    total += c;
  CHECK(total == 100); // the largest sample is in the last bin, not past it
  CHECK(h.counts.front() == 10);
  CHECK(histogram(v, 4).counts.size() == 4);
  const auto same = histogram({2.5, 2.5, 2.5});
  REQUIRE(same.counts.size() == 1);
  CHECK(same.counts[0] == 3);
  CHECK(same.edges == std::vector<double>{2.5, 2.5});
  CHECK(histogram({}).counts.empty());
  // Rounding in the clock is not a spread: one bin.
  CHECK(histogram({2.45, 2.45 + 1e-11, 2.45 - 1e-11}).counts.size() == 1);
}
