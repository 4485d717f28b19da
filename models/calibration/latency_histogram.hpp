// Completion-latency histogram with fio's log-linear buckets and fio's percentile rule, so that the calibration
// probe's percentiles are the numbers fio would print for the same samples.
//
// fio (stat.h, FIO_IO_U_PLAT_BITS = 6) keeps values below 128 ns exactly, one bucket per nanosecond; above that,
// every power of two [2^m, 2^(m+1)) is split into 64 equal buckets, so a bucket is at most 1/64 (1.6%) of its
// value wide. A percentile p is the first bucket whose cumulative count reaches p/100 x N, reported as the
// bucket's midpoint (truncated to whole nanoseconds, as fio's integer arithmetic does). The mean is exact (the
// sum of the samples), as in fio.
#pragma once

#include "models/common/json_reader.hpp"

#include <array>
#include <cstdint>
#include <optional>

namespace aisim::models {

class LatencyHistogram {
public:
  static constexpr unsigned kBits = 6;               // fio's FIO_IO_U_PLAT_BITS
  static constexpr unsigned kPerGroup = 1u << kBits; // FIO_IO_U_PLAT_VAL: buckets per power of two
  static constexpr unsigned kGroups = 29;            // FIO_IO_U_PLAT_GROUP_NR since fio 3 (nanoseconds): up to ~17 s
  static constexpr unsigned kBuckets = kGroups * kPerGroup;

  // fio's plat_val_to_idx: the bucket a latency of `ns` nanoseconds falls in (the last bucket holds the rest).
  static unsigned bucket_of(uint64_t ns);
  // fio's plat_idx_to_val: the value a bucket stands for, its midpoint (exact below 128 ns).
  static uint64_t bucket_value(unsigned idx);
  // The smallest latency that falls in bucket `idx`.
  static uint64_t bucket_low(unsigned idx);

  void add(uint64_t ns);
  void merge(const LatencyHistogram& other);

  uint64_t count() const { return count_; }
  double mean_ns() const { return count_ ? static_cast<double>(sum_ns_) / static_cast<double>(count_) : 0.0; }
  uint64_t min_ns() const { return count_ ? min_ns_ : 0; }
  uint64_t max_ns() const { return max_ns_; }
  uint64_t bucket_count(unsigned idx) const { return buckets_[idx]; }
  // fio's rule; p in [0, 100]; 0 for an empty histogram.
  uint64_t percentile_ns(double p) const;

  // fio's JSON for a latency: {"min", "max", "mean", "N", "percentile": {"50.000000": ..., "99.000000": ...,
  // "99.900000": ...}} in nanoseconds.
  Json fio_json() const;
  // The non-empty buckets as {"bucket": [...], "count": [...]} plus the exact sum, min and max, so a histogram
  // can be stored and read back without loss.
  Json to_json() const;
  // Reverse of to_json; nullopt (with `why`) when the object is malformed.
  static std::optional<LatencyHistogram> from_json(const Json& j, std::string* why);

private:
  std::array<uint64_t, kBuckets> buckets_{};
  uint64_t count_ = 0;
  uint64_t sum_ns_ = 0;
  uint64_t min_ns_ = UINT64_MAX;
  uint64_t max_ns_ = 0;
};

// fio's percentile keys: "%f" of the percentile ("99.900000").
std::string fio_percentile_key(double p);

} // namespace aisim::models
