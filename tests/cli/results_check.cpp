// Test helper: checks results.json against the results contract (schema_version 1), or compares two results.
//   aisim_results_check contract RESULTS.json
//   aisim_results_check same A.json B.json          identical apart from sim.wall_s and how the run was invoked
//   aisim_results_check agree A.json B.json TOL     key metrics within a relative tolerance
//   aisim_results_check metrics SCENARIO R.json     R's key metrics as JSON, to keep (tests/cli/golden/)
//   aisim_results_check match KEPT.json R.json TOL  R's key metrics within a relative tolerance of those kept
//   aisim_results_check replicas DIR N              DIR/results.json is the statistics of its N replicas' results
//   aisim_results_check timeseries CSV [R.json]     timeseries.csv in the number format README promises, and
//                                                   true to R.json (its shares and bytes) when given
#include "models/common/json_reader.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <string>
#include <tuple>
#include <vector>

using aisim::models::Json;

namespace {

int failures = 0;

void fail(const std::string& what) {
  std::printf("FAIL: %s\n", what.c_str());
  ++failures;
}

const Json* need(const Json& j, const std::string& ptr, bool (Json::*is)() const noexcept) {
  const Json::json_pointer p(ptr);
  if (!j.contains(p)) {
    fail("missing " + ptr);
    return nullptr;
  }
  const Json& v = j.at(p);
  if (!(v.*is)()) {
    fail("wrong type at " + ptr + ": " + v.dump());
    return nullptr;
  }
  return &v;
}

void need_fraction(const Json& j, const std::string& ptr) {
  if (const Json* v = need(j, ptr, &Json::is_number)) {
    const double x = v->get<double>();
    if (x < 0 || x > 1)
      fail(ptr + " is not a fraction: " + v->dump());
  }
}

void need_non_negative(const Json& j, const std::string& ptr) {
  if (const Json* v = need(j, ptr, &Json::is_number); v && v->get<double>() < 0)
    fail(ptr + " is negative: " + v->dump());
}

// utilization + the four stall causes cover all GPU time.
void need_split(const Json& j, const std::string& base) {
  for (const char* k : {"data", "checkpoint", "failure", "idle"})
    need_fraction(j, base + "/stall/" + k);
  need_fraction(j, base + "/utilization");
  if (failures)
    return;
  const Json& s = j.at(Json::json_pointer(base + "/stall"));
  const double sum = j.at(Json::json_pointer(base + "/utilization")).get<double>() + s["data"].get<double>() +
                     s["checkpoint"].get<double>() + s["failure"].get<double>() + s["idle"].get<double>();
  if (std::fabs(sum - 1.0) > 1e-9)
    fail(base + ": utilization and stalls sum to " + std::to_string(sum) + ", not 1");
}

// No figure aisim writes is below zero: times, bytes, rates, counts, fractions and dollars alike (a failure after a
// stopped run's end once counted -2,306,827 s out of service, a job outside the period -$4,469,760 of value). The
// scenario it echoes is the user's.
void need_no_negative(const Json& v, const std::string& at) {
  if (v.is_object()) {
    for (const auto& [k, x] : v.items())
      if (!(at.empty() && k == "scenario"))
        need_no_negative(x, at + "/" + k);
  } else if (v.is_array()) {
    for (size_t i = 0; i < v.size(); ++i)
      need_no_negative(v[i], at + "/" + std::to_string(i));
  } else if (v.is_number() && v.get<double>() < 0) {
    fail(at + " is negative: " + v.dump());
  }
}

int contract(const Json& r) {
  need_no_negative(r, "");
  if (need(r, "/schema_version", &Json::is_number_integer) && r["schema_version"] != 1)
    fail("schema_version is not 1");
  need(r, "/scenario", &Json::is_object);
  need(r, "/scenario/schema_version", &Json::is_number_integer);
  for (const char* k : {"/provenance/aisim_version", "/provenance/git_commit", "/provenance/simgrid_version"})
    need(r, k, &Json::is_string);
  need(r, "/provenance/seed", &Json::is_number_integer);
  if (r.contains("provenance") && r["provenance"].value("simgrid_version", "").rfind("3.32", 0) != 0)
    fail("simgrid_version is not 3.32.x");
  need(r, "/gpu/count", &Json::is_number_integer);
  need_split(r, "/gpu");
  if (const Json* jobs = need(r, "/jobs", &Json::is_array)) {
    if (jobs->empty())
      fail("no jobs");
    for (size_t i = 0; i < jobs->size(); ++i) {
      const std::string b = "/jobs/" + std::to_string(i);
      need(r, b + "/name", &Json::is_string);
      need(r, b + "/kind", &Json::is_string);
      need(r, b + "/gpus", &Json::is_number_integer);
      need(r, b + "/steps", &Json::is_number_integer);
      need_split(r, b);
      need(r, b + "/checkpoints/count", &Json::is_number_integer);
      for (const char* k : {"mean", "p50", "p99", "max"})
        need_non_negative(r, b + "/checkpoints/write_s/" + k);
      if (!failures) {
        // Statistics that cannot be true together: quantiles out of order, a mean above the maximum, a job
        // running past the simulated period.
        const Json& w = r.at(Json::json_pointer(b + "/checkpoints/write_s"));
        const double tiny = 1e-9 * (1 + w["max"].get<double>());
        if (w["p50"].get<double>() > w["p99"].get<double>() + tiny ||
            w["p99"].get<double>() > w["max"].get<double>() + tiny ||
            w["mean"].get<double>() > w["max"].get<double>() + tiny)
          fail(b + "/checkpoints/write_s: p50 <= p99 <= max and mean <= max do not hold: " + w.dump());
        if (r.contains("sim") &&
            r.at(Json::json_pointer(b + "/end_s")).get<double>() > r["sim"]["simulated_s"].get<double>() * (1 + 1e-12))
          fail(b + "/end_s is past the simulated period");
      }
      need_non_negative(r, b + "/staging_wait_s");
      if (const Json* status = need(r, b + "/status", &Json::is_string);
          status && *status != "ok" && *status != "failed")
        fail(b + "/status is neither ok nor failed");
      // A checkpoint is validated only after evaluation, released only after validation.
      if (const Json* l = need(r, b + "/lifecycle", &Json::is_object);
          l && !((*l)["evaluated"] >= (*l)["validated"] && (*l)["validated"] >= (*l)["released"]))
        fail(b + "/lifecycle: evaluated >= validated >= released does not hold");
    }
  }
  if (const Json* st = need(r, "/storage", &Json::is_array)) {
    double copied_in = 0, copied_out = 0;
    for (size_t i = 0; i < st->size(); ++i) {
      const std::string b = "/storage/" + std::to_string(i);
      need(r, b + "/name", &Json::is_string);
      need(r, b + "/kind", &Json::is_string);
      for (const char* k : {"read_bytes", "write_bytes", "copied_in_bytes", "copied_out_bytes", "peak_read_Bps",
                            "peak_write_Bps", "max_flow_Bps", "max_flow_write_Bps", "capacity_bytes", "peak_used_bytes",
                            "read_bytes_after_period", "write_bytes_after_period"})
        need_non_negative(r, b + "/" + k);
      // A copy is a write on its target and a read on its source: part of each side's totals.
      const Json& io = r.at(Json::json_pointer(b));
      if (io.contains("copied_in_bytes") && io.contains("copied_out_bytes")) {
        if (io["copied_in_bytes"].get<double>() > io["write_bytes"].get<double>() * (1 + 1e-12))
          fail(b + ": copied_in_bytes exceed write_bytes");
        if (io["copied_out_bytes"].get<double>() > io["read_bytes"].get<double>() * (1 + 1e-12))
          fail(b + ": copied_out_bytes exceed read_bytes");
        for (const char* dir : {"read", "write"})
          if (io[std::string(dir) + "_bytes_after_period"].get<double>() >
              io[std::string(dir) + "_bytes"].get<double>() * (1 + 1e-12))
            fail(b + ": " + dir + "_bytes_after_period exceed " + dir + "_bytes");
        copied_in += io["copied_in_bytes"].get<double>();
        copied_out += io["copied_out_bytes"].get<double>();
      }
      if (i + 1 == st->size() && std::fabs(copied_in - copied_out) > 1e-9 * (1 + copied_in))
        fail("/storage: copies arrived (" + std::to_string(copied_in) + " B) differ from copies sent (" +
             std::to_string(copied_out) + " B)");
      need(r, b + "/used_by_class", &Json::is_object);
      if (failures)
        continue;
      const Json& sys = r.at(Json::json_pointer(b));
      // Writes go through the on_full policy, so a system holds more than its capacity only with a warning.
      double held_at_end = 0;
      for (const auto& [cls, u] : sys["used_by_class"].items()) {
        if (u["end_bytes"].get<double>() > u["peak_bytes"].get<double>() * (1 + 1e-9) + 1)
          fail(b + "/used_by_class/" + cls + ": ends above its peak");
        held_at_end += u["end_bytes"].get<double>();
      }
      if (held_at_end > sys["peak_used_bytes"].get<double>() * (1 + 1e-9) + 1)
        fail(b + ": the classes hold more at the end than the system's peak");
      const bool warned = r["warnings"].dump().find(sys["name"].get<std::string>()) != std::string::npos;
      if (sys["peak_used_bytes"].get<double>() > sys["capacity_bytes"].get<double>() * (1 + 1e-9) && !warned)
        fail(b + ": holds more than its capacity without a warning");
      // The max-flow bound of the fabric and drives can never be beaten by the simulation: the peaks (copies
      // included) against the bound with the copies' ends; the GPUs' own bound lies at or below it.
      const Json& s = r.at(Json::json_pointer(b));
      for (const auto& [peak, bound, gpus] :
           {std::tuple{"peak_read_Bps", "max_flow_with_copies_Bps", "max_flow_Bps"},
            std::tuple{"peak_write_Bps", "max_flow_with_copies_write_Bps", "max_flow_write_Bps"}}) {
        if (const Json* v = need(r, b + "/" + bound, &Json::is_number); !v)
          continue;
        if (s[peak].get<double>() > s[bound].get<double>() * (1 + 1e-6)) // float sums of rates
          fail(b + ": " + peak + " exceeds the max-flow bound " + bound);
        if (s[gpus].get<double>() > s[bound].get<double>() * (1 + 1e-9))
          fail(b + ": " + gpus + " exceeds " + bound);
      }
    }
  }
  if (const Json* mv = need(r, "/movements", &Json::is_array))
    for (size_t i = 0; i < mv->size(); ++i) {
      const std::string b = "/movements/" + std::to_string(i);
      need(r, b + "/from", &Json::is_string);
      need(r, b + "/to", &Json::is_string);
      need(r, b + "/class", &Json::is_string);
      for (const char* k : {"count", "bytes", "mean_s", "max_s"})
        need_non_negative(r, b + "/" + k);
    }
  need(r, "/capacity_events", &Json::is_array);
  for (const char* k :
       {"horizon_s", "service_life_s", "capex_usd", "capex_growth_usd", "capex_amortized_usd", "opex_usd",
        "opex_per_year_usd", "maintenance_usd", "energy_usd", "facility_usd", "gpu_rent_usd", "storage_services_usd",
        "gpu_stalled_usd", "gpu_unused_usd", "total_usd", "periods"})
    need_non_negative(r, std::string("/cost/") + k);
  for (const char* k : {"capex_usd", "opex_usd", "opex_per_year_usd", "total_usd"})
    need_non_negative(r, std::string("/cost/storage/") + k);
  if (r.contains("cost") && !r["cost"].value("price_sheet", Json()).is_null())
    for (const char* k : {"name", "date", "file"})
      need(r, std::string("/cost/price_sheet/") + k, &Json::is_string);
  // Every loss probability is a probability, and it says how it was found: simulated when the period saw enough
  // losses, else the Markov model.
  if (r.contains("storage"))
    for (const auto& st : r["storage"]) {
      if (!st.contains("durability"))
        continue;
      const auto& d = st["durability"];
      for (const auto& [cls, c] : d["by_class"].items()) {
        const double p = c["loss_probability"].get<double>();
        const bool enough = d["simulated_groups_lost"].get<int>() >= 10;
        if (!(p >= 0 && p <= 1))
          fail("durability loss_probability of " + cls + " is not a probability");
        if (c["method"] != (enough ? "simulation" : "markov"))
          fail("durability of " + cls + ": method " + c["method"].dump() + " with " +
               d["simulated_groups_lost"].dump() + " losses simulated");
        if (enough &&
            !(c["loss_probability_ci95"][0].get<double>() <= p && p <= c["loss_probability_ci95"][1].get<double>()))
          fail("durability of " + cls + ": the simulated probability lies outside its interval");
      }
    }
  // Every byte a threat reached is saved by one mechanism or lost; the losses by class add up to it.
  if (r.contains("threats")) {
    const auto near = [](double a, double b) { return std::fabs(a - b) <= 1e-9 * std::max({1.0, a, b}); };
    for (const auto& e : r["threats"]["events"]) {
      const auto& sv = e["saved_bytes"];
      const double hit = e["hit_bytes"].get<double>(), lost = e["lost_bytes"].get<double>();
      if (!near(hit, sv["retention_lock"].get<double>() + sv["snapshot"].get<double>() +
                         sv["copy_elsewhere"].get<double>() + lost))
        fail("threat at " + e["time_s"].dump() + ": the bytes saved and lost do not add up to the bytes reached");
      double by_class = 0;
      for (const auto& [cls, b] : e["lost_by_class"].items())
        by_class += b.get<double>();
      if (!near(lost, by_class))
        fail("threat at " + e["time_s"].dump() + ": lost_by_class does not add up to lost_bytes");
      if (!e["recovery_s"].is_null() && !(e["recovery_s"].get<double>() >= 0 && e["recovery_bytes"].get<double>() > 0))
        fail("threat at " + e["time_s"].dump() + ": a recovery without bytes or with a negative time");
    }
    if (r["threats"]["totals"]["events"].get<size_t>() != r["threats"]["events"].size())
      fail("threats.totals.events is not the number of events");
  }
  // Placement advice: a probability, and a verdict that follows from its own numbers.
  // The bottleneck of each phase: its tiers lowest first, a simulated rate no tier is beaten by (the fluid model
  // cannot move data faster than any tier of its path alone), a next limit no lower than the limiter.
  if (const Json* bn = need(r, "/bottlenecks", &Json::is_array))
    for (size_t i = 0; i < bn->size(); ++i) {
      const Json& b = (*bn)[i];
      const std::string at = "/bottlenecks/" + std::to_string(i);
      if (!need(b, "/limits", &Json::is_array) || b["limits"].empty() || !need(b, "/achieved_Bps", &Json::is_number)) {
        fail(at + ": no limits or rate");
        continue;
      }
      need(b, "/limiter", &Json::is_string);
      need(b, "/limit_Bps", &Json::is_number);
      for (size_t k = 1; k < b["limits"].size(); ++k)
        if (b["limits"][k]["Bps"].get<double>() < b["limits"][k - 1]["Bps"].get<double>())
          fail(at + "/limits: not lowest first");
      if (b["achieved_Bps"].get<double>() > 1.01 * b["limits"][0]["Bps"].get<double>())
        fail(at + ": achieved " + b["achieved_Bps"].dump() + " B/s, above its lowest tier's bound " +
             b["limits"][0]["Bps"].dump());
      if (!b["headroom"].is_null() && b["headroom"].get<double>() < 0.999)
        fail(at + "/headroom: below 1: the next limit is lower than the limiter");
    }
  need(r, "/placement", &Json::is_array);
  if (r.contains("placement"))
    for (const auto& row : r["placement"]) {
      const std::string what = row.value("class", "?") + " on " + row.value("storage", "?");
      const double p = row["annual_loss_probability"].get<double>();
      if (!(p >= 0 && p <= 1))
        fail("placement of " + what + ": the chance of loss is not a probability");
      const std::string v = row["verdict"].get<std::string>();
      if ((p == 0) != (v == "nothing_threatens"))
        fail("placement of " + what + ": verdict " + v + " with a chance of loss of " +
             row["annual_loss_probability"].dump());
      if ((v == "protect" || v == "enough") && (row["expected_loss_usd_per_year"].get<double>() >
                                                row["protection_usd_per_year"].get<double>()) != (v == "protect"))
        fail("placement of " + what + ": verdict " + v + " disagrees with the expected loss and the protection's cost");
      if (v == "value_unknown" && !row["value_usd"].is_null())
        fail("placement of " + what + ": a value is given, yet the verdict says it is unknown");
    }
  need(r, "/cost/by_component", &Json::is_array);
  need(r, "/cost/storage_by_data_class", &Json::is_object);
  // Each cost per unit is a positive number, or null where the scenario makes no such unit.
  for (const char* k : {"usd_per_useful_gpu_hour", "usd_per_1000_requests", "usd_per_tb_month"})
    if (r.contains("cost") && !(r["cost"].contains(k) && r["cost"][k].is_null()))
      need_non_negative(r, std::string("/cost/") + k);
  if (r.contains("cost") && r["cost"].value("extrapolation", "") != "repeat" &&
      r["cost"].value("extrapolation", "") != "once")
    fail("cost.extrapolation is neither repeat nor once");
  if (!failures) {
    // The money adds up every way it is cut: the parts of opex, the total, the components, the data classes.
    const auto& c = r["cost"];
    const auto near = [](double a, double b) { return std::fabs(a - b) <= 1e-6 * std::max({1.0, a, b}); };
    const auto d = [&](const char* k) { return c[k].get<double>(); };
    if (!near(d("opex_usd"), d("maintenance_usd") + d("energy_usd") + d("facility_usd") + d("gpu_rent_usd") +
                                 d("storage_services_usd")))
      fail("cost.opex_usd is not maintenance_usd + energy_usd + facility_usd + gpu_rent_usd + storage_services_usd");
    if (!near(d("opex_per_year_usd") * d("horizon_s"), d("opex_usd") * 365 * 86400))
      fail("cost.opex_per_year_usd is not opex_usd over the horizon in years");
    if (!near(d("total_usd"), d("capex_amortized_usd") + d("opex_usd")))
      fail("cost.total_usd is not capex_amortized_usd + opex_usd");
    double components = 0, purchase = 0, storage = 0, classes = 0;
    for (const auto& cc : c["by_component"]) {
      const double parts = cc["amortized_usd"].get<double>() + cc["maintenance_usd"].get<double>() +
                           cc["energy_usd"].get<double>() + cc["facility_usd"].get<double>() +
                           cc["rent_usd"].get<double>() + cc["space_usd"].get<double>() +
                           cc["retrieval_usd"].get<double>();
      if (!near(parts, cc["total_usd"].get<double>()))
        fail("cost.by_component " + cc["name"].get<std::string>() + ": its parts do not make its total");
      components += cc["total_usd"].get<double>();
      purchase += cc["purchase_usd"].get<double>() + cc["growth_purchase_usd"].get<double>();
      if (cc["kind"] != "compute" && cc["kind"] != "network")
        storage += cc["total_usd"].get<double>();
    }
    for (const auto& [k, v] : c["storage_by_data_class"].items())
      classes += v.get<double>();
    if (!near(components, d("total_usd")))
      fail("cost.by_component does not add up to total_usd");
    if (!near(purchase, d("capex_usd")))
      fail("cost.by_component purchases do not add up to capex_usd");
    if (!near(classes, storage))
      fail("cost.storage_by_data_class does not add up to the storage systems' totals");
    if (!near(c["storage"]["total_usd"].get<double>(), storage))
      fail("cost.storage.total_usd is not the storage systems' totals");
  }
  for (const char* k : {"/sim/simulated_s", "/sim/wall_s", "/sim/events"})
    need_non_negative(r, k);
  return failures ? 1 : 0;
}

bool close(double a, double b, double tol) {
  return std::fabs(a - b) <= tol * std::max({std::fabs(a), std::fabs(b), 1e-12}) || std::fabs(a - b) < 1e-9;
}

// The metrics two runs of one scenario are compared on: GPU time, each job's phases, each system's traffic, copies.
std::vector<std::string> key_metrics(const Json& a) {
  std::vector<std::string> ptrs{"/gpu/utilization", "/gpu/stall/data", "/gpu/stall/checkpoint", "/gpu/stall/idle"};
  for (size_t i = 0; i < a["jobs"].size(); ++i) {
    const std::string j = "/jobs/" + std::to_string(i);
    ptrs.insert(ptrs.end(),
                {j + "/utilization", j + "/stall/data", j + "/stall/checkpoint", j + "/stall/failure", j + "/steps",
                 j + "/checkpoints/count", j + "/checkpoints/write_s/mean", j + "/checkpoints/write_s/p99",
                 j + "/checkpoints/write_s/max", j + "/staging_wait_s", j + "/lifecycle/validated"});
    if (a["jobs"][i].contains("inference"))
      ptrs.insert(ptrs.end(), {j + "/inference/load_s/mean", j + "/inference/load_s/max"});
  }
  for (size_t i = 0; i < a["storage"].size(); ++i) {
    const std::string s = "/storage/" + std::to_string(i);
    ptrs.insert(ptrs.end(), {s + "/read_bytes", s + "/write_bytes", s + "/peak_write_Bps", s + "/peak_used_bytes"});
  }
  // Tier-to-tier copies: the same routes, counts and times.
  for (size_t i = 0; i < a["movements"].size(); ++i) {
    const std::string m = "/movements/" + std::to_string(i);
    ptrs.insert(ptrs.end(), {m + "/count", m + "/bytes", m + "/mean_s"});
  }
  return ptrs;
}

constexpr double kStallFloor = 1e-4;

int agree(const Json& a, const Json& b, double tol) {
  for (const auto& p : key_metrics(a)) {
    const double x = a.at(Json::json_pointer(p)).get<double>();
    const double y = b.at(Json::json_pointer(p)).get<double>();
    std::printf("%-40s %14.6g %14.6g\n", p.c_str(), x, y);
    // Relatively, as README claims (1 %); stall fractions of a few thousandths with a floor of 1e-4 of all GPU time,
    // below which a fraction says nothing a planner would act on. (An absolute 0.01 let a tenfold error through.)
    const bool fraction = p.find("/stall/") != std::string::npos;
    if (fraction ? std::fabs(x - y) > std::max(tol * std::max(std::fabs(x), std::fabs(y)), kStallFloor)
                 : !close(x, y, tol))
      fail(p + " differs: " + std::to_string(x) + " vs " + std::to_string(y));
  }
  return failures ? 1 : 0;
}

// What a run answered, to be kept (tests/cli/golden/): its key metrics, and where it has them its rebuilds' time,
// what failures cost and the total cost.
Json metrics(const std::string& scenario, const Json& r) {
  std::vector<std::string> ptrs = key_metrics(r);
  for (size_t i = 0; i < r["storage"].size(); ++i)
    ptrs.push_back("/storage/" + std::to_string(i) + "/failures/rebuilds/time_s");
  ptrs.insert(ptrs.end(), {"/failures/lost_usd/total", "/cost/total_usd"});
  Json kept = Json::object();
  for (const auto& p : ptrs)
    if (r.contains(Json::json_pointer(p)) && r.at(Json::json_pointer(p)).is_number())
      kept[p] = r.at(Json::json_pointer(p));
  return Json{{"scenario", scenario}, {"fidelity", r["scenario"]["simulation"]["fidelity"]}, {"metrics", kept}};
}

// A run against what was kept: every kept metric within a relative tolerance.
int match(const Json& kept, const Json& r, double tol) {
  for (const auto& [p, want] : kept["metrics"].items()) {
    const Json::json_pointer ptr(p);
    if (!r.contains(ptr) || !r.at(ptr).is_number()) {
      fail(p + " is missing");
      continue;
    }
    const double x = want.get<double>(), y = r.at(ptr).get<double>();
    if (!close(x, y, tol))
      fail(p + ": kept " + Json(x).dump() + ", now " + Json(y).dump());
  }
  return failures ? 1 : 0;
}

Json load(const char* path) {
  std::ifstream in(path);
  Json j = Json::parse(in, nullptr, false);
  if (j.is_discarded()) {
    std::printf("FAIL: %s is not valid JSON\n", path);
    std::exit(1);
  }
  return j;
}

} // namespace

