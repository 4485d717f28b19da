#include "drive_fit.hpp"

#include <Eigen/Dense>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>

namespace aisim::models {
namespace {

constexpr uint64_t kSmallBlock = 4096;     // the block size IOPS ceilings and QD1 percentiles are quoted at
constexpr uint64_t kSeqBlock = 128 * 1024; // the sequential queue-depth sweep's block size
constexpr double kCliffDrop = 0.8;         // post-cache throughput at most this fraction of the burst
constexpr double kKneeFraction = 0.9;      // measured knee: the first depth reaching this fraction of the max
constexpr double kMinLatency_s = 1e-9;     // the drive model needs a positive latency

// `v` with `sig` significant digits in fixed notation (the unit parser reads no exponents), trailing zeros cut.
std::string decimal(double v, int sig) {
  if (!(v > 0))
    return "0";
  const int magnitude = static_cast<int>(std::floor(std::log10(v)));
  const int decimals = std::max(0, sig - 1 - magnitude);
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  std::string s = buf;
  if (s.find('.') != std::string::npos) {
    while (s.back() == '0')
      s.pop_back();
    if (s.back() == '.')
      s.pop_back();
  }
  return s;
}

std::string with_si_prefix(double v, const char* unit) {
  static constexpr std::pair<double, const char*> steps[] = {{1e12, "T"}, {1e9, "G"}, {1e6, "M"}, {1e3, "k"}};
  for (const auto& [m, p] : steps)
    if (v >= m)
      return decimal(v / m, 5) + p + unit;
  return decimal(v, 5) + unit;
}

double r_squared(const std::vector<double>& y, const std::vector<double>& fitted) {
  double mean = 0;
  for (double v : y)
    mean += v;
  mean /= static_cast<double>(y.size());
  double ss_res = 0, ss_tot = 0;
  for (size_t i = 0; i < y.size(); ++i) {
    ss_res += (y[i] - fitted[i]) * (y[i] - fitted[i]);
    ss_tot += (y[i] - mean) * (y[i] - mean);
  }
  if (ss_tot <= 0)
    return ss_res <= 0 ? 1.0 : 0.0;
  return 1.0 - ss_res / ss_tot;
}

// Weighted mean of y - bs / rate with weights 1/y^2 (relative residuals): the best latency for a fixed rate.
double latency_for_rate(const std::vector<LatencyLinePoint>& pts, double rate_Bps) {
  double num = 0, den = 0;
  for (const auto& p : pts) {
    const double w2 = 1.0 / (p.service_s * p.service_s);
    num += w2 * (p.service_s - p.bs_bytes / rate_Bps);
    den += w2;
  }
  return num / den;
}

struct ProfileFit {
  IoOp op;
  IoPattern pattern;
  LatencyLineFit line;
  std::vector<const MeasuredPoint*> points;
};

Json profile_json(const ProfileFit& f) {
  Json pts = Json::array();
  for (size_t i = 0; i < f.points.size(); ++i) {
    const double measured = 1.0 / f.points[i]->iops;
    pts.push_back({{"bs_bytes", f.points[i]->bs_bytes},
                   {"measured_s", measured},
                   {"fitted_s", f.line.fitted_s[i]},
                   {"residual", (f.line.fitted_s[i] - measured) / measured}});
  }
  return Json{{"op", to_string(f.op)},
              {"pattern", to_string(f.pattern)},
              {"latency_s", f.line.latency_s},
              {"transfer_rate_Bps", f.line.transfer_rate_Bps},
              {"r2", f.line.r2},
              {"method", f.line.method},
              {"points", pts}};
}

// The writable profile of a model being assembled (DriveModel::profile is the read-only accessor).
IoProfile& profile_of(DriveModel& m, IoOp op, IoPattern pattern) {
  if (op == IoOp::read)
    return pattern == IoPattern::random ? m.read_random : m.read_sequential;
  return pattern == IoPattern::random ? m.write_random : m.write_sequential;
}

std::string percent(double fraction) { return decimal(std::fabs(fraction) * 100.0, 2) + "%"; }

} // namespace

std::string rate_text(double Bps) { return with_si_prefix(Bps, "B/s"); }
std::string iops_text(double iops) { return with_si_prefix(iops, "IOPS"); }
std::string duration_text(double s) { return s >= 1e-6 ? decimal(s * 1e6, 5) + "us" : decimal(s * 1e9, 5) + "ns"; }
std::string bytes_text(double bytes) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.0fB", std::round(bytes));
  return buf;
}

