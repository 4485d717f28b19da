// A drive model: what one NVMe drive can do, from a datasheet or a calibration run. The same fields are read
// from a scenario's inline drive entry and from an aisim.drive/v1 file.
//
// Performance is a closed queue per direction (read/write) and pattern (random/sequential): one I/O of bs bytes
// alone takes L1(bs) = latency + bs / transfer_rate, and the drive completes at most
// Xmax(bs) = min(max_iops, bandwidth / bs) I/Os per second. With N I/Os outstanding, Little's law gives
// X(N, bs) = min(N / L1(bs), Xmax(bs)); the knee N* = Xmax(bs) x L1(bs) is the queue depth where the two meet.
//
// That corner is sharp; real drives bend into their ceiling gradually (requests collide on busy dies and
// channels, and the host path queues). A profile's optional knee_sharpness k rounds it with the Churchill-Usagi
// blend of the two asymptotes, X^-k = (N / L0)^-k + Xmax^-k, the usual one-exponent way to join a linear regime
// and a ceiling (the form of throughput-versus-load curves in the queueing literature too). L0 is set so that
// X(1) = 1 / L1: one I/O alone still takes L1, the QD1 fit keeps its meaning, and only deeper queues bend.
// Written without L0:
//   X(N)^-k = (N / L1)^-k + Xmax^-k (1 - N^-k)   for N >= 1,
// so X(N) <= min(N / L1, Xmax), with equality at N = 1 and as N grows. Below one I/O outstanding (time-averaged
// depths of aggregated streams) the drive serves one I/O at a time: X(N) = N / L1, as with the sharp knee; when
// 1 / L1 already reaches Xmax nothing is left to bend. Large k approaches the corner (k -> infinity is the min),
// small k bends early and long; absent, the knee is exactly the sharp min.
#pragma once

#include "models/common/diagnostics.hpp"
#include "models/common/json_reader.hpp"
#include "models/common/units.hpp"

#include <optional>
#include <string>

namespace aisim::models {

enum class IoOp { read, write };
enum class IoPattern { random, sequential };
// Random writes slow down once the drive is full and garbage collection runs: `fresh` is fresh-out-of-box,
// `steady_state` after preconditioning (what a cluster that runs for months sees, hence the default).
enum class DriveState { fresh, steady_state };

// One direction and pattern at queue depth 1 and its ceiling.
struct IoProfile {
  Seconds latency;                      // fixed part of one I/O's service time (command, NAND access, completion)
  BytesPerSecond transfer_rate;         // how fast one I/O's bytes move once it is served
  OpsPerSecond max_iops;                // the controller's and NAND's operation ceiling (fresh drive for random writes)
  std::optional<double> knee_sharpness; // k > 0 of the smooth knee; absent: the sharp min(N / L1, Xmax)
};

// The largest knee_sharpness a drive file may give; far above the ~30 at which whole queue depths no longer tell
// the smooth knee from the sharp one.
inline constexpr double kMaxKneeSharpness = 100.0;

// X(N) in I/O per second for N = `queue_depth` outstanding I/Os, from the QD1 service time L1 and the ceiling
// Xmax (both > 0), with the smooth knee when `sharpness` is set: the curve of the file comment. 0 when
// queue_depth <= 0.
double knee_curve_iops(double queue_depth, double qd1_service_s, double max_iops, std::optional<double> sharpness);
// The queue depth at which that curve reaches `fraction` (0 < fraction < 1) of the ceiling.
double knee_curve_depth(double fraction, double qd1_service_s, double max_iops, std::optional<double> sharpness);

// An SLC or DRAM write cache: the first `size` bytes of a sequential write land at burst speed, the rest at the
// post-cache speed. size 0 means no cache effect.
struct WriteCache {
  Bytes size;
  BytesPerSecond burst_bandwidth;
  BytesPerSecond post_cache_bandwidth;
};

// QD1 4 KiB random-read latency percentiles, as measured or published; each is absent when unknown (then only
// the mean, qd1_service_time, is known).
struct LatencyPercentiles {
  std::optional<Seconds> p50;
  std::optional<Seconds> p99;
  std::optional<Seconds> p99_9;
};

struct DriveModel {
  std::string name;
  std::string source;
  Bytes capacity;
  BytesPerSecond read_bandwidth;  // sequential, large blocks, deep queue: the read bandwidth ceiling
  BytesPerSecond write_bandwidth; // sequential, large blocks, deep queue: the write bandwidth ceiling
  Watts active_power;
  Watts idle_power;
  Dollars price;
  std::string media; // one of drive_media_names()

  IoProfile read_random;
  IoProfile read_sequential;
  IoProfile write_random;
  IoProfile write_sequential;
  WriteCache write_cache;
  double steady_state_write_factor = 1.0; // multiplies write_random.max_iops at DriveState::steady_state
  LatencyPercentiles latency_percentiles;
  double afr = 0.0044; // annual failure rate; 8766 h / 2,000,000 h MTTF, the figure most datasheets state

  const IoProfile& profile(IoOp op, IoPattern pattern) const;
  // The direction's bandwidth ceiling (read_bandwidth or write_bandwidth).
  BytesPerSecond bandwidth(IoOp op) const;

  // The functions below expect a model as parse_drive_model returns it (every rate and latency positive);
  // bs >= 0. A queue depth is a double because aggregated streams average fractional depths.

  // L1(bs): one I/O of bs bytes with nothing else outstanding.
  Seconds qd1_service_time(IoOp op, IoPattern pattern, Bytes bs) const;
  // Xmax(bs) in I/O per second: the IOPS ceiling or the bandwidth ceiling, whichever binds.
  double max_iops(IoOp op, IoPattern pattern, Bytes bs, DriveState state = DriveState::steady_state) const;
  // X(N, bs) in I/O per second with `queue_depth` I/Os outstanding; 0 when queue_depth <= 0.
  double iops(IoOp op, IoPattern pattern, Bytes bs, double queue_depth,
              DriveState state = DriveState::steady_state) const;
  // X(N, bs) x bs.
  BytesPerSecond throughput(IoOp op, IoPattern pattern, Bytes bs, double queue_depth,
                            DriveState state = DriveState::steady_state) const;
  // N* = Xmax(bs) x L1(bs), where the two asymptotes meet: with the sharp knee, below it throughput grows with
  // depth, above it only latency does.
  double knee_queue_depth(IoOp op, IoPattern pattern, Bytes bs, DriveState state = DriveState::steady_state) const;
  // The queue depth at which X(N, bs) reaches `fraction` (0 < fraction < 1) of Xmax(bs): fraction x N* with the
  // sharp knee, deeper with a smooth one.
  double saturation_queue_depth(IoOp op, IoPattern pattern, Bytes bs, double fraction,
                                DriveState state = DriveState::steady_state) const;
  // Time to write `size` bytes sequentially into an empty write cache; 0 for size <= 0.
  Seconds sequential_write_time(Bytes size) const;
};

// Reads a drive's keys from an object (the "format" and "file" keys are the caller's) and fills in every
// default. Reports every problem, including cross-field ones (post-cache above burst bandwidth, percentiles out
// of order, ...), to the reader's Diagnostics.
std::optional<DriveModel> parse_drive_model(ObjectReader& r, const std::string& name);

// The media a drive's `media` may name ("nvme_tlc", "hdd", ...; "unspecified" when unknown).
const std::vector<std::string>& drive_media_names();

} // namespace aisim::models
