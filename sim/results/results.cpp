#include "sim/results/results.hpp"
#include "sim/results/bottlenecks.hpp"
#include "sim/results/durability.hpp"
#include "sim/results/placement.hpp"
#include "sim/results/summary.hpp"
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
#include <filesystem>
#include <map>
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

// Failure counts by component kind (GPU nodes, storage components, fault domains), each storage component's
// outage in time order, and each fault domain's failure.
struct FailureEvents {
  Json by_component, storage_events, domain_events;
};

FailureEvents failure_events(const models::Scenario& sc, const Metrics& m) {
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
  return {by, list, domain_events};
}

// Each system's rebuilds, and the stripe groups it lost.
std::pair<Json, Json> rebuilds_json(const models::Scenario& sc, const Metrics& m) {
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
  return {rebuilds, lost};
}

// Data destroyed, event by event and in all, per data class (bytes, and whole items where an item is lost).
std::pair<Json, Json> data_losses_json(const models::Scenario& sc, const Metrics& m) {
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
  return {losses, lost_by_class};
}

// Models destroyed with every copy, and the GPU time lost to failures by cause with its value at the GPU-hour price.
struct LostGpuTime {
  Json models_destroyed, hours, usd;
};

LostGpuTime lost_gpu_json(const models::Scenario& sc, const Metrics& m) {
  Json models_lost = Json::array();
  double recompute_gpu_s = 0;
  for (const auto& ml : m.model_losses) {
    recompute_gpu_s += ml.recompute_gpu_s;
    models_lost.push_back({{"time_s", ml.time_s},
                           {"job", sc.jobs[ml.job].name},
                           {"class", models::data_class_name(ml.cls)},
                           {"recompute_gpu_hours", ml.recompute_gpu_s / 3600.0}});
  }
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
  return {models_lost, lost_hours, lost_usd};
}

// Every failure in the cluster: counts by component kind (GPU nodes included), each storage component's outage in
// time order, rebuilds, data and models destroyed, and the GPU time lost.
Json failures_json(const models::Scenario& sc, const Metrics& m) {
  const auto events = failure_events(sc, m);
  const auto [rebuilds, lost] = rebuilds_json(sc, m);
  const auto [losses, lost_by_class] = data_losses_json(sc, m);
  const auto gpu = lost_gpu_json(sc, m);
  return {{"by_component", events.by_component},
          {"lost_gpu_hours", gpu.hours},
          {"lost_usd", gpu.usd},
          {"models_destroyed", gpu.models_destroyed},
          {"storage_events", events.storage_events},
          {"domain_events", events.domain_events},
          {"rebuilds", rebuilds},
          {"stripe_groups_lost", lost},
          {"data_loss_events", losses},
          {"data_lost_by_class", lost_by_class}};
}

// One job's row: what it ran, how its own GPU time was spent, its checkpoints, failures, data and lifecycle.
Json job_json(const models::Scenario& sc, size_t j, const RunOutput& run, const BlockedWrites& blocked) {
  const double T = run.simulated_s;
  const auto& job = sc.jobs[j];
  const auto& jm = run.metrics.jobs[j];
  // A job's own GPU-time base is its window on its nodes: from its start to its end (the simulated period's
  // end when it runs to the end), so a job that finishes early is not charged idle time after it.
  const double ran_until =
      job.duration || job.epochs > 0 || !jm.failure.empty() ? std::max(jm.end_s, job.start.value) : T;
  const double window_s = std::max(0.0, ran_until - job.start.value);
  const double life_gpu_s = job.gpus * window_s;
  const Split s =
      make_split(jm.compute_gpu_s, jm.data_stall_gpu_s, jm.checkpoint_stall_gpu_s, jm.failure_gpu_s, life_gpu_s);
  const auto w = models::summarize(jm.checkpoint_write_s);
  const auto st = models::summarize(jm.checkpoint_stall_s);
  Json o = {
      {"name", job.name},
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
      {"lifecycle", {{"evaluated", jm.evaluated}, {"validated", jm.validated}, {"released", jm.released}}}};
  if (job.kind == "inference")
    o["inference"] = inference_json(job.inference, jm);
  return o;
}

// The jobs' rows, and the cluster's GPU time by state: every GPU over the whole period.
std::pair<Json, Split> jobs_json(const models::Scenario& sc, const RunOutput& run) {
  double compute = 0, data = 0, ckpt = 0, failure = 0;
  Json jobs = Json::array();
  const auto blocked_writes = blocked_writes_by_job(run.metrics);
  for (size_t j = 0; j < sc.jobs.size(); ++j) {
    const auto& jm = run.metrics.jobs[j];
    compute += jm.compute_gpu_s;
    failure += jm.failure_gpu_s;
    data += jm.data_stall_gpu_s;
    ckpt += jm.checkpoint_stall_gpu_s;
    jobs.push_back(job_json(sc, j, run, blocked_writes[j]));
  }
  return {jobs, make_split(compute, data, ckpt, failure, sc.gpu_count() * run.simulated_s)};
}

// What a system held over the period and what was read from it, for the cost model's storage services and growth.
models::StorageUsage storage_usage(const StorageMetrics& sm, double T) {
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
  return u;
}

