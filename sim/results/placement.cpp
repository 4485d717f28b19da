#include "sim/results/placement.hpp"

#include "sim/results/durability.hpp"

#include "models/analytics/durability.hpp"
#include "models/analytics/placement.hpp"
#include "models/hardware/failure_spec.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace aisim::sim {

using models::DataClass;
using models::Json;

namespace {

constexpr double kYear = models::kSecondsPerYear;
// A drive that fails where the scenario says nothing of its repair is replaced within a day: the common service
// level for data-center drives (an estimate).
constexpr double kDefaultReplaceS = 24 * 3600.0;

// Drive failures: the run's own Markov answer where the scenario's drives fail at random, else the same chain at
// the drive model's AFR, replaced within a day and rebuilt at the rebuild bandwidth; an object store's stated
// durability.
double drive_loss_probability(const models::StorageSystem& sys, const Json& st) {
  if (st.contains("durability"))
    return st["durability"]["annual_loss_probability"].get<double>();
  if (sys.kind == "object")
    return std::max(0.0, 1.0 - sys.durability);
  if (!sys.drive || sys.drive->afr <= 0)
    return 0.0;
  const double rebuild = sys.protection.parity > 0 ? (sys.drive->capacity / sys.rebuild_bandwidth()).value : 0.0;
  double groups = 0;
  const auto g = drive_groups(sys, kYear / sys.drive->afr, kDefaultReplaceS + rebuild, groups);
  return models::loss_probability(g, kYear, groups);
}

// The other systems that keep a copy of what `cls` holds on `storage`: a checkpoint's replication target, a
// validated model's replica tier, a staged dataset's home.
std::vector<std::string> copies_elsewhere(const models::Scenario& sc, int storage, DataClass cls) {
  std::vector<std::string> out;
  const auto& sys = sc.storage[storage];
  const auto& tier = sc.policies.tiering;
  if (cls == DataClass::active_checkpoint && sys.replication)
    out.push_back(sys.replication->target);
  else if (cls == DataClass::validated_model)
    out.push_back(tier.replicate_validated_to);
  else if (cls == DataClass::training_dataset)
    out.push_back(tier.dataset_home);
  std::erase_if(out, [&](const std::string& n) { return n.empty() || n == sys.name; });
  return out;
}

// Whether a copy of `cls` from `storage` survives the threat elsewhere: on a system it does not reach, or under a
// retention lock or snapshots it cannot delete there.
bool copy_survives(const models::Scenario& sc, int storage, DataClass cls, const models::Threat& t) {
  const auto copies = copies_elsewhere(sc, storage, cls);
  return std::any_of(copies.begin(), copies.end(), [&](const std::string& n) {
    const auto& other = sc.storage[sc.storage_index(n)];
    const bool reached = std::find(t.reach.begin(), t.reach.end(), n) != t.reach.end();
    return !reached || other.retention_lock || models::snapshots_survive(other, t);
  });
}

// Strikes a year that would destroy the class here: threats that reach the system and cover the class, where no
// retention lock, no snapshot the threat cannot delete and no copy out of its reach saves it. (Snapshots and locks
// are counted as saving everything; they miss what is newer than the last snapshot or older than the lock.)
double threat_rate(const models::Scenario& sc, int storage, DataClass cls, bool with_immutable_snapshots = false) {
  const auto& sys = sc.storage[storage];
  double rate = 0;
  for (const auto& t : sc.threats) {
    if (t.rate_per_year <= 0 || std::find(t.reach.begin(), t.reach.end(), sys.name) == t.reach.end())
      continue;
    if (!t.classes.empty() && std::find(t.classes.begin(), t.classes.end(), cls) == t.classes.end())
      continue;
    const bool snapshot = with_immutable_snapshots || models::snapshots_survive(sys, t);
    if (sys.retention_lock || snapshot || copy_survives(sc, storage, cls, t))
      continue;
    rate += t.rate_per_year;
  }
  return rate;
}

// Failing fault domains that expose the system's stripe groups (or hold any drive of an unprotected one).
double domain_rate(const models::Scenario& sc, const Json& st) {
  if (!st.contains("fault_domains"))
    return 0.0;
  double rate = 0;
  for (const auto& e : st["fault_domains"]["by_domain"]) {
    if (e["groups_exposed"].get<int>() == 0)
      continue;
    for (const auto& d : sc.fault_domains)
      if (d.name == e["domain"].get<std::string>() && d.failures && d.failures->random())
        rate += d.failures->annual_rate();
  }
  return rate;
}

const Json* job_named(const Json& r, const std::string& name) {
  for (const auto& j : r["jobs"])
    if (j.value("name", "") == name)
      return &j;
  return nullptr;
}

// aisim's estimate of what one loss costs where the scenario gives no data_value: for active checkpoints, a restart
// from the start if a node fails before the next checkpoint lands (the job's GPUs for half the window, at that
// chance); for validated and production models, training them again (the job's GPUs for half the window). Other
// classes: unknown.
std::optional<double> estimated_value(const models::Scenario& sc, const Json& r, int storage, DataClass cls,
                                      std::string& how) {
  const auto& name = sc.storage[storage].name;
  const double price = sc.costs.gpu_hour_price.value / 3600.0;
  double usd = 0;
  bool any = false;
  for (const auto& job : sc.jobs) {
    const Json* jr = job_named(r, job.name);
    if (!jr || job.kind == "inference")
      continue;
    // (none for a job whose window lies outside the simulated period: it made nothing to lose)
    const double half_window = std::max(0.0, job.end_s(sc.simulation.duration.value) - job.start.value) / 2;
    if (cls == DataClass::active_checkpoint && job.checkpoint.storage == name && job.checkpoint.size.value > 0) {
      any = true;
      const auto& c = (*jr)["checkpoints"];
      const double mtbf =
          c.value("optimal_interval", Json()).is_object() ? c["optimal_interval"]["job_mtbf_s"].get<double>() : 0.0;
      if (mtbf > 0) {
        const double exposed = c["interval_s"].get<double>() + c["write_s"]["mean"].get<double>();
        usd += job.gpus * half_window * price * -std::expm1(-exposed / mtbf);
      }
      how = "a restart from the start if a node fails before the next checkpoint lands";
    } else if ((cls == DataClass::validated_model || cls == DataClass::production_model) &&
               sc.policies.place(cls) == name) {
      any = true;
      usd += job.gpus * half_window * price;
      how = "training it again: the job's GPUs for half the simulated window";
    }
  }
  return any ? std::optional<double>(usd) : std::nullopt;
}

// What moving `cls` from `from` to `to` would cost the GPUs a year, where `to` is slower than what its jobs use
// now (the fabric's max-flow bound of `to`): checkpoints written at its write bound instead of the rate they had
// (the extra time each, as GPU stall), a dataset read at its read bound instead of the jobs' demand (the GPUs wait
// for the rest).
double move_stall_usd_per_year(const models::Scenario& sc, const Json& r, int from, int to, DataClass cls) {
  const double write_bound = r["storage"][to]["max_flow_write_Bps"].get<double>();
  const double read_bound = r["storage"][to]["max_flow_Bps"].get<double>();
  const double price = sc.costs.gpu_hour_price.value / 3600.0;
  const auto& name = sc.storage[from].name;
  double usd = 0;
  for (const auto& job : sc.jobs) {
    const Json* jr = job_named(r, job.name);
    if (!jr || job.kind == "inference")
      continue;
    if (cls == DataClass::active_checkpoint && job.checkpoint.storage == name && jr->contains("checkpoints")) {
      const auto& c = (*jr)["checkpoints"];
      const double write_s = c["write_s"]["mean"].get<double>(), size = job.checkpoint.size.value;
      const double slower_s = size / std::max(write_bound, 1.0);
      if (write_s <= 0 || slower_s <= write_s)
        continue;
      const double per_year = kYear / (c["interval_s"].get<double>() + write_s);
      usd += (slower_s - write_s) * per_year * job.gpus * price;
    } else if (cls == DataClass::training_dataset && job.dataset.storage == name) {
      const double demand = jr->value("data_demand_Bps", 0.0);
      if (demand > read_bound)
        usd += (1.0 - read_bound / demand) * kYear * job.gpus * price;
    }
  }
  return usd;
}

// Performance need of a class on a system: what its jobs read there, or how fast and how long at worst (p99) their
// checkpoint writes ran: the rate and latency a tier it moves to must match.
Json need_json(const models::Scenario& sc, const Json& r, const models::StorageSystem& sys, DataClass cls) {
  Json need = Json::object();
  for (const auto& job : sc.jobs) {
    const Json* jr = job_named(r, job.name);
    if (!jr)
      continue;
    if (cls == DataClass::training_dataset && job.dataset.storage == sys.name)
      need["read_Bps"] = need.value("read_Bps", 0.0) + jr->value("data_demand_Bps", 0.0);
    if (cls == DataClass::active_checkpoint && job.checkpoint.storage == sys.name && jr->contains("checkpoints") &&
        (*jr)["checkpoints"]["write_s"]["mean"].get<double>() > 0) {
      // The rate its writes ran at (size / mean write time), the fastest job's.
      const double rate = job.checkpoint.size.value / (*jr)["checkpoints"]["write_s"]["mean"].get<double>();
      need["write_Bps"] = std::max(need.value("write_Bps", 0.0), rate);
      // How long the GPUs waited on a write at worst (p99): the latency a tier must match.
      need["write_p99_s"] =
          std::max(need.value("write_p99_s", 0.0), (*jr)["checkpoints"]["write_s"]["p99"].get<double>());
    }
  }
  return need;
}

// Protection priced from the scenario's own systems: a copy on an object tier at its storage price, or the bytes
// on a protected array or file system at its yearly cost per byte of capacity; and immutable snapshots on an array
// that lacks them.
std::vector<models::ProtectionOption> protection_options(const models::Scenario& sc, const Json& r, size_t s,
                                                         DataClass cls, double bytes, double threats) {
  const auto& sys = sc.storage[s];
  const double horizon_years = sc.costs.horizon.value / (365.0 * 86400.0); // the cost model's year
  std::vector<models::ProtectionOption> options;
  for (size_t t = 0; t < sc.storage.size(); ++t) {
    const auto& other = sc.storage[t];
    if (t == s)
      continue;
    if (other.kind == "object") {
      options.push_back({"replica on " + other.name, bytes * other.storage_price.value * 12});
    } else if ((other.kind == "array" || other.kind == "pfs") && other.protection.parity > 0 &&
               other.capacity().value > 0) {
      for (const auto& c : r["cost"]["by_component"])
        if (c["name"] == other.name) {
          const double space = bytes * c["total_usd"].get<double>() / horizon_years / other.capacity().value;
          const double stall = move_stall_usd_per_year(sc, r, static_cast<int>(s), static_cast<int>(t), cls);
          options.push_back({"move to " + other.name + (stall > 0 ? " (its GPU stall included)" : ""), space + stall});
        }
    }
  }
  // Immutable snapshots on an array that lacks them: they save what threats destroy there (not what its drives
  // lose), and hold what the class deletes within a day (the snapshots' default retention) as extra space.
  if (sys.kind == "array" && (!sys.snapshots || !sys.snapshots->immutable)) {
    const double removes = threats - threat_rate(sc, static_cast<int>(s), cls, true);
    double churn = 0; // bytes of the class written, so later deleted, a day
    for (const auto& job : sc.jobs)
      if (cls == DataClass::active_checkpoint && job.checkpoint.storage == sys.name)
        if (const Json* jr = job_named(r, job.name); jr && jr->contains("checkpoints"))
          churn += job.checkpoint.size.value * 86400.0 /
                   ((*jr)["checkpoints"]["interval_s"].get<double>() +
                    (*jr)["checkpoints"]["write_s"]["mean"].get<double>());
    for (const auto& c : r["cost"]["by_component"])
      if (c["name"] == sys.name && removes > 0)
        options.push_back({"immutable snapshots on " + sys.name,
                           churn * c["total_usd"].get<double>() / horizon_years / sys.capacity().value, removes});
  }
  return options;
}

} // namespace

