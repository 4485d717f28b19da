#include "sim/engine/simulation.hpp"

#include "sim/engine/inference_fleet.hpp"
#include "sim/engine/lifecycle.hpp"
#include "sim/engine/simgrid_internals.hpp"
#include "sim/engine/storage_failures.hpp"
#include "sim/engine/training_job.hpp"
#include "sim/platform/layout.hpp"
#include "sim/platform/platform.hpp"

#include <xbt/log.h>

#include <algorithm>
#include <chrono>
#include <cmath>

namespace aisim::sim {

namespace sg4 = simgrid::s4u;

namespace {
// The node sets (hosts) fidelity "full" makes: a job's consecutive nodes on one leaf are one, so each job has about
// one per leaf it spans (one more where it starts mid-leaf), and an inference fleet one more per replica band.
double full_node_sets(const models::Scenario& sc) {
  const auto& net = sc.network;
  double sets = 0;
  for (const auto& job : sc.jobs) {
    const auto* g = sc.find_node_group(job.node_group);
    if (!g || g->gpus_per_node <= 0)
      continue;
    const double nodes = std::ceil(static_cast<double>(job.gpus) / g->gpus_per_node);
    double per_leaf = nodes; // one switch
    if ((net.topology == "spine_leaf" || net.topology == "rail_optimized") && net.nodes_per_leaf > 0)
      per_leaf = net.nodes_per_leaf;
    else if (net.topology == "fat_tree" && net.k > 1)
      per_leaf = net.k / 2;
    sets += std::ceil(nodes / per_leaf) + 1 + static_cast<double>(job.inference.scale.size());
  }
  return sets;
}
} // namespace

double estimate_model_memory_bytes(const models::Scenario& sc) {
  // Peak memory of scenarios/bench/llm-16k-30d over one simulated minute: at fidelity aggregate 153 MB with 100,000
  // nodes and 1.13 GB with 1,000,000 (about 1.1 KB per fabric endpoint: node or storage server).
  // At fidelity full the platform's hosts are the node sets (a job's nodes on one leaf; one host each, with a
  // metadata host each per parallel file system and a fabric peer each on a converged network) and the servers, in
  // one SimGrid full-routing zone, whose table holds an entry for every pair of hosts: scenarios/lifecycle.json's
  // platform at full took 33 B per pair of hosts above its aggregate (537 MB with 64,000 nodes, 4,004 node sets;
  // 2.1 GB with 128,000; 4.7 GB with 192,000), the routes about 1.5 KB per node set and server. The estimate
  // counted nodes instead and missed 250,000 nodes by four times (1.8 GB estimated, 7.9 GB used).
  constexpr double kBase = 48e6, kPerEndpoint = 1.2e3, kPerRoute = 1.5e3, kPerHostPair = 34;
  double nodes = 0, servers = 0, pfs = 0;
  for (const auto& g : sc.node_groups)
    nodes += g.count;
  for (const auto& s : sc.storage) {
    servers += s.servers;
    pfs += s.kind == "pfs" ? 1 : 0;
  }
  double bytes = kBase + kPerEndpoint * (nodes + servers);
  if (sc.simulation.fidelity == "full") {
    const double sets = full_node_sets(sc);
    const double hosts = sets * (1 + pfs + (sc.network.converged ? 1 : 0)) + servers;
    bytes += kPerRoute * sets * servers + kPerHostPair * hosts * hosts;
  }
  return bytes;
}

namespace {

// Where each job runs and the metrics' shape: a slot per job (its window) and per storage system.
void prepare_run(const models::Scenario& sc, const models::ClusterNetwork& net, RunOutput& out) {
  out.job_nodes.resize(sc.jobs.size());
  for (const auto& span : place_jobs(sc, net)) {
    auto& jn = out.job_nodes[span.job];
    jn.group = span.group;
    for (int n = 0; n < span.count; ++n)
      jn.nodes.push_back(span.first + n);
  }
  Metrics& m = out.metrics;
  const double duration = sc.simulation.duration.value;
  m.period_end_s = duration;
  m.jobs.resize(sc.jobs.size());
  for (size_t j = 0; j < sc.jobs.size(); ++j) {
    m.jobs[j].window_end_s = sc.jobs[j].end_s(duration);
    m.jobs[j].gpus = sc.jobs[j].gpus;
  }
  m.storage.resize(sc.storage.size());
}

// One actor per job: an inference fleet or a training (fine-tuning, preprocessing) job, on its first node set.
void start_jobs(const models::Scenario& sc, const Platform& platform, Lifecycle& lifecycle, RunOutput& out) {
  Metrics& m = out.metrics;
  for (size_t j = 0; j < sc.jobs.size(); ++j) {
    auto* host = platform.node_sets[platform.node_sets_of_job[j].front()].host;
    if (sc.jobs[j].kind == "inference") {
      const int data = std::max(0, sc.storage_index(sc.jobs[j].inference.data_storage));
      sg4::Actor::create(sc.jobs[j].name, host,
                         InferenceFleet(sc, static_cast<int>(j), platform, m, lifecycle, out.flow_bounds[data]));
    } else {
      const int data = std::max(0, sc.storage_index(sc.jobs[j].dataset.storage));
      sg4::Actor::create(sc.jobs[j].name, host,
                         TrainingJob(sc, static_cast<int>(j), platform, m, lifecycle, out.flow_bounds[data]));
    }
  }
}

// Runs the period in slices so progress can be reported; the slices do not change the simulation. With a limit,
// each slice is run in 100 steps and the limit looked at after each: a stop comes within 0.01% of the period of
// the limit, and the period then ends there.
void run_in_slices(sg4::Engine& engine, const RunLimits& limits, const ProgressCallback& on_progress,
                   std::chrono::steady_clock::time_point wall0, double duration, RunOutput& out) {
  Metrics& m = out.metrics;
  constexpr int kSlices = 100;
  const int steps = limits.any() ? 100 : 1;
  const auto reached = [&]() -> std::optional<RunStop> {
    if (limits.max_events > 0 && m.activities >= limits.max_events)
      return RunStop{"max_events", static_cast<double>(limits.max_events), duration};
    if (limits.max_wall_s > 0 &&
        std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0).count() >= limits.max_wall_s)
      return RunStop{"max_wall", limits.max_wall_s, duration};
    return std::nullopt;
  };
  for (int i = 1; i <= kSlices && !out.stopped; ++i) {
    for (int k = 1; k <= steps; ++k) {
      const double until = duration * static_cast<double>((i - 1) * steps + k) / (kSlices * steps);
      engine.run_until(until);
      if (limits.any() && until < duration)
        out.stopped = reached();
      if (!out.stopped)
        continue;
      // The period ends here: every actor reads its end from the metrics (Metrics::period_end_s).
      m.period_end_s = until;
      for (auto& jm : m.jobs)
        jm.window_end_s = std::min(jm.window_end_s, until);
      break;
    }
    if (on_progress)
      on_progress(sg4::Engine::get_clock(), out.stopped ? 1.0 : static_cast<double>(i) / kSlices);
  }
}

} // namespace

