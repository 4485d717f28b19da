#include "models/cost/cost.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numeric>

namespace aisim::models {

Dollars storage_capex(const StorageSystem& s) {
  return s.chassis_price + (s.drive ? s.drive->price * s.drive_count() : Dollars(0));
}

Watts storage_nameplate_power(const StorageSystem& s) {
  return s.drive ? s.chassis_power + s.drive->active_power * s.drive_count() : s.chassis_power;
}

Watts storage_power(const StorageSystem& s) {
  if (!s.drive)
    return s.chassis_power;
  const Watts drive_w = s.drive->idle_power + (s.drive->active_power - s.drive->idle_power) * kDriveDutyActive;
  return s.chassis_power + drive_w * s.drive_count();
}

namespace {

constexpr double kYear = 365.0 * 86400.0;
constexpr double kMonth = kYear / 12.0;

Dollars facility_cost(Watts nameplate, Seconds held, const Costs& costs) {
  return Dollars(costs.facility_price.value * nameplate.value / 1000.0 * held.value / kMonth);
}

// What is bought, written off and maintained over the horizon, what its power costs and the space it takes.
ComponentCost owned(std::string name, std::string kind, Dollars purchase, Watts power, Watts nameplate,
                    const Costs& costs) {
  ComponentCost c;
  c.name = std::move(name);
  c.kind = std::move(kind);
  c.purchase = purchase;
  c.amortized = purchase * (costs.horizon.value / costs.service_life.value);
  c.maintenance = purchase * (costs.maintenance_per_year * costs.horizon.value / kYear);
  c.energy = energy_cost(power * costs.pue, costs.horizon, costs.energy_price);
  c.nameplate = nameplate;
  c.facility = facility_cost(nameplate, costs.horizon, costs);
  return c;
}

// Capacity bought when it is needed: at the start of each year, what the data held at its end needs beyond what is
// owned, at the system's own price per byte; written off, maintained, powered and housed from then on. The data
// held at time t: what the simulated period ends with, plus what each later period adds (`recurring_Bps`, from the
// end of the first period), times (1 + data_growth)^years. Returns the time the system first runs out, or a
// negative value when it never does.
double buy_when_needed(ComponentCost& cc, double end_bytes, double recurring_Bps, double period_s,
                       double capacity_bytes, Watts power, const Costs& costs) {
  const double g = costs.data_growth;
  const double H = costs.horizon.value;
  const auto held_at = [&](double t) {
    return (end_bytes + recurring_Bps * std::max(0.0, t - period_s)) * std::pow(1 + g, t / kYear);
  };
  double full_at = -1;
  if (capacity_bytes <= 0 || held_at(H) <= capacity_bytes)
    return full_at;
  // When it first runs out: held_at rises, so bisect.
  double lo = 0, hi = H;
  for (int i = 0; i < 60; ++i)
    (held_at((lo + hi) / 2) > capacity_bytes ? hi : lo) = (lo + hi) / 2;
  full_at = hi;
  if (cc.purchase.value <= 0)
    return full_at; // a provider's capacity: nothing to buy
  double owned_bytes = capacity_bytes;
  for (double t = 0; t < H; t += kYear) {
    const double need = held_at(std::min(H, t + kYear));
    if (need <= owned_bytes)
      continue;
    const double share = (need - owned_bytes) / capacity_bytes; // of the system as first bought
    owned_bytes = need;
    const Dollars bought = cc.purchase * share;
    const Seconds held(H - t);
    cc.growth += bought;
    cc.amortized += bought * (held.value / costs.service_life.value);
    cc.maintenance += bought * (costs.maintenance_per_year * held.value / kYear);
    cc.energy += energy_cost(power * (share * costs.pue), held, costs.energy_price);
    cc.facility += facility_cost(cc.nameplate * share, held, costs);
  }
  return full_at;
}

// The mean of (1 + g)^t over a horizon of `years`: how much more is held on average as the data grows.
double mean_growth(double g, double years) {
  if (g == 0 || years <= 0)
    return 1.0;
  return (std::pow(1 + g, years) - 1) / (years * std::log1p(g));
}

} // namespace

CostBreakdown compute_cost(const Scenario& sc, const GpuTimeSplit& window_split, const std::vector<StorageUsage>& usage,
                           const RunTotals& run, const SwitchInventory& fabric) {
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
    gpus += g.gpu_count();
    if (g.rented()) {
      // A cloud cluster: the provider pays for power and space. Held for the horizon, or for the one period.
      ComponentCost rc;
      rc.name = g.name;
      rc.kind = "compute";
      rc.rent = Dollars(g.gpu_rent.value * g.gpu_count() * (once ? std::min(T, H) : H) / 3600.0);
      c.components.push_back(rc);
      continue;
    }
    const Watts gpu_power = g.gpu.power * (g.gpu_count() * (busy + kGpuIdlePowerFraction * (1.0 - busy)));
    c.components.push_back(owned(g.name, "compute", g.gpu_price * g.gpu_count() + g.node_price * g.count,
                                 gpu_power + g.node_power * g.count,
                                 g.gpu.power * g.gpu_count() + g.node_power * g.count, sc.costs));
  }
  if (fabric.switches > 0) {
    const auto& n = sc.network;
    const Watts power = n.switch_power * fabric.switches;
    c.components.push_back(owned("fabric", "network",
                                 n.switch_price * fabric.switches + n.port_price * static_cast<double>(fabric.ports),
                                 power, power, sc.costs));
  }
  const double grown = mean_growth(sc.costs.data_growth, H / kYear);
  double held_byte_s = 0; // over the horizon, every system
  for (size_t i = 0; i < sc.storage.size(); ++i) {
    const auto& s = sc.storage[i];
    const StorageUsage u = i < usage.size() ? usage[i] : StorageUsage{};
    auto cc = owned(s.name, s.kind, storage_capex(s), storage_power(s), storage_nameplate_power(s), sc.costs);
    // Byte-seconds held over the horizon. "repeat": each period holds what the first did plus what the periods
    // before it gained (their recurring growth; a one-off dataset made stays once made). "once": the period, then
    // what it ends with.
    double byte_s;
    double recurring = 0; // bytes each repeated period adds
    if (once || c.windows <= 1) {
      byte_s = u.mean_stored_bytes * std::min(T, H) + u.end_bytes * std::max(0.0, H - T);
    } else {
      const double gained = u.end_bytes - u.start_bytes;
      const double made_once = std::clamp(u.one_off_write_bytes + u.bounded_growth_bytes, 0.0, std::max(0.0, gained));
      recurring = std::max(0.0, gained - made_once); // a steady state does not shrink for ever
      byte_s = (u.mean_stored_bytes + recurring * (c.windows - 1) / 2 + made_once * (1 - 1 / c.windows)) * H;
    }
    byte_s *= grown;
    held_byte_s += byte_s;
    const double full_at =
        buy_when_needed(cc, u.end_bytes, recurring / T, T, s.capacity().value, storage_power(s), sc.costs);
    if (full_at >= 0) {
      std::string why;
      if (recurring > 0)
        why = format_bytes(Bytes(recurring)) + " more every " + format_duration(Seconds(T)) + " simulated";
      if (sc.costs.data_growth > 0) {
        char pct[32];
        std::snprintf(pct, sizeof pct, "%g %%", sc.costs.data_growth * 100);
        why += (why.empty() ? "" : ", ") + std::string(pct) + " data growth a year";
      }
      c.warnings.push_back(
          "storage \"" + s.name + "\" (" + format_bytes(s.capacity()) + ") fills up after " +
          format_duration(Seconds(full_at)) + " of the " + format_duration(sc.costs.horizon) + " horizon (" + why +
          (cc.growth.value > 0 ? "): the cost buys " + format_money(cc.growth) + " more of it when needed"
                               : "): the cost assumes the provider has the space"));
    }
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
    // Held per class on average over the horizon: the period's mean, plus (repeated) the recurring growth of the
    // classes that grew, in proportion to what each gained.
    std::array<double, kDataClasses> by_class = u.mean_by_class;
    const double gained = std::accumulate(u.gained_by_class.begin(), u.gained_by_class.end(), 0.0);
    for (int k = 0; k < kDataClasses; ++k) {
      if (gained > 0)
        by_class[k] += recurring * (u.gained_by_class[k] / gained) * (c.windows - 1) / 2;
      by_class[k] *= grown;
    }
    const double held = std::accumulate(by_class.begin(), by_class.end(), 0.0);
    const Dollars shared = cc.total() - cc.retrieval;
    const bool rented = s.kind == "object" && !s.owned;
    const double base = rented ? held : std::max(s.capacity().value, held);
    for (int k = 0; k < kDataClasses; ++k)
      if (base > 0)
        c.storage_by_class[k] += shared * (by_class[k] / base);
    c.storage_unused += base > 0 ? shared * (1.0 - held / base) : shared;
    c.components.push_back(cc);
  }
  for (const auto& cc : c.components) {
    c.capex += cc.purchase + cc.growth;
    c.capex_growth += cc.growth;
    c.capex_amortized += cc.amortized;
    c.maintenance += cc.maintenance;
    c.energy += cc.energy;
    c.facility += cc.facility;
    c.rent += cc.rent;
    c.services += cc.space + cc.retrieval;
    if (cc.kind != "compute" && cc.kind != "network") {
      c.storage_capex += cc.purchase + cc.growth;
      c.storage_opex += cc.total() - cc.amortized;
      c.storage_total += cc.total();
    }
  }
  c.opex = c.maintenance + c.energy + c.facility + c.rent + c.services;
  c.opex_per_year = c.opex * (kYear / H);
  c.total = c.capex_amortized + c.opex;
  const double gpu_hours = gpus * H / 3600.0;
  const double price = sc.costs.gpu_hour_price.value;
  c.useful_gpu_hours = gpu_hours * split.compute;
  c.gpu_stalled = Dollars(gpu_hours * (split.data_stall + split.checkpoint_stall + split.failure) * price);
  c.gpu_unused = Dollars(gpu_hours * split.idle * price);
  c.total_with_lost_gpu = c.total + c.gpu_stalled;
  // Cost per unit of the work the scenario does: GPU-hours that make models, requests served, data kept.
  if (run.trains && c.useful_gpu_hours > 0)
    c.usd_per_useful_gpu_hour = c.total.value / c.useful_gpu_hours;
  const double requests = run.requests * (once ? 1.0 : c.windows);
  if (requests > 0)
    c.usd_per_1000_requests = c.total.value / (requests / 1000.0);
  if (const double met = run.requests_within_slo * (once ? 1.0 : c.windows); met > 0)
    c.usd_per_1000_requests_within_slo = c.total.value / (met / 1000.0);
  if (held_byte_s > 0)
    c.usd_per_tb_month = c.storage_total.value / (held_byte_s / 1e12 / kMonth);
  return c;
}

} // namespace aisim::models
