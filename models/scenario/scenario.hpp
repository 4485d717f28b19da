// The typed scenario: what a planner describes, after parsing, unit conversion, defaults and cross-checks.
// `resolved` keeps the same content as JSON (defaults filled in) for results.json.
#pragma once

#include "models/common/json_reader.hpp"
#include "models/common/units.hpp"
#include "models/hardware/drive_model.hpp"
#include "models/hardware/fabric.hpp"
#include "models/hardware/gpu_catalog.hpp"
#include "models/hardware/storage_system.hpp"
#include "models/scenario/fault_domains.hpp"
#include "models/scenario/policies.hpp"
#include "models/scenario/threats.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace aisim::models {

inline constexpr int kScenarioSchemaVersion = 1;

struct NodeGroup {
  std::string name;
  int count = 0;
  int gpus_per_node = 0;
  GpuModel gpu;
  Dollars gpu_price;
  int nics = 0;
  BytesPerSecond nic_speed;
  Bytes host_memory;
  BytesPerSecond gpu_host_bandwidth; // one GPU's copy bandwidth to host memory (async checkpoints)
  // The node's own data path between its storage NICs and its GPUs' memory (models/cluster/host_path.hpp):
  // directly over the PCIe switches with GPUDirect Storage, else bounced through host memory by CPU threads.
  bool gpudirect_storage = false;
  int pcie_switches = 4;                // GPUs and NICs spread evenly over them
  BytesPerSecond pcie_switch_uplink;    // each switch's link to the CPUs, per direction
  BytesPerSecond host_memory_bandwidth; // the sockets' DRAM bandwidth
  int cpu_cores = 112;                  // cores for the I/O threads (data-loader workers, checkpoint writers)
  BytesPerSecond core_copy_bandwidth;   // one core copying a buffer (memcpy), bounce path only
  Seconds io_request_cpu_time;          // CPU time of one synchronous request (system call, file system client)
  Watts node_power;                     // everything in the node but the GPUs
  Dollars node_price;

  int gpu_count() const { return count * gpus_per_node; }
  BytesPerSecond nic_bandwidth() const { return nic_speed * nics; }
  int compute_nics = 0; // the GPU fabric's NICs (east-west), carrying collectives
  BytesPerSecond compute_nic_speed;
  BytesPerSecond compute_nic_bandwidth() const { return compute_nic_speed * compute_nics; }
  Seconds node_mtbf; // 0: nodes do not fail
  // > 0: the group is rented per GPU-hour (a cloud cluster): nothing bought, no power or space paid.
  DollarsPerHour gpu_rent;
  bool rented() const { return gpu_rent.value > 0; }
};

// How a workload's I/O reaches the drives: the size of each request, whether it is random or sequential, and how
// many requests each GPU node keeps outstanding. The drive model turns it into throughput (Little's law).
struct IoShape {
  Bytes io_size;
  IoPattern access = IoPattern::sequential;
  int outstanding_per_node = 16;
};

struct CheckpointSpec {
  Bytes size;
  Seconds interval;
  std::string storage;
  std::string mode; // "sync": GPUs wait for the write; "async": only for the copy to host memory; "multilevel":
                    // only for the write to node-local NVMe (local_storage), drained to `storage` in the background
  std::string local_storage;
  IoShape io;                    // always sequential writes
  bool restore_at_start = false; // the job resumes from a checkpoint: it reads one before its first step
  int64_t interval_steps = 0;    // > 0: a checkpoint every so many steps (interval is then that many step times)
  bool interval_auto = false;    // Daly's interval from the measured checkpoint cost and the job's MTBF
};

struct Dataset {
  Bytes size;
  std::string storage;
  IoShape io;
  // Samples stored one per file (file_size > 0, not packed): every file read costs metadata operations on a
  // parallel file system's metadata servers. Packed into shards, the files cost nothing per sample.
  Bytes file_size;
  bool packed = false;
  int metadata_ops_per_file = 2; // open and close
  bool small_files() const { return file_size.value > 0 && !packed; }
  // Where nodes keep what they read for later epochs: "" (nowhere), "page_cache" (half the host memory) or the
  // name of the group's local_nvme system. "global" shuffling has every node read samples from the whole dataset;
  // "node" keeps each node on its own shard.
  std::string cache;
  std::string shuffle = "global";
};

// An inference fleet: replicas of a model, each on gpus_per_replica GPUs. Replicas added at a scale event load
// the model from storage before they serve (a cold start); serving issues small random reads (retrieval,
// embeddings, KV-cache offload) whose latency is judged against an SLO.
struct ScaleEvent {
  Seconds at; // from the fleet's start
  int replicas = 0;
};

struct InferenceSpec {
  int gpus_per_replica = 0;
  Bytes model_size;
  std::string model_storage;
  IoShape model_io; // sequential reads of the model files
  std::vector<ScaleEvent> scale;
  OpsPerSecond request_rate; // the whole fleet's; 0: no serving reads
  int reads_per_request = 1;
  Bytes read_size;
  std::string data_storage;
  Seconds slo;
};

