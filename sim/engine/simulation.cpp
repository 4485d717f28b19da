#include "sim/engine/simulation.hpp"

#include "sim/engine/inference_fleet.hpp"
#include "sim/engine/lifecycle.hpp"
#include "sim/engine/storage_failures.hpp"
#include "sim/engine/training_job.hpp"
#include "sim/platform/layout.hpp"
#include "sim/platform/platform.hpp"

#include <xbt/log.h>

#include <algorithm>
#include <chrono>

namespace aisim::sim {

namespace sg4 = simgrid::s4u;

double estimate_model_memory_bytes(const models::Scenario& sc) {
  // Peak memory of scenarios/bench/llm-16k-30d over one simulated minute: at fidelity aggregate 153 MB with 100,000
  // nodes and 1.13 GB with 1,000,000 (about 1.1 KB per fabric endpoint: node or storage server); at fidelity full
  // 868 MB with 8,192 nodes and 64 enclosures when each transfer was a flow per node and server (about 1.5 KB a
  // pair). Since a job's nodes on one leaf are one host at full too, this is an upper bound there (62 MB for 2,048
  // nodes, 30 days).
  constexpr double kBase = 48e6, kPerEndpoint = 1.2e3, kPerPair = 1.5e3;
  double nodes = 0, servers = 0, widest = 0;
  for (const auto& g : sc.node_groups)
    nodes += g.count;
  for (const auto& s : sc.storage) {
    servers += s.servers;
    widest = std::max(widest, static_cast<double>(s.servers));
  }
  double bytes = kBase + kPerEndpoint * (nodes + servers);
  if (sc.simulation.fidelity == "full")
    bytes += kPerPair * nodes * widest;
  return bytes;
}

RunOutput run_simulation(const models::Scenario& sc, const ProgressCallback& on_progress, const RunLimits& limits) {
  const auto wall0 = std::chrono::steady_clock::now();
  // SimGrid's own INFO lines (configuration changes) would mix with our output; keep only its warnings.
  xbt_log_control_set("root.thresh:warning");
  int argc = 1;
  char name[] = "aisim";
  char* argv[] = {name, nullptr};
  sg4::Engine engine(&argc, argv);
  configure_engine(engine);
  const models::ClusterNetwork net = models::build_cluster_network(sc);
  const Platform platform = build_platform(sc, net);

  RunOutput out;
  out.flow_bounds = models::storage_flow_bounds(sc, net);
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
  for (size_t j = 0; j < sc.jobs.size(); ++j)
    m.jobs[j].window_end_s = sc.jobs[j].end_s(duration);
  m.storage.resize(sc.storage.size());
  Lifecycle lifecycle(sc, platform, m);
  lifecycle.start();
  StorageFailures failures(sc, platform, m, [&lifecycle](int storage, double fraction, const std::string& cause) {
    lifecycle.data_lost(storage, fraction, cause);
  });
  if (failures.any())
    sg4::Actor::create("storage-failures", platform.servers.front().host, [&failures] { failures(); });
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

  // Run in slices so progress can be reported; the slices do not change the simulation. With a limit, each slice
  // is run in 100 steps and the limit looked at after each: a stop comes within 0.01% of the period of the limit.
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