// A replica set's results.json against its replicas' own: every metric's mean, spread and interval recomputed.
int replicas(const std::string& dir, size_t n) {
  const Json a = load((dir + "/results.json").c_str());
  if (a.value("kind", "") != "replicas")
    fail("kind is not \"replicas\"");
  const auto& runs = a["replicas"]["runs"];
  if (runs.size() != n || a["replicas"]["requested"] != n || a["replicas"]["finished"] != n)
    fail("expected " + std::to_string(n) + " replicas requested and finished");
  std::vector<Json> each;
  std::set<unsigned long long> seeds;
  for (const auto& r : runs) {
    each.push_back(load((r["folder"].get<std::string>() + "/results.json").c_str()));
    seeds.insert(r["seed"].get<unsigned long long>());
    if (each.back()["scenario"]["simulation"]["seed"] != r["seed"])
      fail("replica in " + r["folder"].get<std::string>() + " did not run with its seed");
    if (contract(each.back()) != 0)
      fail("replica in " + r["folder"].get<std::string>() + " breaks the results contract");
  }
  if (seeds.size() != n)
    fail("replicas share seeds");
  const auto near = [](double x, double y) {
    return std::fabs(x - y) <= 1e-9 * std::max({1.0, std::fabs(x), std::fabs(y)});
  };
  for (const char* ptr : {"/gpu/utilization", "/gpu/stall/failure", "/failures/by_component/node", "/cost/total_usd",
                          "/failures/lost_gpu_hours/replay"}) {
    double sum = 0, lo = 1e300, hi = -1e300;
    for (const auto& r : each) {
      const double v = r.at(Json::json_pointer(ptr)).get<double>();
      sum += v;
      lo = std::min(lo, v);
      hi = std::max(hi, v);
    }
    const double mean = sum / static_cast<double>(n);
    double ss = 0;
    for (const auto& r : each)
      ss += std::pow(r.at(Json::json_pointer(ptr)).get<double>() - mean, 2);
    const auto& m = a["metrics"][ptr];
    if (m.is_null()) {
      fail(std::string("no metric ") + ptr);
      continue;
    }
    if (!near(m["mean"].get<double>(), mean) || !near(m["min"].get<double>(), lo) || !near(m["max"].get<double>(), hi))
      fail(std::string(ptr) + ": mean, min or max is not the replicas'");
    if (!near(m["sd"].get<double>(), std::sqrt(ss / static_cast<double>(n - 1))))
      fail(std::string(ptr) + ": sd is not the replicas' sample standard deviation");
    const double hw = m["half_width"].get<double>();
    if (!near(m["ci95_low"].get<double>(), mean - hw) || !near(m["ci95_high"].get<double>(), mean + hw) || hw < 0)
      fail(std::string(ptr) + ": the interval is not mean +- half_width");
  }
  return failures ? 1 : 0;
}

