#include "models/hardware/drive_model.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <utility>

namespace aisim::models {
namespace {

// The block size datasheets quote IOPS at, and the one the default IOPS ceiling is derived from.
constexpr double kDatasheetBlock_B = 4096.0;

// Text for a default derived from another value (the direction's bandwidth, an IOPS ceiling) that parses back to
// exactly the same double, so the resolved scenario reproduces the run: the largest SI prefix whose shortest
// round-trip decimal survives the multiplication, else the plain number.
std::string exact_text(double v, std::string_view unit, Dimension d) {
  static constexpr std::array<std::pair<double, std::string_view>, 6> steps{
      {{1e15, "P"}, {1e12, "T"}, {1e9, "G"}, {1e6, "M"}, {1e3, "k"}, {1.0, ""}}};
  std::string plain;
  for (const auto& [m, prefix] : steps) {
    if (std::fabs(v) < m && m != 1.0)
      continue;
    char buf[400];
    auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v / m, std::chars_format::fixed);
    if (ec != std::errc())
      continue;
    std::string text = std::string(buf, end) + std::string(prefix) + std::string(unit);
    auto back = parse_quantity(text, d, nullptr);
    if (back && *back == v)
      return text;
    if (m == 1.0)
      plain = text;
  }
  return plain;
}

// A quantity whose default is derived from another key. When that key failed (its error is already reported)
// there is no default to write: an absent key is then only marked known, and the caller gives up quietly.
std::optional<double> derived_quantity(ObjectReader& r, const std::string& key, Dimension d,
                                       const std::optional<std::string>& default_text) {
  if (!default_text && !r.has(key)) {
    r.accept(key);
    return std::nullopt;
  }
  return r.quantity(key, d, default_text ? default_text->c_str() : nullptr);
}

std::optional<std::string> rate_text(std::optional<double> bw_Bps) {
  if (!bw_Bps)
    return std::nullopt;
  return exact_text(*bw_Bps, "B/s", Dimension::bytes_per_second);
}

// One "random" or "sequential" object of "read" or "write". `bw_Bps` is the direction's bandwidth (nullopt when
// it failed), the base of the transfer-rate and IOPS defaults.
std::optional<IoProfile> parse_profile(ObjectReader& dir, const std::string& key, const char* default_latency,
                                       std::optional<double> bw_Bps) {
  auto o = dir.object(key, false);
  if (!o)
    return std::nullopt;
  auto latency = o->quantity("latency", Dimension::seconds, default_latency);
  // One I/O is striped over all NAND channels, so once served it moves at about the drive's full rate; no
  // datasheet gives this separately.
  auto transfer = derived_quantity(*o, "transfer_rate", Dimension::bytes_per_second, rate_text(bw_Bps));
  // Without an IOPS figure, invent no lower ceiling: 4 KiB I/O is then limited by the bandwidth alone. An upper
  // bound; real drives reach less, so give max_iops wherever a datasheet does.
  std::optional<std::string> iops_default;
  if (bw_Bps)
    iops_default = exact_text(*bw_Bps / kDatasheetBlock_B, "IOPS", Dimension::ops_per_second);
  auto iops = derived_quantity(*o, "max_iops", Dimension::ops_per_second, iops_default);
  // Optional and without a default: absent is the sharp knee, which no number stands for, and a datasheet gives
  // no curve to take one from.
  std::optional<double> sharpness;
  bool sharpness_ok = true;
  if (o->has("knee_sharpness")) {
    sharpness = o->number("knee_sharpness", std::nullopt, 0.0, kMaxKneeSharpness);
    if (sharpness && !(*sharpness > 0)) {
      char buf[64];
      std::snprintf(buf, sizeof buf, "%g", kMaxKneeSharpness);
      o->get_diagnostics().error(o->child_pointer("knee_sharpness"),
                                 "must be greater than zero (expected a number above 0 and at most " +
                                     std::string(buf) + ", got 0)");
      sharpness.reset();
    }
    sharpness_ok = sharpness.has_value();
  } else {
    o->accept("knee_sharpness");
  }
  o->finish();
  if (!latency || !transfer || !iops || !sharpness_ok)
    return std::nullopt;
  return IoProfile{Seconds(*latency), BytesPerSecond(*transfer), OpsPerSecond(*iops), sharpness};
}

struct Profiles {
  std::optional<IoProfile> random;
  std::optional<IoProfile> sequential;
};

Profiles parse_direction(ObjectReader& r, const std::string& key, const char* random_latency,
                         const char* sequential_latency, std::optional<double> bw_Bps) {
  Profiles out;
  auto dir = r.object(key, false);
  if (!dir)
    return out;
  out.random = parse_profile(*dir, "random", random_latency, bw_Bps);
  out.sequential = parse_profile(*dir, "sequential", sequential_latency, bw_Bps);
  dir->finish();
  return out;
}

// The write cache (its size, burst and post-cache rates), defaulted from `wbw`, the drive's write bandwidth.
struct CacheKeys {
  std::optional<double> size, burst, post;
  bool cross_ok = true; // no cross-field check failed
};

CacheKeys read_write_cache(ObjectReader& r, std::optional<double> cap, std::optional<double> wbw, Diagnostics* diag) {
  // No cache unless one is described: size 0, every byte at write_bandwidth. A described cache's burst defaults
  // to write_bandwidth, since datasheets measure sequential writes while the cache absorbs them, and its
  // post-cache rate to the burst rate: no cliff unless one is stated.
  CacheKeys k;
  auto& [cache_size, burst, post, cross_ok] = k;
  if (auto wc = r.object("write_cache", false)) {
    cache_size = wc->quantity("size", Dimension::bytes, "0B", Bound::non_negative);
    burst = derived_quantity(*wc, "burst_bandwidth", Dimension::bytes_per_second, rate_text(wbw));
    post = derived_quantity(*wc, "post_cache_bandwidth", Dimension::bytes_per_second, rate_text(burst));
    wc->finish();
    if (diag && burst && post && *post > *burst) {
      cross_ok = false;
      diag->error(wc->child_pointer("post_cache_bandwidth"),
                  "post-cache bandwidth above the burst bandwidth (expected at most burst_bandwidth " +
                      format_rate(BytesPerSecond(*burst)) + ", got " + format_rate(BytesPerSecond(*post)) + ")");
    }
    if (diag && cap && cache_size && *cache_size > *cap) {
      cross_ok = false;
      diag->error(wc->child_pointer("size"), "write cache larger than the drive (expected at most capacity " +
                                                 format_bytes(Bytes(*cap)) + ", got " +
                                                 format_bytes(Bytes(*cache_size)) + ")");
    }
  }

  return k;
}

// Optional, and without defaults: an invented tail would look like data. False when one is malformed or below
// the one before it.
bool read_latency_percentiles(ObjectReader& r, DriveModel& d, Diagnostics* diag) {
  bool percentiles_ok = true;
  if (r.has("latency_percentiles")) {
    if (auto lp = r.object("latency_percentiles", false)) {
      const std::array<std::pair<const char*, std::optional<Seconds>*>, 3> keys{{
          {"p50", &d.latency_percentiles.p50},
          {"p99", &d.latency_percentiles.p99},
          {"p99.9", &d.latency_percentiles.p99_9},
      }};
      std::optional<Seconds> below; // the largest percentile so far, which the next must not undercut
      const char* below_key = nullptr;
      for (const auto& [key, slot] : keys) {
        if (!lp->has(key)) {
          lp->accept(key);
          continue;
        }
        auto v = lp->quantity(key, Dimension::seconds, nullptr);
        if (!v) {
          percentiles_ok = false;
          continue;
        }
        *slot = Seconds(*v);
        if (diag && below && *v < below->value) {
          diag->error(lp->child_pointer(key), "below " + std::string(below_key) + " (expected at least " +
                                                  format_duration(*below) + ", got " + format_duration(Seconds(*v)) +
                                                  ")");
          percentiles_ok = false;
        }
        below = Seconds(*v);
        below_key = key;
      }
      lp->finish();
    } else {
      percentiles_ok = false;
    }
  } else {
    r.accept("latency_percentiles");
  }

  return percentiles_ok;
}

// Written by `aisim calibrate`: whether the measurements could vouch for the model. A model the calibration did
// not trust still loads (it is the best there is of that drive), but every scenario using it says so.
bool read_calibration(ObjectReader& r, const std::string& name, Diagnostics* diag) {
  bool calibration_ok = true;
  if (auto cal = r.has("calibration") ? r.object("calibration", false) : std::nullopt) {
    const auto trusted = cal->boolean("trusted", std::nullopt);
    // The median repeat spread, a fraction; absent when every point was measured once.
    const bool repeatability_ok = !cal->has("repeatability") || cal->number("repeatability", std::nullopt, 0.0, 1e6);
    const auto verdict = cal->text("verdict", "");
    cal->finish();
    calibration_ok = trusted && verdict && repeatability_ok;
    if (diag && trusted && !*trusted)
      diag->warn(cal->child_pointer("trusted"), "drive \"" + name +
                                                    "\" comes from a calibration that did not trust it" +
                                                    (verdict && !verdict->empty() ? " (" + *verdict + ")" : "") +
                                                    "; results that depend on its figures carry that uncertainty");
  }
  return calibration_ok;
}

std::optional<DriveModel> parse(ObjectReader& r, const std::string& name, Diagnostics* diag) {
  DriveModel d;
  d.name = name;
  r.accept("format");
  r.accept("file");
  auto label = r.text("name", name.c_str());
  auto source = r.text("source", "unspecified");
  auto cap = r.quantity("capacity", Dimension::bytes, nullptr);
  auto rbw = r.quantity("read_bandwidth", Dimension::bytes_per_second, nullptr);
  auto wbw = r.quantity("write_bandwidth", Dimension::bytes_per_second, nullptr);
  auto pa = r.quantity("power_active", Dimension::watts, "20W");
  auto pi = r.quantity("power_idle", Dimension::watts, "5W");
  auto price = r.quantity("price", Dimension::dollars, nullptr, Bound::non_negative);
  // What the drive is made of, for price sheets that quote media per TB.
  auto media = r.choice("media", "unspecified", drive_media_names());

  // Default QD1 latencies, typical of enterprise TLC NVMe datasheets:
  // - random read 80us: a NAND page read (~50-60us on TLC) plus controller and NVMe/PCIe overhead; datasheets
  //   quote 60-90us for 4 KiB at QD1.
  // - sequential read 20us: read-ahead has the data on its way, leaving mostly the command overhead.
  // - writes 15us: a write completes once it is in the drive's power-loss-protected DRAM, not in NAND.
  auto read = parse_direction(r, "read", "80us", "20us", rbw);
  auto write = parse_direction(r, "write", "15us", "15us", wbw);

  // The write cache; a cross-field check failing there fails the drive as those below do.
  const auto [cache_size, burst, post, cache_ok] = read_write_cache(r, cap, wbw, diag);
  bool cross_ok = cache_ok; // no cross-field check failed
  // 1: datasheets (Micron, Solidigm) already quote random-write IOPS in steady state, so max_iops usually is
  // the steady figure; set the factor when max_iops was measured on a fresh drive.
  const auto factor = r.number("steady_state_write_factor", 1.0, 0.0, 1.0);
  if (diag && factor && !(*factor > 0)) {
    cross_ok = false;
    diag->error(r.child_pointer("steady_state_write_factor"),
                "must be greater than zero (expected a number above 0 and at most 1, got 0)");
  }

  const bool percentiles_ok = read_latency_percentiles(r, d, diag);

  // 0.0044 per year = 8766 h / 2,000,000 h (0.00438, rounded): the MTTF most enterprise NVMe datasheets state.
  auto afr = r.number("afr", 0.0044, 0.0, 1.0);

  const bool calibration_ok = read_calibration(r, name, diag);
  r.finish();

  if (!label || !source || !cap || !rbw || !wbw || !pa || !pi || !price || !media)
    return std::nullopt;
  if (!read.random || !read.sequential || !write.random || !write.sequential || !cache_size || !burst || !post ||
      !factor || !percentiles_ok || !afr || !calibration_ok)
    return std::nullopt;
  if (!cross_ok)
    return std::nullopt;
  d.name = *label;
  d.source = *source;
  d.capacity = Bytes(*cap);
  d.read_bandwidth = BytesPerSecond(*rbw);
  d.write_bandwidth = BytesPerSecond(*wbw);
  d.active_power = Watts(*pa);
  d.idle_power = Watts(*pi);
  d.price = Dollars(*price);
  d.media = *media;
  d.read_random = *read.random;
  d.read_sequential = *read.sequential;
  d.write_random = *write.random;
  d.write_sequential = *write.sequential;
  d.write_cache = WriteCache{Bytes(*cache_size), BytesPerSecond(*burst), BytesPerSecond(*post)};
  d.steady_state_write_factor = *factor;
  d.afr = *afr;
  return d;
}

} // namespace