Json placement_json(const models::Scenario& sc, const Json& r) {
  Json rows = Json::array();
  for (size_t s = 0; s < sc.storage.size(); ++s) {
    const auto& sys = sc.storage[s];
    const Json& st = r["storage"][s];
    for (const auto& [cls_name, held] : st["used_by_class"].items()) {
      DataClass cls{};
      for (int c = 0; c < models::kDataClasses; ++c)
        if (cls_name == models::data_class_name(static_cast<DataClass>(c)))
          cls = static_cast<DataClass>(c);
      if (cls == DataClass::replica)
        continue; // a copy is itself the protection
      const double bytes = held["peak_bytes"].get<double>();
      const Json need = need_json(sc, r, sys, cls);
      // Hardware loses the data only if every copy goes (independently, the same year).
      double p_drives = drive_loss_probability(sys, st);
      for (const auto& n : copies_elsewhere(sc, static_cast<int>(s), cls))
        p_drives *= drive_loss_probability(sc.storage[sc.storage_index(n)], r["storage"][sc.storage_index(n)]);
      const double threats = threat_rate(sc, static_cast<int>(s), cls);
      const double domains = domain_rate(sc, st);
      const double p = 1.0 - (1.0 - p_drives) * std::exp(-(threats + domains));
      // What a loss costs.
      std::string how;
      std::optional<double> value;
      if (const auto& given = sc.costs.data_value[static_cast<size_t>(cls)]) {
        value = given->per_byte ? given->usd * bytes : given->usd;
        how = "costs.data_value";
      } else {
        value = estimated_value(sc, r, static_cast<int>(s), cls, how);
      }
      models::PlacementInput in{p, value, protection_options(sc, r, s, cls, bytes, threats)};
      const auto a = models::advise(in);
      const auto opt = [](const std::optional<double>& v) { return v ? Json(*v) : Json(nullptr); };
      rows.push_back(
          {{"class", cls_name},
           {"storage", sys.name},
           {"kind", sys.kind},
           {"held_bytes", bytes},
           {"need", need},
           {"annual_loss_probability", p},
           {"loss_causes", {{"drives", p_drives}, {"threats_per_year", threats}, {"fault_domains_per_year", domains}}},
           {"value_usd", opt(value)},
           {"value_from", value ? Json(how) : Json(nullptr)},
           {"expected_loss_usd_per_year", opt(a.expected_loss_usd_per_year)},
           {"protection", a.best ? Json(a.best->name) : Json(nullptr)},
           {"protection_usd_per_year", a.best ? Json(a.best->usd_per_year) : Json(nullptr)},
           {"verdict", models::verdict_name(a.verdict)},
           {"breakeven_value_usd", opt(a.breakeven_value_usd)},
           {"breakeven_probability", opt(a.breakeven_probability)}});
    }
  }
  return rows;
}

