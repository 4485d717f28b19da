#include "sim/results/replicas.hpp"

#include "sim/results/results.hpp"
#include "sim/results/version_info.hpp"

#include "models/analytics/stats.hpp"
#include "models/common/units.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <tuple>

namespace aisim::sim {
namespace {

using models::Json;

// Every number under `node`, by its JSON pointer.
void flatten(const Json& node, const std::string& ptr, std::map<std::string, double>& out) {
  if (node.is_number()) {
    out[ptr] = node.get<double>();
  } else if (node.is_object()) {
    for (const auto& [k, v] : node.items())
      flatten(v, ptr + "/" + models::pointer_token(k), out);
  }
}

// The numbers of one replica that the set reports.
std::map<std::string, double> replica_metrics(const Json& r) {
  std::map<std::string, double> m;
  for (const char* p :
       {"/gpu/utilization", "/gpu/stall", "/failures/by_component", "/failures/lost_gpu_hours", "/failures/lost_usd",
        "/failures/data_lost_by_class", "/threats/totals/events", "/threats/totals/saved_bytes",
        "/threats/totals/lost_bytes", "/cost/total_usd", "/cost/total_with_lost_gpu_usd", "/cost/storage/total_usd",
        "/cost/storage/capex_usd", "/cost/capex_usd", "/cost/opex_per_year_usd", "/cost/usd_per_useful_gpu_hour",
        "/cost/gpu_stalled_usd"}) {
    const Json::json_pointer jp(p);
    if (r.contains(jp))
      flatten(r.at(jp), p, m);
  }
  if (r.contains("failures") && r["failures"].contains("data_loss_events"))
    m["/failures/data_loss_events/count"] = static_cast<double>(r["failures"]["data_loss_events"].size());
  if (r.contains("jobs"))
    for (const auto& j : r["jobs"]) {
      const std::string job = "/jobs/" + models::pointer_token(j.value("name", "?"));
      m[job + "/utilization"] = j.value("utilization", 0.0);
      const Json::json_pointer p99("/checkpoints/write_s/p99");
      if (j.contains(p99) && j.at(p99).is_number() && j.value("/checkpoints/count"_json_pointer, 0) > 0)
        m[job + "/checkpoint_write_p99_s"] = j.at(p99).get<double>();
    }
  return m;
}

std::string pct(double f) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f %%", 100 * f);
  return buf;
}

// A metric's value for people, by what it measures.
std::string show(const std::string& ptr, double v) {
  if (ptr.ends_with("_s"))
    return models::format_duration(models::Seconds(v));
  if (ptr.starts_with("/gpu/") || ptr.ends_with("/utilization"))
    return pct(v);
  if (ptr.find("usd") != std::string::npos)
    return models::format_money(models::Dollars(v));
  if (ptr.starts_with("/threats/") && !ptr.ends_with("/events"))
    return models::format_bytes(models::Bytes(v));
  if (ptr.ends_with("/bytes"))
    return models::format_bytes(models::Bytes(v));
  if (ptr.starts_with("/failures/lost_gpu_hours"))
    return models::format_count(v, 1) + " GPU-h";
  return models::format_count(v, std::fabs(v) < 100 && std::round(v) != v ? 2 : 0);
}

// What a metric is, in words, and where it sorts: GPU time, jobs, failures, money.
std::pair<int, std::string> label(const std::string& ptr) {
  const auto tail = [&](const std::string& prefix) {
    std::string t = ptr.substr(prefix.size());
    for (auto& ch : t)
      if (ch == '_')
        ch = ' ';
    return t;
  };
  if (ptr == "/gpu/utilization")
    return {0, "GPU utilization"};
  if (ptr.starts_with("/gpu/stall/"))
    return {1, "GPU time: " + tail("/gpu/stall/") + (ptr.ends_with("idle") ? "" : " stall")};
  if (ptr.starts_with("/jobs/") && ptr.ends_with("/checkpoint_write_p99_s"))
    return {2, "job " + ptr.substr(6, ptr.size() - 6 - std::string("/checkpoint_write_p99_s").size()) +
                   " checkpoint write p99"};
  if (ptr.starts_with("/jobs/"))
    return {2, "job " + ptr.substr(6, ptr.size() - 6 - std::string("/utilization").size()) + " utilization"};
  if (ptr.starts_with("/failures/by_component/"))
    return {3, tail("/failures/by_component/") + " failures"};
  if (ptr.starts_with("/failures/lost_gpu_hours/"))
    return {4, "GPU-hours lost: " + tail("/failures/lost_gpu_hours/")};
  if (ptr.starts_with("/failures/lost_usd/"))
    return {5, "lost to failures: " + tail("/failures/lost_usd/")};
  if (ptr == "/failures/data_loss_events/count")
    return {6, "data-loss events"};
  if (ptr.starts_with("/failures/data_lost_by_class/")) {
    std::string t = tail("/failures/data_lost_by_class/");
    const bool items = t.ends_with("/items");
    t = t.substr(0, t.rfind('/'));
    return {7, "data lost: " + t + (items ? " (whole items)" : "")};
  }
  if (ptr == "/threats/totals/events")
    return {7, "threat strikes (deletion, ransomware)"};
  if (ptr.starts_with("/threats/totals/saved_bytes/"))
    return {7, "saved from threats by " + tail("/threats/totals/saved_bytes/")};
  if (ptr == "/threats/totals/lost_bytes")
    return {7, "lost to threats"};
  if (ptr == "/cost/total_usd")
    return {8, "spend over the horizon"};
  if (ptr == "/cost/total_with_lost_gpu_usd")
    return {8, "spend + lost GPU time (the objective)"};
  if (ptr == "/cost/capex_usd")
    return {8, "capital cost"};
  if (ptr == "/cost/storage/total_usd")
    return {9, "storage cost over the horizon"};
  if (ptr == "/cost/storage/capex_usd")
    return {9, "storage bought"};
  if (ptr == "/cost/usd_per_useful_gpu_hour")
    return {10, "dollars per useful GPU-hour"};
  if (ptr == "/cost/opex_per_year_usd")
    return {9, "a year to run"};
  if (ptr == "/cost/gpu_stalled_usd")
    return {10, "value of stalled GPU-hours"};
  return {11, ptr};
}

// Pads to `width` characters, counting a UTF-8 character ("±", "…") once.
std::string pad(const std::string& text, size_t width, bool right) {
  size_t chars = 0;
  for (unsigned char ch : text)
    chars += (ch & 0xC0) != 0x80;
  const std::string fill(width > chars ? width - chars : 0, ' ');
  return right ? fill + text : text + fill;
}

} // namespace

