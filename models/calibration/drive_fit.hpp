// Fits a drive model (aisim.drive/v1) to calibration measurements, with Eigen least squares, and reports how
// well it fits: residuals, R^2, and the error of the model at sweep points the fit did not use.
//
// What comes from where (per direction, read and write):
// - L1(bs) = latency + bs / transfer_rate, per pattern, from the queue-depth-1 block-size sweep. The service
//   time fitted is 1 / IOPS at QD1 (the time the drive takes per I/O including the host's submit and reap
//   path), since that is what the model's X(1, bs) = 1 / L1(bs) must reproduce. Weighted least squares with
//   weights 1/y: the residuals minimised are relative, so 4 KiB points count as much as 1 MiB ones.
// - The knee, per profile, from its queue-depth sweep (random 4 KiB, sequential 128 KiB): the ceiling there and
//   knee_sharpness k (models/drive_model.hpp) minimising the squared relative residuals of the points deeper
//   than QD1, for each k by a golden-section search over the ceiling, and over k (0.5 to 32) on a grid refined
//   the same way.
//   The sequential curve's ceiling is the direction's bandwidth, the random curve's its max_iops. The sharp knee
//   (max_iops = the highest 4 KiB random IOPS, bandwidth = the highest throughput measured in the direction, no
//   knee_sharpness) is kept when it fits as well, as it does on data that has a corner.
// - Held-out error: every point deeper than QD1 is predicted by the same fit run without it (leave-one-out), so
//   no prediction has seen the point it predicts; the sharp knee's held-out error is reported beside it.
// - write cache: a step fit (two constant segments) to the long sequential write's throughput over time; a
//   drop of at least 20% that lasts to the end is the cache cliff.
// - latency_percentiles: p50/p99/p99.9 of 4 KiB random reads at QD1, fio's buckets and rule.
// - the verdict (drive["calibration"]): trusted, or not and why: too noisy a device (judge_point below), held-out
//   points the model misses, or no point to hold out.
#pragma once

#include "models/calibration/calibration_data.hpp"
#include "models/common/json_reader.hpp"

#include <optional>
#include <string>
#include <vector>

namespace aisim::models {

inline constexpr const char* kDriveFitFormat = "aisim.drive-fit/v1";

struct LatencyLinePoint {
  double bs_bytes = 0;
  double service_s = 0;
};

// L1(bs) = latency_s + bs / transfer_rate_Bps.
struct LatencyLineFit {
  double latency_s = 0;
  double transfer_rate_Bps = 0;
  double r2 = 0;                // 1 - SS_res / SS_tot on the service times; 1 when all points are equal and met
  std::vector<double> fitted_s; // per input point
  std::string method;           // how the two parameters were obtained
  std::vector<std::string> warnings;
};

// Least squares over points with at least two distinct block sizes; `fallback_rate_Bps` (the direction's
// bandwidth ceiling) stands in for the transfer rate when the slope is not positive or only one block size was
// measured. The latency is kept positive, as the drive model requires.
LatencyLineFit fit_latency_line(const std::vector<LatencyLinePoint>& points, double fallback_rate_Bps);

struct KneePoint {
  double queue_depth = 0;
  double iops = 0;
};

struct KneeFit {
  std::optional<double> sharpness; // nullopt: the sharp knee, which fits at least as well
  double ceiling_iops = 0;         // Xmax at the curve's block size
  double cost = 0;                 // sum of squared relative residuals of the chosen knee
  double sharp_cost = 0;           // the same for the sharp knee at `sharp_ceiling_iops`
  bool ceiling_at_bound = false;   // the best smooth ceiling is the highest allowed: the curve had not flattened
  bool sharpness_at_bound = false; // the best k is an end of the searched range
};

// The knee of one queue-depth curve at one block size: `curve` holds its points deeper than QD1, L1 is the QD1
// service time there (from the latency line), `sharp_ceiling_iops` the sharp knee's ceiling; a smooth ceiling
// stays at most `max_ceiling_iops`. Smooth only with at least two points, one of them above 1 / L1.
KneeFit fit_knee(const std::vector<KneePoint>& curve, double qd1_service_s, double sharp_ceiling_iops,
                 double max_ceiling_iops);

struct WriteCacheFit {
  bool cliff_found = false;
  double written_bytes = 0;  // everything the run wrote
  double cache_bytes = 0;    // written before the cliff
  double burst_Bps = 0;      // mean throughput before the cliff (the whole run when none was found)
  double post_cache_Bps = 0; // mean throughput after it
  size_t split_index = 0;    // first interval after the cliff
};

WriteCacheFit fit_write_cache(const WriteCacheRun& run);

// The accuracy check of a fit, point by point. A held-out point passes within kAccuracyTarget of its measured IOPS,
// or, failing that, within its own repeat band: no farther from the measurement than the device's own repeats of
// the point are from each other (|error| <= spread), since a model cannot be checked more finely than the device
// repeats itself. A device whose repeats differ by more than kAccuracyTarget (the median over its points) is too
// noisy for any model of it to be trusted, however well the model meets the points.
inline constexpr double kAccuracyTarget = 0.10;
enum class PointVerdict { within_target, within_repeat_band, outside };
PointVerdict judge_point(double held_out_error, const MeasuredPoint& p);
// "within 10%", "within its repeat band", "outside"
const char* to_string(PointVerdict v);
// The device's repeatability: the median repeat spread over the points measured more than once; nullopt when
// no point was.
std::optional<double> repeatability(const std::vector<MeasuredPoint>& points);

struct DriveFitResult {
  Json drive;  // an aisim.drive/v1 document
  Json report; // aisim.drive-fit/v1: parameters, residuals, fit quality, predictions, the accuracy check
  std::vector<std::string> warnings;
  bool trusted = false; // the accuracy check passed on a device quiet enough to check it (drive["calibration"])
  std::string verdict;  // why, in a sentence
};

// nullopt (with the reasons in `errors`) when the data cannot give a model: no read points at queue depth 1.
std::optional<DriveFitResult> fit_drive_model(const CalibrationData& data, std::vector<std::string>& errors);

// Quantity texts the drive model parser reads back: "1.2345GB/s", "85.312us", "12.3456kIOPS", "1000204886016B".
std::string rate_text(double Bps);
std::string duration_text(double s);
std::string iops_text(double iops);
std::string bytes_text(double bytes);

} // namespace aisim::models
