#include "models/cost/cost.hpp"

#include <algorithm>
#include <numeric>

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

namespace {

constexpr double kYear = 365.0 * 86400.0;

// What is bought, written off and maintained over the horizon, and what its power costs.
ComponentCost owned(std::string name, std::string kind, Dollars purchase, Watts power, const Costs& costs) {
  ComponentCost c;
  c.name = std::move(name);
  c.kind = std::move(kind);
  c.purchase = purchase;
  c.amortized = purchase * (costs.horizon.value / costs.service_life.value);
  c.maintenance = purchase * (costs.maintenance_per_year * costs.horizon.value / kYear);
  c.energy = energy_cost(power * costs.pue, costs.horizon, costs.energy_price);
  return c;
}

} // namespace

CostBreakdown compute_cost(const Scenario& sc, const GpuTimeSplit& split, const std::vector<StorageUsage>& usage) {
  CostBreakdown c;
  c.horizon = sc.costs.horizon;
  c.service_life = sc.costs.service_life;
  const double busy = split.compute; // only computing GPUs draw board power; stalled ones wait
  int gpus = 0;
  for (const auto& g : sc.node_groups) {
    const Watts gpu_power = g.gpu.power * (g.gpu_count() * (busy + kGpuIdlePowerFraction * (1.0 - busy)));
    c.components.push_back(owned(g.name, "compute", g.gpu_price * g.gpu_count() + g.node_price * g.count,
                                 gpu_power + g.node_power * g.count, sc.costs));
    gpus += g.gpu_count();
  }
  const double months = sc.costs.horizon.value / (kYear / 12.0);
  for (size_t i = 0; i < sc.storage.size(); ++i) {
    const auto& s = sc.storage[i];
    const StorageUsage u = i < usage.size() ? usage[i] : StorageUsage{};
    auto cc = owned(s.name, s.kind, storage_capex(s), storage_power(s), sc.costs);
    if (s.kind == "object") {
      cc.space = Dollars(s.storage_price.value * u.mean_stored_bytes * months);
      // Reads out of an object store pay retrieval and, when it is a provider's, egress.
      cc.retrieval = Dollars((s.retrieval_price.value + s.egress_price.value) * u.read_Bps * sc.costs.horizon.value);
      c.storage_retrieval += cc.retrieval;
    }
    // The system's cost by data class: a usage-priced tier bills what is held, so its space goes to the classes
    // held; an owned one is paid whole, so what no class fills is unused capacity.
    const double held = std::accumulate(u.mean_by_class.begin(), u.mean_by_class.end(), 0.0);
    const Dollars shared = cc.total() - cc.retrieval;
    const double base = s.kind == "object" ? held : std::max(s.capacity().value, held);
    for (int k = 0; k < kDataClasses; ++k)
      if (base > 0)
        c.storage_by_class[k] += shared * (u.mean_by_class[k] / base);
    c.storage_unused += base > 0 ? shared * (1.0 - held / base) : shared;
    c.components.push_back(cc);
  }
  for (const auto& cc : c.components) {
    c.capex += cc.purchase;
    c.capex_amortized += cc.amortized;
    c.maintenance += cc.maintenance;
    c.energy += cc.energy;
    c.services += cc.space + cc.retrieval;
  }
  c.opex = c.maintenance + c.energy + c.services;
  const double gpu_hours = gpus * c.horizon.value / 3600.0;
  c.useful_gpu_hours = gpu_hours * split.compute;
  c.gpu_idle = Dollars(gpu_hours * (1.0 - split.compute) * sc.costs.gpu_hour_price.value);
  c.total = c.capex_amortized + c.opex;
  c.usd_per_useful_gpu_hour = c.useful_gpu_hours > 0 ? c.total.value / c.useful_gpu_hours : 0.0;
  return c;
}

} // namespace aisim::models
