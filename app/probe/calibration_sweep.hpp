// The calibration sweep: which points the probe measures, in what order, for how long, and running them on a
// target into a CalibrationData (the raw measurements).
//
// Reads (always): QD1 over block sizes 4 KiB - 1 MiB, random and sequential; 4 KiB random over queue depths
// 1 - 256; 128 KiB sequential over queue depths 1 - 64. With writes: the same for writes, then a long sequential
// write whose throughput over time shows a write-cache cliff. Every point is measured `repeats` times, the
// repeats interleaved (every point once per round), each run after a warm-up; each run's IOPS is kept, so the
// fit can tell the device's noise from the model's error.
#pragma once

#include "app/probe/probe_target.hpp"
#include "app/probe/uring_engine.hpp"

#include "models/calibration/calibration_data.hpp"

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace aisim::app::probe {

// A sweep's measurements are the calibration data models/calibration fits.
using models::CalibrationData;
using models::MeasuredPoint;

struct SweepPlan {
  std::vector<PointSpec> points;
  double warmup_s = 1;
  double runtime_s = 2; // per repeat
  unsigned repeats = 3;
  bool quick = false;
  bool write = false;
  // The long sequential write (only with writes): its block size, depth, length and sampling interval.
  bool cache_run = false;
  uint64_t cache_bs_bytes = 128 * 1024;
  unsigned cache_queue_depth = 32;
  double cache_run_s = 60;
  double cache_interval_s = 0.5;

  // The warm-up before repeat r (0-based) of a point.
  double warmup_for_repeat(unsigned r) const;
  // Seconds the plan takes, roughly (for the progress bar).
  double estimated_s() const;
  Json to_json() const;
};

// The standard sweep; `min_bs` drops block sizes below the target's direct-I/O alignment.
SweepPlan plan_sweep(bool quick, bool write, uint64_t min_bs);
// Explicit points ("read:random:4KiB:32"), each measured once for `runtime_s` after `warmup_s`.
SweepPlan plan_points(const std::vector<PointSpec>& points, double warmup_s, double runtime_s);
// Parses "OP:PATTERN:BS:QD" (op read|write, pattern random|sequential|rand|seq, BS a size like 4KiB). nullopt
// with `why` when malformed.
std::optional<PointSpec> parse_point_spec(const std::string& text, std::string* why);

struct SweepCallbacks {
  // Fraction of the plan done and what is running now; called often (the caller throttles drawing).
  std::function<void(double fraction, const std::string& now)> progress;
  // A point is finished.
  std::function<void(const MeasuredPoint&)> point_done;
};

// Runs the plan on the target. Throws ProbeError.
CalibrationData run_sweep(ProbeTarget& target, const SweepPlan& plan, const SweepCallbacks& cb,
                          const std::string& aisim_version);

// The current UTC time as ISO 8601 ("2025-06-01T12:00:00Z").
std::string utc_now_iso8601();

} // namespace aisim::app::probe
