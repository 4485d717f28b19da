// Fuzz target: the engine itself, on clusters drawn from the input. The bytes pick a shipped scenario as a template
// and redraw what shapes the simulation: how many nodes (1 to 20,000 per group, jobs and inference replicas scaled
// with them in whole nodes), how many enclosures, controllers, servers, gateways, drives and ports each system has,
// which workloads run (one dropped, or one doubled on nodes of its own), the link latency, the period, the fidelity
// (full up to 256 nodes) and the seed. A drawn value the model refuses is put back to the template's (parse_repaired)
// so that nearly every input simulates (1,484 of 1,500 random inputs). Each runs on its own SimGrid engine, stopped
// after 20,000 events. Issue 58 found a solver crash at one node count in thousands; this looks for its siblings.
// Properties: no crash, hang, leak or sanitizer report; an accepted scenario runs without an exception; its
// results.json has only finite numbers (NaN is written as null) and GPU-time shares that sum to 1.
// AISIM_FUZZ_VERBOSE=1 prints each input's scenario, or why it was refused, and its run.
// Found so far (kept in corpus/engine/): an inference fleet's dataset epochs were 0 / 0, null in results.json.
#include "tests/fuzz/fuzz_input.hpp"

#include "sim/engine/simulation.hpp"
#include "sim/results/results.hpp"

#include "models/scenario/scenario_parser.hpp"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <map>
#include <string_view>

