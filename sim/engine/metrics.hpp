// What the engine records while it runs: per-job GPU-time by state, checkpoint write times, and per-storage
// transfers and occupancy. Plain data; results_json.cpp turns it into results.json and timeseries.csv.
#pragma once

#include "models/analytics/serving_latency.hpp"
#include "models/scenario/policies.hpp"

#include <array>
#include <cstdint>
#include <limits>
#include <string>
#include <utility>
#include <vector>

namespace aisim::sim {

// A stretch of a job's time. Within a training phase compute and data stalls interleave step by step, so a
// segment carries the fractions of its GPU-time in each state rather than a single state. The fractions are of all
// the job's GPUs over the stretch; what they leave is idle (an inference fleet's scaled-in replicas).
struct JobSegment {
  double start_s = 0, end_s = 0;
  double compute = 0, data_stall = 0, checkpoint_stall = 0, failure = 0;
};

struct JobMetrics {
  int64_t steps = 0;
  double compute_gpu_s = 0;
  double data_stall_gpu_s = 0;
  double checkpoint_stall_gpu_s = 0;
  double failure_gpu_s = 0; // work lost to failures, restarts and restores
  int failures = 0;
  double lost_gpu_s = 0; // of which compute redone after a failure
  // The failure time as operators see it: noticing it (detection_time), work to replay (lost compute and the
  // interrupted step), rescheduling and start-up (restart_time), reloading the checkpoint.
  double detection_gpu_s = 0, replay_gpu_s = 0, rescheduling_gpu_s = 0, reload_gpu_s = 0;
  int restarts_from_older = 0;    // the newest checkpoint was destroyed: resumed from an older one
  int restarts_from_scratch = 0;  // every checkpoint was destroyed: started over
  std::vector<double> interval_s; // compute time between checkpoints, as chosen (varies with "auto")
  std::vector<double> checkpoint_write_s;
  std::vector<double> checkpoint_stall_s; // what the GPUs waited: the write (sync) or the host copy (async)
  double restore_s = 0;                   // reading the checkpoint the job resumes from
  double checkpoint_space_wait_s = 0;     // checkpoint writes waiting for space (on_full: block_writes), in all
  double model_load_s = 0;                // a fine-tuning job loading its base model
  double staging_wait_s = 0;              // the job's start held back until its dataset reached the hot tier
  double dataset_read_bytes = 0;          // what the loader read, epochs after the first included
  double dataset_cache_bytes = 0;         // of which the nodes' cache served
  std::vector<JobSegment> segments;
  double end_s = 0;
  std::string failure; // why the job stopped early ("" when it ran its course)
  // Lifecycle: checkpoints evaluated, passed (copied to validated storage) and released to production.
  int evaluated = 0, validated = 0, released = 0;
  // Inference fleets: model loads at scale-out (seconds each), the replicas they brought up, and the serving
  // reads per period with their latency.
  std::vector<double> load_s;
  int replicas_loaded = 0;
  std::vector<models::ServingPeriod> serving;
  double overloaded_s = 0; // serving time during which storage could not keep up with the reads

  int gpus = 0; // the job's GPUs: a segment's fractions are of gpus x its length
  // When the job's GPUs stop being its own: its start plus duration, or the end of the simulated period.
  double window_end_s = std::numeric_limits<double>::infinity();
  // Adds a stretch [start_s, end_s) of the job's GPU time, cut at window_end_s, split by state in GPU-seconds, to
  // the totals and the segments the time series is built from.
  void add_segment(double start_s, double end_s, double compute, double data, double checkpoint, double failure);
};

enum class IoDirection { read, write };

// What a transfer is for: the phases of a job whose limits results.json names (sim/results/bottlenecks.cpp).
enum class Traffic { other, dataset, checkpoint, restore, model_load, output, serving };

// One striped transfer between GPU nodes and a storage system, at its average rate over its lifetime.
struct TransferRecord {
  double start_s = 0, end_s = 0, bytes = 0;
  IoDirection direction = IoDirection::read;
  bool copy = false; // one end of a copy between systems (replication, tiering, staging), not the GPUs' traffic
  int job = -1;      // the job whose phase it is, -1 for copies and other traffic
  Traffic traffic = Traffic::other;
  int from = -1; // a copy's source system (its write end); -1 otherwise
};

// One occupancy change of one data class.
struct UsageEvent {
  double time_s = 0, bytes = 0;
  models::DataClass cls = models::DataClass::training_dataset;
};

// A storage component out of service: from its failure until it was repaired or replaced (infinity when it was
// still out at the end of the simulated period).
struct ComponentFailure {
  double time_s = 0;
  double back_s = 0;
  std::string component; // "drive", "enclosure", "controller" or "server"
  int index = 0;         // which one of the system's components of that kind
};

// Rebuilding lost drives of a protected system onto their replacements: a drive, or every drive of an enclosure or
// file server that came back. end_s is infinity when it did not finish (the period ended, or a further loss
// made it start over).
struct Rebuild {
  double start_s = 0, end_s = 0;
  std::string component; // what came back: "drive", "enclosure" or "server"
  int index = 0;
  int drives = 0;
  double written_bytes = 0, read_bytes = 0;
};

// A stripe group that had more drives out at once than its parity covers: the data on it is lost.
struct GroupLoss {
  double time_s = 0;
  int group = 0;
  int drives_out = 0;
};

// Data destroyed on one system at one moment: by an unprotected drive, enclosure or file server failing, or a
// stripe group losing more drives than its parity covers. Bytes and whole items (checkpoints, models, replicas)
// per data class; a dataset loses the share that was on the lost drives.
struct DataLoss {
  double time_s = 0;
  int storage = -1;
  std::string cause;   // "drive", "enclosure", "server" or "stripe_group"
  double fraction = 0; // of everything the system held
  std::array<double, models::kDataClasses> bytes{};
  std::array<int, models::kDataClasses> items{};
  double restaged_bytes = 0; // dataset shards fetched again from their home tier
};

// A deletion or ransomware event (scenario `threats`): the copies it reached, and what became of each. Every byte
// hit is in exactly one of locked, snapshot, copy and lost.
struct ThreatEvent {
  double time_s = 0;
  int threat = -1; // index in the scenario's threats
  double hit_bytes = 0;
  double locked_bytes = 0;   // untouched: under a retention lock (or object lock)
  double snapshot_bytes = 0; // reverted in place from a snapshot taken since it was written
  double copy_bytes = 0;     // destroyed here, but a copy on a system out of reach (or protected) survives
  double lost_bytes = 0;     // no copy left
  std::array<double, models::kDataClasses> lost_by_class{};
  std::array<double, models::kDataClasses> hit_by_class{};
  double recovery_bytes = 0; // copied back from the surviving copies (datasets, models)
  double recovered_s = -1;   // when the last copy-back ended; -1 while none was needed
};

// A validated or production model whose every copy was destroyed: what it costs to make again, the GPU time its
// job spent up to the checkpoint it came from.
struct ModelLoss {
  double time_s = 0;
  int job = -1;
  models::DataClass cls = models::DataClass::validated_model;
  double recompute_gpu_s = 0;
};

struct StorageMetrics {
  // Every byte served and every byte stored, whoever asked: the GPUs, or a copy from or to another system.
  double read_bytes = 0;
  double write_bytes = 0;
  double copied_in_bytes = 0;  // of write_bytes: copies arriving from a system (replicas, staging, archiving)
  double copied_out_bytes = 0; // of read_bytes: copies leaving for a system
  // Of read_bytes and write_bytes: one-off work (a dataset staged, preprocessing), never repeated to the horizon.
  double one_off_read_bytes = 0;
  double one_off_write_bytes = 0;
  std::vector<TransferRecord> transfers;
  // Occupancy changes at their times; a deletion may be dated in the future (snapshots, retention lock).
  std::vector<UsageEvent> usage_events;
  std::vector<ComponentFailure> failures;
  std::vector<Rebuild> rebuilds;
  std::vector<GroupLoss> group_losses;

