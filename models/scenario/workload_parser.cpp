#include "models/scenario/workload_parser.hpp"

#include "models/scenario/inference_parser.hpp"
#include "models/scenario/mlperf_presets.hpp"

#include <algorithm>
#include <map>

namespace aisim::models {

namespace {
constexpr int64_t kMaxCount = 10'000'000;
} // namespace

std::optional<double> parse_model_bytes(ObjectReader& r, double bytes_per_parameter, const std::string& what) {
  if (r.has("size") || !r.has("parameters")) {
    auto size = r.quantity("size", Dimension::bytes, nullptr);
    if (r.has("parameters"))
      r.get_diagnostics().error(r.child_pointer("parameters"), "give either size or parameters, not both (expected "
                                                               "one way to size " +
                                                                   what + ")");
    r.accept("parameters");
    r.accept("bytes_per_parameter");
    return size;
  }
  auto params = r.number("parameters", std::nullopt, 1.0, 1e15);
  auto bpp = r.number("bytes_per_parameter", bytes_per_parameter, 0.1, 64.0);
  if (params && bpp)
    return *params * *bpp;
  return std::nullopt;
}

namespace {

// A workload's dataset and checkpoints go where it says, else where the placement rule for their class says.
std::optional<std::string> storage_ref(ObjectReader& r, DataClass c, const Scenario& sc,
                                       const std::vector<std::string>& storage_names) {
  const std::string& placed = sc.policies.place(c);
  if (!r.has("storage") && !placed.empty())
    return r.text("storage", placed.c_str());
  return r.reference("storage", storage_names, "storage systems under /storage");
}

// A workload's name, kind and place, read before the keys that depend on them.
struct WorkloadHead {
  std::optional<std::string> name, kind, group;
  std::optional<int64_t> gpus;
  const NodeGroup* ng = nullptr;
  bool preset_ok = true;
  std::optional<double> start, duration;
  bool duration_ok = true;
};

// The name, kind, node group and GPUs; an MLPerf Storage preset filling the keys the workload leaves out (before
// any of them is read); then its start and duration, which every kind has.
WorkloadHead read_head(ObjectReader& w, Json& wj, const std::string& wptr, const Scenario& sc,
                       const std::vector<std::string>& group_names) {
  auto& diag = w.get_diagnostics();
  WorkloadHead h;
  h.name = w.text("name", nullptr);
  h.kind = w.choice("kind", nullptr, {"training", "fine_tuning", "preprocessing", "inference"});
  if (group_names.size() == 1 && !w.has("node_group")) {
    h.group = w.text("node_group", group_names[0].c_str());
  } else {
    h.group = w.reference("node_group", group_names, "node groups under /cluster/node_groups");
  }
  h.gpus = w.integer("gpus", std::nullopt, 1, kMaxCount);
  for (const auto& g : sc.node_groups)
    if (h.group && g.name == *h.group)
      h.ng = &g;
  if (w.has("preset")) {
    const auto preset = w.choice("preset", nullptr, mlperf_preset_names());
    h.preset_ok = preset.has_value();
    if (h.kind && *h.kind == "inference") {
      diag.error(wptr + "/preset", "workload presets are MLPerf Storage's training workloads (expected no preset "
                                   "on an inference fleet)");
      h.preset_ok = false;
    } else if (preset && h.ng && h.gpus) {
      h.preset_ok = apply_mlperf_preset(wj, *preset, wptr, *h.ng, *h.gpus, diag);
    }
  } else {
    w.accept("preset");
  }
  if (h.gpus && h.ng && *h.gpus % h.ng->gpus_per_node != 0)
    diag.error(wptr + "/gpus", "not a whole number of nodes (expected a multiple of " +
                                   std::to_string(h.ng->gpus_per_node) + " GPUs per node, got " +
                                   std::to_string(*h.gpus) + ")");
  // Every kind runs from `start`, for `duration` or to the end of the simulated period.
  h.start = w.quantity("start", Dimension::seconds, "0s", Bound::non_negative);
  h.duration_ok = w.optional_quantity("duration", Dimension::seconds, h.duration);
  return h;
}

// The job as its head describes it: name, kind, group, GPUs, start and duration (every key of the head valid).
TrainingJob job_of(const WorkloadHead& h) {
  TrainingJob job;
  job.name = *h.name;
  job.kind = *h.kind;
  job.node_group = *h.group;
  job.gpus = static_cast<int>(*h.gpus);
  job.start = Seconds(*h.start);
  if (h.duration)
    job.duration = Seconds(*h.duration);
  return job;
}

// Names are checked once the workload's other keys are, so its errors come in the order of its keys.
void record_name(const std::optional<std::string>& name, const std::string& wptr, std::vector<std::string>& names,
                 Diagnostics& diag) {
  if (!name)
    return;
  check_name(*name, wptr + "/name", diag);
  for (const auto& n : names)
    if (n == *name)
      diag.error(wptr + "/name", "duplicate workload name \"" + *name + "\" (expected unique names)");
  names.push_back(*name);
}

// Compute per step: given directly, or the step's FLOPs at a model FLOPs utilization (MFU) of the GPUs' peak.
struct StepCompute {
  std::optional<double> step, step_flops, mfu;
};

StepCompute read_step_compute(ObjectReader& w, const Json& wj) {
  StepCompute sc;
  const bool from_flops = !w.has("step_time") && w.has("mfu");
  if (!from_flops) {
    sc.step = w.quantity("step_time", Dimension::seconds, nullptr);
    for (const char* k : {"mfu", "flops_per_step", "tokens_per_sample"}) {
      if (w.has(k) && w.has("step_time"))
        w.get_diagnostics().error(w.child_pointer(k),
                                  "give either step_time or mfu with flops_per_step or tokens_per_sample, "
                                  "not both (expected one way to set a step's compute time)");
      w.accept(k);
    }
  } else {
    sc.mfu = w.number("mfu", std::nullopt, 0.001, 1.0);
    if (w.has("flops_per_step") || !w.has("tokens_per_sample")) {
      sc.step_flops = w.number("flops_per_step", std::nullopt, 1.0, 1e30);
      w.accept("tokens_per_sample");
    } else {
      // About 6 FLOPs per parameter per token for a forward and backward pass (Kaplan et al. 2020).
      auto tokens = w.number("tokens_per_sample", std::nullopt, 1.0, 1e9);
      const bool has_params = wj.contains("checkpoint") && wj["checkpoint"].is_object() &&
                              wj["checkpoint"].contains("parameters") && wj["checkpoint"]["parameters"].is_number();
      if (!has_params)
        w.get_diagnostics().error(
            w.child_pointer("tokens_per_sample"),
            "FLOPs from tokens need the model's size (expected checkpoint.parameters, or flops_per_step)");
      else if (tokens && wj.contains("global_batch") && wj["global_batch"].is_number())
        sc.step_flops = 6.0 * wj["checkpoint"]["parameters"].get<double>() * *tokens * wj["global_batch"].get<double>();
    }
  }
  return sc;
}

// Node failures at set times (what-if), beside the random ones of the group's node_mtbf; nullopt when one is bad.
std::optional<std::vector<Seconds>> read_failures_at(ObjectReader& w) {
  std::vector<Seconds> failures_at;
  bool failures_at_ok = true;
  if (w.has("failures_at")) {
    Json* list = w.array("failures_at", true);
    failures_at_ok = list != nullptr;
    for (size_t k = 0; list && k < list->size(); ++k) {
      std::string error;
      const auto& v = (*list)[k];
      const auto t = v.is_string() ? parse_quantity(v.get<std::string>(), Dimension::seconds, &error) : std::nullopt;
      if (!t || *t < 0 || (!failures_at.empty() && *t <= failures_at.back().value)) {
        w.get_diagnostics().error(
            w.child_pointer("failures_at") + "/" + std::to_string(k),
            "not a failure time (expected durations like \"2h\", each after the one before, got " + json_excerpt(v) +
                (error.empty() ? "" : ": " + error) + ")");
        failures_at_ok = false;
        continue;
      }
      failures_at.push_back(Seconds(*t));
    }
  } else {
    w.accept("failures_at");
  }
  if (!failures_at_ok)
    return std::nullopt;
  return failures_at;
}

// Ring all-reduce of BF16 gradients: each GPU sends (and receives) 2 (n-1)/n x 2 bytes per parameter per step,
// about 4 bytes per parameter; without a parameter count the job declares it or sends nothing. Only a count the
// checkpoint's reader accepts (1 .. 1e15) makes a default; it reports the others.
std::string allreduce_default(const Json& wj) {
  std::string allreduce_default = "0B";
  if (wj.contains("checkpoint") && wj["checkpoint"].is_object() && wj["checkpoint"].contains("parameters") &&
      wj["checkpoint"]["parameters"].is_number()) {
    const double params = wj["checkpoint"]["parameters"].get<double>();
    if (params >= 1.0 && params <= 1e15)
      allreduce_default = std::to_string(static_cast<long long>(params * 4)) + "B";
  }
  return allreduce_default;
}

std::optional<Dataset> read_dataset(ObjectReader& w, const std::optional<std::string>& kind, const Scenario& sc,
                                    const std::vector<std::string>& storage_names) {
  std::optional<Dataset> dataset;
  if (auto ds = w.object("dataset", true)) {
    auto size = ds->quantity("size", Dimension::bytes, nullptr);
    auto where = storage_ref(*ds, DataClass::training_dataset, sc, storage_names);
    auto io_size = ds->quantity("io_size", Dimension::bytes, "1MiB");
    // Fine-tuning sets are small and sampled at random; pre-training shards stream.
    auto access =
        ds->choice("access", kind && *kind == "fine_tuning" ? "random" : "sequential", {"sequential", "random"});
    auto outstanding = ds->integer("outstanding_ios", 16, 1, 65536);
    std::optional<double> file_size; // absent: large shards
    const bool file_size_ok = ds->optional_quantity("file_size", Dimension::bytes, file_size);
    auto packed = ds->boolean("packed", false);
    auto md_ops = ds->integer("metadata_ops_per_file", 2, 0, 1000);
    std::optional<std::string> cache = std::string();
    if (ds->has("cache"))
      cache = ds->text("cache", nullptr);
    else
      ds->accept("cache");
    auto shuffle = ds->choice("shuffle", "global", {"global", "node"});
    ds->finish();
    if (cache && !cache->empty() && *cache != "page_cache" &&
        std::find(storage_names.begin(), storage_names.end(), *cache) == storage_names.end())
      ds->get_diagnostics().error(ds->child_pointer("cache"),
                                  "names \"" + *cache +
                                      "\", which is neither \"page_cache\" nor a "
                                      "storage system (expected \"page_cache\" or the job's local_nvme)");
    if (size && where && io_size && access && outstanding && file_size_ok && packed && md_ops && cache && shuffle) {
      dataset = Dataset{Bytes(*size),
                        *where,
                        IoShape{Bytes(*io_size), *access == "random" ? IoPattern::random : IoPattern::sequential,
                                static_cast<int>(*outstanding)},
                        Bytes(file_size.value_or(0.0)),
                        *packed,
                        static_cast<int>(*md_ops),
                        *cache,
                        *shuffle};
      // A loader reads each small file whole, in requests no larger than the file, from files spread at
      // random over the drives.
      if (dataset->small_files()) {
        dataset->io.io_size = Bytes(std::min(*io_size, *file_size));
        dataset->io.access = IoPattern::random;
      }
    }
  }
  return dataset;
}

// Fine-tuning starts from a base model that every node loads.
std::optional<BaseModel> read_base_model(ObjectReader& w, const std::optional<std::string>& kind, const Scenario& sc,
                                         const std::vector<std::string>& storage_names) {
  std::optional<BaseModel> base = BaseModel{};
  if (kind && *kind == "fine_tuning") {
    base.reset();
    if (auto b = w.object("base_model", true)) {
      auto size = parse_model_bytes(*b, 2.0, "a base model");
      const std::string& placed = sc.policies.place(DataClass::validated_model);
      auto where = !b->has("storage") && !placed.empty()
                       ? b->text("storage", placed.c_str())
                       : b->reference("storage", storage_names, "storage systems under /storage");
      b->finish();
      if (size && where)
        base = BaseModel{Bytes(*size), *where};
    }
  } else {
    w.accept("base_model");
  }
  return base;
}

// Preprocessing writes a new dataset.
std::optional<DatasetOutput> read_output(ObjectReader& w, bool preprocessing,
                                         const std::vector<std::string>& storage_names) {
  std::optional<DatasetOutput> output = DatasetOutput{};
  if (preprocessing) {
    output.reset();
    if (auto o = w.object("output", true)) {
      auto where = o->reference("storage", storage_names, "storage systems under /storage");
      auto ratio = o->number("ratio", 1.0, 1e-6, 1e6);
      auto io_size = o->quantity("io_size", Dimension::bytes, "1MiB");
      auto outstanding = o->integer("outstanding_ios", 16, 1, 65536);
      o->finish();
      if (where && ratio && io_size && outstanding)
        output = DatasetOutput{*where, *ratio,
                               IoShape{Bytes(*io_size), IoPattern::sequential, static_cast<int>(*outstanding)}};
    }
  } else {
    w.accept("output");
  }
  return output;
}

// Preprocessing keeps no checkpoints unless asked; training and fine-tuning must say how they do.
std::optional<CheckpointSpec> read_checkpoint(ObjectReader& w, const Json& wj, bool preprocessing, const Scenario& sc,
                                              const std::vector<std::string>& storage_names) {
  std::optional<CheckpointSpec> ckpt;
  if (preprocessing && !w.has("checkpoint")) {
    w.accept("checkpoint");
    ckpt = CheckpointSpec{};
  } else if (auto c = w.object("checkpoint", true)) {
    auto size = parse_model_bytes(*c, 14.0, "a checkpoint");
    // Every so much compute time, or every N steps (then interval = N x step_time, set once that is known).
    std::optional<double> interval;
    std::optional<int64_t> interval_steps = 0;
    bool interval_auto = false;
    if (c->has("interval") && wj["checkpoint"]["interval"] == "auto") {
      interval_auto = true;
      interval = 0.0;
      c->accept("interval");
      c->accept("interval_steps");
    } else if (c->has("interval_steps") && !c->has("interval")) {
      interval_steps = c->integer("interval_steps", std::nullopt, 1, int64_t(1) << 40);
      interval = 0.0;
      c->accept("interval");
    } else {
      interval = c->quantity("interval", Dimension::seconds, nullptr);
      if (c->has("interval_steps"))
        c->get_diagnostics().error(
            c->child_pointer("interval_steps"),
            "give either interval or interval_steps, not both (expected one checkpoint interval)");
      c->accept("interval_steps");
    }
    auto where = storage_ref(*c, DataClass::active_checkpoint, sc, storage_names);
    auto mode = c->choice("mode", "sync", {"sync", "async", "multilevel"});
    std::optional<std::string> local = std::string();
    if (c->has("local_storage") || (mode && *mode == "multilevel"))
      local = c->reference("local_storage", storage_names, "storage systems under /storage");
    else
      c->accept("local_storage");
    auto io_size = c->quantity("io_size", Dimension::bytes, "1MiB");
    auto outstanding = c->integer("outstanding_ios", 16, 1, 65536);
    auto restore = c->boolean("restore_at_start", false);
    c->finish();
    if (size && interval && interval_steps && where && mode && local && io_size && outstanding && restore)
      ckpt =
          CheckpointSpec{Bytes(*size), Seconds(*interval),
                         *where,       *mode,
                         *local,       IoShape{Bytes(*io_size), IoPattern::sequential, static_cast<int>(*outstanding)},
                         *restore,     *interval_steps,
                         interval_auto};
  }
  return ckpt;
}

// A training, fine-tuning or preprocessing job, appended to sc.jobs when every key of it is valid.
void parse_job(ObjectReader& w, const Json& wj, const std::string& wptr, const WorkloadHead& h, Scenario& sc,
               const std::vector<std::string>& storage_names, std::vector<std::string>& job_names) {
  const auto [step, step_flops, mfu] = read_step_compute(w, wj);
  auto batch = w.integer("global_batch", std::nullopt, 1, int64_t(1) << 40);
  auto sample = w.quantity("sample_size", Dimension::bytes, nullptr);
  auto prefetch = w.integer("prefetch_batches", 2, 0, 1024);
  auto restart = w.quantity("restart_time", Dimension::seconds, "10min", Bound::non_negative);
  // Until a failure is noticed (a hung collective times out; PyTorch's NCCL default is 10 min); 0 when the
  // scheduler sees a node die at once.
  auto detection = w.quantity("detection_time", Dimension::seconds, "0s", Bound::non_negative);
  const auto failures_at = read_failures_at(w);
  std::optional<double> epochs = 0.0;
  if (w.has("epochs"))
    epochs = w.number("epochs", std::nullopt, 1e-6, 1e9);
  else
    w.accept("epochs");
  auto allreduce =
      w.quantity("allreduce_bytes_per_step", Dimension::bytes, allreduce_default(wj).c_str(), Bound::non_negative);
  const auto dataset = read_dataset(w, h.kind, sc, storage_names);
  const bool preprocessing = h.kind && *h.kind == "preprocessing";
  const auto base = read_base_model(w, h.kind, sc, storage_names);
  const auto output = read_output(w, preprocessing, storage_names);
  const auto ckpt = read_checkpoint(w, wj, preprocessing, sc, storage_names);
  w.finish();
  record_name(h.name, wptr, job_names, w.get_diagnostics());
  if (!h.name || !h.kind || !h.group || !h.gpus || (!step && !(step_flops && mfu)) || !batch || !sample || !prefetch ||
      !h.start || !dataset || !ckpt || !base || !output || !h.duration_ok || !failures_at || !detection || !h.preset_ok)
    return;
  if (!h.ng)
    return;
  TrainingJob job = job_of(h);
  job.step_time = Seconds(step ? *step : *step_flops / (*h.gpus * h.ng->gpu.peak_bf16.value * *mfu));
  job.global_batch = *batch;
  job.sample_size = Bytes(*sample);
  job.prefetch_batches = static_cast<int>(*prefetch);
  job.epochs = epochs ? *epochs : 0.0;
  job.restart_time = Seconds(restart ? *restart : 600.0);
  job.detection_time = Seconds(detection ? *detection : 0.0);
  job.failures_at = *failures_at;
  job.allreduce_bytes_per_step = Bytes(*allreduce);
  job.dataset = *dataset;
  job.checkpoint = *ckpt;
  job.base_model = *base;
  job.output = *output;
  if (preprocessing && job.epochs == 0)
    job.epochs = 1; // one pass over its input
  if (job.checkpoint.interval_steps > 0)
    job.checkpoint.interval = Seconds(job.step_time.value * static_cast<double>(job.checkpoint.interval_steps));
  sc.jobs.push_back(job);
}

} // namespace

void parse_workloads(ObjectReader& top, Scenario& sc, const std::vector<std::string>& group_names,
                     const std::vector<std::string>& storage_names) {
  auto& diag = top.get_diagnostics();
  Json* workloads = top.array("workloads", true);
  std::vector<std::string> job_names;
  for (size_t i = 0; workloads && i < workloads->size(); ++i) {
    const std::string wptr = "/workloads/" + std::to_string(i);
    ObjectReader w((*workloads)[i], wptr, diag);
    if (!w.ok())
      continue;
    const WorkloadHead h = read_head(w, (*workloads)[i], wptr, sc, group_names);
    if (!h.kind || *h.kind != "inference") {
      parse_job(w, (*workloads)[i], wptr, h, sc, storage_names, job_names);
      continue;
    }
    auto inference = parse_inference(w, sc, storage_names, h.gpus);
    w.finish();
    record_name(h.name, wptr, job_names, diag);
    if (!h.name || !h.group || !h.ng || !h.gpus || !h.start || !inference || !h.duration_ok)
      continue;
    TrainingJob job = job_of(h);
    job.inference = *inference;
    sc.jobs.push_back(job);
  }
}

void check_node_schedule(const Scenario& sc, Diagnostics& diag) {
  const double T = sc.simulation.duration.value;
  for (const auto& g : sc.node_groups) {
    // Sweep the jobs' [start, end) intervals: ends before starts at one instant, so back-to-back jobs share.
    std::vector<std::pair<double, int>> edges; // time, +job+1 at start / -(job+1) at end
    for (size_t j = 0; j < sc.jobs.size(); ++j) {
      const auto& job = sc.jobs[j];
      if (job.node_group != g.name)
        continue;
      if (job.start.value >= T) { // never runs, but must still fit the group
        if (job.gpus > g.gpu_count())
          diag.error("/workloads/" + std::to_string(j) + "/gpus",
                     "more GPUs than node group \"" + g.name + "\" has (expected at most " +
                         std::to_string(g.gpu_count()) + ", got " + std::to_string(job.gpus) + ")");
        continue;
      }
      edges.emplace_back(job.start.value, static_cast<int>(j) + 1);
      edges.emplace_back(job.end_s(T), -static_cast<int>(j) - 1);
    }
    std::sort(edges.begin(), edges.end());
    int used = 0;
    for (const auto& [t, e] : edges) {
      const auto& job = sc.jobs[std::abs(e) - 1];
      const int nodes = (job.gpus + g.gpus_per_node - 1) / g.gpus_per_node;
      if (e < 0) {
        used -= nodes;
        continue;
      }
      used += nodes;
      if (used <= g.count)
        continue;
      const std::string ptr = "/workloads/" + std::to_string(std::abs(e) - 1) + "/gpus";
      if (nodes > g.count)
        diag.error(ptr, "more GPUs than node group \"" + g.name + "\" has (expected at most " +
                            std::to_string(g.gpu_count()) + ", got " + std::to_string(job.gpus) + ")");
      else
        diag.error(ptr, "more GPUs than node group \"" + g.name +
                            "\" has free when the job starts, other jobs holding the rest (expected at most " +
                            std::to_string((g.count - used + nodes) * g.gpus_per_node) + ", got " +
                            std::to_string(job.gpus) + ")");
    }
  }
}

} // namespace aisim::models
