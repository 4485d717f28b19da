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

struct Phase {
  std::vector<const TransferRecord*> records;
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

} // namespace

Json bottlenecks_json(const models::Scenario& sc, const RunOutput& run) {
  const auto net = models::build_cluster_network(sc);
  // (job, phase, storage, direction) -> its transfers, in job order.
  std::map<std::tuple<int, Traffic, int, IoDirection>, Phase> phases;
  std::vector<std::array<RateProfile, 2>> traffic(sc.storage.size());
  std::vector<RateProfile> rebuilds(sc.storage.size());
  for (size_t s = 0; s < sc.storage.size(); ++s) {
    const auto& sm = run.metrics.storage[s];
    for (const auto& t : sm.transfers) {
      traffic[s][static_cast<int>(t.direction)].add(t.start_s, t.end_s, t.bytes);
      if (t.job >= 0 && t.traffic != Traffic::other)
        phases[{t.job, t.traffic, static_cast<int>(s), t.direction}].records.push_back(&t);
    }
    for (const auto& rb : sm.rebuilds)
      rebuilds[s].add(rb.start_s, std::min(rb.end_s, run.traffic_s), rb.written_bytes + rb.read_bytes);
    for (auto& p : traffic[s])
      p.finish();
    rebuilds[s].finish();
  }

  Json out = Json::array();
  for (const auto& [key, phase] : phases) {
    const auto [j, kind, s, dir] = key;
    const auto& job = sc.jobs[j];
    const auto& jm = run.metrics.jobs[j];
    double bytes = 0, busy = 0, same = 0, opposite = 0, rebuild = 0;
    for (const auto* t : phase.records) {
      if (t->end_s <= t->start_s)
        continue;
      bytes += t->bytes;
      busy += t->end_s - t->start_s;
      same += traffic[s][static_cast<int>(dir)].bytes_between(t->start_s, t->end_s);
      opposite += traffic[s][1 - static_cast<int>(dir)].bytes_between(t->start_s, t->end_s);
      rebuild += rebuilds[s].bytes_between(t->start_s, t->end_s);
    }
    if (busy <= 0 || bytes <= 0)
      continue;
    const double achieved = bytes / busy;
    // The phase's own transfers are in the same-direction profile too; what is left is everyone else's.
    const double others_Bps = std::max(0.0, same - bytes) / busy;
    const double opposite_Bps = opposite / busy, rebuild_Bps = rebuild / busy;

    models::PathQuery q;
    q.storage = s;
    q.op = dir == IoDirection::read ? models::IoOp::read : models::IoOp::write;
    q.group = run.job_nodes[j].group;
    q.nodes = run.job_nodes[j].nodes;
    if (q.group < 0 || q.nodes.empty())
      continue;
    if (kind == Traffic::checkpoint)
      q.files = job.gpus; // one shard file per rank (sim/engine/lifecycle_checkpoints.cpp)
    if (kind == Traffic::dataset && job.dataset.small_files())
      q.metadata_ops_per_byte = job.dataset.metadata_ops_per_file / job.dataset.file_size.value;
    const auto limits = models::path_limits(sc, net, q);
    const auto [stall_gpu_s, paced] = stall_of(job, jm, kind);

    Json e = {{"job", job.name},
              {"phase", phase_id(kind)},
              {"storage", sc.storage[s].name},
              {"direction", dir == IoDirection::read ? "read" : "write"},
              {"transfers", phase.records.size()},
              {"bytes", bytes},
              {"achieved_Bps", achieved},
              {"stall_gpu_s", stall_gpu_s},
              {"others_Bps", others_Bps},
              {"opposite_Bps", opposite_Bps},
              {"rebuild_Bps", rebuild_Bps}};
    Json lj = Json::array();
    for (const auto& t : limits)
      lj.push_back(tier_json(t));
    e["limits"] = lj;

    // Reached a tier's bound: that tier. Else the reason it reached none, with the lowest bound as the next limit.
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
    } else if (achieved + others_Bps >= kReached * first.Bps) {
      limiter = first.tier, name = first.name + ", shared with other transfers", cause = "shared",
      limit_Bps = first.Bps, next = 1;
    } else if (std::max(opposite_Bps, rebuild_Bps) >= kNoticeable * achieved &&
               achieved + opposite_Bps + rebuild_Bps >= kReached * drives_Bps) {
      const bool rb = rebuild_Bps > opposite_Bps;
      limiter = rb ? "rebuild" : "read_write_sharing";
      name = rb ? "rebuild traffic on the drives" : "reads and writes sharing drive bandwidth";
      cause = "sharing";
    } else if (others_Bps >= kNoticeable * achieved) {
      limiter = "contention", name = "other transfers on the same path", cause = "sharing";
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
    out.push_back(std::move(e));
  }
  return out;
}

std::string format_bottlenecks(const Json& r) {
  const auto it = r.find("bottlenecks");
  if (it == r.end() || it->empty())
    return "";
  const auto rate = [](const Json& v) { return models::format_rate(models::BytesPerSecond(v.get<double>())); };
  constexpr size_t kMaxRows = 12;
  std::vector<std::array<std::string, 4>> rows;
  for (const auto& e : *it) {
    if (rows.size() == kMaxRows)
      break;
    std::string phase = e["phase"].get<std::string>();
    std::replace(phase.begin(), phase.end(), '_', ' ');
    const std::string what = e["job"].get<std::string>() + " " + phase + (e["direction"] == "read" ? " <- " : " -> ") +
                             e["storage"].get<std::string>();
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
