#include "sim/results/summary.hpp"
#include "sim/results/bottlenecks.hpp"
#include "sim/results/placement.hpp"
#include "sim/results/threats.hpp"

#include "models/common/units.hpp"

#include <algorithm>
#include <cstdio>
#include <map>

namespace aisim::sim {

using models::format_number;
using models::Json;

std::string stop_description(const RunStop& stop, double simulated_s) {
  using models::Seconds;
  const std::string limit = stop.by == "max_wall" ? "--max-wall " + models::format_duration(Seconds(stop.limit))
                                                  : "--max-events " + models::format_count(stop.limit);
  return "stopped by " + limit + " after " + models::format_duration(Seconds(simulated_s)) + " of the " +
         models::format_duration(Seconds(stop.period_s)) + " period (" +
         format_number("%.1f %%", 100.0 * simulated_s / stop.period_s) +
         "): every figure here is of that shorter period, ended there as the scenario's end would";
}

std::string what_if_line(const Json& r) {
  const Json::json_pointer at("/provenance/overrides");
  if (!r.contains(at) || !r.at(at).is_array() || r.at(at).empty())
    return "";
  std::string o = "what-if: ";
  for (const auto& x : r.at(at))
    o += (o.size() > 9 ? ", " : "") + x.value("pointer", "?") + " = " + x.value("value", "?");
  return o;
}

namespace {

// The summary's sections, each a string of whole lines.
using models::Bytes;
using models::BytesPerSecond;
using models::Seconds;

// The summary's headline: what ran, the what-if, a stop, and the GPU time by state.
std::string summary_header(const Json& r) {
  std::string o;
  const auto& g = r["gpu"];
  const auto pct = [](double v) { return format_number("%5.1f %%", 100.0 * v); };
  o += "aisim " + r["provenance"]["aisim_version"].get<std::string>() + ": " +
       r["scenario"]["name"].get<std::string>() + ", " + std::to_string(g["count"].get<int>()) + " GPUs, " +
       models::format_duration(Seconds(r["sim"]["simulated_s"].get<double>())) + " simulated in " +
       format_number("%.2f s", r["sim"]["wall_s"].get<double>()) + " (" +
       std::to_string(r["sim"]["events"].get<uint64_t>()) + " events)\n";
  if (const std::string w = what_if_line(r); !w.empty())
    o += w + "\n";
  o += "\n";
  if (r["sim"].contains("stopped")) // the stop is the warnings' first line; a reader must see it before any figure
    o += "STOPPED EARLY: " + r["warnings"].at(0).get<std::string>() + "\n\n";
  o += "GPU time\n";
  bool serving = false;
  for (const auto& j : r["jobs"])
    serving = serving || j["kind"] == "inference";
  o += std::string(serving ? "  computing or serving     " : "  computing (utilization)  ") + pct(g["utilization"]) +
       "\n";
  o += "  data stall               " + pct(g["stall"]["data"]) + "\n";
  o += "  checkpoint stall         " + pct(g["stall"]["checkpoint"]) + "\n";
  o += "  failure                  " + pct(g["stall"]["failure"]) + "\n";
  o += "  idle                     " + pct(g["stall"]["idle"]) + "\n\n";
  return o;
}

// The summary's one row per job: utilization, steps, checkpoints and their times.
std::string summary_jobs(const Json& r) {
  std::string o;
  // The name column widens to the longest job name, so a comparison of long-named jobs stays aligned.
  int name_w = 16;
  for (const auto& j : r["jobs"])
    name_w = std::max(name_w, static_cast<int>(j["name"].get<std::string>().size()));
  o += "job" + std::string(static_cast<size_t>(name_w), ' ') +
       "kind          GPUs    util     steps  ckpts  ckpt write mean / p99  (GPU stall mean)\n";
  for (const auto& j : r["jobs"]) {
    char buf[1024];
    const auto& w = j["checkpoints"]["write_s"];
    // A failed job's busy share is not a result; an inference fleet's busy GPUs serve, they do not train.
    const bool failed = j["status"] == "failed";
    const std::string util = failed ? "failed" : format_number("%5.1f%%", 100.0 * j["utilization"].get<double>());
    const std::string kind = j["kind"] == "inference" ? "serving" : j["kind"].get<std::string>();
    // Steps and checkpoints do not apply to a fleet that serves, nor checkpoint times to a job that writes none.
    const bool serves = j["kind"] == "inference";
    const size_t ckpts = j["checkpoints"]["count"].get<size_t>();
    const std::string steps = serves ? "-" : std::to_string(j["steps"].get<int64_t>());
    const std::string count = serves ? "-" : std::to_string(ckpts);
    const std::string times =
        ckpts == 0 ? "-"
                   : models::format_duration(Seconds(w["mean"].get<double>())) + " / " +
                         models::format_duration(Seconds(w["p99"].get<double>())) + "  (" +
                         models::format_duration(Seconds(j["checkpoints"]["stall_s"]["mean"].get<double>())) + ")";
    std::snprintf(buf, sizeof buf, "  %-*s %-13s %5d  %6s %9s  %5s  %s\n", name_w, j["name"].get<std::string>().c_str(),
                  kind.c_str(), j["gpus"].get<int>(), util.c_str(), steps.c_str(), count.c_str(), times.c_str());
    o += buf;
    if (failed && j["failure"].is_string())
      o += "    failed: " + j["failure"].get<std::string>() + "\n";
    if (const auto& a = j["checkpoints"]["optimal_interval"]; a.is_object()) {
      const auto at = [&](const char* s, const char* g) {
        return models::format_duration(Seconds(a[s].get<double>())) + " (goodput " +
               format_number("%.1f %%", 100 * a[g].get<double>()) + ")";
      };
      o += "    checkpoint every " + at("configured_s", "configured_goodput") + "; Young's optimum " +
           at("young_s", "young_goodput") + ", Daly's " + at("daly_s", "daly_goodput") + "\n";
    }
  }
  return o;
}

// The summary's one row per storage system, what limited each phase, and each inference fleet's loads and serving.
std::string summary_storage(const Json& r) {
  std::string o;
  o += "\nstorage               read      written   peak read    peak write   peak used / capacity\n";
  for (const auto& s : r["storage"]) {
    char buf[256];
    std::snprintf(buf, sizeof buf, "  %-14s %10s %10s %12s %12s   %s / %s\n", s["name"].get<std::string>().c_str(),
                  models::format_bytes(Bytes(s["read_bytes"])).c_str(),
                  models::format_bytes(Bytes(s["write_bytes"])).c_str(),
                  models::format_rate(BytesPerSecond(s["peak_read_Bps"])).c_str(),
                  models::format_rate(BytesPerSecond(s["peak_write_Bps"])).c_str(),
                  models::format_bytes(Bytes(s["peak_used_bytes"])).c_str(),
                  models::format_bytes(Bytes(s["capacity_bytes"])).c_str());
    o += buf;
  }
  if (const auto b = format_bottlenecks(r); !b.empty())
    o += "\n" + b;
  for (const auto& j : r["jobs"]) {
    if (!j.contains("inference"))
      continue;
    const auto& inf = j["inference"];
    o += "\ninference fleet " + j["name"].get<std::string>() + ": " + std::to_string(inf["cold_starts"].get<size_t>()) +
         " cold starts loading " + std::to_string(inf["replicas_loaded"].get<int>()) + " replicas, model load mean " +
         models::format_duration(Seconds(inf["load_s"]["mean"])) + ", max " +
         models::format_duration(Seconds(inf["load_s"]["max"])) + "\n";
    if (inf.contains("serving")) {
      const auto& sv = inf["serving"];
      const auto lat = [](const Json& v) {
        return v.is_null() ? std::string("unbounded") : models::format_duration(Seconds(v.get<double>()));
      };
      o += "  serving reads p50 " + lat(sv["latency_s"]["p50"]) + ", p99 " + lat(sv["latency_s"]["p99"]) + ", p99.9 " +
           lat(sv["latency_s"]["p999"]) + "; within the " + models::format_duration(Seconds(sv["slo_s"])) +
           " SLO: " + format_number("%.3f %%", 100.0 * sv["slo_attainment"].get<double>()) + "\n";
    }
  }
  return o;
}

// The summary's data moved between tiers, and the lifecycle of checkpoints that were evaluated.
std::string summary_movements(const Json& r) {
  std::string o;
  if (!r["movements"].empty()) {
    o += "\ndata moved between tiers                        copies      bytes    mean / max time\n";
    for (const auto& m : r["movements"]) {
      char buf[256];
      const std::string route = m["from"].get<std::string>() + " -> " + m["to"].get<std::string>();
      std::snprintf(
          buf, sizeof buf, "  %-24s %-20s %6d %10s    %s / %s\n", route.c_str(), m["class"].get<std::string>().c_str(),
          m["count"].get<int>(), models::format_bytes(Bytes(m["bytes"])).c_str(),
          models::format_duration(Seconds(m["mean_s"])).c_str(), models::format_duration(Seconds(m["max_s"])).c_str());
      o += buf;
    }
    for (const auto& j : r["jobs"]) {
      const auto& l = j["lifecycle"];
      if (l["evaluated"].get<int>() > 0)
        o += "  " + j["name"].get<std::string>() + ": " + std::to_string(l["evaluated"].get<int>()) +
             " checkpoints evaluated, " + std::to_string(l["validated"].get<int>()) + " validated, " +
             std::to_string(l["released"].get<int>()) + " released to production\n";
    }
  }
  return o;
}

// The summary's failures by component, data lost, models destroyed.
std::string summary_failures(const Json& r) {
  std::string o;
  if (const auto& by = r["failures"]["by_component"]; !by.empty()) {
    o += "\nfailures                 ";
    std::string sep;
    for (const auto& [component, count] : by.items()) {
      o += sep + std::to_string(count.get<int>()) + " " + component + (count.get<int>() == 1 ? "" : "s");
      sep = ", ";
    }
    o += "\n";
    for (const auto& s : r["storage"]) {
      if (!s.contains("failures"))
        continue;
      for (const auto& [component, x] : s["failures"].items())
        if (component == "rebuilds") {
          if (x["count"].get<size_t>() > 0)
            o += "  " + s["name"].get<std::string>() + ": " + std::to_string(x["count"].get<size_t>()) + " rebuilds (" +
                 std::to_string(x["finished"].get<int>()) + " finished), " +
                 models::format_duration(Seconds(x["time_s"].get<double>())) + " in all, " +
                 models::format_bytes(Bytes(x["written_bytes"].get<double>())) + " written, " +
                 models::format_bytes(Bytes(x["read_bytes"].get<double>())) + " read" +
                 (x["stripe_groups_lost"].get<size_t>() > 0
                      ? "; " + std::to_string(x["stripe_groups_lost"].get<size_t>()) +
                            " stripe groups lost more drives than their parity covers"
                      : "") +
                 "\n";
        } else if (x["count"].get<int>() > 0) {
          o += "  " + s["name"].get<std::string>() + ": " + std::to_string(x["count"].get<int>()) + " " + component +
               (x["count"].get<int>() == 1 ? "" : "s") + " out of service for " +
               models::format_duration(Seconds(x["out_of_service_s"].get<double>())) + " in all\n";
        }
    }
  }
  if (const auto& lost = r["failures"]["data_lost_by_class"]; !lost.empty()) {
    o += "data lost (" + std::to_string(r["failures"]["data_loss_events"].size()) + " events)";
    std::string sep = ": ";
    for (const auto& [cls, x] : lost.items()) {
      o += sep + models::data_class_words(cls) + " " + models::format_bytes(Bytes(x["bytes"].get<double>()));
      if (x["items"].get<int>() > 0)
        o += " (" + std::to_string(x["items"].get<int>()) + " whole)";
      sep = ", ";
    }
    o += "\n";
  }
  for (const auto& ml : r["failures"]["models_destroyed"])
    o += "  " + ml["class"].get<std::string>() + " of " + ml["job"].get<std::string>() +
         " destroyed with every copy at " + models::format_duration(Seconds(ml["time_s"].get<double>())) + ": " +
         models::format_count(ml["recompute_gpu_hours"].get<double>(), 1) + " GPU-hours to make it again\n";
  return o;
}

// The summary's fault domains, and each system's durability from the Markov model.
std::string summary_durability(const Json& r) {
  std::string o;
  // Correlated failures: a group with more drives in one domain than its parity is one domain failure from a loss.
  for (const auto& st : r["storage"]) {
    if (!st.contains("fault_domains"))
      continue;
    const auto& fd = st["fault_domains"];
    const int exposed = fd["exposed_groups"].get<int>(), groups = fd["groups"].get<int>();
    std::string worst;
    int worst_groups = 0;
    for (const auto& d : fd["by_domain"])
      if (d["groups_exposed"].get<int>() > worst_groups) {
        worst_groups = d["groups_exposed"].get<int>();
        worst = d["kind"].get<std::string>() + " \"" + d["domain"].get<std::string>() + "\"";
      }
    o += "fault domains of " + st["name"].get<std::string>() + ": " +
         (exposed == 0
              ? std::string("no stripe group has more drives in one domain than it tolerates")
              : std::to_string(exposed) + " of " + std::to_string(groups) + " stripe group" + (groups == 1 ? "" : "s") +
                    " exposed: one failure of " + worst + " loses " + std::to_string(worst_groups)) +
         "\n";
  }
  // A chance as people say it: "2.1 %", for rare ones "1 in 33,550,383", and past a trillion, where the digits
  // are more than anyone reads (erasure codes surviving 16 failures reach 1 in 10^63), "1 in 4.9e+63".
  const auto odds = [](double p) {
    return p >= 0.001     ? format_number("%.1f %%", 100 * p)
           : 1 / p < 1e12 ? "1 in " + models::format_count(1 / p)
                          : "1 in " + format_number("%.2g", 1 / p);
  };
  // The rare-event answer for each system whose drives fail: what one period could not show.
  for (const auto& st : r["storage"]) {
    if (!st.contains("durability"))
      continue;
    const auto& d = st["durability"];
    const std::string chance = odds(d["loss_probability"].get<double>());
    const double mttdl = d["mttdl_years"].get<double>();
    const std::string years = mttdl >= 1e12  ? format_number("%.3g", mttdl) + " years"
                              : mttdl >= 1e9 ? format_number("%.3g", mttdl / 1e9) + " billion years"
                              : mttdl >= 1e6 ? format_number("%.3g", mttdl / 1e6) + " million years"
                              : mttdl >= 1   ? models::format_count(mttdl, mttdl < 10 ? 1 : 0) + " years"
                                             : models::format_duration(Seconds(mttdl * models::kSecondsPerYear));
    const std::string groups = models::format_count(d["groups"].get<double>());
    const std::string layout = d["tolerated"].get<int>() == 0
                                   ? "unprotected, " + groups + " drives"
                                   : d["scheme"].get<std::string>() + ", " + groups +
                                         (groups == "1" ? " group of " : " groups of ") +
                                         std::to_string(d["group_drives"].get<int>()) + " drives, each surviving " +
                                         std::to_string(d["tolerated"].get<int>()) + " down";
    o += "durability of " + st["name"].get<std::string>() + " (" + layout + "): " + chance +
         " chance of data loss over " + models::format_duration(Seconds(d["horizon_s"].get<double>())) + ", MTTDL " +
         years + ", " + models::format_bytes(models::Bytes(d["bytes_lost_per_year"].get<double>())) +
         " a year expected lost (Markov model; a drive back after " +
         models::format_duration(Seconds(d["repair_s"].get<double>())) +
         (d["rebuild_from"] == "simulated" ? ", rebuild as simulated" : "") + ")\n";
    for (const auto& [cls, c] : d["by_class"].items()) {
      const std::string what = models::data_class_words(cls);
      o += "  " + what + " on " + st["name"].get<std::string>() + ": " + odds(c["loss_probability"].get<double>()) +
           " chance of loss over " + models::format_duration(Seconds(d["horizon_s"].get<double>())) +
           (c["method"] == "simulation"
                ? " (simulated: " + std::to_string(d["simulated_groups_lost"].get<int>()) +
                      " losses in the period, 95 % interval " +
                      format_number("%.1f", 100 * c["loss_probability_ci95"][0].get<double>()) + "-" +
                      format_number("%.1f %%", 100 * c["loss_probability_ci95"][1].get<double>()) + ")"
                : " (Markov model)") +
           "\n";
    }
  }
  return o;
}

// The summary's GPU-hours lost to failures and what they are worth, and the cost table.
std::string summary_cost(const Json& r) {
  std::string o;
  if (const auto& usd = r["failures"]["lost_usd"]; usd["total"].get<double>() > 0) {
    const auto& h = r["failures"]["lost_gpu_hours"];
    const auto hours = [](const Json& v) { return models::format_count(v.get<double>(), 1); };
    o += "GPU-hours lost to failures: detection " + hours(h["detection"]) + ", replay " + hours(h["replay"]) +
         ", rescheduling " + hours(h["rescheduling"]) + ", reload " + hours(h["reload"]) + ", model recompute " +
         hours(h["model_recompute"]) + "; worth " + models::format_money(models::Dollars(usd["total"].get<double>())) +
         " at the GPU-hour price\n";
  }
  const auto& c = r["cost"];
  const auto money = [](const Json& v) { return models::format_money(models::Dollars(v.get<double>())); };
  const auto row = [&](const std::string& name, const std::string& kind, const Json& capex, const Json& maint,
                       const Json& energy, double services, const Json& total) {
    char buf[256];
    std::snprintf(buf, sizeof buf, "  %-16s %-8s %13s %13s %13s %13s %14s\n", name.c_str(), kind.c_str(),
                  money(capex).c_str(), money(maint).c_str(), money(energy).c_str(),
                  models::format_money(models::Dollars(services)).c_str(), money(total).c_str());
    return std::string(buf);
  };
  const std::string period = models::format_duration(Seconds(r["sim"]["simulated_s"]));
  o += "\ncost over " + models::format_duration(Seconds(c["horizon_s"])) + ": " + money(c["capex_usd"]) +
       " bought, written off over " + models::format_duration(Seconds(c["service_life_s"])) + "; " +
       money(c["opex_per_year_usd"]) + " a year to run\n";
  if (const auto& sheet = c["price_sheet"]; sheet.is_object())
    o += "  (prices from \"" + sheet["name"].get<std::string>() + "\", dated " + sheet["date"].get<std::string>() +
         ": " + std::to_string(sheet["figures"].get<int>()) + " figures from " + sheet["file"].get<std::string>() +
         ", the rest from the scenario)\n";
  if (c["capex_growth_usd"].get<double>() >= 0.5)
    o += "  (of the purchase, " + money(c["capex_growth_usd"]) + " is capacity bought later, when the data held " +
         "needs it" +
         (c["data_growth_per_year"].get<double>() > 0
              ? "; data grows " + format_number("%g", c["data_growth_per_year"].get<double>() * 100) + " % a year"
              : std::string()) +
         ")\n";
  o += c["extrapolation"] == "once"
           ? "  (the " + period + " simulated happen once; then the GPUs are unused and storage keeps what it holds)\n"
           : "  (the " + period + " simulated stand for the horizon, repeated " + format_number("%.1f", c["periods"]) +
                 " times; one-off staging and preprocessing counted once)\n";
  // Power and space go together (both scale with watts); what is rented (GPUs, object storage) is billed by use.
  o += "  component        kind     capex share    maintenance   power+space   rented/used          total\n";
  const auto sum = [](const Json& j, std::initializer_list<const char*> keys) {
    double v = 0;
    for (const char* k : keys)
      v += j[k].get<double>();
    return Json(v);
  };
  for (const auto& cc : c["by_component"])
    o += row(cc["name"].get<std::string>(), cc["kind"].get<std::string>(), cc["amortized_usd"], cc["maintenance_usd"],
             sum(cc, {"energy_usd", "facility_usd"}), sum(cc, {"space_usd", "retrieval_usd", "rent_usd"}).get<double>(),
             cc["total_usd"]);
  o += row("total", "", c["capex_amortized_usd"], c["maintenance_usd"], sum(c, {"energy_usd", "facility_usd"}),
           sum(c, {"storage_services_usd", "gpu_rent_usd"}).get<double>(), c["total_usd"]);
  if (!c["usd_per_useful_gpu_hour"].is_null())
    o += "  per useful GPU-hour        " + money(c["usd_per_useful_gpu_hour"]) + "\n";
  if (!c["usd_per_1000_requests"].is_null())
    o += "  per 1,000 requests served  " + money(c["usd_per_1000_requests"]) + "\n";
  if (!c["usd_per_1000_requests_within_slo"].is_null())
    o += "  per 1,000 within the SLO   " + money(c["usd_per_1000_requests_within_slo"]) + "\n";
  if (!c["usd_per_tb_month"].is_null())
    o += "  storage per TB-month held  " + money(c["usd_per_tb_month"]) + "\n";
  o += "  value of stalled GPU-hours " + money(c["gpu_stalled_usd"]) +
       " (waiting for data, checkpoints or failures; not in the total)\n";
  o += "  cost with lost GPU time    " + money(c["total_with_lost_gpu_usd"]) +
       " (the total + stalled GPU-hours: what sweeps, size, compare and the GUI rank by)\n";
  if (c["gpu_unused_usd"].get<double>() >= 0.5)
    o += "  value of unused GPU-hours  " + money(c["gpu_unused_usd"]) + " (no job on them; not in the total)\n";
  std::string classes;
  for (const auto& [k, v] : c["storage_by_data_class"].items())
    if (v.get<double>() >= 0.5) {
      classes += (classes.empty() ? "" : ", ") + models::data_class_words(k) + " " + money(v);
    }
  if (!classes.empty())
    o += "  storage by data class: " + classes + "\n";
  return o;
}

} // namespace

std::string format_summary(const Json& r, const std::string& results_path) {
  std::string o = summary_header(r) + summary_jobs(r) + summary_storage(r) + summary_movements(r) + summary_failures(r);
  o += format_threats(r);
  o += format_placement(r);
  o += summary_durability(r) + summary_cost(r);
  for (const auto& w : r["warnings"])
    o += "\nwarning: " + w.get<std::string>() + "\n";
  o += "\nresults: " + results_path + "\n";
  return o;
}

} // namespace aisim::sim
