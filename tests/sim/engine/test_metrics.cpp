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

TEST_CASE("peak rate: a sustained rate lasts a millisecond; shorter windows count only when there is no other",
          "[metrics]") {
  // 16 kB in 15.9984 us, as SimGrid dated a 16 us read from drives giving 1 GB/s: 1.0001 GB/s is not a rate the
  // drives sustained. Beside a 1 ms read it does not count; alone it is all there is.
  std::vector<TransferRecord> t{{0, 15.9984375e-6, 16000, IoDirection::read}};
  CHECK(peak_rate_Bps(t, IoDirection::read) == Approx(16000 / 15.9984375e-6));
  t.push_back({1, 1.002, 1e6, IoDirection::read}); // 500 MB/s over 2 ms
  CHECK(peak_rate_Bps(t, IoDirection::read) == Approx(5e8));
}

TEST_CASE("bytes after the period: each transfer's share past the end, as the time series spreads it", "[metrics]") {
  const std::vector<TransferRecord> t{
      {0, 10, 100, IoDirection::read},  // inside
      {5, 15, 100, IoDirection::read},  // half after 10 s
      {12, 14, 40, IoDirection::read},  // all after
      {10, 10, 7, IoDirection::read},   // an instant at the end: after
      {9, 9, 3, IoDirection::read},     // an instant inside
      {5, 15, 1000, IoDirection::write} // other direction
  };
  CHECK(bytes_after(t, IoDirection::read, 10) == Approx(50 + 40 + 7));
  CHECK(bytes_after(t, IoDirection::write, 10) == Approx(500));
}

TEST_CASE("a segment's shares are of all the job's GPUs: what the job's GPUs did not do stays idle", "[metrics]") {
  JobMetrics jm;
  jm.gpus = 8;
  jm.window_end_s = 100;
  jm.add_segment(0, 10, 40, 0, 0, 0); // 4 of 8 GPUs serving for 10 s, the other replicas scaled in
  REQUIRE(jm.segments.size() == 1);
  CHECK(jm.segments[0].compute == Approx(0.5));
  jm.add_segment(90, 110, 80, 80, 0, 0); // cut at the window's end: half of it kept, its shares unchanged
  CHECK(jm.segments[1].end_s == 100);
  CHECK(jm.segments[1].compute == Approx(0.5));
  CHECK(jm.segments[1].data_stall == Approx(0.5));
  CHECK(jm.compute_gpu_s == Approx(80));
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
