#include "models/cost/cost.hpp"

namespace aisim::models {

Dollars storage_capex(const StorageSystem& s) {
  return s.chassis_price + (s.drive ? s.drive->price * s.drive_count() : Dollars(0));
}

Watts storage_power(const StorageSystem& s) {
  if (!s.drive)
    return s.chassis_power;
  const Watts drive_w = s.drive->idle_power + (s.drive->active_power - s.drive->idle_power) * kDriveDutyActive;
  return s.chassis_power + drive_w * s.drive_count();
}

CostBreakdown compute_cost(const Scenario& sc, const GpuTimeSplit& split, const std::vector<StorageUsage>& usage) {
  CostBreakdown c;
  c.horizon = sc.costs.horizon;
  Dollars capex;
  Watts gpu_power_busy, gpu_power_idle, other_power;
  int gpus = 0;
  for (const auto& g : sc.node_groups) {
    capex += g.gpu_price * g.gpu_count() + g.node_price * g.count;
    gpu_power_busy += g.gpu.power * g.gpu_count();
    gpu_power_idle += g.gpu.power * (g.gpu_count() * kGpuIdlePowerFraction);
    other_power += g.node_power * g.count;
    gpus += g.gpu_count();
  }
  Dollars services;
  const double months = sc.costs.horizon.value / (365.0 * 86400.0 / 12.0);
  for (size_t i = 0; i < sc.storage.size(); ++i) {
    const auto& s = sc.storage[i];
    capex += storage_capex(s);
    other_power += storage_power(s);
    if (s.kind == "object" && i < usage.size()) {
      services += Dollars(s.storage_price.value * usage[i].stored_bytes * months);
      // Reads out of an object store pay retrieval and, when it is a provider's, egress.
      services +=
          Dollars((s.retrieval_price.value + s.egress_price.value) * usage[i].read_Bps * sc.costs.horizon.value);
    }
  }
  const double busy = split.compute; // only computing GPUs draw board power; stalled ones wait
  const Watts gpu_power = gpu_power_busy * busy + gpu_power_idle * (1.0 - busy);
  const Watts facility = (gpu_power + other_power) * sc.costs.pue;
  c.capex = capex;
  c.energy = energy_cost(facility, c.horizon, sc.costs.energy_price);
  c.services = services;
  c.opex = c.energy + c.services;
  const double gpu_hours = gpus * c.horizon.value / 3600.0;
  c.useful_gpu_hours = gpu_hours * split.compute;
  c.gpu_idle = Dollars(gpu_hours * (1.0 - split.compute) * sc.costs.gpu_hour_price.value);
  c.total = c.capex + c.opex;
  c.usd_per_useful_gpu_hour = c.useful_gpu_hours > 0 ? c.total.value / c.useful_gpu_hours : 0.0;
  return c;
}

} // namespace aisim::models
