#include "sim/results/bottlenecks.hpp"

#include "models/cluster/path_limits.hpp"

#include <algorithm>
#include <array>
#include <limits>
#include <map>
#include <tuple>

namespace aisim::sim {

using models::Json;

namespace {

// A phase reaching this share of a tier's bound is held by it: the fluid model's rates settle exactly on a bound,
// and what is left is start-up latency and the ramp of the drives' queues.
constexpr double kReached = 0.9;
// Other traffic below this share of the phase's own rate is not what held it back.
constexpr double kNoticeable = 0.05;

const char* phase_id(Traffic t) {
  switch (t) {
  case Traffic::dataset:
    return "data_reads";
  case Traffic::checkpoint:
    return "checkpoint_writes";
  case Traffic::restore:
    return "restores";
  case Traffic::model_load:
    return "model_loads";
  case Traffic::output:
    return "output_writes";
  case Traffic::serving:
    return "serving_reads";
  default:
    return "other";
  }
}

// The summed rate of a set of transfers over time, each at its average rate: bytes moved within any interval.
class RateProfile {
public:
  void add(double start_s, double end_s, double bytes) {
    if (end_s <= start_s)
      return;
    const double rate = bytes / (end_s - start_s);
    steps_.emplace_back(start_s, rate);
    steps_.emplace_back(end_s, -rate);
  }
  void finish() {
    std::sort(steps_.begin(), steps_.end());
    double rate = 0, bytes = 0, t = 0;
    for (const auto& [at, delta] : steps_) {
      bytes += rate * (at - t);
      t = at;
      rate += delta;
      cumulative_.push_back({at, bytes, rate});
    }
  }
  double bytes_between(double a, double b) const { return bytes_until(b) - bytes_until(a); }

private:
  struct Point {
    double t, bytes, rate; // bytes moved up to t, rate from t on
  };
  double bytes_until(double t) const {
    auto it =
        std::upper_bound(cumulative_.begin(), cumulative_.end(), t, [](double x, const Point& p) { return x < p.t; });
    if (it == cumulative_.begin())
      return 0.0;
    --it;
    return it->bytes + std::max(0.0, it->rate) * (t - it->t);
  }
  std::vector<std::pair<double, double>> steps_;
  std::vector<Point> cumulative_;
};

// What the GPUs lost to the phase, in GPU-seconds, and whether the job's own pace set its rate (reads that kept
// up with the steps, serving that kept up with the requests).
std::pair<double, bool> stall_of(const models::TrainingJob& job, const JobMetrics& jm, Traffic t) {
  const double training = jm.compute_gpu_s + jm.data_stall_gpu_s;
  const bool kept_up = training > 0 && jm.data_stall_gpu_s < 0.01 * training;
  switch (t) {
  case Traffic::dataset:
    return {jm.data_stall_gpu_s, kept_up};
  case Traffic::output:
    // Written as the input is read and processed: at the job's pace, whatever held that.
    return {0.0, true};
  case Traffic::checkpoint:
    return {jm.checkpoint_stall_gpu_s, false};
  case Traffic::restore:
    return {jm.reload_gpu_s, false};
  case Traffic::model_load: {
    double s = jm.model_load_s * job.gpus;
    for (double l : jm.load_s)
      s += l * job.inference.gpus_per_replica;
    return {s, false};
  }
  case Traffic::serving:
    return {0.0, jm.overloaded_s <= 0};
  default:
    return {0.0, false};
  }
}

Json tier_json(const models::TierLimit& t) {
  return {{"tier", t.tier}, {"name", t.name}, {"Bps", t.Bps}, {"detail", t.detail}};
}

// What the other traffic on a system did while a phase's transfers ran: the rates the verdict weighs.
struct Around {
  double bytes = 0, busy_s = 0;
  double others_Bps = 0, opposite_Bps = 0, rebuild_Bps = 0;
  double degraded = 0; // share of the phase's time with a component of the system out of service
};

// Every system's traffic over time, by direction, and its rebuilds.
struct SystemTraffic {
  std::array<RateProfile, 2> by_direction;
  RateProfile rebuilds;
  RateProfile outages; // components out of service, one "byte" per second each

