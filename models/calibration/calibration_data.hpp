// The raw measurements of one calibration run (format "aisim.calibration-raw/v1"): what was measured, where and
// how, every sweep point with its fio-compatible figures and latency histogram, and the long sequential write
// that looks for a write-cache cliff. The probe writes it beside the drive model; `aisim calibrate --refit`
// reads it back and fits again without touching the drive.
#pragma once

#include "models/calibration/latency_histogram.hpp"
#include "models/common/json_reader.hpp"
#include "models/hardware/drive_model.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace aisim::models {

inline constexpr const char* kCalibrationRawFormat = "aisim.calibration-raw/v1";

// One repeat of a point: its own throughput and mean latency, for the spread between repeats.
struct PointRepeat {
  double iops = 0;
  double bw_Bps = 0;
  double clat_mean_ns = 0;
};

// One sweep point: a direction, pattern, block size and queue depth held for a while after a warm-up. The
// headline figures are over all repeats together (fio's iops, bw_bytes, clat_ns).
struct MeasuredPoint {
  IoOp op = IoOp::read;
  IoPattern pattern = IoPattern::random;
  uint64_t bs_bytes = 0;
  unsigned queue_depth = 1;
  double iops = 0;
  double bw_Bps = 0;
  LatencyHistogram clat; // completion latency, submission to reaping, in nanoseconds
  std::vector<PointRepeat> repeats;

  // (max - min) / mean of the repeats' IOPS; 0 with fewer than two repeats.
  double spread() const;
  // "read random 4KiB QD1"
  std::string label() const;
};

// A long sequential write, sampled at a fixed interval: bytes completed in each interval.
struct WriteCacheRun {
  uint64_t bs_bytes = 0;
  unsigned queue_depth = 1;
  double interval_s = 0;
  std::vector<double> interval_bytes;
};

struct CalibrationData {
  std::string aisim_version;
  std::string measured_at; // UTC, ISO 8601
  std::string target_path;
  std::string target_kind; // "file" or "block_device"
  uint64_t target_size_bytes = 0;
  uint64_t capacity_bytes = 0; // the device's size when known, else the target's
  std::string device_name;     // "nvme0n1", or "" when the device could not be identified
  std::string device_model;    // from sysfs; "" when unknown
  bool quick = false;
  bool wrote = false;           // writes were measured (--write)
  Json target = Json::object(); // everything known about the target, device and engine, kept as measured
  Json device = Json::object();
  Json engine = Json::object();
  Json plan = Json::object();
  std::vector<MeasuredPoint> points;
  std::optional<WriteCacheRun> write_cache_run;
};

// Text for an operation and pattern as the JSON holds them ("read", "random").
const char* to_string(IoOp op);
const char* to_string(IoPattern pattern);
// "4KiB", "1MiB", "1536B"
std::string format_block_size(uint64_t bs_bytes);

// One point as fio's JSON has it ({"iops", "bw_bytes", "clat_ns": {...}}), plus our own keys.
Json point_to_json(const MeasuredPoint& p);
Json to_json(const CalibrationData& data);
// Reads a raw document back. Returns nullopt with every problem as "/json/pointer: what is wrong" in `errors`.
std::optional<CalibrationData> calibration_data_from_json(const Json& doc, std::vector<std::string>& errors);

} // namespace aisim::models
