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

CostBreakdown compute_cost(const Scenario& sc, const GpuTimeSplit& window_split, const std::vector<StorageUsage>& usage,
                           const RunTotals& run) {
  CostBreakdown c;
  c.horizon = sc.costs.horizon;
  c.service_life = sc.costs.service_life;
  c.extrapolation = sc.costs.extrapolation;
  const double H = sc.costs.horizon.value;
  const double T = run.simulated_s > 0 ? run.simulated_s : H;
  const bool once = sc.costs.extrapolation == "once";
  c.windows = H / T;
  // The horizon's GPU time: the period's split throughout ("repeat"), or the period once and nothing after it.
  GpuTimeSplit split = window_split;
  if (once) {
    const double f = std::min(1.0, T / H);
    split = {window_split.compute * f, window_split.data_stall * f, window_split.checkpoint_stall * f,
             window_split.failure * f, 1.0 - f * (1.0 - window_split.idle)};
  }
  const double busy = split.compute; // only computing GPUs draw board power; stalled ones wait
  int gpus = 0;
  for (const auto& g : sc.node_groups) {
    const Watts gpu_power = g.gpu.power * (g.gpu_count() * (busy + kGpuIdlePowerFraction * (1.0 - busy)));
    c.components.push_back(owned(g.name, "compute", g.gpu_price * g.gpu_count() + g.node_price * g.count,
                                 gpu_power + g.node_power * g.count, sc.costs));
    gpus += g.gpu_count();
  }
  constexpr double kMonth = kYear / 12.0;
  double held_byte_s = 0; // over the horizon, every system
  for (size_t i = 0; i < sc.storage.size(); ++i) {
    const auto& s = sc.storage[i];
    const StorageUsage u = i < usage.size() ? usage[i] : StorageUsage{};
    auto cc = owned(s.name, s.kind, storage_capex(s), storage_power(s), sc.costs);
    // Byte-seconds held over the horizon. "repeat": each period holds what the first did plus what the periods
    // before it gained (their recurring growth; a one-off dataset made stays once made). "once": the period, then
    // what it ends with.
    double byte_s;
    if (once || c.windows <= 1) {
      byte_s = u.mean_stored_bytes * std::min(T, H) + u.end_bytes * std::max(0.0, H - T);
    } else {
      const double growth = u.end_bytes - u.start_bytes;
      const double made_once = std::clamp(u.one_off_write_bytes, 0.0, std::max(0.0, growth));
      const double recurring = std::max(0.0, growth - made_once); // a steady state does not shrink for ever
      byte_s = (u.mean_stored_bytes + recurring * (c.windows - 1) / 2 + made_once * (1 - 1 / c.windows)) * H;
      const double at_end = u.end_bytes + recurring * (c.windows - 1);
      if (recurring > 0 && at_end > s.capacity().value)
        c.warnings.push_back("storage \"" + s.name + "\" gains " + format_bytes(Bytes(recurring)) + " every " +
                             format_duration(Seconds(T)) + " simulated; repeated over the " +
                             format_duration(sc.costs.horizon) + " horizon it would need " +
                             format_bytes(Bytes(at_end)) + " but holds " + format_bytes(s.capacity()) + " (after " +
                             format_duration(Seconds(T * (s.capacity().value - u.end_bytes) / recurring + T)) +
                             "): the cost assumes the space is there");
    }
    held_byte_s += byte_s;
    if (s.kind == "object") {
      cc.space = Dollars(s.storage_price.value * byte_s / kMonth);
      // Reads out of an object store pay retrieval and, when it is a provider's, egress: one-off reads once,
      // the rest as often as the period repeats.
      const double recurring_reads = u.read_bytes - u.one_off_read_bytes;
      const double reads = u.one_off_read_bytes + recurring_reads * (once ? 1.0 : c.windows);
      cc.retrieval = Dollars((s.retrieval_price.value + s.egress_price.value) * reads);
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
  Dollars storage_total;
  for (const auto& cc : c.components) {
    c.capex += cc.purchase;
    c.capex_amortized += cc.amortized;
    c.maintenance += cc.maintenance;
    c.energy += cc.energy;
    c.services += cc.space + cc.retrieval;
    if (cc.kind != "compute")
      storage_total += cc.total();
  }
  c.opex = c.maintenance + c.energy + c.services;
  c.total = c.capex_amortized + c.opex;
  const double gpu_hours = gpus * H / 3600.0;
  const double price = sc.costs.gpu_hour_price.value;
  c.useful_gpu_hours = gpu_hours * split.compute;
  c.gpu_stalled = Dollars(gpu_hours * (split.data_stall + split.checkpoint_stall + split.failure) * price);
  c.gpu_unused = Dollars(gpu_hours * split.idle * price);
  // Cost per unit of the work the scenario does: GPU-hours that make models, requests served, data kept.
  if (run.trains && c.useful_gpu_hours > 0)
    c.usd_per_useful_gpu_hour = c.total.value / c.useful_gpu_hours;
  const double requests = run.requests * (once ? 1.0 : c.windows);
  if (requests > 0)
    c.usd_per_1000_requests = c.total.value / (requests / 1000.0);
  if (held_byte_s > 0)
    c.usd_per_tb_month = storage_total.value / (held_byte_s / 1e12 / kMonth);
  return c;
}

} // namespace aisim::models
