#include "models/scenario/threats.hpp"

#include <algorithm>

namespace aisim::models {

namespace {

// An array of strings each read by `one`; reports what is not a string. False when anything was wrong.
template <typename F> bool read_names(ObjectReader& r, const std::string& key, F&& one) {
  Json* list = r.array(key, false);
  if (!r.has(key))
    return true;
  if (!list)
    return false;
  bool ok = true;
  for (size_t i = 0; i < list->size(); ++i) {
    const Json& v = (*list)[i];
    const std::string ptr = r.child_pointer(key) + "/" + std::to_string(i);
    if (!v.is_string()) {
      r.get_diagnostics().error(ptr, "expected a name, got " + json_excerpt(v));
      ok = false;
      continue;
    }
    ok = one(v.get<std::string>(), ptr) && ok;
  }
  return ok;
}

} // namespace

std::vector<Threat> parse_threats(Json& list, const std::string& pointer, Diagnostics& diag,
                                  const std::vector<std::string>& storage_names,
                                  const std::vector<StorageSystem>& storage) {
  std::vector<Threat> out;
  if (!list.is_array()) {
    diag.error(pointer, "expected an array of threats, got " + json_excerpt(list));
    return out;
  }
  for (size_t i = 0; i < list.size(); ++i) {
    ObjectReader r(list[i], pointer + "/" + std::to_string(i), diag);
    if (!r.ok())
      continue;
    Threat t;
    auto kind = r.choice("kind", nullptr, {"deletion", "ransomware"});
    auto rate = r.number("rate_per_year", 0.0, 0.0, 1e6);
    bool ok = kind && rate;
    if (Json* at = r.array("at", false)) {
      for (size_t k = 0; k < at->size(); ++k) {
        std::string error;
        const Json& v = (*at)[k];
        const auto s = v.is_string() ? parse_quantity(v.get<std::string>(), Dimension::seconds, &error) : std::nullopt;
        if (!s || *s < 0 || (!t.at.empty() && *s <= t.at.back().value)) {
          diag.error(r.child_pointer("at") + "/" + std::to_string(k),
                     "not an event time (expected durations like \"12d\", each after the one before, got " +
                         json_excerpt(v) + (error.empty() ? "" : ": " + error) + ")");
          ok = false;
          continue;
        }
        t.at.push_back(Seconds(*s));
      }
    } else if (r.has("at")) {
      ok = false;
    }
    ok = read_names(r, "reach",
                    [&](const std::string& name, const std::string& ptr) {
                      if (std::find(storage_names.begin(), storage_names.end(), name) == storage_names.end()) {
                        std::string known;
                        for (const auto& n : storage_names)
                          known += std::string(known.empty() ? "" : ", ") + "\"" + n + "\"";
                        diag.error(ptr, "names \"" + name +
                                            "\", which is not defined (expected one of the storage systems under "
                                            "/storage: " +
                                            known + ")");
                        return false;
                      }
                      t.reach.push_back(name);
                      return true;
                    }) &&
         ok;
    ok = read_names(r, "classes",
                    [&](const std::string& name, const std::string& ptr) {
                      for (int c = 0; c < kDataClasses; ++c)
                        if (name == data_class_name(static_cast<DataClass>(c))) {
                          t.classes.push_back(static_cast<DataClass>(c));
                          return true;
                        }
                      std::string known;
                      for (int c = 0; c < kDataClasses; ++c)
                        known += std::string(c ? ", " : "") + data_class_name(static_cast<DataClass>(c));
                      diag.error(ptr, "not a data class (expected one of " + known + ", got \"" + name + "\")");
                      return false;
                    }) &&
         ok;
    r.finish();
    if (kind && *kind == "ransomware" && !t.classes.empty()) {
      diag.error(r.child_pointer("classes"), "ransomware encrypts whatever it reaches (expected no classes; narrow "
                                             "what it reaches with reach)");
      ok = false;
    }
    if (!ok)
      continue;
    t.kind = *kind;
    t.rate_per_year = *rate;
    if (t.rate_per_year == 0 && t.at.empty()) {
      diag.error(r.get_pointer(), "a threat that never strikes (expected rate_per_year above 0, or times under at)");
      continue;
    }
    // By default every online system, written back so the resolved scenario shows it; a user's deletion is of
    // shared data, while an attacker on the nodes reaches their own drives too.
    if (t.reach.empty()) {
      for (const auto& sys : storage)
        if (!sys.offline && (t.kind == "ransomware" || sys.kind != "local_nvme"))
          t.reach.push_back(sys.name);
      list[i]["reach"] = t.reach;
    }
    out.push_back(std::move(t));
  }
  return out;
}

} // namespace aisim::models
