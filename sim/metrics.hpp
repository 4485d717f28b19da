// What the engine records while it runs: per-job GPU-time by state, checkpoint write times, and per-storage
// transfers and occupancy. Plain data; results_json.cpp turns it into results.json and timeseries.csv.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace aisim::sim {

// A stretch of a job's time. Within a training phase compute and data stalls interleave step by step, so a
// segment carries the fractions of its GPU-time in each state rather than a single state.
struct JobSegment {
  double start_s = 0, end_s = 0;
  double compute = 0, data_stall = 0, checkpoint_stall = 0;
};

struct JobMetrics {
  int64_t steps = 0;
  double compute_gpu_s = 0;
  double data_stall_gpu_s = 0;
  double checkpoint_stall_gpu_s = 0;
  std::vector<double> checkpoint_write_s;
  std::vector<double> checkpoint_stall_s; // what the GPUs waited: the write (sync) or the host copy (async)
  double restore_s = 0;                   // reading the checkpoint the job resumes from
  std::vector<JobSegment> segments;
  double end_s = 0;
};

enum class IoDirection { read, write };

// One striped transfer between GPU nodes and a storage system, at its average rate over its lifetime.
struct TransferRecord {
  double start_s = 0, end_s = 0, bytes = 0;
  IoDirection direction = IoDirection::read;
  bool replica = false; // another system's copy arriving, not traffic from the GPUs
};

struct StorageMetrics {
  double read_bytes = 0;
  double write_bytes = 0;
  double replicated_in_bytes = 0; // written here as another system's replica
  std::vector<TransferRecord> transfers;
  // Occupancy changes at their times; a deletion may be dated in the future (snapshots, retention lock).
  std::vector<std::pair<double, double>> usage_events;

  void add_used(double time_s, double bytes) { usage_events.emplace_back(time_s, bytes); }
  // Highest occupancy up to `until_s`, applying changes in time order (growth before release at equal times).
  double peak_used_bytes(double until_s) const;
};

struct Metrics {
  std::vector<JobMetrics> jobs;
  std::vector<StorageMetrics> storage;
  uint64_t activities = 0; // SimGrid activities started (comms, I/Os, sleeps): the event count reported
};

// Highest summed rate of overlapping transfers between the GPUs and a system in one direction (replicas left
// out), in bytes per second.
double peak_rate_Bps(const std::vector<TransferRecord>& transfers, IoDirection direction);

} // namespace aisim::sim
