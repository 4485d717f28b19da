#include "sim/results/results.hpp"
#include "sim/results/bottlenecks.hpp"
#include "sim/results/durability.hpp"
#include "sim/results/placement.hpp"
#include "sim/results/threats.hpp"

#include "sim/results/version_info.hpp"

#include "sim/engine/simgrid_internals.hpp"

#include "models/analytics/checkpoint_interval.hpp"
#include "models/analytics/stats.hpp"
#include "models/cluster/cluster_network.hpp"
#include "models/common/units.hpp"
#include "models/cost/cost.hpp"
#include "models/scenario/included_file.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <stdexcept>
#include <tuple>

namespace aisim::sim {

using models::Json;

namespace {

struct Split {
  double compute = 0, data = 0, checkpoint = 0, failure = 0, idle = 0;
};

Json histogram_json(const models::Histogram& h) { return {{"edges_s", h.edges}, {"counts", h.counts}}; }

Json split_json(const Split& s) {
  return Json{{"data", s.data}, {"checkpoint", s.checkpoint}, {"failure", s.failure}, {"idle", s.idle}};
}

// Fractions of `gpu_s` GPU-seconds; idle is what is left, so the five always sum to one. No GPU time at all (a job
// whose window lies outside the simulated period) is all idle: its GPUs did nothing for it.
Split make_split(double compute, double data, double ckpt, double failure, double gpu_s) {
  Split s;
  if (gpu_s <= 0) {
    s.idle = 1;
    return s;
  }
  s.compute = compute / gpu_s;
  s.data = data / gpu_s;
  s.checkpoint = ckpt / gpu_s;
  s.failure = failure / gpu_s;
  s.idle = std::max(0.0, 1.0 - s.compute - s.data - s.checkpoint - s.failure);
  return s;
}

std::string fmt(const char* f, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, f, v);
  return buf;
}

// What protects the data on a system, so a planner sees it next to the performance figures.
Json data_services_json(const models::Scenario& sc, const models::StorageSystem& sys) {
  Json out = Json::array();
  const auto& p = sys.protection;
  if (p.scheme != "none")
    out.push_back({{"service", "protection"},
                   {"scheme", p.scheme},
                   {"data", p.data},
                   {"parity", p.parity},
                   {"where", sys.host_side_protection ? "host" : "storage"},
                   {"usable_fraction", p.efficiency()},
                   {"write_amplification", p.write_amplification()}});
  if (sys.snapshots)
    out.push_back({{"service", "snapshots"},
                   {"interval_s", sys.snapshots->interval.value},
                   {"retention_s", sys.snapshots->retention.value}});
  if (sys.replication)
    out.push_back({{"service", "replication"}, {"target", sys.replication->target}, {"mode", sys.replication->mode}});
  if (sys.retention_lock)
    out.push_back({{"service", "retention_lock"}, {"duration_s", sys.retention_lock->value}});
  if (sys.kind == "array")
    out.push_back({{"service", "controller_failover"}, {"mode", sys.failover}, {"controllers", sys.controllers}});
  if (sys.kind == "object")
    out.push_back({{"service", "durability"}, {"annual", sys.durability}});
  // Replicas that other systems send here protect their data too.
  for (const auto& other : sc.storage)
    if (other.replication && other.replication->target == sys.name)
      out.push_back({{"service", "replica_of"}, {"source", other.name}, {"mode", other.replication->mode}});
  return out;
}

// Each job's writes that waited for space on a full system (policies.on_full = block_writes), from one pass over the
// capacity events: how many, their waits summed and the longest. A write still waiting when the period ended never
// happened; the job ran on (its status stays "ok").
struct BlockedWrites {
  int count = 0;
  double waited_s = 0, longest_s = 0;
};
std::vector<BlockedWrites> blocked_writes_by_job(const Metrics& m) {
  std::vector<BlockedWrites> out(m.jobs.size());
  for (const auto& e : m.capacity_events)
    if (e.action == "blocked" && e.job >= 0 && static_cast<size_t>(e.job) < out.size()) {
      auto& b = out[static_cast<size_t>(e.job)];
      ++b.count;
      b.waited_s += e.waited_s;
      b.longest_s = std::max(b.longest_s, e.waited_s);
    }
  return out;
}

// An inference fleet's cold starts and serving latency; latencies are null where storage could not keep up.
Json inference_json(const models::InferenceSpec& spec, const JobMetrics& jm) {
  const auto finite = [](double v) { return std::isfinite(v) ? Json(v) : Json(); };
  const auto load = models::summarize(jm.load_s);
  Json out = {{"replicas_loaded", jm.replicas_loaded},
              {"cold_starts", jm.load_s.size()},
              {"load_s", {{"mean", load.mean}, {"max", load.max}}},
              {"model_bytes", spec.model_size.value}};
  if (spec.request_rate.value > 0) {
    double reads = 0;
    for (const auto& p : jm.serving)
      reads += p.requests;
    out["serving"] = {{"reads", reads},
                      {"read_size_bytes", spec.read_size.value},
                      {"latency_s",
                       {{"p50", finite(models::latency_quantile_s(jm.serving, 0.5))},
                        {"p99", finite(models::latency_quantile_s(jm.serving, 0.99))},
                        {"p999", finite(models::latency_quantile_s(jm.serving, 0.999))}}},
                      {"slo_s", spec.slo.value},
                      {"slo_attainment", models::slo_attainment(jm.serving, spec.slo.value)},
                      {"overloaded_s", jm.overloaded_s}};
  }
  return out;
}

// Per data class present on the system: its own peak and what it holds at the end.
// Where the prices came from: the sheet's name, date and file and how many figures it gave; null without one.
Json price_sheet_json(const models::Scenario& sc) {
  const Json rec = sc.resolved.contains("costs") ? sc.resolved["costs"].value("price_sheet", Json()) : Json();
  if (!rec.is_object() || !rec.contains("applied"))
    return Json();
  return {{"name", rec.value("name", "")},
          {"date", rec.value("date", "")},
          {"file", rec.value("file", "")},
          {"figures", rec["applied"].size()}};
}

// Young's and Daly's checkpoint intervals beside the one the job used, with the goodput Daly's complete model gives
// each: for a job whose nodes fail (node_mtbf) and that wrote checkpoints. The checkpoint cost is the mean measured
// stall; a failure costs its detection, the restart and the reload (as measured per failure, else one checkpoint
// write's time). Null otherwise.
Json interval_advice(const models::Scenario& sc, const models::TrainingJob& job, const JobMetrics& jm) {
  const auto* g = sc.find_node_group(job.node_group);
  if (!g || g->node_mtbf.value <= 0 || jm.checkpoint_stall_s.empty() || jm.interval_s.empty())
    return Json();
  const double nodes = std::ceil(static_cast<double>(job.gpus) / g->gpus_per_node);
  const double mtbf = g->node_mtbf.value / nodes;
  const double delta = std::max(models::summarize(jm.checkpoint_stall_s).mean, 1e-9);
  const double reload =
      jm.failures > 0 ? jm.reload_gpu_s / job.gpus / jm.failures : models::summarize(jm.checkpoint_write_s).mean;
  const double restart = job.detection_time.value + job.restart_time.value + reload;
  const double configured = jm.interval_s.back();
  const double young = models::young_interval_s(delta, mtbf), daly = models::daly_interval_s(delta, mtbf);
  const auto goodput = [&](double tau) { return models::expected_goodput(tau, delta, restart, mtbf); };
  return {{"job_mtbf_s", mtbf},
          {"checkpoint_cost_s", delta},
          {"failure_cost_s", restart},
          {"configured_s", configured},
          {"configured_goodput", goodput(configured)},
          {"young_s", young},
          {"young_goodput", goodput(young)},
          {"daly_s", daly},
          {"daly_goodput", goodput(daly)}};
}

Json used_by_class_json(const StorageMetrics& sm, double T) {
  const auto peak = sm.peak_used_by_class(T);
  const auto end = sm.used_by_class(T);
  Json out = Json::object();
  for (int c = 0; c < models::kDataClasses; ++c)
    if (peak[c] > 0)
      out[models::data_class_name(static_cast<models::DataClass>(c))] = {{"peak_bytes", peak[c]},
                                                                         {"end_bytes", end[c]}};
  return out;
}

// Bytes moved between tiers, summed per route and class.
Json movements_json(const models::Scenario& sc, const Metrics& m) {
  struct Sum {
    int count = 0;
    double bytes = 0, seconds = 0, max_s = 0;
  };
  std::map<std::tuple<int, int, int>, Sum> sums;
  for (const auto& mv : m.movements) {
    auto& x = sums[{mv.from, mv.to, static_cast<int>(mv.cls)}];
    ++x.count;
    x.bytes += mv.bytes;
    x.seconds += mv.end_s - mv.start_s;
    x.max_s = std::max(x.max_s, mv.end_s - mv.start_s);
  }
  Json out = Json::array();
  for (const auto& [key, x] : sums) {
    const auto [from, to, cls] = key;
    out.push_back({{"from", sc.storage[from].name},
                   {"to", sc.storage[to].name},
                   {"class", models::data_class_name(static_cast<models::DataClass>(cls))},
                   {"count", x.count},
                   {"bytes", x.bytes},
                   {"mean_s", x.seconds / x.count},
                   {"max_s", x.max_s}});
  }
  return out;
}

Json capacity_events_json(const models::Scenario& sc, const Metrics& m) {
  Json out = Json::array();
  for (const auto& e : m.capacity_events)
    out.push_back({{"time_s", e.time_s},
                   {"storage", sc.storage[e.storage].name},
                   {"job", e.job >= 0 ? Json(sc.jobs[e.job].name) : Json()},
                   {"action", e.action},
                   {"bytes", e.bytes},
                   {"waited_s", e.waited_s}});
  return out;
}

// Per kind of storage component on one system: how many failed and how long they were out of service in all
// (up to the end of the simulated period).
Json storage_failures_json(const models::StorageSystem& sys, const StorageMetrics& sm, double T) {
  Json out = Json::object();
  if (sys.failures.drives)
    out["drive"] = {{"count", 0}, {"out_of_service_s", 0.0}};
  if (sys.failures.servers)
    out[models::server_component(sys.kind)] = {{"count", 0}, {"out_of_service_s", 0.0}};
  for (const auto& f : sm.failures) {
    if (!out.contains(f.component)) // failed only with a fault domain
      out[f.component] = {{"count", 0}, {"out_of_service_s", 0.0}};
    auto& x = out[f.component];
    x["count"] = x["count"].get<int>() + 1;
    x["out_of_service_s"] = x["out_of_service_s"].get<double>() + std::min(f.back_s, T) - f.time_s;
  }
  if (sys.protection.parity > 0) {
    int finished = 0;
    double time_s = 0, written = 0, read = 0;
    for (const auto& rb : sm.rebuilds) {
      finished += std::isfinite(rb.end_s) ? 1 : 0;
      time_s += std::min(rb.end_s, T) - rb.start_s;
      written += rb.written_bytes;
      read += rb.read_bytes;
    }
    out["rebuilds"] = {
        {"count", sm.rebuilds.size()}, {"finished", finished}, {"time_s", time_s},
        {"written_bytes", written},    {"read_bytes", read},   {"stripe_groups_lost", sm.group_losses.size()}};
  }
  return out;
}

// Every failure in the cluster: counts by component kind (GPU nodes included), and each storage component's
// outage in time order.
Json failures_json(const models::Scenario& sc, const Metrics& m) {
  Json by = Json::object();
  int nodes = 0;
  for (const auto& jm : m.jobs)
    nodes += jm.failures;
  bool node_failures = false;
  for (const auto& g : sc.node_groups)
    node_failures = node_failures || g.node_mtbf.value > 0;
  if (node_failures)
    by["node"] = nodes;
  std::vector<std::pair<const ComponentFailure*, int>> events;
  for (size_t s = 0; s < sc.storage.size(); ++s) {
    const auto& sys = sc.storage[s];
    if (sys.failures.drives && !by.contains("drive"))
      by["drive"] = 0;
    if (sys.failures.servers && !by.contains(models::server_component(sys.kind)))
      by[models::server_component(sys.kind)] = 0;
    for (const auto& f : m.storage[s].failures) {
      by[f.component] = by.value(f.component, 0) + 1;
      events.emplace_back(&f, static_cast<int>(s));
    }
  }
  // Fault domains that fail: their own count by kind ("rack": 1), and each failure (its members' failures are
  // among the components' own above).
  Json domain_events = Json::array();
  for (const auto& d : sc.fault_domains)
    if (d.failures)
      by[d.kind] = by.value(d.kind, 0);
  for (const auto& f : m.domain_failures) {
    const auto& d = sc.fault_domains[f.domain];
    by[d.kind] = by.value(d.kind, 0) + 1;
    domain_events.push_back(
        {{"time_s", f.time_s}, {"domain", d.name}, {"kind", d.kind}, {"members", d.members.size()}});
  }
  std::stable_sort(events.begin(), events.end(),
                   [](const auto& a, const auto& b) { return a.first->time_s < b.first->time_s; });
  Json list = Json::array();
  for (const auto& [f, s] : events)
    list.push_back({{"time_s", f->time_s},
                    {"storage", sc.storage[s].name},
                    {"component", f->component},
                    {"index", f->index},
                    // Still out of service when the simulated period ended: null.
                    {"back_in_service_s", std::isfinite(f->back_s) ? Json(f->back_s) : Json()}});
  Json rebuilds = Json::array(), lost = Json::array();
  for (size_t s = 0; s < sc.storage.size(); ++s) {
    for (const auto& rb : m.storage[s].rebuilds)
      rebuilds.push_back({{"storage", sc.storage[s].name},
                          {"component", rb.component},
                          {"index", rb.index},
                          {"drives", rb.drives},
                          {"start_s", rb.start_s},
                          // Not finished by the end of the period, or started over after a further loss: null.
                          {"end_s", std::isfinite(rb.end_s) ? Json(rb.end_s) : Json()},
                          {"written_bytes", rb.written_bytes},
                          {"read_bytes", rb.read_bytes}});
    for (const auto& g : m.storage[s].group_losses)
      lost.push_back(
          {{"time_s", g.time_s}, {"storage", sc.storage[s].name}, {"group", g.group}, {"drives_out", g.drives_out}});
  }
  // Data destroyed, event by event and in all, per data class (bytes, and whole items where an item is lost).
  Json losses = Json::array();
  std::array<double, models::kDataClasses> total_bytes{};
  std::array<int, models::kDataClasses> total_items{};
  for (const auto& l : m.data_losses) {
    Json by_class = Json::object();
    for (int c = 0; c < models::kDataClasses; ++c) {
      total_bytes[c] += l.bytes[c];
      total_items[c] += l.items[c];
      if (l.bytes[c] > 0)
        by_class[models::data_class_name(static_cast<models::DataClass>(c))] = {{"bytes", l.bytes[c]},
                                                                                {"items", l.items[c]}};
    }
    losses.push_back({{"time_s", l.time_s},
                      {"storage", sc.storage[l.storage].name},
                      {"cause", l.cause},
                      {"fraction", l.fraction},
                      {"restaged_bytes", l.restaged_bytes},
                      {"by_class", by_class}});
  }
  Json lost_by_class = Json::object();
  for (int c = 0; c < models::kDataClasses; ++c)
    if (total_bytes[c] > 0)
      lost_by_class[models::data_class_name(static_cast<models::DataClass>(c))] = {{"bytes", total_bytes[c]},
                                                                                   {"items", total_items[c]}};
  Json models_lost = Json::array();
  double recompute_gpu_s = 0;
  for (const auto& ml : m.model_losses) {
    recompute_gpu_s += ml.recompute_gpu_s;
    models_lost.push_back({{"time_s", ml.time_s},
                           {"job", sc.jobs[ml.job].name},
                           {"class", models::data_class_name(ml.cls)},
                           {"recompute_gpu_hours", ml.recompute_gpu_s / 3600.0}});
  }
  // GPU time lost to failures by cause, and its value at the GPU-hour price.
  double detection = 0, replay = 0, rescheduling = 0, reload = 0;
  for (const auto& jm : m.jobs) {
    detection += jm.detection_gpu_s;
    replay += jm.replay_gpu_s;
    rescheduling += jm.rescheduling_gpu_s;
    reload += jm.reload_gpu_s;
  }
  const double price = sc.costs.gpu_hour_price.value;
  Json lost_hours = Json::object(), lost_usd = Json::object();
  const std::vector<std::pair<const char*, double>> causes{{"detection", detection},
                                                           {"replay", replay},
                                                           {"rescheduling", rescheduling},
                                                           {"reload", reload},
                                                           {"model_recompute", recompute_gpu_s}};
  for (const auto& [cause, gpu_s] : causes) {
    lost_hours[cause] = gpu_s / 3600.0;
    lost_usd[cause] = gpu_s / 3600.0 * price;
  }
  lost_usd["total"] = (detection + replay + rescheduling + reload + recompute_gpu_s) / 3600.0 * price;
  return {{"by_component", by},         {"lost_gpu_hours", lost_hours},
          {"lost_usd", lost_usd},       {"models_destroyed", models_lost},
          {"storage_events", list},     {"domain_events", domain_events},
          {"rebuilds", rebuilds},       {"stripe_groups_lost", lost},
          {"data_loss_events", losses}, {"data_lost_by_class", lost_by_class}};
}

} // namespace

