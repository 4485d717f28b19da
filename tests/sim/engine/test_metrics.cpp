#include "sim/engine/metrics.hpp"

#include <catch2/catch.hpp>

using namespace aisim::sim;

TEST_CASE("peak rate: the most bytes moved within a window, per second of it", "[metrics]") {
  std::vector<TransferRecord> t{
      {0, 10, 100, IoDirection::read},  // 10 B/s
      {5, 10, 100, IoDirection::read},  // 20 B/s, overlaps the first: 200 B within [0, 10] is also 20 B/s
      {10, 20, 500, IoDirection::read}, // 50 B/s, starts as the others end
      {0, 1, 1000, IoDirection::write}, // other direction
  };
  CHECK(peak_rate_Bps(t, IoDirection::read) == Approx(50));
  CHECK(peak_rate_Bps(t, IoDirection::write) == Approx(1000));
  t.push_back({12, 14, 200, IoDirection::read}); // 100 B/s inside the 50 B/s one
  CHECK(peak_rate_Bps(t, IoDirection::read) == Approx(100));
  // Back to back, nothing overlapping: each its own rate.
  t.push_back({30, 31, 400, IoDirection::read});
  CHECK(peak_rate_Bps(t, IoDirection::read) == Approx(400));
}

TEST_CASE("peak rate: transfers taking turns on one link never add up past it", "[metrics]") {
  // A 100 B/s link: A runs alone for 10 s, shares it with B for 10 s, then B runs alone for 10 s. Each averages
  // 75 B/s over 20 s, and their averages summed (150 B/s) would be more than the link can move.
  std::vector<TransferRecord> t{
      {0, 20, 1500, IoDirection::write},
      {10, 30, 1500, IoDirection::write},
  };
  CHECK(peak_rate_Bps(t, IoDirection::write) == Approx(100)); // 3000 B within [0, 30]
  CHECK(peak_rate_Bps(t, IoDirection::write) <= 100.0 + 1e-9);
}

TEST_CASE("occupancy tracks its peak in time order, with deletions dated in the future", "[metrics]") {
  const auto c = aisim::models::DataClass::active_checkpoint;
  StorageMetrics s;
  s.add_used(0, 10, c);
  s.add_used(5, -12, c); // recorded first, happens later
  s.add_used(2, 5, c);
  s.add_used(6, 4, c);
  CHECK(s.peak_used_bytes(100) == 15);
  CHECK(s.peak_used_bytes(1) == 10);
  StorageMetrics t;
  t.add_used(3, 10, c);
  t.add_used(3, -10, c); // a release at the same instant as a write does not hide the write
  CHECK(t.peak_used_bytes(100) == 10);
}

TEST_CASE("occupancy is kept per data class", "[metrics]") {
  using aisim::models::DataClass;
  StorageMetrics s;
  s.add_used(0, 100, DataClass::training_dataset);
  s.add_used(1, 10, DataClass::active_checkpoint);
  s.add_used(2, 10, DataClass::active_checkpoint);
  s.add_used(3, -10, DataClass::active_checkpoint);
  s.add_used(4, 50, DataClass::validated_model);
  s.add_used(5, -100, DataClass::training_dataset);
  const auto peak = s.peak_used_by_class(10);
  CHECK(peak[static_cast<int>(DataClass::training_dataset)] == 100);
  CHECK(peak[static_cast<int>(DataClass::active_checkpoint)] == 20);
  CHECK(peak[static_cast<int>(DataClass::validated_model)] == 50);
  CHECK(s.peak_used_bytes(10) == 160); // at t=4: 100 + 10 + 50; no class peaks at that instant but the model
  const auto at4 = s.used_by_class(4.5);
  CHECK(at4[static_cast<int>(DataClass::training_dataset)] == 100);
  CHECK(at4[static_cast<int>(DataClass::active_checkpoint)] == 10);
  CHECK(s.used_by_class(10)[static_cast<int>(DataClass::training_dataset)] == 0);
}
