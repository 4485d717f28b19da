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