Json build_results(const models::Scenario& sc, const RunOutput& run) {
  const double T = run.simulated_s;
  Json r;
  r["schema_version"] = kResultsSchemaVersion;
  r["scenario"] = sc.resolved;
  r["provenance"] = {{"aisim_version", kAisimVersion},
                     {"git_commit", kGitCommit},
                     // the library the run linked at run time, which check_simgrid() accepted
                     {"simgrid_version", simgrid_version_found()},
                     {"seed", sc.simulation.seed}};

  double compute = 0, data = 0, ckpt = 0, failure = 0;
  Json jobs = Json::array();
  const auto blocked_writes = blocked_writes_by_job(run.metrics);
  for (size_t j = 0; j < sc.jobs.size(); ++j) {
    const auto& job = sc.jobs[j];
    const auto& jm = run.metrics.jobs[j];
    compute += jm.compute_gpu_s;
    failure += jm.failure_gpu_s;
    data += jm.data_stall_gpu_s;
    ckpt += jm.checkpoint_stall_gpu_s;
    // A job's own GPU-time base is its window on its nodes: from its start to its end (the simulated period's
    // end when it runs to the end), so a job that finishes early is not charged idle time after it.
    const double ran_until =
        job.duration || job.epochs > 0 || !jm.failure.empty() ? std::max(jm.end_s, job.start.value) : T;
    const double window_s = std::max(0.0, ran_until - job.start.value);
    const double life_gpu_s = job.gpus * window_s;
    const BlockedWrites& blocked = blocked_writes[j];
    const Split s =
        make_split(jm.compute_gpu_s, jm.data_stall_gpu_s, jm.checkpoint_stall_gpu_s, jm.failure_gpu_s, life_gpu_s);
    const auto w = models::summarize(jm.checkpoint_write_s);
    const auto st = models::summarize(jm.checkpoint_stall_s);
    jobs.push_back(
        {{"name", job.name},
         {"kind", job.kind},
         {"gpus", job.gpus},
         {"utilization", s.compute},
         {"stall", split_json(s)},
         {"steps", jm.steps},
         {"step_s", job.step_time.value},
         {"data_demand_Bps", job.kind != "inference" ? job.batch_bytes().value / job.step_time.value : 0.0},
         {"checkpoints",
          {{"count", jm.checkpoint_write_s.size()},
           {"size_bytes", job.checkpoint.size.value},
           {"storage", job.checkpoint.storage},
           {"mode", job.checkpoint.mode},
           {"write_s",
            {{"mean", w.mean},
             {"p50", w.p50},
             {"p99", w.p99},
             {"max", w.max},
             {"histogram", histogram_json(models::histogram(jm.checkpoint_write_s))}}},
           {"stall_s", {{"mean", st.mean}, {"max", st.max}}},
           {"restore_s", jm.restore_s},
           {"space_wait_s", jm.checkpoint_space_wait_s},
           {"interval_s", jm.interval_s.empty() ? 0.0 : jm.interval_s.back()},
           {"optimal_interval", interval_advice(sc, job, jm)}}},
         {"status", jm.failure.empty() ? "ok" : "failed"},
         {"blocked_writes",
          {{"count", blocked.count},
           {"waited_s", blocked.waited_s},
           {"longest_s", blocked.longest_s},
           {"longest_fraction_of_window", window_s > 0 ? std::min(1.0, blocked.longest_s / window_s) : 0.0}}},
         {"failure", jm.failure.empty() ? Json() : Json(jm.failure)},
         {"start_s", job.start.value},
         {"end_s", jm.end_s},
         {"staging_wait_s", jm.staging_wait_s},
         {"model_load_s", jm.model_load_s},
         {"failures",
          {{"count", jm.failures},
           {"lost_gpu_s", jm.lost_gpu_s},
           {"detection_gpu_s", jm.detection_gpu_s},
           {"replay_gpu_s", jm.replay_gpu_s},
           {"rescheduling_gpu_s", jm.rescheduling_gpu_s},
           {"reload_gpu_s", jm.reload_gpu_s},
           {"restarts_from_older_checkpoint", jm.restarts_from_older},
           {"restarts_from_scratch", jm.restarts_from_scratch}}},
         {"dataset",
          {{"read_bytes", jm.dataset_read_bytes},
           // (0 for a job without a dataset, an inference fleet: 0 / 0 was written as null)
           {"epochs", job.dataset.size.value > 0 ? jm.dataset_read_bytes / job.dataset.size.value : 0.0},
           {"cache_hit_fraction", jm.dataset_read_bytes > 0 ? jm.dataset_cache_bytes / jm.dataset_read_bytes : 0.0}}},
         {"lifecycle", {{"evaluated", jm.evaluated}, {"validated", jm.validated}, {"released", jm.released}}}});
    if (job.kind == "inference")
      jobs.back()["inference"] = inference_json(job.inference, jm);
  }
  const double cluster_gpu_s = sc.gpu_count() * T;
  const Split g = make_split(compute, data, ckpt, failure, cluster_gpu_s);
  r["gpu"] = {{"count", sc.gpu_count()}, {"utilization", g.compute}, {"stall", split_json(g)}};
  r["jobs"] = jobs;

  Json storage = Json::array();
  std::vector<double> peak_used(sc.storage.size());
  std::vector<models::StorageUsage> usage;
  for (size_t s = 0; s < sc.storage.size(); ++s) {
    const auto& sys = sc.storage[s];
    const auto& sm = run.metrics.storage[s];
    peak_used[s] = sm.peak_used_bytes(T);
    {
      models::StorageUsage u;
      u.mean_by_class = sm.mean_used_by_class(T);
      for (double b : u.mean_by_class)
        u.mean_stored_bytes += b;
      const auto at_start = sm.used_by_class(0.0), at_end = sm.used_by_class(T);
      for (double b : at_start)
        u.start_bytes += b;
      for (double b : at_end)
        u.end_bytes += b;
      for (size_t k = 0; k < at_end.size(); ++k)
        u.gained_by_class[k] = std::max(0.0, at_end[k] - at_start[k]);
      for (auto cls : {models::DataClass::active_checkpoint, models::DataClass::production_model}) {
        const auto k = static_cast<size_t>(cls);
        u.bounded_growth_bytes += std::max(0.0, at_end[k] - at_start[k]);
      }
      u.read_bytes = sm.read_bytes;
      u.one_off_read_bytes = sm.one_off_read_bytes;
      u.one_off_write_bytes = sm.one_off_write_bytes;
      usage.push_back(u);
    }
    storage.push_back({{"name", sys.name},
                       {"kind", sys.kind},
                       {"read_bytes", sm.read_bytes},
                       {"write_bytes", sm.write_bytes},
                       {"copied_in_bytes", sm.copied_in_bytes},
                       {"copied_out_bytes", sm.copied_out_bytes},
                       {"read_bytes_after_period", bytes_after(sm.transfers, IoDirection::read, T)},
                       {"write_bytes_after_period", bytes_after(sm.transfers, IoDirection::write, T)},
                       {"mean_read_Bps", sm.read_bytes / run.traffic_s},
                       {"mean_write_Bps", sm.write_bytes / run.traffic_s},
                       {"peak_read_Bps", peak_rate_Bps(sm.transfers, IoDirection::read)},
                       {"peak_write_Bps", peak_rate_Bps(sm.transfers, IoDirection::write)},
                       {"max_flow_Bps", run.flow_bounds[s].read_Bps},
                       {"max_flow_write_Bps", run.flow_bounds[s].write_Bps},
                       {"max_flow_with_copies_Bps", run.flow_bounds[s].read_with_copies_Bps},
                       {"max_flow_with_copies_write_Bps", run.flow_bounds[s].write_with_copies_Bps},
                       {"raw_capacity_bytes", sys.raw_capacity().value},
                       {"capacity_bytes", sys.capacity().value},
                       {"peak_used_bytes", peak_used[s]},
                       {"used_by_class", used_by_class_json(sm, T)},
                       {"drives", sys.drive_count()},
                       {"capex_usd", models::storage_capex(sys).value},
                       {"power_W", models::storage_power(sys).value},
                       {"data_services", data_services_json(sc, sys)}});
    if (sc.storage_can_fail(static_cast<int>(s)))
      storage.back()["failures"] = storage_failures_json(sys, sm, T);
    if (auto d = durability_json(sc, sys, sm, usage.back().mean_by_class, T); !d.is_null())
      storage.back()["durability"] = d;
    if (const auto x = models::domain_exposure(sys, static_cast<int>(s), sc.fault_domains); !x.by_domain.empty()) {
      Json by = Json::array();
      for (const auto& e : x.by_domain)
        by.push_back({{"domain", sc.fault_domains[e.domain].name},
                      {"kind", sc.fault_domains[e.domain].kind},
                      {"drives", e.drives},
                      {"groups_exposed", e.groups_exposed}});
      storage.back()["fault_domains"] = {{"groups", x.groups}, {"exposed_groups", x.exposed_groups}, {"by_domain", by}};
    }
  }
  r["storage"] = storage;
  r["failures"] = failures_json(sc, run.metrics);
  if (auto threats = threats_json(sc, run.metrics); !threats.is_null())
    r["threats"] = threats;
  r["movements"] = movements_json(sc, run.metrics);
  r["bottlenecks"] = bottlenecks_json(sc, run);
  r["capacity_events"] = capacity_events_json(sc, run.metrics);

  models::GpuTimeSplit split{g.compute, g.data, g.checkpoint, g.failure, g.idle};
  models::RunTotals totals;
  totals.simulated_s = T;
  for (size_t j = 0; j < sc.jobs.size(); ++j) {
    const auto& job = sc.jobs[j];
    totals.trains = totals.trains || job.kind == "training" || job.kind == "fine_tuning";
    if (job.kind == "inference") {
      double requests = 0;
      for (const auto& p : run.metrics.jobs[j].serving)
        requests += p.requests / std::max(1, job.inference.reads_per_request);
      totals.requests += requests;
      totals.requests_within_slo +=
          requests * models::slo_attainment(run.metrics.jobs[j].serving, job.inference.slo.value);
    }
  }
  const auto c = models::compute_cost(sc, split, usage, totals, models::build_cluster_network(sc).fabric.inventory());
  Json components = Json::array();
  for (const auto& cc : c.components)
    components.push_back({{"name", cc.name},
                          {"kind", cc.kind},
                          {"purchase_usd", cc.purchase.value},
                          {"growth_purchase_usd", cc.growth.value},
                          {"amortized_usd", cc.amortized.value},
                          {"maintenance_usd", cc.maintenance.value},
                          {"energy_usd", cc.energy.value},
                          {"facility_usd", cc.facility.value},
                          {"rent_usd", cc.rent.value},
                          {"space_usd", cc.space.value},
                          {"retrieval_usd", cc.retrieval.value},
                          {"total_usd", cc.total().value}});
  Json by_class = Json::object();
  for (int k = 0; k < models::kDataClasses; ++k)
    by_class[models::data_class_name(static_cast<models::DataClass>(k))] = c.storage_by_class[k].value;
  by_class["unused_capacity"] = c.storage_unused.value;
  by_class["retrieval"] = c.storage_retrieval.value;
  r["cost"] = {{"horizon_s", c.horizon.value},
               {"service_life_s", c.service_life.value},
               {"capex_usd", c.capex.value},
               {"capex_growth_usd", c.capex_growth.value},
               {"capex_amortized_usd", c.capex_amortized.value},
               {"opex_usd", c.opex.value},
               {"opex_per_year_usd", c.opex_per_year.value},
               {"maintenance_usd", c.maintenance.value},
               {"energy_usd", c.energy.value},
               {"facility_usd", c.facility.value},
               {"gpu_rent_usd", c.rent.value},
               {"data_growth_per_year", sc.costs.data_growth},
               {"storage_services_usd", c.services.value},
               {"gpu_stalled_usd", c.gpu_stalled.value},
               {"gpu_unused_usd", c.gpu_unused.value},
               {"total_usd", c.total.value},
               {"total_with_lost_gpu_usd", c.total_with_lost_gpu.value},
               {"objective",
                {{"metric", "total_with_lost_gpu_usd"},
                 {"value", c.total_with_lost_gpu.value},
                 {"unit", "USD"},
                 {"better", "lower"},
                 {"what", "spend over the horizon plus the GPU time lost to stalls and failures at gpu_hour_price"}}},
               {"extrapolation", c.extrapolation},
               {"periods", c.windows},
               {"useful_gpu_hours", c.useful_gpu_hours},
               // A unit the scenario does not produce has no price: null rather than a misleading figure.
               {"usd_per_useful_gpu_hour", c.usd_per_useful_gpu_hour > 0 ? Json(c.usd_per_useful_gpu_hour) : Json()},
               {"usd_per_1000_requests", c.usd_per_1000_requests > 0 ? Json(c.usd_per_1000_requests) : Json()},
               {"usd_per_1000_requests_within_slo",
                c.usd_per_1000_requests_within_slo > 0 ? Json(c.usd_per_1000_requests_within_slo) : Json()},
               {"usd_per_tb_month", c.usd_per_tb_month > 0 ? Json(c.usd_per_tb_month) : Json()},
               {"storage",
                {{"capex_usd", c.storage_capex.value},
                 {"opex_usd", c.storage_opex.value},
                 {"opex_per_year_usd", c.storage_opex.value * (365 * 86400.0) / c.horizon.value},
                 {"total_usd", c.storage_total.value}}},
               {"price_sheet", price_sheet_json(sc)},
               {"by_component", components},
               {"storage_by_data_class", by_class}};
  r["placement"] = placement_json(sc, r);

  Json warnings = Json::array();
  if (run.stopped) // first: every other figure is read in its light
    warnings.push_back(stop_description(*run.stopped, run.simulated_s));
  for (const auto& w : c.warnings)
    warnings.push_back(w);
  for (size_t s = 0; s < sc.storage.size(); ++s)
    if (peak_used[s] > sc.storage[s].capacity().value)
      warnings.push_back("storage \"" + sc.storage[s].name + "\" would need " +
                         models::format_bytes(models::Bytes(peak_used[s])) + " but holds " +
                         models::format_bytes(sc.storage[s].capacity()) +
                         "; lower policies.checkpoint_keep_last or add drives");
  for (const auto& job : sc.jobs) {
    const auto* g = sc.find_node_group(job.node_group);
    const double allreduce_s = job.allreduce_bytes_per_step.value * g->gpus_per_node / g->compute_nic_bandwidth().value;
    if (sc.network.converged && allreduce_s > job.step_time.value)
      warnings.push_back("job \"" + job.name + "\" needs " + models::format_duration(models::Seconds(allreduce_s)) +
                         " per step for its all-reduce alone on the compute NICs, more than its step_time; step_time "
                         "should already include communication that cannot overlap");
  }
  for (size_t j = 0; j < sc.jobs.size(); ++j) {
    const auto& w = run.metrics.jobs[j].checkpoint_write_s;
    if (!w.empty() && models::summarize(w).mean > sc.jobs[j].checkpoint.interval.value)
      warnings.push_back("job \"" + sc.jobs[j].name +
                         "\" spends longer writing each checkpoint than training "
                         "between them; lengthen its checkpoint interval or speed up its checkpoint storage");
  }
  for (size_t j = 0; j < sc.jobs.size(); ++j) {
    const auto& jm = run.metrics.jobs[j];
    if (!jm.failure.empty())
      warnings.push_back("job \"" + sc.jobs[j].name + "\" stopped at " +
                         models::format_duration(models::Seconds(jm.end_s)) + ": " + jm.failure);
  }
  std::map<std::pair<int, std::string>, std::pair<int, double>> full; // (system, action) -> count, bytes or wait
  for (const auto& e : run.metrics.capacity_events) {
    auto& x = full[{e.storage, e.action}];
    ++x.first;
    x.second += e.action == "blocked" ? e.waited_s : e.bytes;
  }
  for (const auto& [key, x] : full) {
    const auto& name = sc.storage[key.first].name;
    if (key.second == "blocked")
      warnings.push_back("storage \"" + name + "\" was full: " + std::to_string(x.first) +
                         " writes waited for space, " + models::format_duration(models::Seconds(x.second)) +
                         " in all (policies.on_full = block_writes)");
    else if (key.second == "evicted")
      warnings.push_back("storage \"" + name + "\" was full: " + models::format_bytes(models::Bytes(x.second)) +
                         " of older data evicted to make room, " + std::to_string(x.first) +
                         " times (policies.on_full = evict_oldest)");
  }
  r["warnings"] = warnings;
  r["sim"] = {{"simulated_s", T}, {"wall_s", run.wall_s}, {"events", run.metrics.activities}};
  if (run.stopped)
    r["sim"]["stopped"] = {
        {"by", run.stopped->by},
        {run.stopped->by == "max_wall" ? "limit_s" : "limit_events",
         run.stopped->by == "max_wall" ? Json(run.stopped->limit) : Json(static_cast<uint64_t>(run.stopped->limit))},
        {"period_s", run.stopped->period_s}};
  return r;
}

