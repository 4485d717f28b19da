#include "models/scenario/inference_parser.hpp"

#include "models/scenario/workload_parser.hpp"

namespace aisim::models {

std::optional<InferenceSpec> parse_inference(ObjectReader& w, const Scenario& sc,
                                             const std::vector<std::string>& storage_names,
                                             std::optional<int64_t> gpus) {
  auto& diag = w.get_diagnostics();
  const std::string what = "storage systems under /storage";
  InferenceSpec spec;
  bool ok = true;
  auto per_replica = w.integer("gpus_per_replica", std::nullopt, 1, 1 << 20);
  ok = ok && per_replica;
  if (per_replica)
    spec.gpus_per_replica = static_cast<int>(*per_replica);
  const int max_replicas = gpus && per_replica ? static_cast<int>(*gpus / *per_replica) : 0;
  if (gpus && per_replica && max_replicas == 0)
    diag.error(w.child_pointer("gpus_per_replica"), "more than the fleet's GPUs (expected at most " +
                                                        std::to_string(*gpus) + ", got " +
                                                        std::to_string(*per_replica) + ")");

  // The model: its size given, or parameters x bytes per parameter (BF16 weights: 2), where production lives.
  if (auto m = w.object("model", true)) {
    auto size = parse_model_bytes(*m, 2.0, "a model");
    const std::string& placed = sc.policies.place(DataClass::production_model);
    auto where = !m->has("storage") && !placed.empty() ? m->text("storage", placed.c_str())
                                                       : m->reference("storage", storage_names, what);
    auto io_size = m->quantity("io_size", Dimension::bytes, "1MiB");
    auto outstanding = m->integer("outstanding_ios", 16, 1, 65536);
    m->finish();
    ok = ok && size && where && io_size && outstanding;
    if (size && where && io_size && outstanding) {
      spec.model_size = Bytes(*size);
      spec.model_storage = *where;
      spec.model_io = IoShape{Bytes(*io_size), IoPattern::sequential, static_cast<int>(*outstanding)};
    }
  } else {
    ok = false;
  }

  // Scale events: replicas in service from each time on; by default the whole fleet from the start.
  if (w.has("scale")) {
    Json* events = w.array("scale", true);
    ok = ok && events;
    for (size_t i = 0; events && i < events->size(); ++i) {
      ObjectReader e((*events)[i], w.child_pointer("scale") + "/" + std::to_string(i), diag);
      auto at = e.quantity("at", Dimension::seconds, nullptr, Bound::non_negative);
      auto replicas = e.integer("replicas", std::nullopt, 0, 1 << 24);
      e.finish();
      if (!at || !replicas) {
        ok = false;
        continue;
      }
      if (!spec.scale.empty() && *at <= spec.scale.back().at.value)
        diag.error(e.child_pointer("at"), "scale events out of order (expected times after the previous event's)");
      if (max_replicas > 0 && *replicas > max_replicas)
        diag.error(e.child_pointer("replicas"), "more replicas than the fleet's GPUs hold (expected at most " +
                                                    std::to_string(max_replicas) + " = gpus / gpus_per_replica, got " +
                                                    std::to_string(*replicas) + ")");
      spec.scale.push_back({Seconds(*at), static_cast<int>(*replicas)});
    }
  } else {
    w.accept("scale");
    spec.scale.push_back({Seconds(0), max_replicas});
  }

  if (w.has("requests")) {
    if (auto r = w.object("requests", false)) {
      auto rate = r->quantity("rate", Dimension::ops_per_second, nullptr, Bound::non_negative);
      auto reads = r->integer("reads_per_request", 1, 1, 1 << 20);
      auto size = r->quantity("read_size", Dimension::bytes, "4KiB");
      auto where = r->has("storage") ? r->reference("storage", storage_names, what)
                                     : r->text("storage", spec.model_storage.c_str());
      auto slo = r->quantity("slo", Dimension::seconds, nullptr);
      r->finish();
      ok = ok && rate && reads && size && where && slo;
      if (rate && reads && size && where && slo) {
        spec.request_rate = OpsPerSecond(*rate);
        spec.reads_per_request = static_cast<int>(*reads);
        spec.read_size = Bytes(*size);
        spec.data_storage = *where;
        spec.slo = Seconds(*slo);
      }
    }
  } else {
    w.accept("requests");
  }
  if (!ok)
    return std::nullopt;
  return spec;
}

} // namespace aisim::models
