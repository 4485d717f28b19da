#include "models/calibration/latency_histogram.hpp"

#include <catch2/catch.hpp>

using aisim::models::Json;
using aisim::models::LatencyHistogram;

// Expected values worked out by hand from fio's stat.c rules (FIO_IO_U_PLAT_BITS = 6): below 128 ns a value is
// its own bucket; above, the group of [2^m, 2^(m+1)) starts at index (m - 5) x 64 and holds 64 buckets
// 2^(m-6) ns wide, reported at their midpoints.
TEST_CASE("fio buckets: exact below 128 ns, 64 per power of two above", "[histogram]") {
  CHECK(LatencyHistogram::bucket_of(0) == 0);
  CHECK(LatencyHistogram::bucket_of(127) == 127);
  CHECK(LatencyHistogram::bucket_value(127) == 127);
  // 128 = 2^7: error bits 1, base index 2 x 64 = 128, offset (128 >> 1) & 63 = 0.
  CHECK(LatencyHistogram::bucket_of(128) == 128);
  CHECK(LatencyHistogram::bucket_of(129) == 128);
  CHECK(LatencyHistogram::bucket_value(128) == 129); // [128, 130) -> 128 + 0.5 x 2
  CHECK(LatencyHistogram::bucket_of(255) == 191);
  CHECK(LatencyHistogram::bucket_value(191) == 255); // [254, 256) -> 254 + 1
  CHECK(LatencyHistogram::bucket_of(256) == 192);
  CHECK(LatencyHistogram::bucket_value(192) == 258); // [256, 260) -> 256 + 0.5 x 4
  // 100 us: msb 16, error bits 10, base 11 x 64 = 704, offset (100000 >> 10) & 63 = 97 & 63 = 33 -> 737;
  // midpoint 65536 + 33.5 x 1024 = 99840, the "99840" fio prints for latencies near 100 us.
  CHECK(LatencyHistogram::bucket_of(100000) == 737);
  CHECK(LatencyHistogram::bucket_value(737) == 99840);
  CHECK(LatencyHistogram::bucket_low(737) == 99328);
  // 1 ms: msb 19, error bits 13, base 14 x 64 = 896, offset 122 & 63 = 58 -> 954; 524288 + 58.5 x 8192 = 1003520.
  CHECK(LatencyHistogram::bucket_of(1000000) == 954);
  CHECK(LatencyHistogram::bucket_value(954) == 1003520);
  // Every bucket's low edge maps back to it, and its midpoint lies inside it.
  for (unsigned i = 0; i + 1 < LatencyHistogram::kBuckets; ++i) {
    INFO("bucket " << i);
    REQUIRE(LatencyHistogram::bucket_of(LatencyHistogram::bucket_low(i)) == i);
    REQUIRE(LatencyHistogram::bucket_of(LatencyHistogram::bucket_value(i)) == i);
  }
  // Beyond the last group (about 17 s) everything lands in the last bucket.
  CHECK(LatencyHistogram::bucket_of(UINT64_C(1) << 40) == LatencyHistogram::kBuckets - 1);
}

TEST_CASE("fio percentile rule: first bucket whose running count reaches p/100 x N", "[histogram]") {
  LatencyHistogram h;
  for (uint64_t v = 1; v <= 100; ++v)
    h.add(v);
  CHECK(h.percentile_ns(50) == 50);
  CHECK(h.percentile_ns(98.5) == 99); // 98.5 samples: reached at the 99th
  CHECK(h.percentile_ns(99.9) == 100);
  CHECK(h.mean_ns() == Approx(50.5));
  CHECK(h.min_ns() == 1);
  CHECK(h.max_ns() == 100);

  // 992 samples at 1 us and 8 at 100 us: p99 needs 990 samples, reached in the 1 us bucket
  // (msb 9, error bits 3, base 256, offset 125 & 63 = 61 -> 317, midpoint 512 + 61.5 x 8 = 1004);
  // p99.9 needs 999, only reached in the 100 us bucket (99840).
  LatencyHistogram t;
  for (int i = 0; i < 992; ++i)
    t.add(1000);
  for (int i = 0; i < 8; ++i)
    t.add(100000);
  CHECK(t.percentile_ns(50) == 1004);
  CHECK(t.percentile_ns(99) == 1004);
  CHECK(t.percentile_ns(99.9) == 99840);
  CHECK(t.mean_ns() == Approx((992.0 * 1000 + 8.0 * 100000) / 1000));

  const Json fio = t.fio_json();
  CHECK(fio["percentile"]["50.000000"] == 1004);
  CHECK(fio["percentile"]["99.000000"] == 1004);
  CHECK(fio["percentile"]["99.900000"] == 99840);
  CHECK(fio["N"] == 1000);
  CHECK(LatencyHistogram().percentile_ns(50) == 0);
}

TEST_CASE("histograms merge and survive a JSON round trip", "[histogram]") {
  LatencyHistogram a, b;
  for (uint64_t v : {100u, 5000u, 80000u})
    a.add(v);
  for (uint64_t v : {7u, 2000000u})
    b.add(v);
  a.merge(b);
  CHECK(a.count() == 5);
  CHECK(a.min_ns() == 7);
  CHECK(a.max_ns() == 2000000);
  std::string why;
  auto back = LatencyHistogram::from_json(a.to_json(), &why);
  INFO(why);
  REQUIRE(back);
  CHECK(back->count() == 5);
  CHECK(back->mean_ns() == Approx(a.mean_ns()));
  for (double p : {10.0, 50.0, 90.0, 99.0})
    CHECK(back->percentile_ns(p) == a.percentile_ns(p));
  CHECK_FALSE(LatencyHistogram::from_json(Json{{"bucket", {1}}, {"count", {1}}}, &why));
  CHECK(why == "missing non-negative integer \"sum_ns\"");
  Json uneven = a.to_json();
  uneven["count"].push_back(3);
  CHECK_FALSE(LatencyHistogram::from_json(uneven, &why));
  CHECK(why == "\"bucket\" and \"count\" differ in length");
}