Json aggregate_replicas(const std::vector<ReplicaRun>& runs, bool interrupted) {
  Json out;
  out["schema_version"] = kResultsSchemaVersion;
  out["kind"] = "replicas";
  out["provenance"] = {{"aisim_version", kAisimVersion}, {"git_commit", kGitCommit}};
  Json list = Json::array();
  std::vector<std::map<std::string, double>> per_run;
  size_t finished = 0;
  for (const auto& r : runs) {
    list.push_back({{"seed", r.seed},
                    {"folder", r.folder},
                    {"outcome", r.ok ? "finished" : r.outcome},
                    {"log", r.has_log ? Json(r.folder + "/run.log") : Json()}});
    if (!r.ok)
      continue;
    ++finished;
    per_run.push_back(replica_metrics(r.results));
    if (!out.contains("scenario") && r.results.contains("scenario"))
      out["scenario"] = r.results["scenario"];
  }
  out["replicas"] = {{"requested", runs.size()},
                     {"finished", finished},
                     {"interrupted", interrupted},
                     {"runs", list},
                     {"confidence", 0.95}};
  std::map<std::string, std::vector<double>> samples;
  for (const auto& m : per_run)
    for (const auto& [k, v] : m)
      samples[k]; // every metric any replica has
  for (auto& [k, xs] : samples)
    for (const auto& m : per_run) {
      const auto it = m.find(k);
      xs.push_back(it == m.end() ? 0.0 : it->second);
    }
  Json metrics = Json::object();
  for (const auto& [k, xs] : samples) {
    const auto s = models::mean_interval(xs);
    const bool has_ci = !std::isnan(s.half_width);
    metrics[k] = {{"mean", s.mean},
                  {"sd", s.sd},
                  {"half_width", has_ci ? Json(s.half_width) : Json()},
                  {"ci95_low", has_ci ? Json(s.mean - s.half_width) : Json()},
                  {"ci95_high", has_ci ? Json(s.mean + s.half_width) : Json()},
                  {"min", s.min},
                  {"max", s.max},
                  {"n", s.count}};
  }
  out["metrics"] = metrics;
  return out;
}

