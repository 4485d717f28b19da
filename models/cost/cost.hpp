// Cost: purchase price of what the scenario describes (GPUs, nodes, storage chassis, drives), energy and
// usage-priced storage over the horizon, the value of stalled GPU time, and the cost of each useful GPU-hour.
#pragma once

#include "models/scenario/scenario.hpp"

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

// What a run measured of each storage system that usage-priced storage (object tiers) bills for.
struct StorageUsage {
  double stored_bytes = 0; // peak occupancy: what must be paid for
  double read_Bps = 0;     // mean read rate over the simulated period
};

struct CostBreakdown {
  Seconds horizon;
  Dollars capex;    // everything bought, written off over the horizon
  Dollars energy;   // IT power x PUE x price over the horizon
  Dollars services; // object storage: capacity per month and retrieval per byte over the horizon
  Dollars opex;     // energy + services
  Dollars gpu_idle; // GPU-hours not computing x gpu_hour_price: the value lost to stalls and idling
  Dollars total;    // capex + opex; gpu_idle is a share of what is already paid, so it is not added
  double usd_per_useful_gpu_hour = 0;
  double useful_gpu_hours = 0;
};

// The simulated period is taken as representative of the whole horizon: its GPU-time split is applied to every
// GPU-hour of the horizon. Busy GPUs draw their board power, stalled or idle ones `idle_power_fraction` of it.
// `usage` has one entry per storage system, in scenario order.
CostBreakdown compute_cost(const Scenario& sc, const GpuTimeSplit& split, const std::vector<StorageUsage>& usage);

// What one storage system costs to buy (chassis, controllers or servers, drives) and draws.
Dollars storage_capex(const StorageSystem& s);
Watts storage_power(const StorageSystem& s);

inline constexpr double kGpuIdlePowerFraction = 0.15; // idle H100 boards draw ~100 W of 700 W (nvidia-smi)
inline constexpr double kDriveDutyActive = 0.5;       // drives counted at the mean of idle and active power

} // namespace aisim::models
