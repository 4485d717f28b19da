#include "models/calibration/latency_histogram.hpp"

#include <algorithm>
#include <bit>
#include <cstdio>

namespace aisim::models {

unsigned LatencyHistogram::bucket_of(uint64_t ns) {
  // Below 2^(kBits+1) every value is its own bucket: there are no low bits to discard.
  const unsigned msb = ns == 0 ? 0u : static_cast<unsigned>(63 - std::countl_zero(ns));
  if (msb <= kBits)
    return static_cast<unsigned>(ns);
  // Keep the kBits bits below the most significant one; the group (which power of two) sets the base index.
  const unsigned error_bits = msb - kBits;
  const uint64_t idx = (static_cast<uint64_t>(error_bits + 1) << kBits) + ((kPerGroup - 1) & (ns >> error_bits));
  return static_cast<unsigned>(std::min<uint64_t>(idx, kBuckets - 1));
}

uint64_t LatencyHistogram::bucket_low(unsigned idx) {
  if (idx < (kPerGroup << 1))
    return idx;
  const unsigned error_bits = (idx >> kBits) - 1;
  const uint64_t base = uint64_t{1} << (error_bits + kBits);
  return base + static_cast<uint64_t>(idx % kPerGroup) * (uint64_t{1} << error_bits);
}

uint64_t LatencyHistogram::bucket_value(unsigned idx) {
  if (idx < (kPerGroup << 1))
    return idx;
  // The middle of a bucket 2^error_bits wide: low + 2^(error_bits-1); error_bits >= 1 here, so this is exact
  // and equals fio's truncated base + (k + 0.5) * 2^error_bits.
  const unsigned error_bits = (idx >> kBits) - 1;
  return bucket_low(idx) + (uint64_t{1} << (error_bits - 1));
}

void LatencyHistogram::add(uint64_t ns) {
  ++buckets_[bucket_of(ns)];
  ++count_;
  sum_ns_ += ns;
  min_ns_ = std::min(min_ns_, ns);
  max_ns_ = std::max(max_ns_, ns);
}

void LatencyHistogram::merge(const LatencyHistogram& other) {
  for (unsigned i = 0; i < kBuckets; ++i)
    buckets_[i] += other.buckets_[i];
  count_ += other.count_;
  sum_ns_ += other.sum_ns_;
  min_ns_ = std::min(min_ns_, other.min_ns_);
  max_ns_ = std::max(max_ns_, other.max_ns_);
}

uint64_t LatencyHistogram::percentile_ns(double p) const {
  if (count_ == 0)
    return 0;
  // fio compares the running count with p/100 x N in long double; so do we, so that ties land in the same bucket.
  const long double target = static_cast<long double>(p) / 100.0L * static_cast<long double>(count_);
  uint64_t sum = 0;
  for (unsigned i = 0; i < kBuckets; ++i) {
    sum += buckets_[i];
    if (static_cast<long double>(sum) >= target)
      return bucket_value(i);
  }
  return bucket_value(kBuckets - 1);
}

std::string fio_percentile_key(double p) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%f", p);
  return buf;
}

Json LatencyHistogram::fio_json() const {
  Json pct = Json::object();
  for (double p : {50.0, 99.0, 99.9})
    pct[fio_percentile_key(p)] = percentile_ns(p);
  return Json{{"min", min_ns()}, {"max", max_ns()}, {"mean", mean_ns()}, {"N", count_}, {"percentile", pct}};
}

Json LatencyHistogram::to_json() const {
  Json idx = Json::array();
  Json cnt = Json::array();
  for (unsigned i = 0; i < kBuckets; ++i) {
    if (buckets_[i]) {
      idx.push_back(i);
      cnt.push_back(buckets_[i]);
    }
  }
  return Json{{"bucket", idx}, {"count", cnt}, {"sum_ns", sum_ns_}, {"min_ns", min_ns()}, {"max_ns", max_ns_}};
}

std::optional<LatencyHistogram> LatencyHistogram::from_json(const Json& j, std::string* why) {
  auto fail = [&](const std::string& m) {
    *why = m;
    return std::optional<LatencyHistogram>();
  };
  if (!j.is_object())
    return fail("expected an object with \"bucket\" and \"count\" arrays");
  for (const char* k : {"bucket", "count"})
    if (!j.contains(k) || !j[k].is_array())
      return fail(std::string("missing array \"") + k + "\"");
  for (const char* k : {"sum_ns", "min_ns", "max_ns"})
    if (!j.contains(k) || !j[k].is_number_unsigned())
      return fail(std::string("missing non-negative integer \"") + k + "\"");
  const Json& idx = j["bucket"];
  const Json& cnt = j["count"];
  if (idx.size() != cnt.size())
    return fail("\"bucket\" and \"count\" differ in length");
  LatencyHistogram h;
  for (size_t i = 0; i < idx.size(); ++i) {
    if (!idx[i].is_number_unsigned() || idx[i].get<uint64_t>() >= kBuckets || !cnt[i].is_number_unsigned())
      return fail("bucket " + std::to_string(i) + " is not a bucket index below " + std::to_string(kBuckets) +
                  " with a non-negative count");
    h.buckets_[idx[i].get<unsigned>()] += cnt[i].get<uint64_t>();
    h.count_ += cnt[i].get<uint64_t>();
  }
  h.sum_ns_ = j["sum_ns"].get<uint64_t>();
  h.max_ns_ = j["max_ns"].get<uint64_t>();
  h.min_ns_ = h.count_ ? j["min_ns"].get<uint64_t>() : UINT64_MAX;
  return h;
}

} // namespace aisim::models