std::string stop_description(const RunStop& stop, double simulated_s) {
  using models::Seconds;
  const std::string limit = stop.by == "max_wall" ? "--max-wall " + models::format_duration(Seconds(stop.limit))
                                                  : "--max-events " + models::format_count(stop.limit);
  return "stopped by " + limit + " after " + models::format_duration(Seconds(simulated_s)) + " of the " +
         models::format_duration(Seconds(stop.period_s)) + " period (" +
         fmt("%.1f %%", 100.0 * simulated_s / stop.period_s) +
         "): every figure here is of that shorter period, ended there as the scenario's end would";
}

namespace {
// time, 4 GPU-time shares, then per system read and write rates and a column per data class it holds.
double timeseries_columns(const models::Scenario& sc) {
  return 5.0 + static_cast<double>(sc.storage.size()) * (2.0 + models::kDataClasses);
}
constexpr double kValueBytes = 14; // "1234567.891011," at the widest
} // namespace

double timeseries_rows(const models::Scenario& sc) {
  return std::ceil(sc.simulation.duration.value / sc.simulation.timeseries_resolution.value);
}

double estimate_output_bytes(const models::Scenario& sc) {
  constexpr double kFixedBytes = 1 << 20; // results.json and the report's page, without its sampled series
  return timeseries_rows(sc) * timeseries_columns(sc) * kValueBytes + kFixedBytes;
}