  void add_used(double time_s, double bytes, models::DataClass cls) { usage_events.push_back({time_s, bytes, cls}); }
  // The occupancy changes in the order they take effect.
  std::vector<UsageEvent> usage_in_time_order() const;
  // Highest occupancy up to `until_s`, applying changes in time order (in recorded order at equal times).
  double peak_used_bytes(double until_s) const;
  // The same per data class (each class's own peak, not its share at the total's peak), and what each holds at
  // `until_s`.
  std::array<double, models::kDataClasses> peak_used_by_class(double until_s) const;
  std::array<double, models::kDataClasses> used_by_class(double at_s) const;
  // What each class held on average over [0, until_s]: what a tier billed by the byte-month charges for.
  std::array<double, models::kDataClasses> mean_used_by_class(double until_s) const;
};

// Data copied from one tier to another under a policy: staging, archiving, promotion, release to production.
struct Movement {
  int from = -1, to = -1;
  models::DataClass cls = models::DataClass::training_dataset; // the class the copy has where it lands
  double bytes = 0, start_s = 0, end_s = 0;
};

// A write that did not fit, and what the system's on_full policy did about it.
struct CapacityEvent {
  double time_s = 0;
  int storage = -1;
  int job = -1;
  std::string action;  // "failed_job", "blocked", "evicted"
  double bytes = 0;    // what the write needed; for "evicted", what was freed
  double waited_s = 0; // for "blocked"
};

struct Metrics {
  std::vector<JobMetrics> jobs;
  std::vector<StorageMetrics> storage;
  std::vector<Movement> movements;
  std::vector<CapacityEvent> capacity_events;
  std::vector<DataLoss> data_losses;
  std::vector<ModelLoss> model_losses;
  std::vector<ThreatEvent> threat_events;
  struct DomainFailure {
    double time_s = 0;
    int domain = -1; // index in the scenario's fault_domains
  };
  std::vector<DomainFailure> domain_failures;
  uint64_t activities = 0; // SimGrid activities started (comms, I/Os, sleeps): the event count reported
  // The end of the simulated period: the scenario's duration, or earlier when a run limit stopped the run
  // (run_simulation). Actors read it here, not in the scenario, so that a stop ends their work as the period's end
  // would: no new phase, copy or failure past it; what is in flight finishes and is cut there.
  double period_end_s = std::numeric_limits<double>::infinity();
};

// Bytes of the transfers in one direction moved after `period_end_s`, each transfer's bytes taken as moved evenly
// over its lifetime (as timeseries.csv spreads them): phases and copies in flight at the period's end finish after
// it, so results.json's totals hold them but the time series, which ends with the period, does not.
double bytes_after(const std::vector<TransferRecord>& transfers, IoDirection direction, double period_end_s);

// The highest rate a system is known to have sustained in one direction, in bytes per second: the most bytes of
// transfers that ran entirely within a window, per second of the window (metrics.cpp says why not the sum of
// average rates). Every transfer counts: the GPUs' and both ends of copies between systems.
double peak_rate_Bps(const std::vector<TransferRecord>& transfers, IoDirection direction);

} // namespace aisim::sim