// A trace as the viewers need it (Chrome's trace-event format): every event well formed, every track named,
// spans of one track never overlapping (aisim lays overlaps out in lanes), the counts in otherData true, at most
// `max_events` events.
int trace(const Json& t, size_t max_events) {
  const Json* events = need(t, "/traceEvents", &Json::is_array);
  const Json* other = need(t, "/otherData", &Json::is_object);
  if (!events || !other)
    return 1;
  std::set<std::pair<int, int>> named;
  std::map<std::pair<int, int>, std::vector<std::pair<double, double>>> spans;
  size_t counted = 0;
  for (size_t i = 0; i < events->size(); ++i) {
    const Json& e = (*events)[i];
    const std::string at = "/traceEvents/" + std::to_string(i);
    if (!e.contains("ph") || !e.contains("name") || !e["name"].is_string() || !e.contains("pid") ||
        !e["pid"].is_number_integer() || !e.contains("tid") || !e["tid"].is_number_integer()) {
      fail(at + ": not a trace event: " + e.dump());
      continue;
    }
    const std::pair<int, int> track{e["pid"].get<int>(), e["tid"].get<int>()};
    const std::string ph = e["ph"].get<std::string>();
    if (ph == "M") {
      if (e["name"] == "thread_name")
        named.insert(track);
      continue;
    }
    if (ph != "X" && ph != "i") {
      fail(at + ": unexpected phase " + ph);
      continue;
    }
    if (!e.contains("ts") || !e["ts"].is_number() || e["ts"].get<double>() < 0) {
      fail(at + ": no time: " + e.dump());
      continue;
    }
    if (track.second == 0) // a global mark
      continue;
    ++counted;
    double dur = 0;
    if (ph == "X") {
      if (!e.contains("dur") || !e["dur"].is_number() || e["dur"].get<double>() < 0) {
        fail(at + ": a span without a duration: " + e.dump());
        continue;
      }
      dur = e["dur"].get<double>();
    }
    spans[track].emplace_back(e["ts"].get<double>(), e["ts"].get<double>() + dur);
  }
  for (auto& [track, list] : spans) {
    if (!named.count(track))
      fail("track pid " + std::to_string(track.first) + " tid " + std::to_string(track.second) + " has no name");
    std::sort(list.begin(), list.end());
    for (size_t i = 1; i < list.size(); ++i)
      if (list[i].first < list[i - 1].second - 2e-3) { // printed to the nanosecond
        fail("spans overlap on track pid " + std::to_string(track.first) + " tid " + std::to_string(track.second));
        break;
      }
  }
  if (other->value("events", size_t{0}) != counted)
    fail("otherData.events says " + other->value("events", Json()).dump() + ", the trace has " +
         std::to_string(counted));
  if (counted > max_events)
    fail(std::to_string(counted) + " events, more than " + std::to_string(max_events));
  return failures ? 1 : 0;
}