Json replica_rows(const Json& a) {
  std::vector<std::pair<int, Json>> rows;
  for (const auto& [k, m] : a["metrics"].items()) {
    // Metrics that are zero in every replica say nothing; the file keeps them.
    if (m["max"].get<double>() == 0 && m["min"].get<double>() == 0)
      continue;
    const auto [rank, text] = label(k);
    rows.emplace_back(
        rank, Json{{"pointer", k},
                   {"label", text},
                   {"mean_text",
                    show(k, m["mean"].get<double>()) +
                        (m["half_width"].is_null() ? std::string() : " ± " + show(k, m["half_width"].get<double>()))},
                   {"range_text", show(k, m["min"].get<double>()) + " … " + show(k, m["max"].get<double>())},
                   {"mean", m["mean"]},
                   {"ci95_low", m.value("ci95_low", Json())},
                   {"ci95_high", m.value("ci95_high", Json())},
                   {"min", m["min"]},
                   {"max", m["max"]}});
  }
  std::stable_sort(rows.begin(), rows.end(), [](const auto& x, const auto& y) { return x.first < y.first; });
  Json out = Json::array();
  for (auto& [rank, row] : rows)
    out.push_back(std::move(row));
  return out;
}

std::string format_replica_summary(const Json& a, const std::string& results_path) {
  std::string o;
  const auto& rep = a["replicas"];
  const auto& runs = rep["runs"];
  const std::string name = a.contains("scenario") ? a["scenario"].value("name", "?") : "?";
  o += "aisim " + std::string(kAisimVersion) + ": " + name + ", " + std::to_string(rep["requested"].get<int>()) +
       " replicas (seeds " + std::to_string(runs.front()["seed"].get<unsigned long long>()) + "-" +
       std::to_string(runs.back()["seed"].get<unsigned long long>()) + "), " +
       std::to_string(rep["finished"].get<int>()) + " finished" +
       (rep["interrupted"].get<bool>() ? ", interrupted" : "") + "\n";
  for (const auto& r : runs)
    if (r["outcome"] != "finished")
      o += "  seed " + std::to_string(r["seed"].get<unsigned long long>()) + ": " + r["outcome"].get<std::string>() +
           (r.value("log", Json()).is_string() ? " (see " + r["log"].get<std::string>() + ")" : "") + "\n";
  if (rep["finished"].get<int>() == 0) {
    o += "\nno replica finished: nothing to summarize\n";
    return o;
  }
  o += "\n" + pad("metric", 40, false) + pad("mean ± 95% half-width", 30, true) + "   (min … max over replicas)\n";
  for (const auto& row : replica_rows(a))
    o += "  " + pad(row["label"].get<std::string>(), 38, false) + pad(row["mean_text"].get<std::string>(), 30, true) +
         "   (" + row["range_text"].get<std::string>() + ")\n";
  o += "\nresults: " + results_path + " (each replica's own results in its folder)\n";
  return o;
}

} // namespace aisim::sim
