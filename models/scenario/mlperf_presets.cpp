#include "models/scenario/mlperf_presets.hpp"

#include "models/common/named_table.hpp"

#include <array>
#include <cstdio>

namespace aisim::models {
namespace {

// mlcommons/storage configs/dlio/workload/*.yaml, v1.0 (validation/reference-data/dlio-workloads.json). The request
// sizes and patterns are how aisim's mlperf-* validation cases model DLIO's readers (not published by DLIO):
// TFRecord files read in 256 KiB buffers, at random; npz and one-sample files read whole in large requests.
struct MlperfWorkload {
  const char* name;
  double sample_bytes;
  int batch;                         // per accelerator
  int read_threads;                  // per accelerator
  double compute_a100, compute_h100; // s per batch
  double file_bytes;                 // one sample per file: the file's size; 0: samples packed into large files
  const char* io_size;
  const char* access;
};

const std::array<MlperfWorkload, 3>& workloads() {
  static const std::array<MlperfWorkload, 3> all{{
      {"mlperf-unet3d", 146600628, 7, 4, 0.636, 0.323, 146600628, "4MiB", "sequential"},
      {"mlperf-resnet50", 114660.07, 400, 8, 0.435, 0.224, 0, "256KiB", "random"},
      {"mlperf-cosmoflow", 2828486, 1, 4, 0.00551, 0.00350, 2828486, "1MiB", "sequential"},
  }};
  return all;
}

std::string bytes_text(double b) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.0fB", b);
  return buf;
}

std::string seconds_text(double s) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.6gs", s);
  return buf;
}

void fill(Json& o, const char* key, const Json& value) {
  if (!o.contains(key))
    o[key] = value;
}

} // namespace

std::vector<std::string> mlperf_preset_names() { return names_of(workloads()); }

bool apply_mlperf_preset(Json& w, const std::string& preset, const std::string& pointer, const NodeGroup& group,
                         int64_t gpus, Diagnostics& diag) {
  const MlperfWorkload* found = find_named(workloads(), preset);
  if (!found) { // the caller read `preset` with mlperf_preset_names(): a new name without a table row
    diag.error(pointer + "/preset",
               "no MLPerf Storage workload \"" + preset + "\" (expected a preset with a table row)");
    return false;
  }
  const bool a100 = group.gpu.name == "A100-SXM-80GB", h100 = group.gpu.name == "H100-SXM";
  if (!a100 && !h100) {
    diag.error(pointer + "/preset", "MLPerf Storage v1.0 emulates A100 and H100 accelerators only (expected the node "
                                    "group's gpu A100-SXM-80GB or H100-SXM, got " +
                                        group.gpu.name + ")");
    return false;
  }
  fill(w, "sample_size", bytes_text(found->sample_bytes));
  if (!w.contains("mfu"))
    fill(w, "step_time", seconds_text(a100 ? found->compute_a100 : found->compute_h100));
  fill(w, "global_batch", static_cast<int64_t>(found->batch) * gpus);
  if (!w.contains("dataset") || !w["dataset"].is_object())
    return true; // the dataset's own reader reports it
  Json& ds = w["dataset"];
  fill(ds, "io_size", found->io_size);
  fill(ds, "access", found->access);
  // DLIO's reader threads are per accelerator; outstanding_ios is per node.
  fill(ds, "outstanding_ios", static_cast<int64_t>(found->read_threads) * group.gpus_per_node);
  if (found->file_bytes > 0)
    fill(ds, "file_size", bytes_text(found->file_bytes));
  return true;
}

} // namespace aisim::models