// timeseries.csv true to results.json: its bins cover the period end to end at one resolution, each GPU
// state's time-weighted mean is that state's share of the run within 0.1 percentage point, and each system's rates
// integrate to the bytes the run says it read and wrote (to the whole bytes per second the file rounds to).
void series_agrees(const char* path, const std::vector<std::string>& header,
                   const std::vector<std::vector<double>>& rows, const Json& r) {
  const double T = r["sim"]["simulated_s"].get<double>();
  // The step is the first bin's width (the scenario gives its resolution as text with a unit); every later bin
  // must start where it says.
  const double step = rows.size() > 1 ? rows[1][0] - rows[0][0] : T;
  const auto bins = static_cast<size_t>(std::ceil(T / step));
  if (rows.size() != bins) {
    fail(std::string(path) + ": " + std::to_string(rows.size()) + " rows, the period of " + std::to_string(T) +
         " s at " + std::to_string(step) + " s needs " + std::to_string(bins));
    return;
  }
  const auto column = [&](const std::string& name) -> long {
    const auto it = std::find(header.begin(), header.end(), name);
    if (it == header.end())
      fail(std::string(path) + ": no column " + name);
    return it == header.end() ? -1 : it - header.begin();
  };
  std::vector<double> width(bins);
  for (size_t i = 0; i < bins; ++i) {
    if (std::fabs(rows[i][0] - static_cast<double>(i) * step) > 0.5)
      fail(std::string(path) + ": row " + std::to_string(i + 2) + " starts at " + std::to_string(rows[i][0]) +
           " s, not " + std::to_string(static_cast<double>(i) * step) + " s");
    width[i] = std::min(step, T - static_cast<double>(i) * step);
  }
  const auto integral = [&](long c) {
    double sum = 0;
    for (size_t i = 0; i < bins; ++i)
      sum += rows[i][c] * width[i];
    return sum;
  };
  const std::pair<const char*, const char*> shares[] = {{"gpu_utilization", "/gpu/utilization"},
                                                        {"stall_data", "/gpu/stall/data"},
                                                        {"stall_checkpoint", "/gpu/stall/checkpoint"},
                                                        {"stall_failure", "/gpu/stall/failure"},
                                                        {"idle", "/gpu/stall/idle"}};
  for (const auto& [col, ptr] : shares) {
    const long c = column(col);
    if (c < 0)
      continue;
    const double mean = integral(c) / T, want = r.at(Json::json_pointer(ptr)).get<double>();
    if (std::fabs(mean - want) > 1e-3)
      fail(std::string(path) + ": " + col + " averages " + std::to_string(mean) + " over the period, results.json " +
           ptr + " says " + std::to_string(want));
  }
  for (const auto& sys : r["storage"]) {
    const std::string name = sys["name"].get<std::string>();
    for (const auto& [dir, key] : {std::pair{"read", "read_bytes"}, std::pair{"write", "write_bytes"}}) {
      const long c = column(name + "_" + dir + "_Bps");
      if (c < 0)
        continue;
      // What was still moving at the period's end finished after it: in the totals, not in the series.
      const std::string after = std::string(key) + "_after_period";
      const double moved = integral(c), want = sys[key].get<double>() - sys[after].get<double>();
      if (std::fabs(moved - want) > 1e-6 * want + 0.5 * T + 1)
        fail(std::string(path) + ": " + name + "_" + dir + "_Bps integrates to " + std::to_string(moved) +
             " B, results.json says " + key + " - " + after + " = " + std::to_string(want) + " B");
    }
  }
}