RunOutput run_simulation(const models::Scenario& sc, const ProgressCallback& on_progress, const RunLimits& limits) {
  const auto wall0 = std::chrono::steady_clock::now();
  // SimGrid's own INFO lines (configuration changes) would mix with our output; keep only its warnings.
  xbt_log_control_set("root.thresh:warning");
  int argc = 1;
  char name[] = "aisim";
  char* argv[] = {name, nullptr};
  check_simgrid(); // once per process: what aisim relies on in SimGrid holds, or a clear error
  sg4::Engine engine(&argc, argv);
  configure_engine(engine);
  reset_simgrid_clock(); // a process's earlier engine left it where it stopped
  const models::ClusterNetwork net = models::build_cluster_network(sc);
  const Platform platform = build_platform(sc, net);

  RunOutput out;
  out.flow_bounds = models::storage_flow_bounds(sc, net);
  prepare_run(sc, net, out);
  Metrics& m = out.metrics;
  const double duration = sc.simulation.duration.value;
  Lifecycle lifecycle(sc, platform, m);
  lifecycle.start();
  StorageFailures failures(sc, platform, m, [&lifecycle](int storage, double fraction, const std::string& cause) {
    lifecycle.data_lost(storage, fraction, cause);
  });
  if (failures.any())
    sg4::Actor::create("storage-failures", platform.servers.front().host, [&failures] { failures(); });
  start_jobs(sc, platform, lifecycle, out);
  run_in_slices(engine, limits, on_progress, wall0, duration, out);
  engine.run(); // let phases that straddle the end finish, so every GPU-second is accounted for
  // The GPU-time base is the simulated period, stretched only by job phases that straddle its end; background
  // copies (asynchronous replication) may finish later without counting as GPU idle time.
  // A job's GPU time ends with its window (a phase running past it was cut there, JobMetrics::add_segment), so
  // GPU time is the simulated period's and jobs that share GPUs one after the other are never counted twice.
  out.simulated_s = m.period_end_s;
  out.traffic_s = m.period_end_s;
  for (auto& jm : m.jobs) {
    out.traffic_s = std::max(out.traffic_s, jm.end_s);
    jm.end_s = std::min(jm.end_s, jm.window_end_s);
  }
  out.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0).count();
  return out;
}

} // namespace aisim::sim