double knee_curve_iops(double queue_depth, double qd1_service_s, double max_iops, std::optional<double> sharpness) {
  if (!(queue_depth > 0))
    return 0.0;
  // Exactly the sharp knee's arithmetic when no sharpness is given, so models without the key are unchanged.
  const double linear = queue_depth / qd1_service_s;
  if (!sharpness || queue_depth <= 1 || 1.0 / qd1_service_s >= max_iops)
    return std::min(linear, max_iops);
  // X^-k = linear^-k + Xmax^-k (1 - N^-k), scaled by the smaller asymptote so every power has a base of at most 1
  // and none overflows for any k > 0. The sum is at least 1 (since 1 / L1 < Xmax); the min only guards rounding.
  const double k = *sharpness;
  const double lo = std::min(linear, max_iops);
  const double sum = std::pow(lo / linear, k) + std::pow(lo / max_iops, k) * (1.0 - std::pow(queue_depth, -k));
  return std::min(lo, lo * std::pow(sum, -1.0 / k));
}

double knee_curve_depth(double fraction, double qd1_service_s, double max_iops, std::optional<double> sharpness) {
  const double qd1_iops = 1.0 / qd1_service_s;
  const double target = fraction * max_iops;
  // Reached with at most one I/O outstanding, where the curve is the straight N / L1 whatever the knee.
  if (!sharpness || target <= qd1_iops)
    return target * qd1_service_s;
  // N^-k = (fraction^-k - 1) / (R^k - 1) with R = Xmax L1 = N*, written with R^-k so that nothing overflows.
  const double k = *sharpness;
  const double r = max_iops * qd1_service_s;
  return r * std::pow((1.0 - std::pow(r, -k)) / (std::pow(fraction, -k) - 1.0), 1.0 / k);
}

