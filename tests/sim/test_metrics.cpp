#include "sim/metrics.hpp"

#include <catch2/catch.hpp>

using namespace aisim::sim;

TEST_CASE("peak rate sums overlapping transfers of one direction", "[metrics]") {
  std::vector<TransferRecord> t{
      {0, 10, 100, IoDirection::read},  // 10 B/s
      {5, 10, 100, IoDirection::read},  // 20 B/s, overlaps the first
      {10, 20, 500, IoDirection::read}, // 50 B/s, starts as the others end
      {0, 1, 1000, IoDirection::write}, // other direction
  };
  CHECK(peak_rate_Bps(t, IoDirection::read) == Approx(50));
  CHECK(peak_rate_Bps(t, IoDirection::write) == Approx(1000));
  t.push_back({12, 14, 200, IoDirection::read}); // 100 B/s inside the 50 B/s one
  CHECK(peak_rate_Bps(t, IoDirection::read) == Approx(150));
}

TEST_CASE("occupancy tracks its peak", "[metrics]") {
  StorageMetrics s;
  s.add_used(10);
  s.add_used(5);
  s.add_used(-12);
  s.add_used(4);
  CHECK(s.used_bytes == 7);
  CHECK(s.peak_used_bytes == 15);
}