// What a fine-tuning job starts from: every node loads the whole base model before the first step.
struct BaseModel {
  Bytes size;
  std::string storage;
};

// What a preprocessing job writes: `ratio` output bytes per input byte read, as a new dataset.
struct DatasetOutput {
  std::string storage;
  double ratio = 1.0;
  IoShape io;
};

struct TrainingJob {
  std::string name;
  std::string kind;        // "training" or "inference"
  InferenceSpec inference; // kind "inference" only; the training keys below are then unused
  std::string node_group;
  int gpus = 0;
  // One rank's checkpoint shard: each rank writes its own file (sim/engine/lifecycle_checkpoints.cpp).
  Bytes checkpoint_shard() const { return Bytes(gpus > 0 ? checkpoint.size.value / gpus : 0.0); }
  Seconds step_time; // GPU compute per step, with the data at hand
  int64_t global_batch = 0;
  Bytes sample_size;
  Dataset dataset;
  int prefetch_batches = 0;
  CheckpointSpec checkpoint; // size 0: none (preprocessing)
  BaseModel base_model;      // fine_tuning only
  DatasetOutput output;      // preprocessing only
  Seconds start;
  std::optional<Seconds> duration;  // absent: runs until the simulated period ends
  double epochs = 0;                // > 0: the job ends once it has read the dataset this many times
  Seconds restart_time;             // after a failure: rescheduling and start-up, before the checkpoint is read back
  std::vector<Seconds> failures_at; // node failures at set times (from the simulation's start), in order
  Seconds detection_time;           // from a failure to its being noticed, before the restart
  Bytes allreduce_bytes_per_step;   // sent (and received) by each GPU per step on the GPU fabric

  Bytes batch_bytes() const { return sample_size * static_cast<double>(global_batch); }
  // When the job stops taking steps: its start plus duration, or the end of the simulated period.
  double end_s(double simulated_period_s) const {
    return duration ? std::min(simulated_period_s, start.value + duration->value) : simulated_period_s;
  }
};

struct Costs {
  Seconds horizon;
  DollarsPerKWh energy_price;
  double pue = 1.0;
  DollarsPerHour gpu_hour_price;
  Seconds service_life = Seconds(5 * 365 * 86400.0); // what is bought is written off straight-line over it
  double maintenance_per_year = 0.10;                // support and maintenance, a yearly share of the purchase
  // How the simulated period stands for the horizon: "repeat" (a steady state, repeated) or "once" (it happens
  // once; the cluster then idles and its storage keeps what it holds).
  std::string extrapolation = "repeat";
  // Floor space, racks and cooling, per kilowatt of the IT load bought (nameplate power) per month; 0: not priced.
  DollarsPerKWMonth facility_price;
  // How much the data every storage system holds grows per year (0.3: +30 %/year); owned systems buy capacity at
  // the start of the year that needs it, object tiers bill what is held.
  double data_growth = 0;
  // The price sheet the prices came from ("name, dated date"; empty: none) and how many figures it gave.
  std::string price_sheet;
  int price_sheet_figures = 0;
  // What losing a class of data costs, where the planner knows it (`data_value`): dollars for the whole holding, or
  // dollars per byte held; absent: aisim's own estimate where it has one (placement advice), else unknown.
  struct DataValue {
    double usd = 0;
    bool per_byte = false;
  };
  std::array<std::optional<DataValue>, kDataClasses> data_value;
};

struct SimulationSettings {
  Seconds duration;
  uint64_t seed = 0;
  std::string fidelity; // "aggregate" or "full"
  Seconds timeseries_resolution;
};

struct Scenario {
  std::string file;
  std::string name;
  std::vector<NodeGroup> node_groups;
  NetworkSpec network;
  std::vector<DriveModel> drives;
  std::vector<StorageSystem> storage;
  std::vector<FaultDomain> fault_domains;
  std::vector<TrainingJob> jobs;
  Policies policies;
  std::vector<Threat> threats;
  Costs costs;
  SimulationSettings simulation;
  Json resolved;

  int gpu_count() const;
  // What carries a node's storage traffic: its storage NICs, or its GPU-fabric NICs on a converged network.
  BytesPerSecond storage_bandwidth(const NodeGroup& g) const;
  int storage_ports(const NodeGroup& g) const;
  const StorageSystem* find_storage(const std::string& name) const;
  // The system's index in `storage`, or -1 when no system has that name (an empty name included).
  int storage_index(const std::string& name) const;
  // Whether components of system `s` fail in the simulation: its own `failures`, or a fault domain that fails
  // and holds some of them.
  bool storage_can_fail(int s) const;
  const NodeGroup* find_node_group(const std::string& name) const;
};

} // namespace aisim::models
