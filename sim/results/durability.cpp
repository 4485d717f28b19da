#include "sim/results/durability.hpp"

#include "models/analytics/durability.hpp"
#include "models/hardware/stripe_groups.hpp"

#include <algorithm>
#include <cmath>

namespace aisim::sim {

using models::Json;

models::RedundancyGroup drive_groups(const models::StorageSystem& sys, double mtbf_s, double repair_s, double& groups) {
  const auto& p = sys.protection;
  // The engine's own stripe groups, so the chain's losses are the ones the simulation counts. An unprotected system
  // loses data with any drive: each drive is a group of one that tolerates nothing.
  const int drives = std::max(1, sys.drive_count());
  const int width = p.parity > 0 ? std::min(p.width(), drives) : 1;
  groups = p.parity > 0 ? std::max(1, models::stripe_group_count(sys)) : drives;
  return {width, p.parity > 0 ? std::min(p.parity, width - 1) : 0, 1.0 / mtbf_s, 1.0 / repair_s,
          models::RepairPolicy::parallel};
}

Json durability_json(const models::Scenario& sc, const models::StorageSystem& sys, const StorageMetrics& sm,
                     const std::array<double, models::kDataClasses>& mean_held_by_class, double period_s) {
  double mean_held_bytes = 0;
  for (double b : mean_held_by_class)
    mean_held_bytes += b;
  const auto& spec = sys.failures.drives;
  if (!sys.drive || !spec || !spec->random())
    return Json();
  const auto& p = sys.protection;
  // The rebuild: as simulated when the run finished any (contention with the jobs included), else a drive's
  // capacity at its rebuild bandwidth.
  double simulated = 0;
  int finished = 0;
  for (const auto& rb : sm.rebuilds)
    if (std::isfinite(rb.end_s) && rb.component == "drive") {
      simulated += rb.end_s - rb.start_s;
      ++finished;
    }
  const double rebuild_s = finished > 0 ? simulated / finished : (sys.drive->capacity / sys.rebuild_bandwidth()).value;
  const double repair_s = spec->repair.value + (p.parity > 0 ? rebuild_s : 0.0);
  double groups = 0;
  const models::RedundancyGroup g = drive_groups(sys, spec->mtbf.value, repair_s, groups);
  const int width = g.drives;
  constexpr double kYear = models::kSecondsPerYear;
  const double group_mttdl = models::mttdl_s(g);
  const double horizon = sc.costs.horizon.value;
  const double annual = models::loss_probability(g, kYear, groups);
  // Every class is striped over all of the system's groups, so a group's loss takes a share of each: the chance of
  // losing some of a class is the system's. Enough losses in the period measure it directly.
  const double markov_p = models::loss_probability(g, horizon, groups);
  const double seen = static_cast<double>(sm.group_losses.size());
  const bool measured = seen >= kMinSimulatedLosses && period_s > 0;
  const auto p_of = [&](double losses) { return -std::expm1(-losses / period_s * horizon); };
  Json by_class = Json::object();
  for (int k = 0; k < models::kDataClasses; ++k) {
    if (mean_held_by_class[k] <= 0)
      continue;
    Json c = {{"held_bytes", mean_held_by_class[k]}, {"method", measured ? "simulation" : "markov"}};
    if (measured) {
      // A Poisson count's 95% interval, normal approximation (at least kMinSimulatedLosses seen).
      const double half = 1.96 * std::sqrt(seen);
      c["loss_probability"] = p_of(seen);
      c["loss_probability_ci95"] = {p_of(std::max(0.0, seen - half)), p_of(seen + half)};
    } else {
      c["loss_probability"] = markov_p;
    }
    by_class[models::data_class_name(static_cast<models::DataClass>(k))] = c;
  }
  return {{"method", "markov"},
          {"scheme", p.scheme},
          {"group_drives", width},
          {"tolerated", g.tolerated},
          {"groups", groups},
          {"drive_failures_per_year", kYear / spec->mtbf.value},
          {"repair_s", repair_s},
          {"rebuild_s", p.parity > 0 ? Json(rebuild_s) : Json()},
          {"rebuild_from", finished > 0 ? "simulated" : "drive bandwidth"},
          {"group_mttdl_years", group_mttdl / kYear},
          {"mttdl_years", group_mttdl / groups / kYear},
          {"annual_loss_probability", annual},
          // Durability as the industry quotes it: "11 nines" is an annual loss probability of 1e-11.
          {"durability_nines", annual > 0 ? Json(-std::log10(annual)) : Json()},
          {"horizon_s", horizon},
          {"loss_probability", markov_p},
          {"bytes_lost_per_year", models::bytes_lost_per_year(g, groups, mean_held_bytes / groups)},
          {"simulated_groups_lost", sm.group_losses.size()},
          {"by_class", by_class}};
}

} // namespace aisim::sim