LatencyLineFit fit_latency_line(const std::vector<LatencyLinePoint>& pts, double fallback_rate_Bps) {
  LatencyLineFit out;
  if (pts.empty())
    return out;
  std::set<double> sizes;
  for (const auto& p : pts)
    sizes.insert(p.bs_bytes);
  bool fitted = false;
  if (sizes.size() >= 2) {
    // Rows [1, bs] / y against 1: minimises the sum of squared relative residuals ((fit - y) / y)^2.
    Eigen::MatrixXd a(static_cast<Eigen::Index>(pts.size()), 2);
    Eigen::VectorXd b = Eigen::VectorXd::Ones(static_cast<Eigen::Index>(pts.size()));
    for (size_t i = 0; i < pts.size(); ++i) {
      const auto row = static_cast<Eigen::Index>(i);
      a(row, 0) = 1.0 / pts[i].service_s;
      a(row, 1) = pts[i].bs_bytes / pts[i].service_s;
    }
    // Scale the block-size column to order 1 so the solver's rank decision is not fooled by units.
    const double scale = a.col(1).cwiseAbs().maxCoeff() / a.col(0).cwiseAbs().maxCoeff();
    a.col(1) /= scale;
    const Eigen::Vector2d x = a.colPivHouseholderQr().solve(b);
    const double latency = x(0);
    const double slope = x(1) / scale; // seconds per byte
    if (slope > 0 && latency > 0) {
      out.latency_s = latency;
      out.transfer_rate_Bps = 1.0 / slope;
      out.method = "weighted least squares on " + std::to_string(pts.size()) + " points at " +
                   std::to_string(sizes.size()) + " block sizes";
      fitted = true;
    } else if (slope > 0) {
      // A negative intercept: the transfer term alone explains the points (a very fast command path). Keep the
      // rate, and a latency just above zero.
      out.transfer_rate_Bps = 1.0 / slope;
      out.latency_s = kMinLatency_s;
      out.method = "least squares gave a latency <= 0; latency set to 1 ns";
      out.warnings.push_back("fitted latency was not positive (" + duration_text(std::fabs(latency)) +
                             " below zero); set to 1 ns");
      fitted = true;
    } else {
      out.warnings.push_back("service time does not grow with block size (slope <= 0); transfer rate set to the "
                             "bandwidth ceiling");
    }
  }
  if (!fitted) {
    out.transfer_rate_Bps = fallback_rate_Bps;
    out.latency_s = std::max(kMinLatency_s, latency_for_rate(pts, fallback_rate_Bps));
    out.method = sizes.size() >= 2 ? "transfer rate = bandwidth ceiling; latency by weighted least squares"
                                   : "one block size: transfer rate = bandwidth ceiling, latency = the rest";
  }
  std::vector<double> y;
  for (const auto& p : pts) {
    y.push_back(p.service_s);
    out.fitted_s.push_back(out.latency_s + p.bs_bytes / out.transfer_rate_Bps);
  }
  out.r2 = r_squared(y, out.fitted_s);
  return out;
}