const IoProfile& DriveModel::profile(IoOp op, IoPattern pattern) const {
  if (op == IoOp::read)
    return pattern == IoPattern::random ? read_random : read_sequential;
  return pattern == IoPattern::random ? write_random : write_sequential;
}

BytesPerSecond DriveModel::bandwidth(IoOp op) const { return op == IoOp::read ? read_bandwidth : write_bandwidth; }

Seconds DriveModel::qd1_service_time(IoOp op, IoPattern pattern, Bytes bs) const {
  const IoProfile& p = profile(op, pattern);
  return p.latency + bs / p.transfer_rate;
}

double DriveModel::max_iops(IoOp op, IoPattern pattern, Bytes bs, DriveState state) const {
  double ceiling = profile(op, pattern).max_iops.value;
  if (op == IoOp::write && pattern == IoPattern::random && state == DriveState::steady_state)
    ceiling *= steady_state_write_factor;
  if (!(bs.value > 0))
    return ceiling; // an empty I/O moves no bytes, so only the operation ceiling binds
  return std::min(ceiling, (bandwidth(op) / bs).value);
}

double DriveModel::iops(IoOp op, IoPattern pattern, Bytes bs, double queue_depth, DriveState state) const {
  return knee_curve_iops(queue_depth, qd1_service_time(op, pattern, bs).value, max_iops(op, pattern, bs, state),
                         profile(op, pattern).knee_sharpness);
}

