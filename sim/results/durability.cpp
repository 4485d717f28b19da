#include "sim/results/durability.hpp"

#include "models/analytics/durability.hpp"

#include <algorithm>
#include <cmath>

namespace aisim::sim {

using models::Json;

Json durability_json(const models::Scenario& sc, const models::StorageSystem& sys, const StorageMetrics& sm,
                     double mean_held_bytes) {
  const auto& spec = sys.failures.drives;
  if (!sys.drive || !spec || !spec->random())
    return Json();
  const auto& p = sys.protection;
  const int drives = std::max(1, sys.drive_count());
  // An unprotected system loses data with any drive: each drive is a group of one that tolerates nothing.
  const int width = p.parity > 0 ? std::min(p.width(), drives) : 1;
  const double groups = std::max(1, drives / width);
  // The rebuild: as simulated when the run finished any (contention with the jobs included), else a drive's
  // capacity at its rebuild bandwidth.
  double simulated = 0;
  int finished = 0;
  for (const auto& rb : sm.rebuilds)
    if (std::isfinite(rb.end_s) && rb.component == "drive") {
      simulated += rb.end_s - rb.start_s;
      ++finished;
    }
  double bandwidth = sys.drive_write_bandwidth().value;
  if (p.rebuild_rate)
    bandwidth = std::min(bandwidth, p.rebuild_rate->value);
  const double rebuild_s = finished > 0 ? simulated / finished : sys.drive->capacity.value / bandwidth;
  const double repair_s = spec->repair.value + (p.parity > 0 ? rebuild_s : 0.0);
  const models::RedundancyGroup g{width, p.parity > 0 ? std::min(p.parity, width - 1) : 0, 1.0 / spec->mtbf.value,
                                  1.0 / repair_s, models::RepairPolicy::parallel};
  constexpr double kYear = models::kSecondsPerYear;
  const double group_mttdl = models::mttdl_s(g);
  const double horizon = sc.costs.horizon.value;
  const double annual = models::loss_probability(g, kYear, groups);
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
          {"loss_probability", models::loss_probability(g, horizon, groups)},
          {"bytes_lost_per_year", models::bytes_lost_per_year(g, groups, mean_held_bytes / groups)},
          {"simulated_groups_lost", sm.group_losses.size()}};
}

} // namespace aisim::sim