WriteCacheFit fit_write_cache(const WriteCacheRun& run) {
  WriteCacheFit f;
  const auto& b = run.interval_bytes;
  for (double v : b)
    f.written_bytes += v;
  if (b.empty() || !(run.interval_s > 0))
    return f;
  f.burst_Bps = f.written_bytes / (static_cast<double>(b.size()) * run.interval_s);
  f.post_cache_Bps = f.burst_Bps;
  const size_t n = b.size();
  if (n < 6)
    return f;
  // Two constant segments, the split that minimises the squared error (prefix sums make each split O(1)).
  std::vector<double> s(n + 1, 0.0), s2(n + 1, 0.0);
  for (size_t i = 0; i < n; ++i) {
    s[i + 1] = s[i] + b[i];
    s2[i + 1] = s2[i] + b[i] * b[i];
  }
  auto sse = [&](size_t lo, size_t hi) {
    const double m = static_cast<double>(hi - lo);
    const double sum = s[hi] - s[lo];
    return (s2[hi] - s2[lo]) - sum * sum / m;
  };
  size_t best = 0;
  double best_sse = 0;
  for (size_t k = 2; k + 2 <= n; ++k) {
    const double e = sse(0, k) + sse(k, n);
    if (best == 0 || e < best_sse) {
      best = k;
      best_sse = e;
    }
  }
  const double before = s[best] / static_cast<double>(best) / run.interval_s;
  const double after = (s[n] - s[best]) / static_cast<double>(n - best) / run.interval_s;
  // The last quarter must stay down too: a dip in the middle is noise or a hiccup, not a cache running full.
  const size_t tail = std::max<size_t>(1, n / 4);
  const double tail_Bps = (s[n] - s[n - tail]) / static_cast<double>(tail) / run.interval_s;
  if (after < kCliffDrop * before && tail_Bps < kCliffDrop * before) {
    f.cliff_found = true;
    f.cache_bytes = s[best];
    f.burst_Bps = before;
    f.post_cache_Bps = after;
    f.split_index = best;
  }
  return f;
}