// timeseries.csv as README promises a spreadsheet reads it: fractions with six decimals in [0, 1] whose GPU-time
// shares sum to 1 in every row (to their rounding), bytes and rates as whole numbers, never scientific notation.
// With results.json beside it, also what the series says agrees with it (series_agrees).
int timeseries(const char* path, const Json* results) {
  std::ifstream in(path);
  std::string line;
  if (!std::getline(in, line) || line.rfind("time_s,", 0) != 0) {
    fail(std::string(path) + ": no header starting with time_s");
    return 1;
  }
  const auto split = [](const std::string& text) {
    std::vector<std::string> cells;
    size_t start = 0;
    for (size_t comma; (comma = text.find(',', start)) != std::string::npos; start = comma + 1)
      cells.push_back(text.substr(start, comma - start));
    cells.push_back(text.substr(start));
    return cells;
  };
  const auto header = split(line);
  const auto is_share = [](const std::string& col) {
    return col == "gpu_utilization" || col == "idle" || col.rfind("stall_", 0) == 0;
  };
  const std::regex six(R"(^[01]\.\d{6}$)"), whole(R"(^\d+$)"), time(R"(^\d+(\.\d+)?$)");
  size_t row = 1;
  std::vector<std::vector<double>> rows;
  while (std::getline(in, line) && failures < 10) {
    ++row;
    const auto cells = split(line);
    auto& values = rows.emplace_back();
    for (const auto& cell : cells)
      values.push_back(std::strtod(cell.c_str(), nullptr));
    if (cells.size() != header.size()) {
      fail(std::string(path) + ":" + std::to_string(row) + ": " + std::to_string(cells.size()) + " cells, header has " +
           std::to_string(header.size()));
      continue;
    }
    double shares = 0;
    for (size_t c = 0; c < cells.size(); ++c) {
      const std::string at = std::string(path) + ":" + std::to_string(row) + ": " + header[c] + " = " + cells[c];
      if (c == 0) {
        if (!std::regex_match(cells[c], time))
          fail(at + ": not a plain decimal");
      } else if (is_share(header[c])) {
        if (!std::regex_match(cells[c], six) || std::stod(cells[c]) > 1)
          fail(at + ": not a fraction with six decimals");
        else
          shares += std::stod(cells[c]);
      } else if (!std::regex_match(cells[c], whole)) {
        fail(at + ": not a whole number");
      }
    }
    if (std::fabs(shares - 1) > 5e-6 + 1e-12)
      fail(std::string(path) + ":" + std::to_string(row) + ": the GPU-time shares sum to " + std::to_string(shares));
  }
  if (results && !failures)
    series_agrees(path, header, rows, *results);
  return failures ? 1 : 0;
}