// One storage system's row: traffic, its max-flow bounds, capacity and use, failures, durability, fault domains.
Json storage_json(const models::Scenario& sc, size_t s, const RunOutput& run, const models::StorageUsage& usage,
                  double peak_used) {
  const double T = run.simulated_s;
  const auto& sys = sc.storage[s];
  const auto& sm = run.metrics.storage[s];
  Json o = {{"name", sys.name},
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
            {"peak_used_bytes", peak_used},
            {"used_by_class", used_by_class_json(sm, T)},
            {"drives", sys.drive_count()},
            {"capex_usd", models::storage_capex(sys).value},
            {"power_W", models::storage_power(sys).value},
            {"data_services", data_services_json(sc, sys)}};
  if (sc.storage_can_fail(static_cast<int>(s)))
    o["failures"] = storage_failures_json(sys, sm, T);
  if (auto d = durability_json(sc, sys, sm, usage.mean_by_class, T); !d.is_null())
    o["durability"] = d;
  if (const auto x = models::domain_exposure(sys, static_cast<int>(s), sc.fault_domains); !x.by_domain.empty()) {
    Json by = Json::array();
    for (const auto& e : x.by_domain)
      by.push_back({{"domain", sc.fault_domains[e.domain].name},
                    {"kind", sc.fault_domains[e.domain].kind},
                    {"drives", e.drives},
                    {"groups_exposed", e.groups_exposed}});
    o["fault_domains"] = {{"groups", x.groups}, {"exposed_groups", x.exposed_groups}, {"by_domain", by}};
  }
  return o;
}

// What the run produced that has a price: whether anything trained, the requests served and those within the SLO.
models::RunTotals run_totals(const models::Scenario& sc, const RunOutput& run) {
  models::RunTotals totals;
  totals.simulated_s = run.simulated_s;
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
  return totals;
}

// The cost section: spend over the horizon, per component and per data class, and the prices per unit of work.
Json cost_json(const models::Scenario& sc, const models::CostBreakdown& c) {
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
  return {{"horizon_s", c.horizon.value},
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
}

// What a planner must read the figures in the light of: a limit that stopped the run, the cost model's caveats,
// storage too small, a step too short for its all-reduce, checkpoints longer than their interval, failed jobs,
// full systems.
Json warnings_json(const models::Scenario& sc, const RunOutput& run, const std::vector<std::string>& cost_warnings,
                   const std::vector<double>& peak_used) {
  Json warnings = Json::array();
  if (run.stopped) // first: every other figure is read in its light
    warnings.push_back(stop_description(*run.stopped, run.simulated_s));
  for (const auto& w : cost_warnings)
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
  return warnings;
}

// The run itself: simulated time, wall time, events, and the limit that stopped it early.
Json sim_json(const RunOutput& run) {
  Json o = {{"simulated_s", run.simulated_s}, {"wall_s", run.wall_s}, {"events", run.metrics.activities}};
  if (run.stopped)
    o["stopped"] = {
        {"by", run.stopped->by},
        {run.stopped->by == "max_wall" ? "limit_s" : "limit_events",
         run.stopped->by == "max_wall" ? Json(run.stopped->limit) : Json(static_cast<uint64_t>(run.stopped->limit))},
        {"period_s", run.stopped->period_s}};
  return o;
}

} // namespace

Json build_results(const models::Scenario& sc, const RunOutput& run) {
  Json r;
  r["schema_version"] = kResultsSchemaVersion;
  r["scenario"] = sc.resolved;
  r["provenance"] = {{"aisim_version", kAisimVersion},
                     {"git_commit", kGitCommit},
                     // the library the run linked at run time, which check_simgrid() accepted
                     {"simgrid_version", simgrid_version_found()},
                     {"seed", sc.simulation.seed}};
  const auto [jobs, g] = jobs_json(sc, run);
  r["gpu"] = {{"count", sc.gpu_count()}, {"utilization", g.compute}, {"stall", split_json(g)}};
  r["jobs"] = jobs;

  Json storage = Json::array();
  std::vector<double> peak_used;
  std::vector<models::StorageUsage> usage;
  for (size_t s = 0; s < sc.storage.size(); ++s) {
    peak_used.push_back(run.metrics.storage[s].peak_used_bytes(run.simulated_s));
    usage.push_back(storage_usage(run.metrics.storage[s], run.simulated_s));
    storage.push_back(storage_json(sc, s, run, usage.back(), peak_used.back()));
  }
  r["storage"] = storage;
  r["failures"] = failures_json(sc, run.metrics);
  if (auto threats = threats_json(sc, run.metrics); !threats.is_null())
    r["threats"] = threats;
  r["movements"] = movements_json(sc, run.metrics);
  r["bottlenecks"] = bottlenecks_json(sc, run);
  r["capacity_events"] = capacity_events_json(sc, run.metrics);

  const models::GpuTimeSplit split{g.compute, g.data, g.checkpoint, g.failure, g.idle};
  const auto c =
      models::compute_cost(sc, split, usage, run_totals(sc, run), models::build_cluster_network(sc).fabric.inventory());
  r["cost"] = cost_json(sc, c);
  r["placement"] = placement_json(sc, r);
  r["warnings"] = warnings_json(sc, run, c.warnings, peak_used);
  r["sim"] = sim_json(run);
  return r;
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