std::optional<DriveFitResult> fit_drive_model(const CalibrationData& d, std::vector<std::string>& errors) {
  DriveFitResult out;
  auto warn = [&](const std::string& w) { out.warnings.push_back(w); };

  for (const auto& p : d.points)
    if (!(p.iops > 0) || !(p.bw_Bps > 0))
      errors.push_back("point " + p.label() + " completed no I/O");
  if (!errors.empty())
    return std::nullopt;

  // The ceilings: bandwidth per direction, random IOPS at the small block size per direction.
  struct Ceiling {
    double bw_Bps = 0;
    const MeasuredPoint* bw_point = nullptr;
    double iops = 0;
    const MeasuredPoint* iops_point = nullptr;
    bool measured = false;
  };
  std::map<IoOp, Ceiling> ceil;
  for (const auto& p : d.points) {
    Ceiling& c = ceil[p.op];
    c.measured = true;
    if (p.bw_Bps > c.bw_Bps) {
      c.bw_Bps = p.bw_Bps;
      c.bw_point = &p;
    }
    if (p.pattern == IoPattern::random && p.bs_bytes == kSmallBlock && p.iops > c.iops) {
      c.iops = p.iops;
      c.iops_point = &p;
    }
  }
  if (!ceil[IoOp::read].measured) {
    errors.push_back("no read points: a drive model needs at least the read sweep");
    return std::nullopt;
  }

  // L1 per direction and pattern from the QD1 points.
  std::vector<ProfileFit> fits;
  for (IoOp op : {IoOp::read, IoOp::write}) {
    if (!ceil[op].measured)
      continue;
    for (IoPattern pattern : {IoPattern::random, IoPattern::sequential}) {
      ProfileFit f{op, pattern, {}, {}};
      std::vector<LatencyLinePoint> pts;
      for (const auto& p : d.points) {
        if (p.op == op && p.pattern == pattern && p.queue_depth == 1) {
          f.points.push_back(&p);
          pts.push_back({static_cast<double>(p.bs_bytes), 1.0 / p.iops});
        }
      }
      if (pts.empty()) {
        warn(std::string("no QD1 ") + to_string(op) + " " + to_string(pattern) +
             " points: that profile keeps the drive model's defaults");
        continue;
      }
      f.line = fit_latency_line(pts, ceil[op].bw_Bps);
      for (const auto& w : f.line.warnings)
        warn(std::string(to_string(op)) + " " + to_string(pattern) + ": " + w);
      fits.push_back(std::move(f));
    }
  }

  // The model as fitted, to predict every measured point.
  DriveModel m;
  m.capacity = Bytes(static_cast<double>(d.capacity_bytes));
  m.read_bandwidth = BytesPerSecond(ceil[IoOp::read].bw_Bps);
  m.write_bandwidth = BytesPerSecond(ceil[IoOp::write].measured ? ceil[IoOp::write].bw_Bps : ceil[IoOp::read].bw_Bps);
  for (IoOp op : {IoOp::read, IoOp::write}) {
    for (IoPattern pattern : {IoPattern::random, IoPattern::sequential}) {
      IoProfile& prof = profile_of(m, op, pattern);
      // The drive model parser's defaults, for a profile without QD1 points (it keeps them in the file too).
      const double default_latency_s = op == IoOp::write ? 15e-6 : pattern == IoPattern::random ? 80e-6 : 20e-6;
      prof = IoProfile{Seconds(default_latency_s), m.bandwidth(op),
                       OpsPerSecond(m.bandwidth(op).value / static_cast<double>(kSmallBlock))};
    }
  }
  for (const auto& f : fits) {
    IoProfile& prof = profile_of(m, f.op, f.pattern);
    prof.latency = Seconds(f.line.latency_s);
    prof.transfer_rate = BytesPerSecond(f.line.transfer_rate_Bps);
  }
  for (IoOp op : {IoOp::read, IoOp::write})
    if (ceil[op].iops_point)
      profile_of(m, op, IoPattern::random).max_iops = OpsPerSecond(ceil[op].iops);

  // Predictions at every point; the ones no parameter came from are the held-out check.
  Json predictions = Json::array();
  double held_max = 0, held_sum = 0;
  size_t held_n = 0;
  for (const auto& p : d.points) {
    const double model = m.iops(p.op, p.pattern, Bytes(static_cast<double>(p.bs_bytes)), p.queue_depth);
    const double err = (model - p.iops) / p.iops;
    std::string role = "held_out";
    if (p.queue_depth == 1)
      role = "fit_l1";
    else if (&p == ceil[p.op].bw_point || &p == ceil[p.op].iops_point)
      role = "ceiling";
    if (role == "held_out") {
      held_max = std::max(held_max, std::fabs(err));
      held_sum += std::fabs(err);
      ++held_n;
    }
    predictions.push_back(
        {{"point", p.label()}, {"measured_iops", p.iops}, {"model_iops", model}, {"error", err}, {"role", role}});
  }

  // Knees: the model's N* and the first measured depth within 10% of the highest throughput.
  Json knees = Json::object();
  for (IoOp op : {IoOp::read, IoOp::write}) {
    for (auto [pattern, bs] :
         {std::pair{IoPattern::random, kSmallBlock}, std::pair{IoPattern::sequential, kSeqBlock}}) {
      std::vector<const MeasuredPoint*> curve;
      for (const auto& p : d.points)
        if (p.op == op && p.pattern == pattern && p.bs_bytes == bs)
          curve.push_back(&p);
      if (curve.size() < 2)
        continue;
      std::sort(curve.begin(), curve.end(), [](auto* a, auto* b) { return a->queue_depth < b->queue_depth; });
      double best = 0;
      for (auto* p : curve)
        best = std::max(best, p->iops);
      unsigned measured_knee = curve.back()->queue_depth;
      for (auto* p : curve) {
        if (p->iops >= kKneeFraction * best) {
          measured_knee = p->queue_depth;
          break;
        }
      }
      knees[std::string(to_string(op)) + "_" + to_string(pattern) + "_" + format_block_size(bs)] = {
          {"model_qd", m.knee_queue_depth(op, pattern, Bytes(static_cast<double>(bs)))},
          {"measured_qd_90pct", measured_knee}};
    }
  }

  // Latency distribution: 4 KiB random reads at QD1.
  const MeasuredPoint* lat_point = nullptr;
  for (const auto& p : d.points)
    if (p.op == IoOp::read && p.pattern == IoPattern::random && p.bs_bytes == kSmallBlock && p.queue_depth == 1)
      lat_point = &p;

  // Write cache.
  std::optional<WriteCacheFit> cache;
  if (d.write_cache_run)
    cache = fit_write_cache(*d.write_cache_run);

  // The drive document.
  Json drive = Json::object();
  drive["format"] = "aisim.drive/v1";
  const std::string device_label = !d.device_model.empty()  ? d.device_model
                                   : !d.device_name.empty() ? d.device_name
                                                            : std::string("unidentified device");
  drive["name"] =
      device_label + (d.device_name.empty() || d.device_model.empty() ? "" : " (" + d.device_name + ")") + ", measured";
  drive["capacity"] = bytes_text(static_cast<double>(d.capacity_bytes));
  drive["read_bandwidth"] = rate_text(m.read_bandwidth.value);
  drive["write_bandwidth"] = rate_text(m.write_bandwidth.value);
  drive["price"] = "$0";
  for (IoOp op : {IoOp::read, IoOp::write}) {
    if (!ceil[op].measured)
      continue;
    Json dir = Json::object();
    for (const auto& f : fits) {
      if (f.op != op)
        continue;
      Json prof{{"latency", duration_text(f.line.latency_s)}, {"transfer_rate", rate_text(f.line.transfer_rate_Bps)}};
      if (f.pattern == IoPattern::random && ceil[op].iops_point)
        prof["max_iops"] = iops_text(ceil[op].iops);
      dir[to_string(f.pattern)] = prof;
    }
    drive[to_string(op)] = dir;
  }
  if (cache && cache->cliff_found) {
    drive["write_cache"] = {{"size", bytes_text(std::min(cache->cache_bytes, static_cast<double>(d.capacity_bytes)))},
                            {"burst_bandwidth", rate_text(cache->burst_Bps)},
                            {"post_cache_bandwidth", rate_text(cache->post_cache_Bps)}};
  }
  if (lat_point && lat_point->clat.count() > 0) {
    drive["latency_percentiles"] = {{"p50", duration_text(lat_point->clat.percentile_ns(50) * 1e-9)},
                                    {"p99", duration_text(lat_point->clat.percentile_ns(99) * 1e-9)},
                                    {"p99.9", duration_text(lat_point->clat.percentile_ns(99.9) * 1e-9)}};
  }

  // Fit quality in words for the source line, then the report.
  double r2_min = 1.0;
  std::string r2_text;
  for (const auto& f : fits) {
    r2_min = std::min(r2_min, f.line.r2);
    r2_text += std::string(r2_text.empty() ? "" : ", ") + to_string(f.op) + " " + to_string(f.pattern) + " " +
               decimal(std::max(0.0, f.line.r2), 4);
  }
  double spread_max = 0;
  for (const auto& p : d.points)
    spread_max = std::max(spread_max, p.spread());

  std::string source = "Measured by aisim calibrate " + d.aisim_version + (d.quick ? " (quick sweep)" : "") + " on " +
                       d.measured_at + ": " + d.target_kind + " " + d.target_path + " (" +
                       format_bytes(Bytes(static_cast<double>(d.target_size_bytes))) + ") on " + device_label +
                       (d.device_name.empty() ? "" : " [" + d.device_name + "]") + ", io_uring, " +
                       std::to_string(d.points.size()) +
                       " points. Fitted: L1(bs) = latency + bs / transfer_rate by "
                       "weighted least squares on the QD1 block-size sweeps (R^2 " +
                       r2_text +
                       "); max_iops = the "
                       "highest 4 KiB random IOPS over queue depths; bandwidths = the highest throughput measured";
  if (held_n)
    source += "; the model predicts the other " + std::to_string(held_n) + " sweep points within " + percent(held_max) +
              " (mean " + percent(held_sum / static_cast<double>(held_n)) + ")";
  source += ". Repeats differ by up to " + percent(spread_max) + " in IOPS.";
  if (cache)
    source += cache->cliff_found
                  ? " Write cache: throughput fell from " + format_rate(BytesPerSecond(cache->burst_Bps)) + " to " +
                        format_rate(BytesPerSecond(cache->post_cache_Bps)) + " after " +
                        format_bytes(Bytes(cache->cache_bytes)) + "."
                  : " Write cache: no cliff within " + format_bytes(Bytes(cache->written_bytes)) +
                        " written sequentially (a cache larger than that, or none).";
  if (!ceil[IoOp::write].measured)
    source += " Writes not measured (run with --write): write_bandwidth is a placeholder equal to read_bandwidth "
              "and the write profiles are aisim's defaults.";
  source += " Not measured: power (aisim defaults), price ($0), afr (default).";
  drive["source"] = source;
  // Keep "format", "name", "source" first, as the shipped drive files do.
  Json ordered = Json::object();
  for (const char* k : {"format", "name", "source"})
    ordered[k] = drive[k];
  for (auto& [k, v] : drive.items())
    if (!ordered.contains(k))
      ordered[k] = v;
  out.drive = std::move(ordered);

  if (!ceil[IoOp::write].measured)
    warn("writes were not measured: write_bandwidth is a placeholder equal to read_bandwidth");
  if (spread_max > 0.1)
    warn("repeats of one point differ by up to " + percent(spread_max) +
         " in IOPS: the device or the machine is noisy" +
         (d.quick ? "; prefer a full run to --quick" : "; the fitted figures carry that uncertainty"));
  if (held_n && held_max > 0.1)
    warn("the model misses some held-out sweep points by more than 10% (worst " + percent(held_max) +
         "): the drive bends into its ceiling more gradually than min(N / L1, Xmax)");

  Json profiles = Json::array();
  for (const auto& f : fits)
    profiles.push_back(profile_json(f));
  Json ceilings = Json::object();
  for (IoOp op : {IoOp::read, IoOp::write}) {
    if (!ceil[op].measured)
      continue;
    Json c{{"bandwidth_Bps", ceil[op].bw_Bps}, {"bandwidth_point", ceil[op].bw_point->label()}};
    if (ceil[op].iops_point) {
      c["random_max_iops"] = ceil[op].iops;
      c["random_max_iops_point"] = ceil[op].iops_point->label();
    }
    ceilings[to_string(op)] = c;
  }
  Json report{{"format", kDriveFitFormat},
              {"measured_at", d.measured_at},
              {"device", device_label},
              {"profiles", profiles},
              {"ceilings", ceilings},
              {"knees", knees},
              {"predictions", predictions},
              {"fit_quality",
               {{"l1_r2_min", fits.empty() ? Json(nullptr) : Json(r2_min)},
                {"held_out_points", held_n},
                {"held_out_max_abs_error", held_n ? Json(held_max) : Json(nullptr)},
                {"held_out_mean_abs_error", held_n ? Json(held_sum / static_cast<double>(held_n)) : Json(nullptr)},
                {"repeat_spread_max", spread_max}}}};
  report["latency_percentiles_ns"] =
      lat_point ? Json{{"point", lat_point->label()}, {"clat_ns", lat_point->clat.fio_json()}} : Json(nullptr);
  if (cache) {
    report["write_cache"] = {{"cliff_found", cache->cliff_found},
                             {"written_bytes", cache->written_bytes},
                             {"cache_bytes", cache->cliff_found ? Json(cache->cache_bytes) : Json(nullptr)},
                             {"burst_Bps", cache->burst_Bps},
                             {"post_cache_Bps", cache->post_cache_Bps},
                             {"intervals", d.write_cache_run->interval_bytes.size()},
                             {"split_interval", cache->cliff_found ? Json(cache->split_index) : Json(nullptr)}};
  } else {
    report["write_cache"] = nullptr;
  }
  report["warnings"] = out.warnings;
  out.report = std::move(report);
  return out;
}

} // namespace aisim::models