namespace {

using aisim::models::Json;

const std::string kDir = AISIM_SOURCE_DIR "/scenarios";
const char* const kTemplates[] = {"default",       "training",           "fine-tuning",    "inference",
                                  "preprocessing", "lifecycle",          "multi-tier",     "failures",
                                  "jbof-vs-array", "jbof-vs-array-risk", "cv-small-files", "tco-growth"};

// The input as a stream of draws; past its end every draw is 0.
class Draws {
public:
  Draws(const uint8_t* data, size_t size) : data_(data), size_(size) {}
  uint32_t next() {
    uint32_t v = 0;
    for (int i = 0; i < 4; ++i)
      v = v << 8 | (pos_ < size_ ? data_[pos_++] : 0);
    return v;
  }
  size_t below(size_t n) { return n == 0 ? 0 : next() % n; }
  bool chance(int in) { return below(in) == 0; } // one in `in`
  // Log-uniform in [lo, hi].
  double log_between(double lo, double hi) {
    return lo * std::pow(hi / lo, static_cast<double>(next()) / 4294967295.0);
  }

private:
  const uint8_t* data_;
  size_t size_;
  size_t pos_ = 0;
};

Json load_template(const std::string& name) {
  static std::map<std::string, Json> cache;
  auto it = cache.find(name);
  if (it == cache.end()) {
    std::ifstream in(kDir + "/" + name + ".json");
    it = cache.emplace(name, Json::parse(in)).first;
  }
  return it->second;
}

// What a system is built of, redrawn: 1 to 64 of each.
const char* const kCounts[] = {"enclosures",
                               "drives_per_enclosure",
                               "ports_per_enclosure",
                               "controllers",
                               "ports_per_controller",
                               "shelves",
                               "drives_per_shelf",
                               "gateways",
                               "servers",
                               "drives_per_server",
                               "ports_per_server",
                               "metadata_servers",
                               "stripe_count"};

Json draw_scenario(Draws& d, const Json& base) {
  Json doc = base;
  // Nodes: each group scaled by one factor, its jobs with it in whole nodes (and their batches), so that what ran
  // side by side still fits.
  const double factor = d.log_between(1.0 / 64, 512);
  std::map<std::string, std::pair<double, double>> groups; // name: scale, GPUs per node
  for (auto& g : doc["cluster"]["node_groups"]) {
    const double before = g.value("count", 1.0);
    const double after = std::clamp(std::round(before * factor), 1.0, 20000.0);
    g["count"] = static_cast<int64_t>(after);
    groups[g.value("name", "")] = {after / before, g.value("gpus_per_node", 8.0)};
  }
  auto& jobs = doc["workloads"];
  for (auto& w : jobs) {
    const auto& [s, per_node] =
        w.contains("node_group") ? groups[w["node_group"].get<std::string>()] : groups.begin()->second;
    if (!w.contains("gpus") || !w["gpus"].is_number())
      continue;
    const double gpus = w["gpus"].get<double>();
    const double nodes = std::max(1.0, std::floor(gpus / per_node * s));
    w["gpus"] = static_cast<int64_t>(nodes * per_node);
    if (w.contains("scale") && w["scale"].is_array()) // an inference fleet's replicas over the day
      for (auto& band : w["scale"])
        if (band.contains("replicas") && band["replicas"].is_number())
          band["replicas"] =
              static_cast<int64_t>(std::max(1.0, std::floor(band["replicas"].get<double>() * nodes * per_node / gpus)));
    if (w.contains("global_batch") && w["global_batch"].is_number())
      w["global_batch"] =
          static_cast<int64_t>(std::max(1.0, std::round(w["global_batch"].get<double>() * nodes * per_node / gpus)));
  }
  // The systems' shapes.
  if (doc.contains("storage"))
    for (auto& [name, sys] : doc["storage"].items())
      for (const char* key : kCounts)
        if (sys.contains(key) && !d.chance(3))
          sys[key] = static_cast<int64_t>(1 + d.below(std::string_view(key).starts_with("drives") ? 24 : 64));
  // The mix: one workload dropped, or one doubled (a second job of the same kind, on nodes of its own).
  if (jobs.size() > 1 && d.chance(4)) {
    jobs.erase(jobs.begin() + static_cast<std::ptrdiff_t>(d.below(jobs.size())));
  } else if (d.chance(4)) {
    Json twin = jobs[d.below(jobs.size())];
    twin["name"] = twin.value("name", "job") + "-twin";
    const std::string group = twin.value("node_group", doc["cluster"]["node_groups"][0].value("name", ""));
    for (auto& g : doc["cluster"]["node_groups"])
      if (g.value("name", "") == group)
        g["count"] = g["count"].get<int64_t>() + twin.value("gpus", 0) / g.value("gpus_per_node", 8);
    jobs.push_back(std::move(twin));
  }
  const char* const latencies[] = {"0us", "100ns", "1us", "1us", "5us"};
  doc["network"]["link_latency"] = latencies[d.below(std::size(latencies))];
  const char* const periods[] = {"1h", "6h", "1d", "3d", "7d"};
  doc["simulation"]["duration"] = periods[d.below(std::size(periods))];
  double nodes = 0;
  for (const auto& g : doc["cluster"]["node_groups"])
    nodes += g.value("count", 0.0);
  doc["simulation"]["fidelity"] = nodes <= 256 && d.chance(2) ? "full" : "aggregate";
  doc["simulation"]["seed"] = static_cast<int64_t>(d.below(1000));
  return doc;
}

// Where the model refuses a drawn value that the template had (more drives than bays, stripes over more servers
// than drawn), the template's value is put back, and where it refuses a system's shape as a whole (drives that do
// not divide among controllers, a dataset larger than the system) the template's system: a few rounds keep most of
// the draw and give a scenario to run.
aisim::models::LoadedScenario parse_repaired(Json doc, const Json& base) {
  const auto restore = [&](const std::string& pointer) {
    const Json::json_pointer at(pointer);
    if (!base.contains(at) || (doc.contains(at) && doc[at] == base[at]))
      return false;
    doc[at] = base[at];
    return true;
  };
  for (int round = 0;; ++round) {
    auto parsed = aisim::models::parse_scenario(doc, "fuzz-engine.json", kDir);
    if (parsed.scenario || round == 4)
      return parsed;
    bool repaired = false;
    for (const auto& item : parsed.diagnostics.items()) {
      if (item.warning || item.pointer.empty())
        continue;
      if (restore(item.pointer))
        repaired = true;
      else if (item.pointer.starts_with("/storage/"))
        repaired |= restore(item.pointer.substr(0, item.pointer.find('/', 9)));
      else if (const auto at = item.message.find("storage \""); at != std::string::npos) {
        const auto name = item.message.substr(at + 9, item.message.find('"', at + 9) - at - 9);
        repaired |= restore("/storage/" + name);
      }
    }
    if (!repaired)
      return parsed;
  }
}

void require_finite(const Json& j, const std::string& at = "") {
  if (j.is_number_float() && !std::isfinite(j.get<double>()))
    std::fprintf(stderr, "results.json%s: %s\n", at.c_str(), j.dump().c_str());
  if (j.is_number_float())
    aisim::fuzz::require(std::isfinite(j.get<double>()), "a number in results.json is not finite");
  else if (j.is_object())
    for (const auto& [k, v] : j.items())
      require_finite(v, at + "/" + k);
  else if (j.is_array())
    for (size_t i = 0; i < j.size(); ++i)
      require_finite(j[i], at + "/" + std::to_string(i));
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace aisim;
  Draws draws(data, size);
  const Json base = load_template(kTemplates[draws.below(std::size(kTemplates))]);
  const Json doc = draw_scenario(draws, base);
  auto parsed = parse_repaired(doc, base);
  if (std::getenv("AISIM_FUZZ_VERBOSE"))
    std::fprintf(stderr, "%s: %s\n", doc["name"].dump().c_str(),
                 parsed.scenario ? "runs" : parsed.diagnostics.format(false).c_str());
  if (!parsed.scenario)
    return 0; // a shape the model refuses that no template value repairs: nothing to simulate
  sim::RunLimits limits;
  limits.max_events = 20000;
  const sim::RunOutput run = sim::run_simulation(*parsed.scenario, {}, limits);
  const Json r = sim::build_results(*parsed.scenario, run);
  if (std::getenv("AISIM_FUZZ_VERBOSE"))
    std::fprintf(stderr, "  %s nodes, fidelity %s, latency %s: %llu events, %.0f s of %s\n",
                 doc["cluster"]["node_groups"][0]["count"].dump().c_str(),
                 doc["simulation"]["fidelity"].get<std::string>().c_str(),
                 doc["network"]["link_latency"].get<std::string>().c_str(),
                 static_cast<unsigned long long>(run.metrics.activities), run.simulated_s,
                 doc["simulation"]["duration"].get<std::string>().c_str());
  require_finite(r);
  const auto& gpu = r.at("gpu");
  double sum = gpu.at("utilization").get<double>();
  for (const auto& [state, share] : gpu.at("stall").items())
    sum += share.get<double>();
  fuzz::require(std::abs(sum - 1.0) < 1e-6, "the GPU-time shares do not sum to 1");
  return 0;
}
