// Cost over the horizon: what is bought (GPUs, nodes, storage chassis, drives), written off over its service life;
// support and maintenance as a yearly share of the purchase; energy; usage-priced storage (object tiers) on the data
// actually held and the bytes actually read; the value of stalled GPU time; the cost of each useful GPU-hour. Every
// figure per component (each node group, each storage system) and, for storage, per data class.
#pragma once

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

// What a run measured of each storage system: what it held and served, averaged over the simulated period.
struct StorageUsage {
  double mean_stored_bytes = 0;                     // occupancy averaged over time: what is paid for
  std::array<double, kDataClasses> mean_by_class{}; // the same per data class
  double read_Bps = 0;                              // mean read rate (copies to other tiers included)
};

// One component's money over the horizon. `purchase` is what buying it costs once; the rest is over the horizon.
struct ComponentCost {
  std::string name;    // the node group's or storage system's name
  std::string kind;    // "compute" or the storage kind
  Dollars purchase;    // bought up front
  Dollars amortized;   // purchase x horizon / service life
  Dollars maintenance; // purchase x maintenance share x horizon in years
  Dollars energy;      // its power x PUE x energy price over the horizon
  Dollars space;       // object tiers: $/TB-month x bytes held on average x months
  Dollars retrieval;   // object tiers: (retrieval + egress) $/B x bytes read, scaled to the horizon
  Dollars total() const { return amortized + maintenance + energy + space + retrieval; }
};

struct CostBreakdown {
  Seconds horizon;
  Seconds service_life;
  Dollars capex;           // purchase of everything
  Dollars capex_amortized; // its share of the horizon
  Dollars maintenance;
  Dollars energy;   // IT power x PUE x price over the horizon
  Dollars services; // object storage: space and retrieval
  Dollars opex;     // maintenance + energy + services
  Dollars gpu_idle; // GPU-hours not computing x gpu_hour_price: the value lost to stalls and idling
  Dollars total;    // capex_amortized + opex; gpu_idle is a share of what is already paid, so not added
  double usd_per_useful_gpu_hour = 0;
  double useful_gpu_hours = 0;
  std::vector<ComponentCost> components; // node groups first, then storage systems, in scenario order
  // Storage cost per data class: each system's total shared by the classes' average share of its capacity; the
  // capacity no class used is `unused`, an object tier's retrieval is `retrieval`.
  std::array<Dollars, kDataClasses> storage_by_class{};
  Dollars storage_unused;
  Dollars storage_retrieval;
};

// The simulated period is taken as representative of the whole horizon: its GPU-time split is applied to every
// GPU-hour of the horizon. Busy GPUs draw their board power, stalled or idle ones `kGpuIdlePowerFraction` of it.
// `usage` has one entry per storage system, in scenario order (missing entries: nothing held or read).
CostBreakdown compute_cost(const Scenario& sc, const GpuTimeSplit& split, const std::vector<StorageUsage>& usage);

// What one storage system costs to buy (chassis, controllers or servers, drives) and draws.
Dollars storage_capex(const StorageSystem& s);
Watts storage_power(const StorageSystem& s);

inline constexpr double kGpuIdlePowerFraction = 0.15; // idle H100 boards draw ~100 W of 700 W (nvidia-smi)
inline constexpr double kDriveDutyActive = 0.5;       // drives counted at the mean of idle and active power

} // namespace aisim::models
