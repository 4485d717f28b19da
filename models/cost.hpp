// Cost, first version: purchase price of what the scenario describes (GPUs, nodes, enclosures, drives), energy
// over the horizon, the value of stalled GPU time, and the cost of each useful (computing) GPU-hour.
#pragma once

#include "scenario.hpp"

namespace aisim::models {

// How the simulated GPU-time divides; fractions of all GPU-seconds in the simulated period.
struct GpuTimeSplit {
  double compute = 0;
  double data_stall = 0;
  double checkpoint_stall = 0;
  double failure = 0;
  double idle = 0;
};

struct CostBreakdown {
  Seconds horizon;
  Dollars capex;    // everything bought, written off over the horizon
  Dollars opex;     // energy (IT power x PUE x price) over the horizon
  Dollars gpu_idle; // GPU-hours not computing x gpu_hour_price: the value lost to stalls and idling
  Dollars total;    // capex + opex; gpu_idle is a share of what is already paid, so it is not added
  double usd_per_useful_gpu_hour = 0;
  double useful_gpu_hours = 0;
};

// The simulated period is taken as representative of the whole horizon: its GPU-time split is applied to every
// GPU-hour of the horizon. Busy GPUs draw their board power, stalled or idle ones `idle_power_fraction` of it.
CostBreakdown compute_cost(const Scenario& sc, const GpuTimeSplit& split);

inline constexpr double kGpuIdlePowerFraction = 0.15; // idle H100 boards draw ~100 W of 700 W (nvidia-smi)
inline constexpr double kDriveDutyActive = 0.5;       // drives counted at the mean of idle and active power

} // namespace aisim::models