int main(int argc, char** argv) {
  const std::string mode = argc > 1 ? argv[1] : "";
  if (mode == "contract" && argc == 3)
    return contract(load(argv[2]));
  // same: two runs of one build; same-model: two builds (the commit they were built from may differ too).
  if ((mode == "same" || mode == "same-model") && argc == 4) {
    Json a = load(argv[2]), b = load(argv[3]);
    for (Json* r : {&a, &b}) {
      (*r)["sim"].erase("wall_s");
      // How the run was invoked (the command line with its --out, the file's path as typed, the overrides as
      // spelled: --seed 7 or --set /simulation/seed=7) is not a result; the file's content hash is kept.
      for (const char* k : {"command", "scenario_file", "overrides"})
        (*r)["provenance"].erase(k);
      if (mode == "same-model")
        (*r)["provenance"].erase("git_commit");
    }
    if (a.dump(2) != b.dump(2)) {
      std::printf("FAIL: results differ beyond sim.wall_s, the invocation%s\n",
                  mode == "same" ? "" : " and provenance.git_commit");
      return 1;
    }
    return 0;
  }
  if (mode == "agree" && argc == 5)
    return agree(load(argv[2]), load(argv[3]), std::stod(argv[4]));
  if (mode == "metrics" && argc == 4) {
    std::printf("%s\n", metrics(argv[2], load(argv[3])).dump(2).c_str());
    return 0;
  }
  if (mode == "match" && argc == 5)
    return match(load(argv[2]), load(argv[3]), std::stod(argv[4]));
  if (mode == "replicas" && argc == 4)
    return replicas(argv[2], std::stoul(argv[3]));
  if (mode == "trace" && argc == 4)
    return trace(load(argv[2]), std::stoul(argv[3]));
  if (mode == "timeseries" && argc == 3)
    return timeseries(argv[2], nullptr);
  if (mode == "timeseries" && argc == 4) {
    const Json r = load(argv[3]);
    return timeseries(argv[2], &r);
  }
  std::fprintf(stderr,
               "usage: aisim_results_check contract R | same A B | same-model A B | agree A B TOL | "
               "metrics SCENARIO R | match KEPT R TOL | replicas DIR N | trace FILE MAX_EVENTS | timeseries CSV [R]\n");
  return 2;
}