std::string format_placement(const Json& r) {
  if (!r.contains("placement") || r["placement"].empty())
    return "";
  const auto money = [](const Json& v) {
    return v.is_null() ? std::string("?") : models::format_money(models::Dollars(v.get<double>()));
  };
  const auto chance = [](double p) {
    char b[32];
    if (p <= 0)
      return std::string("0");
    // Two significant digits below 10 %, three above (%.2g printed a certain loss as "1e+02 %").
    if (p >= 0.001)
      std::snprintf(b, sizeof b, 100 * p < 10 ? "%.2g %%" : "%.3g %%", 100 * p);
    else
      std::snprintf(b, sizeof b, "1 in %s", models::format_count(1 / p).c_str());
    return std::string(b);
  };
  std::string o = "\nplacement advice                           chance a year       value  expected loss/y  best "
                  "protection/y\n";
  for (const auto& row : r["placement"]) {
    char line[256];
    const std::string what = models::data_class_words(row["class"]) + " on " + row["storage"].get<std::string>();
    std::snprintf(line, sizeof line, "  %-33s %20s %11s %16s  %s", what.c_str(),
                  chance(row["annual_loss_probability"].get<double>()).c_str(), money(row["value_usd"]).c_str(),
                  money(row["expected_loss_usd_per_year"]).c_str(),
                  row["protection"].is_null()
                      ? "-"
                      : (row["protection"].get<std::string>() + " " + money(row["protection_usd_per_year"])).c_str());
    o += line;
    const std::string v = row["verdict"].get<std::string>();
    if (v == "protect")
      o += ": protect, it pays for itself";
    else if (v == "enough")
      o += ": keep it there" +
           (row["breakeven_probability"].is_null()
                ? std::string()
                : " (protection pays above a " + chance(row["breakeven_probability"].get<double>()) + " chance)");
    else if (v == "value_unknown" && row["annual_loss_probability"].get<double>() < 1e-6)
      o += ": keep it there (protection pays only for data worth over " + money(row["breakeven_value_usd"]) + ")";
    else if (v == "value_unknown")
      o += ": protect if a loss costs more than " + money(row["breakeven_value_usd"]);
    else if (v == "nothing_threatens")
      o += ": nothing modelled threatens it";
    else
      o += ": no protected tier to compare with";
    o += "\n";
  }
  return o;
}

} // namespace aisim::sim