BytesPerSecond DriveModel::throughput(IoOp op, IoPattern pattern, Bytes bs, double queue_depth,
                                      DriveState state) const {
  return OpsPerSecond(iops(op, pattern, bs, queue_depth, state)) * bs;
}

double DriveModel::knee_queue_depth(IoOp op, IoPattern pattern, Bytes bs, DriveState state) const {
  return max_iops(op, pattern, bs, state) * qd1_service_time(op, pattern, bs).value;
}

double DriveModel::saturation_queue_depth(IoOp op, IoPattern pattern, Bytes bs, double fraction,
                                          DriveState state) const {
  return knee_curve_depth(fraction, qd1_service_time(op, pattern, bs).value, max_iops(op, pattern, bs, state),
                          profile(op, pattern).knee_sharpness);
}

Seconds DriveModel::sequential_write_time(Bytes size) const {
  if (!(size.value > 0))
    return Seconds(0);
  if (size <= write_cache.size)
    return size / write_cache.burst_bandwidth;
  return write_cache.size / write_cache.burst_bandwidth + (size - write_cache.size) / write_cache.post_cache_bandwidth;
}

const std::vector<std::string>& drive_media_names() {
  static const std::vector<std::string> names{"nvme_slc", "nvme_tlc", "nvme_qlc",   "sas_ssd",
                                              "sata_ssd", "hdd",      "unspecified"};
  return names;
}

std::optional<DriveModel> parse_drive_model(ObjectReader& r, const std::string& name) {
  return parse(r, name, &r.get_diagnostics());
}

} // namespace aisim::models
