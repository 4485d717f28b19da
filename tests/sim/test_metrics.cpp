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

TEST_CASE("occupancy tracks its peak in time order, with deletions dated in the future", "[metrics]") {
  StorageMetrics s;
  s.add_used(0, 10);
  s.add_used(5, -12); // recorded first, happens later
  s.add_used(2, 5);
  s.add_used(6, 4);
  CHECK(s.peak_used_bytes(100) == 15);
  CHECK(s.peak_used_bytes(1) == 10);
  StorageMetrics t;
  t.add_used(3, 10);
  t.add_used(3, -10); // a release at the same instant as a write does not hide the write
  CHECK(t.peak_used_bytes(100) == 10);
}
