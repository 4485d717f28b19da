// Cost over the horizon: what is bought (GPUs, nodes, storage chassis, drives, an owned object store, the storage
// fabric's switches and ports), written off over its service life; support and maintenance as a yearly share of the
// purchase; energy; facility space per kW; rented GPUs per GPU-hour; usage-priced storage (object tiers) on the data
// actually held and the bytes actually read; capacity bought as the data grows; the value of stalled GPU time; the
// cost of each unit of work. Every figure per component (each node group, the fabric, each storage system) and, for
// storage, per data class.
#pragma once

#include "models/hardware/fabric.hpp"
#include "models/scenario/policies.hpp"
#include "models/scenario/scenario.hpp"

#include <array>
#include <string>
#include <vector>

namespace aisim::models {

// How the simulated GPU-time divides; fractions of all GPU-seconds in the simulated period.
struct GpuTimeSplit {
  double compute = 0;
  double data_stall = 0;
  double checkpoint_stall = 0;
  double failure = 0;
  double idle = 0;
};

// What a run measured of each storage system over the simulated period.
struct StorageUsage {
  double mean_stored_bytes = 0;                           // occupancy averaged over time: what is paid for
  std::array<double, kDataClasses> mean_by_class{};       // the same per data class
  double start_bytes = 0, end_bytes = 0;                  // held as the period starts (after time 0) and ends
  double read_bytes = 0;                                  // served, copies to other tiers included
  double one_off_read_bytes = 0, one_off_write_bytes = 0; // of which one-off work: never repeated
  // Of end - start, what bounded sets gained (the last K checkpoints, the current and previous production model):
  // filled once, then replaced rather than accumulated, so not growth that repeats.
  double bounded_growth_bytes = 0;
  std::array<double, kDataClasses> gained_by_class{}; // end - start per class (0 where it shrank)
};

// What the run did as a whole, for the cost per unit of work.
struct RunTotals {
  double simulated_s = 0;
  double requests = 0;            // inference requests served
  bool trains = false;            // a training or fine-tuning job: GPU-hours that make models
  double requests_within_slo = 0; // of the requests, those whose reads met the fleet's SLO (the reads' attainment)
};

// One component's money over the horizon. `purchase` is what buying it costs once; the rest is over the horizon.
struct ComponentCost {
  std::string name;    // the node group's or storage system's name, or "fabric"
  std::string kind;    // "compute", "network" or the storage kind
  Dollars purchase;    // bought up front
  Dollars growth;      // bought later, as the data grows (in `amortized` and `maintenance` from when it is bought)
  Dollars amortized;   // what is bought x the part of its service life inside the horizon
  Dollars maintenance; // what is bought x maintenance share x the years it is owned within the horizon
  Dollars energy;      // its power x PUE x energy price over the horizon
  Dollars facility;    // its nameplate power x facility price x months
  Dollars rent;        // rented GPUs: GPU-hours held x rent
  Dollars space;       // object tiers: $/TB-month x bytes held on average x months
  Dollars retrieval;   // object tiers: (retrieval + egress) $/B x bytes read, scaled to the horizon
  Watts nameplate;     // what its power supplies are sized for: the IT load that facility space is paid for
  Dollars total() const { return amortized + maintenance + energy + facility + rent + space + retrieval; }
};

struct CostBreakdown {
  Seconds horizon;
  Seconds service_life;
  Dollars capex;           // everything bought: up front and as the data grows
  Dollars capex_growth;    // of which bought later, as the data grows
  Dollars capex_amortized; // its share of the horizon
  Dollars maintenance;
  Dollars energy;   // IT power x PUE x price over the horizon
  Dollars facility; // space, racks and cooling per kW
  Dollars rent;     // rented GPUs
  Dollars services; // object storage: space and retrieval
  Dollars opex;     // maintenance + energy + facility + rent + services
  Dollars opex_per_year;
  // GPU time not computing, at gpu_hour_price: stalled (waiting for data, checkpoints, failures) and unused (no
  // job). Shares of what is already paid, so not added to the total.
  Dollars gpu_stalled;
  Dollars gpu_unused;
  Dollars total; // capex_amortized + opex: what is spent
  // What is spent plus the GPU time it wasted (gpu_stalled): the objective every ranking uses (sweeps' Pareto
  // fronts, sensitivity, aisim size --minimize cost, compare, the GUI), since spend alone falls when GPUs stall or
  // fail (less energy) and would rank waste as a saving.
  Dollars total_with_lost_gpu;
  // The storage systems alone (not the GPUs, not the fabric): what a storage TCO compares.
  Dollars storage_capex, storage_opex, storage_total;
  std::string extrapolation; // Costs::extrapolation
  double windows = 1;        // how many simulated periods the horizon holds
  double useful_gpu_hours = 0;
  double usd_per_useful_gpu_hour = 0;          // 0 when no job trains (then the other units apply)
  double usd_per_1000_requests = 0;            // inference: 0 when none served
  double usd_per_1000_requests_within_slo = 0; // inference: the same per request that met the SLO; 0 when none did
  double usd_per_tb_month = 0;                 // storage: its total per TB held per month; 0 when nothing is held
  std::vector<ComponentCost> components;       // node groups first, then storage systems, in scenario order
  // Storage cost per data class: each system's total shared by the classes' average share of its capacity; the
  // capacity no class used is `unused`, an object tier's retrieval is `retrieval`.
  std::array<Dollars, kDataClasses> storage_by_class{};
  Dollars storage_unused;
  Dollars storage_retrieval;
  // What the extrapolation shows that the simulated period does not: a system that would outgrow its capacity.
  std::vector<std::string> warnings;
};

// The simulated period stands for the horizon as `costs.extrapolation` says. "repeat": its GPU-time split applies to
// every GPU-hour of the horizon, its recurring reads repeat, and what its storage gains each period keeps
// accumulating. "once": it happens once; the GPUs are unused for the rest of the horizon and the storage keeps what
// it holds at the end. One-off work (datasets staged, preprocessing) is counted once either way. Busy GPUs draw
// their board power, stalled or idle ones `kGpuIdlePowerFraction` of it. `usage` has one entry per storage system,
// in scenario order (missing entries: nothing held or read).
// `fabric` is what the storage network is built of (Fabric::inventory()); data growth (costs.data_growth) scales
// what every storage system holds by (1 + growth) per year from the end of the simulated period on.
CostBreakdown compute_cost(const Scenario& sc, const GpuTimeSplit& split, const std::vector<StorageUsage>& usage,
                           const RunTotals& run, const SwitchInventory& fabric);

// What one storage system costs to buy (chassis, controllers or servers, drives) and draws.
Dollars storage_capex(const StorageSystem& s);
Watts storage_power(const StorageSystem& s);           // on average: drives between idle and active
Watts storage_nameplate_power(const StorageSystem& s); // every drive active: what facility space is sized for

inline constexpr double kGpuIdlePowerFraction = 0.15; // idle H100 boards draw ~100 W of 700 W (nvidia-smi)
inline constexpr double kDriveDutyActive = 0.5;       // drives counted at the mean of idle and active power

} // namespace aisim::models