  // `spans` (start, end, bytes) of one phase on this system in `dir`.
  Around around(const std::vector<std::array<double, 3>>& spans, IoDirection dir) const {
    Around a;
    double same = 0, opposite = 0, rebuild = 0, out = 0;
    for (const auto& [start, end, bytes] : spans) {
      if (end <= start)
        continue;
      a.bytes += bytes;
      a.busy_s += end - start;
      same += by_direction[static_cast<int>(dir)].bytes_between(start, end);
      opposite += by_direction[1 - static_cast<int>(dir)].bytes_between(start, end);
      rebuild += rebuilds.bytes_between(start, end);
      out += std::min(end - start, outages.bytes_between(start, end));
    }
    if (a.busy_s > 0) {
      // The phase's own transfers are in the same-direction profile too; what is left is everyone else's.
      a.others_Bps = std::max(0.0, same - a.bytes) / a.busy_s;
      a.opposite_Bps = opposite / a.busy_s;
      a.rebuild_Bps = rebuild / a.busy_s;
      a.degraded = out / a.busy_s;
    }
    return a;
  }
};

// The verdict on one phase: the tier it reached, or why it reached none, and the next limit with its headroom.
void judge(Json& e, const std::vector<models::TierLimit>& limits, double achieved, const Around& a, bool paced) {
  Json lj = Json::array();
  for (const auto& t : limits)
    lj.push_back(tier_json(t));
  e["limits"] = lj;
  e["achieved_Bps"] = achieved;
  e["others_Bps"] = a.others_Bps;
  e["opposite_Bps"] = a.opposite_Bps;
  e["rebuild_Bps"] = a.rebuild_Bps;
  std::string limiter, name, cause;
  double limit_Bps = achieved;
  size_t next = 0;
  const auto& first = limits.front();
  // Reads, writes and rebuilds meet only on the drives: they explain a shortfall only when together they fill them.
  double drives_Bps = std::numeric_limits<double>::infinity();
  for (const auto& t : limits)
    if (t.tier == "drives")
      drives_Bps = t.Bps;
  if (achieved >= kReached * first.Bps) {
    limiter = first.tier, name = first.name, cause = "bandwidth", limit_Bps = first.Bps, next = 1;
  } else if (paced) {
    limiter = "demand", name = "the job's own pace (storage keeps up)", cause = "demand";
  } else if (achieved + a.others_Bps >= kReached * first.Bps) {
    limiter = first.tier, name = first.name + ", shared with other transfers", cause = "shared", limit_Bps = first.Bps,
    next = 1;
  } else if (std::max(a.opposite_Bps, a.rebuild_Bps) >= kNoticeable * achieved &&
             achieved + a.opposite_Bps + a.rebuild_Bps >= kReached * drives_Bps) {
    const bool rb = a.rebuild_Bps > a.opposite_Bps;
    limiter = rb ? "rebuild" : "read_write_sharing";
    name = rb ? "rebuild traffic on the drives" : "reads and writes sharing drive bandwidth";
    cause = "sharing";
  } else if (a.others_Bps >= kNoticeable * achieved) {
    limiter = "contention", name = "other transfers on the same path", cause = "sharing";
  } else if (a.degraded >= kNoticeable) {
    // A failed drive's data read back from its stripe's survivors, a controller's work taken over: the path is
    // narrower than the healthy tiers above say.
    limiter = "degraded", name = "failed components (degraded operation)", cause = "degraded";
  } else {
    limiter = "latency", name = "request latency and per-transfer overheads", cause = "latency";
  }
  e["limiter"] = limiter;
  e["limiter_name"] = name;
  e["cause"] = cause;
  e["limit_Bps"] = limit_Bps;
  e["of_limit"] = achieved / limit_Bps;
  if (next < limits.size()) {
    e["next"] = limits[next].tier;
    e["next_name"] = limits[next].name;
    e["next_Bps"] = limits[next].Bps;
    e["headroom"] = limits[next].Bps / limit_Bps;
  } else {
    e["next"] = Json();
    e["headroom"] = Json();
  }
}

// Every transfer of the run, by what it was: each job phase's (job, phase, storage, direction) transfers in job
// order, the copies arriving by route (from, to), and each system's traffic, outages and rebuilds over time.
struct RunTraffic {
  std::map<std::tuple<int, Traffic, int, IoDirection>, std::vector<std::array<double, 3>>> phases;
  std::map<std::pair<int, int>, std::vector<std::array<double, 3>>> copies;
  std::vector<SystemTraffic> traffic;
};

RunTraffic gather_traffic(const models::Scenario& sc, const RunOutput& run) {
  RunTraffic rt;
  auto& [phases, copies, traffic] = rt;
  traffic.resize(sc.storage.size());
  for (size_t s = 0; s < sc.storage.size(); ++s) {
    const auto& sm = run.metrics.storage[s];
    for (const auto& t : sm.transfers) {
      traffic[s].by_direction[static_cast<int>(t.direction)].add(t.start_s, t.end_s, t.bytes);
      if (t.job >= 0 && t.traffic != Traffic::other)
        phases[{t.job, t.traffic, static_cast<int>(s), t.direction}].push_back({t.start_s, t.end_s, t.bytes});
      if (t.copy && t.direction == IoDirection::write && t.from >= 0 && t.from != static_cast<int>(s))
        copies[{t.from, static_cast<int>(s)}].push_back({t.start_s, t.end_s, t.bytes});
    }
    for (const auto& f : sm.failures)
      traffic[s].outages.add(f.time_s, std::min(f.back_s, run.traffic_s), std::min(f.back_s, run.traffic_s) - f.time_s);
    traffic[s].outages.finish();
    for (const auto& rb : sm.rebuilds)
      traffic[s].rebuilds.add(rb.start_s, std::min(rb.end_s, run.traffic_s), rb.written_bytes + rb.read_bytes);
    for (auto& p : traffic[s].by_direction)
      p.finish();
    traffic[s].rebuilds.finish();
  }

  return rt;
}

// What limited each job phase on each system it used.
void add_phases(Json& out, const models::Scenario& sc, const RunOutput& run, const models::ClusterNetwork& net,
                const RunTraffic& rt) {
  const auto& traffic = rt.traffic;
  for (const auto& [key, spans] : rt.phases) {
    const auto [j, kind, s, dir] = key;
    const auto& job = sc.jobs[j];
    const Around a = traffic[s].around(spans, dir);
    if (a.busy_s <= 0 || a.bytes <= 0)
      continue;
    models::PathQuery q;
    q.storage = s;
    q.op = dir == IoDirection::read ? models::IoOp::read : models::IoOp::write;
    q.group = run.job_nodes[j].group;
    q.nodes = run.job_nodes[j].nodes;
    q.job = j;
    if (q.group < 0 || q.nodes.empty())
      continue;
    if (kind == Traffic::checkpoint || kind == Traffic::restore) {
      q.files = job.gpus; // one shard file per rank (sim/engine/lifecycle_checkpoints.cpp)
      q.file_size = job.checkpoint_shard().value;
    }
    if (kind == Traffic::dataset && job.dataset.small_files()) {
      q.metadata_ops_per_byte = job.dataset.metadata_ops_per_file / job.dataset.file_size.value;
      q.file_size = job.dataset.file_size.value;
    }
    const auto [stall_gpu_s, paced] = stall_of(job, run.metrics.jobs[j], kind);
    Json e = {{"job", job.name},
              {"phase", phase_id(kind)},
              {"storage", sc.storage[s].name},
              {"direction", dir == IoDirection::read ? "read" : "write"},
              {"transfers", spans.size()},
              {"bytes", a.bytes},
              {"stall_gpu_s", stall_gpu_s}};
    judge(e, models::path_limits(sc, net, q), a.bytes / a.busy_s, a, paced);
    out.push_back(std::move(e));
  }
}

// Copies between systems (replication, staging, tiering), by route: no job's GPUs wait on them directly.
void add_copies(Json& out, const models::Scenario& sc, const RunOutput& run, const models::ClusterNetwork& net,
                const RunTraffic& rt) {
  const auto& traffic = rt.traffic;
  for (const auto& [route, spans] : rt.copies) {
    const auto [from, to] = route;
    const Around a = traffic[to].around(spans, IoDirection::write);
    if (a.busy_s <= 0 || a.bytes <= 0)
      continue;
    // A policy's movement copies data at rest, reading the source's drives; replication forwards what arrives.
    bool at_rest = false;
    for (const auto& m : run.metrics.movements)
      at_rest = at_rest || (m.from == from && m.to == to);
    Json e = {{"job", Json()},
              {"phase", "copies"},
              {"from", sc.storage[from].name},
              {"storage", sc.storage[to].name},
              {"direction", "write"},
              {"transfers", spans.size()},
              {"bytes", a.bytes},
              {"stall_gpu_s", 0.0}};
    judge(e, models::copy_limits(sc, net, from, to, at_rest), a.bytes / a.busy_s, a, false);
    out.push_back(std::move(e));
  }
}

// Rebuilds, per drive rebuilt: finished ones at the rate they ran, unfinished ones up to the end of the traffic.
void add_rebuilds(Json& out, const models::Scenario& sc, const RunOutput& run, const RunTraffic& rt) {
  const auto& traffic = rt.traffic;
  for (size_t s = 0; s < sc.storage.size(); ++s) {
    std::vector<std::array<double, 3>> spans;
    double drive_s = 0, written = 0;
    for (const auto& rb : run.metrics.storage[s].rebuilds) {
      const double end = std::min(rb.end_s, run.traffic_s);
      if (end <= rb.start_s || rb.drives <= 0)
        continue;
      spans.push_back({rb.start_s, end, 0.0});
      drive_s += (end - rb.start_s) * rb.drives;
      written += rb.written_bytes;
    }
    if (drive_s <= 0 || written <= 0)
      continue;
    // Everyone's traffic while the rebuilds ran competes with them on the drives, at rebuild_priority.
    Around a = traffic[s].around(spans, IoDirection::write);
    a.others_Bps += a.opposite_Bps;
    a.opposite_Bps = 0;
    a.rebuild_Bps = 0;
    Json e = {{"job", Json()},        {"phase", "rebuilds"},       {"storage", sc.storage[s].name},
              {"direction", "write"}, {"transfers", spans.size()}, {"bytes", written},
              {"stall_gpu_s", 0.0}};
    judge(e, models::rebuild_limits(sc, static_cast<int>(s)), written / drive_s, a, false);
    if (e["limiter"] == "contention" || e["cause"] == "shared")
      e["limiter_name"] = "job traffic on the same drives (rebuild_priority " +
                          models::format_count(sc.storage[s].protection.rebuild_priority, 2) + ")";
    out.push_back(std::move(e));
  }
}

} // namespace

Json bottlenecks_json(const models::Scenario& sc, const RunOutput& run) {
  const auto net = models::build_cluster_network(sc);
  const RunTraffic rt = gather_traffic(sc, run);
  Json out = Json::array();
  add_phases(out, sc, run, net, rt);
  add_copies(out, sc, run, net, rt);
  add_rebuilds(out, sc, run, rt);
  return out;
}

std::string format_bottlenecks(const Json& r) {
  const auto it = r.find("bottlenecks");
  if (it == r.end() || it->empty())
    return "";
  const auto rate = [](const Json& v) { return models::format_rate(models::BytesPerSecond(v.get<double>())); };
  // Enough for a side-by-side comparison of ten jobs (a read and a write phase each); the rest is in results.json.
  constexpr size_t kMaxRows = 20;
  std::vector<std::array<std::string, 4>> rows;
  for (const auto& e : *it) {
    if (rows.size() == kMaxRows)
      break;
    std::string phase = e["phase"].get<std::string>();
    std::replace(phase.begin(), phase.end(), '_', ' ');
    const std::string who = e["job"].is_string() ? e["job"].get<std::string>() + " " : std::string();
    const std::string what = who + phase + (e.contains("from") ? " " + e["from"].get<std::string>() : "") +
                             (e["direction"] == "read" ? " <- " : " -> ") + e["storage"].get<std::string>();
    std::string by = e["limiter_name"].get<std::string>();
    if (e["cause"] == "bandwidth" || e["cause"] == "shared")
      by += " " + rate(e["limit_Bps"]);
    std::string next = "-";
    if (!e["next"].is_null()) {
      const double h = e["headroom"].get<double>();
      next = e["next_name"].get<std::string>() + " " + rate(e["next_Bps"]) + " (" +
             (h >= 1000 ? std::string(">1,000") : models::format_count(h, h < 10 ? 1 : 0)) + "x)";
    }
    rows.push_back({what, rate(e["achieved_Bps"]), by, next});
  }
  std::array<size_t, 3> w{std::string("phase").size(), std::string("rate").size(), std::string("held by").size()};
  for (const auto& row : rows)
    for (size_t c = 0; c < w.size(); ++c)
      w[c] = std::max(w[c], row[c].size());
  const auto line = [&](const std::array<std::string, 4>& row) {
    std::string l = "  ";
    for (size_t c = 0; c < w.size(); ++c)
      l += row[c] + std::string(w[c] - row[c].size() + 2, ' ');
    return l + row[3] + "\n";
  };
  std::string s = "what limits each phase\n" + line({"phase", "rate", "held by", "next limit (headroom)"});
  for (const auto& row : rows)
    s += line(row);
  if (it->size() > rows.size())
    s += "  ... " + std::to_string(it->size() - rows.size()) + " more in results.json (bottlenecks)\n";
  return s;
}

} // namespace aisim::sim
