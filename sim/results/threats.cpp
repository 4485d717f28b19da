#include "sim/results/threats.hpp"

namespace aisim::sim {

using models::Json;

namespace {

Json by_class_json(const std::array<double, models::kDataClasses>& bytes) {
  Json out = Json::object();
  for (int c = 0; c < models::kDataClasses; ++c)
    if (bytes[c] > 0)
      out[models::data_class_name(static_cast<models::DataClass>(c))] = bytes[c];
  return out;
}

} // namespace

Json threats_json(const models::Scenario& sc, const Metrics& m) {
  if (sc.threats.empty())
    return nullptr;
  Json events = Json::array();
  ThreatEvent total;
  for (const auto& e : m.threat_events) {
    const auto& t = sc.threats[e.threat];
    events.push_back(
        {{"time_s", e.time_s},
         {"kind", t.kind},
         {"reach", t.reach},
         {"hit_bytes", e.hit_bytes},
         {"hit_by_class", by_class_json(e.hit_by_class)},
         {"saved_bytes",
          {{"retention_lock", e.locked_bytes}, {"snapshot", e.snapshot_bytes}, {"copy_elsewhere", e.copy_bytes}}},
         {"lost_bytes", e.lost_bytes},
         {"lost_by_class", by_class_json(e.lost_by_class)},
         {"recovery_bytes", e.recovery_bytes},
         {"recovery_s", e.recovered_s >= 0 ? Json(e.recovered_s - e.time_s) : Json(nullptr)}});
    total.hit_bytes += e.hit_bytes;
    total.locked_bytes += e.locked_bytes;
    total.snapshot_bytes += e.snapshot_bytes;
    total.copy_bytes += e.copy_bytes;
    total.lost_bytes += e.lost_bytes;
    total.recovery_bytes += e.recovery_bytes;
    for (int c = 0; c < models::kDataClasses; ++c)
      total.lost_by_class[c] += e.lost_by_class[c];
  }
  return {{"events", events},
          {"totals",
           {{"events", m.threat_events.size()},
            {"hit_bytes", total.hit_bytes},
            {"saved_bytes",
             {{"retention_lock", total.locked_bytes},
              {"snapshot", total.snapshot_bytes},
              {"copy_elsewhere", total.copy_bytes}}},
            {"lost_bytes", total.lost_bytes},
            {"lost_by_class", by_class_json(total.lost_by_class)},
            {"recovery_bytes", total.recovery_bytes}}}};
}

std::string format_threats(const Json& r) {
  if (!r.contains("threats") || r["threats"].is_null())
    return "";
  const auto bytes = [](double b) { return models::format_bytes(models::Bytes(b)); };
  const Json& th = r["threats"];
  std::string o;
  if (th["events"].empty())
    return "threats: none struck in the simulated period\n";
  for (const auto& e : th["events"]) {
    o += e["kind"].get<std::string>() + " at " + models::format_duration(models::Seconds(e["time_s"].get<double>())) +
         ": " + bytes(e["hit_bytes"].get<double>()) + " reached on ";
    std::string sep;
    for (const auto& s : e["reach"]) {
      o += sep + s.get<std::string>();
      sep = ", ";
    }
    o += "\n";
    const auto& saved = e["saved_bytes"];
    std::string line;
    for (const auto& [key, words] : {std::pair{"retention_lock", "retention lock"},
                                     {"snapshot", "snapshots"},
                                     {"copy_elsewhere", "copies elsewhere"}})
      if (saved[key].get<double>() > 0)
        line += std::string(line.empty() ? "" : ", ") + words + " saved " + bytes(saved[key].get<double>());
    if (e["lost_bytes"].get<double>() > 0) {
      line += std::string(line.empty() ? "" : "; ") + "lost " + bytes(e["lost_bytes"].get<double>());
      std::string cls_sep = " (";
      for (const auto& [cls, b] : e["lost_by_class"].items()) {
        line += cls_sep + models::data_class_words(cls) + " " + bytes(b.get<double>());
        cls_sep = ", ";
      }
      line += ")";
    } else if (e["hit_bytes"].get<double>() > 0) {
      line += std::string(line.empty() ? "" : "; ") + "nothing lost";
    }
    if (!e["recovery_s"].is_null())
      line += "; " + bytes(e["recovery_bytes"].get<double>()) + " copied back in " +
              models::format_duration(models::Seconds(e["recovery_s"].get<double>()));
    if (!line.empty())
      o += "  " + line + "\n";
  }
  return o;
}

} // namespace aisim::sim
