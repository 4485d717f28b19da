#include "models/calibration/drive_fit.hpp"

#include <Eigen/Dense>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <map>
#include <set>

namespace aisim::models {
namespace {

constexpr uint64_t kSmallBlock = 4096; // the block size IOPS ceilings and QD1 percentiles are quoted at
constexpr double kCliffDrop = 0.8;     // post-cache throughput at most this fraction of the burst
constexpr double kKneeFraction = 0.9;  // measured knee: the first depth reaching this fraction of the max
constexpr double kMinLatency_s = 1e-9; // the drive model needs a positive latency

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

// The knee search: knee_sharpness from kKneeMin to kKneeMax (above it whole queue depths cannot tell the knee
// from a sharp one; below it the curve would still be rising far past any depth a sweep reaches, at a ceiling
// no point measured), a smooth ceiling from half to kCeilingSpan times the highest point (noise can put points
// above the ceiling; a curve still rising at its deepest point puts the ceiling above them, but a ceiling far
// above every measurement would be an extrapolation the sweep cannot support: the fit warns instead).
constexpr double kKneeMin = 0.5;
constexpr double kKneeMax = 32.0;
constexpr int kKneeGrid = 24; // 4 steps per octave
constexpr double kCeilingSpan = 2.0;
constexpr int kCeilingGrid = 24;
// A smooth knee must beat the sharp one by more than rounding: on data with a corner both fit to ~1e-30.
constexpr double kTieCost = 1e-12;
constexpr int kKneeDigits = 3; // significant digits of knee_sharpness in the drive file

double knee_cost(const std::vector<KneePoint>& curve, double l1_s, double ceiling, std::optional<double> k) {
  double sum = 0;
  for (const auto& p : curve) {
    const double e = (knee_curve_iops(p.queue_depth, l1_s, ceiling, k) - p.iops) / p.iops;
    sum += e * e;
  }
  return sum;
}

struct Minimum {
  double x = 0;
  double f = 0;
};

// The minimum of f over [lo, hi]: the best of grid + 1 evenly spaced points, then a golden-section search
// between that point's neighbours. Deterministic, and safe on a cost with a few shallow local minima.
template <class F> Minimum grid_golden(F f, double lo, double hi, int grid, int iterations) {
  Minimum best{lo, f(lo)};
  int best_i = 0;
  for (int i = 1; i <= grid; ++i) {
    const double x = lo + (hi - lo) * i / grid;
    const double v = f(x);
    if (v < best.f) {
      best = {x, v};
      best_i = i;
    }
  }
  const double step = (hi - lo) / grid;
  double a = lo + step * std::max(0, best_i - 1);
  double b = lo + step * std::min(grid, best_i + 1);
  const double g = (std::sqrt(5.0) - 1.0) / 2.0;
  double c = b - g * (b - a), d = a + g * (b - a);
  double fc = f(c), fd = f(d);
  for (int i = 0; i < iterations; ++i) {
    if (fc < fd) {
      b = d;
      d = c;
      fd = fc;
      c = b - g * (b - a);
      fc = f(c);
    } else {
      a = c;
      c = d;
      fc = fd;
      d = a + g * (b - a);
      fd = f(d);
    }
  }
  const Minimum inner = fc < fd ? Minimum{c, fc} : Minimum{d, fd};
  return inner.f < best.f ? inner : best;
}

// What the direction's points say without a model: the sharp knee's ceilings.
struct Ceiling {
  double bw_Bps = 0;
  const MeasuredPoint* bw_point = nullptr;
  double iops = 0;
  const MeasuredPoint* iops_point = nullptr;
  bool measured = false;
};

// One profile's queue-depth curve (its points deeper than QD1 at one block size) and its knee.
struct CurveFit {
  IoOp op;
  IoPattern pattern;
  uint64_t bs_bytes;
  std::vector<const MeasuredPoint*> points;
  KneeFit knee;
};

// Everything fitted from one set of points: what the report describes, and the model that predicts.
struct Performance {
  DriveModel model;
  std::map<IoOp, Ceiling> ceil;
  std::vector<ProfileFit> lines;
  std::vector<CurveFit> curves;
  std::vector<std::string> warnings;
};

// A profile's queue-depth curve is at the block size with the most points deeper than QD1 (the smaller on a tie):
// 4 KiB for random and 128 KiB for sequential in aisim's sweeps, whatever block size the device forces.
std::optional<uint64_t> curve_block_size(const std::vector<const MeasuredPoint*>& pts, IoOp op, IoPattern pattern) {
  std::map<uint64_t, int> n;
  for (const auto* p : pts)
    if (p->op == op && p->pattern == pattern && p->queue_depth > 1)
      ++n[p->bs_bytes];
  std::optional<uint64_t> best;
  int most = 0;
  for (const auto& [bs, count] : n) {
    if (count > most) {
      best = bs;
      most = count;
    }
  }
  return best;
}

// Fits L1 lines, ceilings and (when `smooth`) each curve's knee to `pts`, which include read points. The QD1 lines
// come first and do not depend on the knee, since the smooth knee keeps X(1) = 1 / L1. Then per direction the
// sequential curve, whose ceiling is the bandwidth, and the random curve, whose ceiling (max_iops) stays under it.
// What the points say without a model, per direction: the highest throughput and 4 KiB random IOPS measured.
std::map<IoOp, Ceiling> measured_ceilings(const std::vector<const MeasuredPoint*>& pts) {
  std::map<IoOp, Ceiling> ceil;
  for (IoOp op : {IoOp::read, IoOp::write})
    ceil[op] = Ceiling{};
  for (const auto* p : pts) {
    Ceiling& c = ceil[p->op];
    c.measured = true;
    if (p->bw_Bps > c.bw_Bps) {
      c.bw_Bps = p->bw_Bps;
      c.bw_point = p;
    }
    if (p->pattern == IoPattern::random && p->bs_bytes == kSmallBlock && p->iops > c.iops) {
      c.iops = p->iops;
      c.iops_point = p;
    }
  }
  return ceil;
}

// Each profile's L1 line (service time against block size) from its QD1 points.
void fit_lines(const std::vector<const MeasuredPoint*>& pts, Performance& out) {
  const auto& ceil = out.ceil;
  for (IoOp op : {IoOp::read, IoOp::write}) {
    if (!ceil.at(op).measured)
      continue;
    for (IoPattern pattern : {IoPattern::random, IoPattern::sequential}) {
      ProfileFit f{op, pattern, {}, {}};
      std::vector<LatencyLinePoint> line_pts;
      for (const auto* p : pts) {
        if (p->op == op && p->pattern == pattern && p->queue_depth == 1) {
          f.points.push_back(p);
          line_pts.push_back({static_cast<double>(p->bs_bytes), 1.0 / p->iops});
        }
      }
      if (line_pts.empty()) {
        out.warnings.push_back(std::string("no QD1 ") + to_string(op) + " " + to_string(pattern) +
                               " points: that profile keeps the drive model's defaults");
        continue;
      }
      f.line = fit_latency_line(line_pts, ceil.at(op).bw_Bps);
      for (const auto& w : f.line.warnings)
        out.warnings.push_back(std::string(to_string(op)) + " " + to_string(pattern) + ": " + w);
      out.lines.push_back(std::move(f));
    }
  }
}

// Every profile's latency, transfer rate and max_iops for these bandwidths: fitted where a line was, the parser's
// defaults (derived from the bandwidths as the parser derives them) elsewhere; so set again whenever a bandwidth
// changes. `random_iops`: a measured or fitted random max_iops per direction.
void set_bandwidths(Performance& out, std::map<IoOp, std::optional<double>>& random_iops, double read_Bps,
                    double write_Bps) {
  DriveModel& m = out.model;
  m.read_bandwidth = BytesPerSecond(read_Bps);
  m.write_bandwidth = BytesPerSecond(write_Bps);
  for (IoOp op : {IoOp::read, IoOp::write}) {
    for (IoPattern pattern : {IoPattern::random, IoPattern::sequential}) {
      IoProfile& prof = profile_of(m, op, pattern);
      const double default_latency_s = op == IoOp::write ? 15e-6 : pattern == IoPattern::random ? 80e-6 : 20e-6;
      prof.latency = Seconds(default_latency_s);
      prof.transfer_rate = m.bandwidth(op);
      for (const auto& f : out.lines) {
        if (f.op == op && f.pattern == pattern) {
          prof.latency = Seconds(f.line.latency_s);
          prof.transfer_rate = BytesPerSecond(f.line.transfer_rate_Bps);
        }
      }
      prof.max_iops = OpsPerSecond(pattern == IoPattern::random && random_iops[op]
                                       ? *random_iops[op]
                                       : m.bandwidth(op).value / static_cast<double>(kSmallBlock));
    }
  }
}

// Each curve's knee (and ceiling) by least squares on its queue-depth sweep, the model's profiles and bandwidths
// updated from them.
void fit_knees(const std::vector<const MeasuredPoint*>& pts, Performance& out,
               std::map<IoOp, std::optional<double>>& random_iops) {
  DriveModel& m = out.model;
  const auto& ceil = out.ceil;
  for (IoOp op : {IoOp::read, IoOp::write}) {
    if (!ceil.at(op).measured)
      continue;
    for (IoPattern pattern : {IoPattern::sequential, IoPattern::random}) {
      const auto bs = curve_block_size(pts, op, pattern);
      if (!bs)
        continue;
      CurveFit c{op, pattern, *bs, {}, {}};
      std::vector<KneePoint> curve;
      for (const auto* p : pts) {
        if (p->op == op && p->pattern == pattern && p->bs_bytes == *bs && p->queue_depth > 1) {
          c.points.push_back(p);
          curve.push_back({static_cast<double>(p->queue_depth), p->iops});
        }
      }
      const Bytes b(static_cast<double>(*bs));
      const double l1_s = m.qd1_service_time(op, pattern, b).value;
      // The random ceiling stays under the bandwidth's at its block size; the sequential one is the bandwidth's.
      const double max_ceiling =
          pattern == IoPattern::random ? (m.bandwidth(op) / b).value : std::numeric_limits<double>::infinity();
      c.knee = fit_knee(curve, l1_s, m.max_iops(op, pattern, b), max_ceiling);
      if (c.knee.sharpness) {
        profile_of(m, op, pattern).knee_sharpness = c.knee.sharpness;
        if (pattern == IoPattern::sequential) {
          const double bw_Bps = c.knee.ceiling_iops * b.value;
          if (op == IoOp::read)
            set_bandwidths(out, random_iops, bw_Bps, ceil.at(IoOp::write).measured ? m.write_bandwidth.value : bw_Bps);
          else
            set_bandwidths(out, random_iops, m.read_bandwidth.value, bw_Bps);
        } else {
          random_iops[op] = c.knee.ceiling_iops;
          profile_of(m, op, pattern).max_iops = OpsPerSecond(c.knee.ceiling_iops);
        }
        if (c.knee.ceiling_at_bound)
          out.warnings.push_back(std::string(to_string(op)) + " " + to_string(pattern) + " " + format_block_size(*bs) +
                                 ": the queue-depth curve is still rising at its deepest point; its ceiling is "
                                 "set at the fit's limit (" +
                                 decimal(kCeilingSpan, 2) + "x the highest point), measure deeper queues");
      }
      out.curves.push_back(std::move(c));
    }
  }
}

Performance fit_performance(const std::vector<const MeasuredPoint*>& pts, uint64_t capacity_bytes, bool smooth) {
  Performance out;
  out.ceil = measured_ceilings(pts);
  const auto& ceil = out.ceil;
  fit_lines(pts, out);
  // The model as the drive file will describe it: where nothing was fitted, the parser's defaults (the file leaves
  // those keys out).
  out.model.capacity = Bytes(static_cast<double>(capacity_bytes));
  std::map<IoOp, std::optional<double>> random_iops; // a measured or fitted random max_iops
  for (IoOp op : {IoOp::read, IoOp::write})
    if (ceil.at(op).iops_point)
      random_iops[op] = ceil.at(op).iops;
  const double read_Bps = ceil.at(IoOp::read).bw_Bps;
  set_bandwidths(out, random_iops, read_Bps, ceil.at(IoOp::write).measured ? ceil.at(IoOp::write).bw_Bps : read_Bps);
  if (smooth)
    fit_knees(pts, out, random_iops);
  return out;
}

// The held-out points' verdicts, counted, and the worst miss.
struct AccuracyCheck {
  size_t within_target = 0, within_band = 0, outside = 0;
  std::string worst_outside; // "read random 4KiB QD32 (model 23% off, repeats 4% apart)"
  double worst_outside_error = 0;