double estimate_timeseries_memory_bytes(const models::Scenario& sc) {
  // A double per value in the bins and the text of every value (10 ms over a week of scenarios/default.json:
  // 6.05e7 rows of 13 values, 14.7 GB at its peak; this says 17.3 GB).
  return timeseries_rows(sc) * timeseries_columns(sc) * (sizeof(double) + kValueBytes);
}

std::string build_timeseries_csv(const models::Scenario& sc, const RunOutput& run) {
  const double step = sc.simulation.timeseries_resolution.value;
  const auto bins = static_cast<size_t>(std::ceil(run.simulated_s / step));
  const size_t ns = sc.storage.size();
  std::vector<double> compute(bins), data(bins), ckpt(bins), fail(bins);
  std::vector<std::vector<double>> rd(ns, std::vector<double>(bins)), wr(ns, std::vector<double>(bins));
  // Spreads `amount` uniformly over [a, b) into the bins it overlaps; what took no time goes to the bin it
  // happened in. What lies past the last bin is after the period (results.json's *_bytes_after_period).
  auto spread = [&](std::vector<double>& v, double a, double b, double amount) {
    if (b <= a) {
      if (a >= 0 && a < run.simulated_s)
        v[std::min(bins - 1, static_cast<size_t>(a / step))] += amount;
      return;
    }
    // The last bin ends with the period, which need not be a whole number of steps.
    for (auto i = static_cast<size_t>(a / step); i < bins && i * step < b; ++i) {
      const double lo = std::max(a, i * step), hi = std::min({b, (i + 1) * step, run.simulated_s});
      if (hi > lo)
        v[i] += amount * (hi - lo) / (b - a);
    }
  };
  for (size_t j = 0; j < sc.jobs.size(); ++j) {
    const double gpus = sc.jobs[j].gpus;
    for (const auto& seg : run.metrics.jobs[j].segments) {
      const double gpu_s = gpus * (seg.end_s - seg.start_s);
      spread(compute, seg.start_s, seg.end_s, gpu_s * seg.compute);
      spread(data, seg.start_s, seg.end_s, gpu_s * seg.data_stall);
      spread(ckpt, seg.start_s, seg.end_s, gpu_s * seg.checkpoint_stall);
      spread(fail, seg.start_s, seg.end_s, gpu_s * seg.failure);
    }
  }
  for (size_t s = 0; s < ns; ++s)
    for (const auto& t : run.metrics.storage[s].transfers)
      spread(t.direction == IoDirection::read ? rd[s] : wr[s], t.start_s, t.end_s, t.bytes);
  // Occupancy per system and data class at the end of each bin; a class gets a column on the systems it ever
  // occupies.
  std::vector<std::vector<std::array<double, models::kDataClasses>>> held(ns);
  std::vector<std::vector<int>> classes(ns);
  for (size_t s = 0; s < ns; ++s) {
    const auto events = run.metrics.storage[s].usage_in_time_order();
    std::array<double, models::kDataClasses> now{};
    std::array<bool, models::kDataClasses> seen{};
    size_t e = 0;
    for (size_t i = 0; i < bins; ++i) {
      const double bin_end = std::min((i + 1) * step, run.simulated_s);
      for (; e < events.size() && events[e].time_s <= bin_end; ++e) {
        now[static_cast<size_t>(events[e].cls)] += events[e].bytes;
        seen[static_cast<size_t>(events[e].cls)] = true;
      }
      held[s].push_back(now);
    }
    for (int c = 0; c < models::kDataClasses; ++c)
      if (seen[c])
        classes[s].push_back(c);
  }
  std::string out = "time_s,gpu_utilization,stall_data,stall_checkpoint,stall_failure,idle";
  for (size_t s = 0; s < ns; ++s) {
    const auto& name = sc.storage[s].name;
    out += "," + name + "_read_Bps," + name + "_write_Bps," + name + "_used_bytes";
    for (int c : classes[s])
      out += "," + name + "_" + models::data_class_name(static_cast<models::DataClass>(c)) + "_bytes";
  }
  out += "\n";
  const double gpus = sc.gpu_count();
  for (size_t i = 0; i < bins; ++i) {
    const double width = std::min(step, run.simulated_s - i * step);
    const double cap = gpus * width;
    const double u = compute[i] / cap, d = data[i] / cap, c = ckpt[i] / cap, f = fail[i] / cap;
    out += fmt("%.0f", i * step) + "," + fmt("%.6f", u) + "," + fmt("%.6f", d) + "," + fmt("%.6f", c) + "," +
           fmt("%.6f", f) + "," + fmt("%.6f", std::max(0.0, 1.0 - u - d - c - f));
    for (size_t s = 0; s < ns; ++s) {
      double total = 0;
      for (double b : held[s][i])
        total += b;
      // Whole bytes and bytes per second: plain numbers a spreadsheet reads, never scientific notation.
      out += "," + fmt("%.0f", rd[s][i] / width) + "," + fmt("%.0f", wr[s][i] / width) + "," + fmt("%.0f", total);
      for (int c : classes[s])
        out += "," + fmt("%.0f", held[s][i][c]);
    }
    out += "\n";
  }
  return out;
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
  const auto pct = [](double v) { return fmt("%5.1f %%", 100.0 * v); };
  o += "aisim " + r["provenance"]["aisim_version"].get<std::string>() + ": " +
       r["scenario"]["name"].get<std::string>() + ", " + std::to_string(g["count"].get<int>()) + " GPUs, " +
       models::format_duration(Seconds(r["sim"]["simulated_s"].get<double>())) + " simulated in " +
       fmt("%.2f s", r["sim"]["wall_s"].get<double>()) + " (" + std::to_string(r["sim"]["events"].get<uint64_t>()) +
       " events)\n";
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
    const std::string util = failed ? "failed" : fmt("%5.1f%%", 100.0 * j["utilization"].get<double>());
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
               fmt("%.1f %%", 100 * a[g].get<double>()) + ")";
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
           " SLO: " + fmt("%.3f %%", 100.0 * sv["slo_attainment"].get<double>()) + "\n";
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
    return p >= 0.001     ? fmt("%.1f %%", 100 * p)
           : 1 / p < 1e12 ? "1 in " + models::format_count(1 / p)
                          : "1 in " + fmt("%.2g", 1 / p);
  };
  // The rare-event answer for each system whose drives fail: what one period could not show.
  for (const auto& st : r["storage"]) {
    if (!st.contains("durability"))
      continue;
    const auto& d = st["durability"];
    const std::string chance = odds(d["loss_probability"].get<double>());
    const double mttdl = d["mttdl_years"].get<double>();
    const std::string years = mttdl >= 1e12  ? fmt("%.3g", mttdl) + " years"
                              : mttdl >= 1e9 ? fmt("%.3g", mttdl / 1e9) + " billion years"
                              : mttdl >= 1e6 ? fmt("%.3g", mttdl / 1e6) + " million years"
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
           (c["method"] == "simulation" ? " (simulated: " + std::to_string(d["simulated_groups_lost"].get<int>()) +
                                              " losses in the period, 95 % interval " +
                                              fmt("%.1f", 100 * c["loss_probability_ci95"][0].get<double>()) + "-" +
                                              fmt("%.1f %%", 100 * c["loss_probability_ci95"][1].get<double>()) + ")"
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
              ? "; data grows " + fmt("%g", c["data_growth_per_year"].get<double>() * 100) + " % a year"
              : std::string()) +
         ")\n";
  o += c["extrapolation"] == "once"
           ? "  (the " + period + " simulated happen once; then the GPUs are unused and storage keeps what it holds)\n"
           : "  (the " + period + " simulated stand for the horizon, repeated " + fmt("%.1f", c["periods"]) +
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

Json read_results(const std::string& run_dir, std::string* why) {
  const auto path = std::filesystem::path(run_dir) / "results.json";
  const auto fail = [&](const std::string& message) {
    if (why)
      *why = message;
    return Json(Json::value_t::discarded);
  };
  std::error_code ec;
  if (!std::filesystem::is_directory(run_dir, ec))
    return fail(run_dir + ": not a folder");
  if (!std::filesystem::is_regular_file(path, ec))
    return fail(run_dir + ": not a results folder (no results.json)");
  // Whole into memory, then parsed: nlohmann reads a stream a character at a time, three times slower, and a sweep
  // reads every point's.
  std::string reason;
  const auto text = models::read_text_file(path.string(), &reason);
  if (!text)
    return fail(path.string() + ": cannot read it (" + reason + ")");
  Json r = Json::parse(*text, nullptr, false);
  if (r.is_discarded() || !r.is_object())
    return fail(path.string() + ": not a JSON object (expected aisim's results.json)");
  if (!r.contains("schema_version") || r["schema_version"] != kResultsSchemaVersion)
    return fail(path.string() + ":/schema_version: expected " + std::to_string(kResultsSchemaVersion) + ", got " +
                (r.contains("schema_version") ? r["schema_version"].dump() : std::string("none")) +
                " (written by another aisim version)");
  return r;
}

} // namespace aisim::sim