  void add(PointVerdict v, const MeasuredPoint& p, double error) {
    if (v == PointVerdict::within_target)
      ++within_target;
    else if (v == PointVerdict::within_repeat_band)
      ++within_band;
    else {
      ++outside;
      if (std::fabs(error) > worst_outside_error) {
        worst_outside_error = std::fabs(error);
        worst_outside = p.label() + " (model " + percent(error) + " off" +
                        (p.repeats.size() > 1 ? ", repeats " + percent(p.spread()) + " apart)" : ")");
      }
    }
  }
};

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

KneeFit fit_knee(const std::vector<KneePoint>& curve, double qd1_service_s, double sharp_ceiling_iops,
                 double max_ceiling_iops) {
  KneeFit f;
  f.ceiling_iops = sharp_ceiling_iops;
  f.sharp_cost = knee_cost(curve, qd1_service_s, sharp_ceiling_iops, std::nullopt);
  f.cost = f.sharp_cost;
  if (curve.size() < 2 || !(qd1_service_s > 0))
    return f;
  double highest = 0;
  for (const auto& p : curve)
    highest = std::max(highest, p.iops);
  const double qd1_iops = 1.0 / qd1_service_s;
  const double lo = std::max(qd1_iops, 0.5 * highest);
  const double hi = std::min(max_ceiling_iops, kCeilingSpan * highest);
  if (!(highest > qd1_iops) || !(hi > lo))
    return f;
  // Searched in logarithms: both span decades, and the relative residuals care about ratios.
  const double ln_lo = std::log(lo), ln_hi = std::log(hi);
  auto best_ceiling = [&](double k) {
    return grid_golden([&](double ln_c) { return knee_cost(curve, qd1_service_s, std::exp(ln_c), k); }, ln_lo, ln_hi,
                       kCeilingGrid, 60);
  };
  const Minimum ln_k = grid_golden([&](double t) { return best_ceiling(std::exp(t)).f; }, std::log(kKneeMin),
                                   std::log(kKneeMax), kKneeGrid, 40);
  // The drive file holds k to a few digits; fit the ceiling to that k, so the model is the file's.
  const double k = std::stod(decimal(std::exp(ln_k.x), kKneeDigits));
  const Minimum ln_c = best_ceiling(k);
  if (ln_c.f < f.sharp_cost - kTieCost) {
    f.sharpness = k;
    f.ceiling_iops = std::exp(ln_c.x);
    f.cost = ln_c.f;
    f.ceiling_at_bound = hi == kCeilingSpan * highest && ln_c.x > ln_hi - 1e-6;
    f.sharpness_at_bound = k <= kKneeMin || k >= kKneeMax;
  }
  return f;
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

PointVerdict judge_point(double held_out_error, const MeasuredPoint& p) {
  const double e = std::fabs(held_out_error);
  if (e <= kAccuracyTarget)
    return PointVerdict::within_target;
  if (p.repeats.size() > 1 && e <= p.spread())
    return PointVerdict::within_repeat_band;
  return PointVerdict::outside;
}

const char* to_string(PointVerdict v) {
  switch (v) {
  case PointVerdict::within_target:
    return "within 10%";
  case PointVerdict::within_repeat_band:
    return "within its repeat band";
  case PointVerdict::outside:
    return "outside";
  }
  return "?";
}

std::optional<double> repeatability(const std::vector<MeasuredPoint>& points) {
  std::vector<double> spreads;
  for (const auto& p : points)
    if (p.repeats.size() > 1)
      spreads.push_back(p.spread());
  if (spreads.empty())
    return std::nullopt;
  std::sort(spreads.begin(), spreads.end());
  const size_t n = spreads.size();
  return n % 2 ? spreads[n / 2] : 0.5 * (spreads[n / 2 - 1] + spreads[n / 2]);
}

namespace {

// Stage 1: every point did I/O, and there are reads to fit; what is wrong goes to `errors`.
bool usable(const CalibrationData& d, std::vector<std::string>& errors) {
  bool reads = false;
  for (const auto& p : d.points) {
    if (!(p.iops > 0) || !(p.bw_Bps > 0))
      errors.push_back("point " + p.label() + " completed no I/O");
    reads = reads || p.op == IoOp::read;
  }
  if (!errors.empty())
    return false;
  if (!reads) {
    errors.push_back("no read points: a drive model needs at least the read sweep");
    return false;
  }
  return true;
}

// Stage 3's answers: each point's prediction and the held-out errors, summed up.
struct HeldOut {
  Json predictions = Json::array();
  double max = 0, sum = 0, sharp_max = 0, sharp_sum = 0, in_max = 0;
  size_t n = 0;
  AccuracyCheck check;
  double count() const { return static_cast<double>(n); }
};

// Stage 3: predictions at every point. QD1 points made the L1 lines; every deeper point is held out: predicted by
// the same fit run without it, and by the sharp knee fitted likewise, for comparison.
HeldOut predict_points(const CalibrationData& d, const DriveModel& m) {
  HeldOut h;
  for (size_t i = 0; i < d.points.size(); ++i) {
    const MeasuredPoint& p = d.points[i];
    const Bytes bs(static_cast<double>(p.bs_bytes));
    const double model = m.iops(p.op, p.pattern, bs, p.queue_depth);
    const double err = (model - p.iops) / p.iops;
    if (p.queue_depth == 1) {
      h.predictions.push_back(
          {{"point", p.label()}, {"measured_iops", p.iops}, {"model_iops", model}, {"error", err}, {"role", "fit_l1"}});
      continue;
    }
    std::vector<const MeasuredPoint*> rest;
    for (size_t j = 0; j < d.points.size(); ++j)
      if (j != i)
        rest.push_back(&d.points[j]);
    const double held = fit_performance(rest, d.capacity_bytes, true).model.iops(p.op, p.pattern, bs, p.queue_depth);
    const double sharp = fit_performance(rest, d.capacity_bytes, false).model.iops(p.op, p.pattern, bs, p.queue_depth);
    const double held_err = (held - p.iops) / p.iops;
    const double sharp_err = (sharp - p.iops) / p.iops;
    h.max = std::max(h.max, std::fabs(held_err));
    h.sum += std::fabs(held_err);
    h.sharp_max = std::max(h.sharp_max, std::fabs(sharp_err));
    h.sharp_sum += std::fabs(sharp_err);
    h.in_max = std::max(h.in_max, std::fabs(err));
    ++h.n;
    const PointVerdict verdict = judge_point(held_err, p);
    h.check.add(verdict, p, held_err);
    h.predictions.push_back({{"point", p.label()},
                             {"measured_iops", p.iops},
                             {"model_iops", held},
                             {"error", held_err},
                             {"role", "held_out"},
                             {"repeats", p.repeats.size()},
                             {"repeat_spread", p.repeats.size() > 1 ? Json(p.spread()) : Json(nullptr)},
                             {"check", to_string(verdict)},
                             {"in_sample_model_iops", model},
                             {"in_sample_error", err},
                             {"sharp_knee_model_iops", sharp},
                             {"sharp_knee_error", sharp_err}});
  }
  return h;
}

// Stage 4, knees: each curve's fitted shape, the model's depths for the corner and for 90% of the ceiling, and the
// first measured depth within 10% of the highest throughput.
Json knees_json(const CalibrationData& d, const Performance& perf) {
  const DriveModel& m = perf.model;
  Json knees = Json::object();
  for (const auto& c : perf.curves) {
    std::vector<const MeasuredPoint*> curve;
    for (const auto& p : d.points)
      if (p.op == c.op && p.pattern == c.pattern && p.bs_bytes == c.bs_bytes)
        curve.push_back(&p);
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
    const Bytes bs(static_cast<double>(c.bs_bytes));
    const double n = static_cast<double>(c.points.size());
    knees[std::string(to_string(c.op)) + "_" + to_string(c.pattern) + "_" + format_block_size(c.bs_bytes)] = {
        {"knee_sharpness", c.knee.sharpness ? Json(*c.knee.sharpness) : Json(nullptr)},
        {"ceiling_iops", m.max_iops(c.op, c.pattern, bs)},
        {"model_qd", m.knee_queue_depth(c.op, c.pattern, bs)},
        {"model_qd_90pct", m.saturation_queue_depth(c.op, c.pattern, bs, kKneeFraction)},
        {"measured_qd_90pct", measured_knee},
        {"points", c.points.size()},
        {"rms_relative_residual", std::sqrt(c.knee.cost / n)},
        {"sharp_knee_rms_relative_residual", std::sqrt(c.knee.sharp_cost / n)},
        {"ceiling_at_fit_limit", c.knee.ceiling_at_bound},
        {"knee_sharpness_at_fit_limit", c.knee.sharpness_at_bound}};
  }
  return knees;
}

// "Samsung PM1743 (nvme0n1)": what the calibration names the device as.
std::string device_label(const CalibrationData& d) {
  return !d.device_model.empty()  ? d.device_model
         : !d.device_name.empty() ? d.device_name
                                  : std::string("unidentified device");
}

// Stage 5, the drive document: the fitted profiles, the write cache and the QD1 latency percentiles (its source
// line and verdict are added when the fit has been judged).
Json drive_json(const CalibrationData& d, const Performance& perf, const std::optional<WriteCacheFit>& cache,
                const MeasuredPoint* lat_point) {
  const DriveModel& m = perf.model;
  const std::vector<ProfileFit>& fits = perf.lines;
  const auto& ceil = perf.ceil;
  Json drive = Json::object();
  drive["format"] = "aisim.drive/v1";
  const std::string device_label = models::device_label(d);
  drive["name"] =
      device_label + (d.device_name.empty() || d.device_model.empty() ? "" : " (" + d.device_name + ")") + ", measured";
  drive["capacity"] = bytes_text(static_cast<double>(d.capacity_bytes));
  drive["read_bandwidth"] = rate_text(m.read_bandwidth.value);
  drive["write_bandwidth"] = rate_text(m.write_bandwidth.value);
  drive["price"] = "$0";
  for (IoOp op : {IoOp::read, IoOp::write}) {
    if (!ceil.at(op).measured)
      continue;
    Json dir = Json::object();
    for (const auto& f : fits) {
      if (f.op != op)
        continue;
      const IoProfile& fitted = m.profile(op, f.pattern);
      Json prof{{"latency", duration_text(f.line.latency_s)}, {"transfer_rate", rate_text(f.line.transfer_rate_Bps)}};
      // A sequential profile's ceiling is the bandwidth's (the parser's default max_iops never binds above 4 KiB).
      if (f.pattern == IoPattern::random && (ceil.at(op).iops_point || fitted.knee_sharpness))
        prof["max_iops"] = iops_text(fitted.max_iops.value);
      if (fitted.knee_sharpness)
        prof["knee_sharpness"] = *fitted.knee_sharpness;
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
  return drive;
}

// Stage 6's measures of the fit's quality: the L1 lines' R^2, how far repeats of a point differ, the check.
struct FitQuality {
  double r2_min = 1.0;
  std::string r2_text;
  double spread_max = 0;
  std::optional<double> rep;
  bool too_noisy = false, passed = false;
};

FitQuality fit_quality(const CalibrationData& d, const Performance& perf, const HeldOut& h) {
  FitQuality q;
  for (const auto& f : perf.lines) {
    q.r2_min = std::min(q.r2_min, f.line.r2);
    q.r2_text += std::string(q.r2_text.empty() ? "" : ", ") + to_string(f.op) + " " + to_string(f.pattern) + " " +
                 decimal(std::max(0.0, f.line.r2), 4);
  }
  for (const auto& p : d.points)
    q.spread_max = std::max(q.spread_max, p.spread());
  q.rep = repeatability(d.points);
  q.too_noisy = q.rep && *q.rep > kAccuracyTarget;
  q.passed = h.n > 0 && h.check.outside == 0;
  return q;
}

// Stage 6, the verdict in a sentence: trusted, not trusted, too noisy to tell, or not checked.
std::string verdict_of(const CalibrationData& d, const HeldOut& h, const FitQuality& q) {
  std::string verdict;
  const std::string n_text = std::to_string(h.n);
  const std::string band_text =
      h.check.within_band ? ", " + std::to_string(h.check.within_band) + " only within their own repeat band" : "";
  if (h.n == 0)
    verdict = "not checked: no sweep point deeper than QD1 was measured to hold out of the fit";
  else if (q.too_noisy)
    verdict = "too noisy to trust: repeats of one point differ by a median " + percent(*q.rep) + " (up to " +
              percent(q.spread_max) + "), more than the " + percent(kAccuracyTarget) + " the model is checked to; " +
              (q.passed ? "every held-out point is within 10% or its own repeat band, which is all such a device "
                          "can show"
                        : std::to_string(h.check.outside) + " of " + n_text +
                              " held-out points miss by more than 10% and their own repeat band") +
              ". Measure again on a quiet device" + (d.quick ? ", without --quick" : "");
  else if (q.passed)
    verdict = "trusted: " + std::to_string(h.check.within_target) + " of " + n_text + " held-out points within 10%" +
              band_text + (q.rep ? "; repeats differ by a median " + percent(*q.rep) : "; each point measured once");
  else
    verdict = "not trusted: " + std::to_string(h.check.outside) + " of " + n_text +
              " held-out points miss by more than 10% and their own repeat band (worst " + h.check.worst_outside +
              "): the drive's curves may not have the model's shape";

  return verdict;
}

// How each ceiling and knee came about, for the drive file's source line.
std::string knee_text(const Performance& perf) {
  const auto& ceil = perf.ceil;
  std::string knee_text;
  for (IoOp op : {IoOp::read, IoOp::write}) {
    if (!ceil.at(op).measured)
      continue;
    for (IoPattern pattern : {IoPattern::random, IoPattern::sequential}) {
      const std::string ceiling = pattern == IoPattern::random ? "max_iops" : std::string(to_string(op)) + "_bandwidth";
      const CurveFit* curve = nullptr;
      for (const auto& c : perf.curves)
        if (c.op == op && c.pattern == pattern)
          curve = &c;
      std::string t = std::string(to_string(op)) + " " + to_string(pattern) + ": ";
      if (curve && curve->knee.sharpness)
        t += "knee_sharpness " + decimal(*curve->knee.sharpness, kKneeDigits) + " and " + ceiling +
             " by least squares on the " + format_block_size(curve->bs_bytes) + " queue-depth sweep";
      else if (pattern == IoPattern::random)
        t += ceil.at(op).iops_point ? "sharp knee, max_iops = the highest 4 KiB random IOPS" : "no max_iops measured";
      else
        t += "sharp knee, " + ceiling + " = the highest throughput measured";
      knee_text += (knee_text.empty() ? "" : "; ") + t;
    }
  }
  return knee_text;
}

// The drive file's source line: what was measured, how it was fitted, how well it predicts, the verdict.
std::string source_text(const CalibrationData& d, const Performance& perf, const HeldOut& h, const FitQuality& q,
                        const std::optional<WriteCacheFit>& cache, const std::string& verdict) {
  const std::string device_label = models::device_label(d);
  std::string source = "Measured by aisim calibrate " + d.aisim_version + (d.quick ? " (quick sweep)" : "") + " on " +
                       d.measured_at + ": " + d.target_kind + " " + d.target_path + " (" +
                       format_bytes(Bytes(static_cast<double>(d.target_size_bytes))) + ") on " + device_label +
                       (d.device_name.empty() ? "" : " [" + d.device_name + "]") + ", io_uring, " +
                       std::to_string(d.points.size()) +
                       " points. Fitted: L1(bs) = latency + bs / transfer_rate by "
                       "weighted least squares on the QD1 block-size sweeps (R^2 " +
                       q.r2_text + "). Knees (" + knee_text(perf) + ")";
  if (h.n)
    source += ". Each of the other " + std::to_string(h.n) +
              " sweep points, left out of the fit in turn, is predicted within " + percent(h.max) + " (mean " +
              percent(h.sum / h.count()) + "; with the sharp knee within " + percent(h.sharp_max) + ", mean " +
              percent(h.sharp_sum / h.count()) + ")";
  source += q.rep ? ". Repeats (interleaved) differ by a median " + percent(*q.rep) + ", up to " +
                        percent(q.spread_max) + " in IOPS. Verdict: " + verdict + "."
                  : ". Verdict: " + verdict + ".";
  if (cache)
    source += cache->cliff_found
                  ? " Write cache: throughput fell from " + format_rate(BytesPerSecond(cache->burst_Bps)) + " to " +
                        format_rate(BytesPerSecond(cache->post_cache_Bps)) + " after " +
                        format_bytes(Bytes(cache->cache_bytes)) + "."
                  : " Write cache: no cliff within " + format_bytes(Bytes(cache->written_bytes)) +
                        " written sequentially (a cache larger than that, or none).";
  if (!perf.ceil.at(IoOp::write).measured)
    source += " Writes not measured (run with --write): write_bandwidth is a placeholder equal to read_bandwidth "
              "and the write profiles are aisim's defaults.";
  source += " Not measured: power (aisim defaults), price ($0), afr (default).";
  return source;
}

// The report's ceilings: the model's (fitted with a smooth knee, else the highest measured) and the highest
// measured, per direction.
Json ceilings_json(const Performance& perf) {
  const DriveModel& m = perf.model;
  const auto& ceil = perf.ceil;
  Json ceilings = Json::object();
  for (IoOp op : {IoOp::read, IoOp::write}) {
    const Ceiling& measured = ceil.at(op);
    if (!measured.measured)
      continue;
    Json c{{"bandwidth_Bps", m.bandwidth(op).value},
           {"highest_measured_Bps", measured.bw_Bps},
           {"bandwidth_point", measured.bw_point->label()}};
    if (measured.iops_point || m.profile(op, IoPattern::random).knee_sharpness) {
      c["random_max_iops"] = m.profile(op, IoPattern::random).max_iops.value;
      c["highest_measured_random_iops"] = measured.iops;
      c["random_max_iops_point"] = measured.iops_point ? Json(measured.iops_point->label()) : Json(nullptr);
    }
    ceilings[to_string(op)] = c;
  }
  return ceilings;
}

// Stage 7, the fit report (aisim.drive-fit/v1): parameters, residuals, the held-out predictions, the check.
Json fit_report(const CalibrationData& d, const Performance& perf, const HeldOut& h, const FitQuality& q,
                const std::optional<WriteCacheFit>& cache, const MeasuredPoint* lat_point, const DriveFitResult& out) {
  const std::vector<ProfileFit>& fits = perf.lines;
  Json profiles = Json::array();
  for (const auto& f : fits)
    profiles.push_back(profile_json(f));
  Json report{{"format", kDriveFitFormat},
              {"measured_at", d.measured_at},
              {"device", device_label(d)},
              {"profiles", profiles},
              {"ceilings", ceilings_json(perf)},
              {"knees", knees_json(d, perf)},
              {"predictions", h.predictions},
              {"fit_quality",
               {{"l1_r2_min", fits.empty() ? Json(nullptr) : Json(q.r2_min)},
                {"held_out_method", "leave-one-out: each point deeper than QD1 predicted by the fit without it"},
                {"held_out_points", h.n},
                {"held_out_max_abs_error", h.n ? Json(h.max) : Json(nullptr)},
                {"held_out_mean_abs_error", h.n ? Json(h.sum / h.count()) : Json(nullptr)},
                {"sharp_knee_held_out_max_abs_error", h.n ? Json(h.sharp_max) : Json(nullptr)},
                {"sharp_knee_held_out_mean_abs_error", h.n ? Json(h.sharp_sum / h.count()) : Json(nullptr)},
                {"in_sample_max_abs_error", h.n ? Json(h.in_max) : Json(nullptr)},
                {"repeat_spread_max", q.spread_max},
                {"repeatability", q.rep ? Json(*q.rep) : Json(nullptr)}}},
              {"accuracy_check",
               {{"rule", "a held-out point passes within 10% of its measured IOPS, or within its own repeat band "
                         "(|error| <= the spread of its repeats); the device is too noisy when the median spread "
                         "exceeds 10%"},
                {"target", kAccuracyTarget},
                {"held_out_points", h.n},
                {"within_target", h.check.within_target},
                {"within_repeat_band", h.check.within_band},
                {"outside", h.check.outside},
                {"passed", q.passed},
                {"too_noisy", q.too_noisy},
                {"trusted", out.trusted},
                {"verdict", out.verdict}}}};
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
  return report;
}

} // namespace

std::optional<DriveFitResult> fit_drive_model(const CalibrationData& d, std::vector<std::string>& errors) {
  if (!usable(d, errors))
    return std::nullopt;
  // Stage 2: the model, fitted on every point.
  DriveFitResult out;
  std::vector<const MeasuredPoint*> all;
  for (const auto& p : d.points)
    all.push_back(&p);
  const Performance perf = fit_performance(all, d.capacity_bytes, true);
  out.warnings = perf.warnings;
  const HeldOut held = predict_points(d, perf.model);
  // The latency distribution is the 4 KiB random reads' at QD1; the write cache is the long write's.
  const MeasuredPoint* lat_point = nullptr;
  for (const auto& p : d.points)
    if (p.op == IoOp::read && p.pattern == IoPattern::random && p.bs_bytes == kSmallBlock && p.queue_depth == 1)
      lat_point = &p;
  std::optional<WriteCacheFit> cache;
  if (d.write_cache_run)
    cache = fit_write_cache(*d.write_cache_run);

  const FitQuality q = fit_quality(d, perf, held);
  out.trusted = q.passed && !q.too_noisy;
  out.verdict = verdict_of(d, held, q);
  Json drive = drive_json(d, perf, cache, lat_point);
  drive["source"] = source_text(d, perf, held, q, cache, out.verdict);
  drive["calibration"] = {{"trusted", out.trusted}, {"verdict", out.verdict}};
  if (q.rep)
    drive["calibration"]["repeatability"] = *q.rep;
  // Keep "format", "name", "source" first, as the shipped drive files do.
  Json ordered = Json::object();
  for (const char* k : {"format", "name", "source"})
    ordered[k] = drive[k];
  for (auto& [k, v] : drive.items())
    if (!ordered.contains(k))
      ordered[k] = v;
  out.drive = std::move(ordered);

  if (!perf.ceil.at(IoOp::write).measured)
    out.warnings.push_back("writes were not measured: write_bandwidth is a placeholder equal to read_bandwidth");
  if (!out.trusted && held.n)
    out.warnings.push_back(out.verdict);
  else if (q.spread_max > kAccuracyTarget)
    out.warnings.push_back("one point's repeats differ by up to " + percent(q.spread_max) +
                           " in IOPS (the median point's by " + percent(q.rep.value_or(0)) + ")" +
                           (d.quick ? "; prefer a full run to --quick" : ""));
  out.report = fit_report(d, perf, held, q, cache, lat_point, out);
  return out;
}

} // namespace aisim::models
