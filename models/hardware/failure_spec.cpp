#include "models/hardware/failure_spec.hpp"

#include "models/hardware/storage_system.hpp"

#include <algorithm>
#include <cmath>

namespace aisim::models {

namespace {

// {"at": [{"time": "1h", "index": 0}]}: failures at set times of components 0 .. count-1.
bool parse_scheduled(ObjectReader& r, int count, std::vector<ScheduledFailure>& out) {
  if (!r.has("at")) {
    r.accept("at");
    return true;
  }
  Json* list = r.array("at", true);
  bool ok = list != nullptr;
  for (size_t i = 0; list && i < list->size(); ++i) {
    ObjectReader e((*list)[i], r.child_pointer("at") + "/" + std::to_string(i), r.get_diagnostics());
    auto time = e.quantity("time", Dimension::seconds, nullptr, Bound::non_negative);
    auto index = e.integer("index", 0, 0, std::max(0, count - 1));
    e.finish();
    if (!time || !index) {
      ok = false;
      continue;
    }
    out.push_back({Seconds(*time), static_cast<int>(*index)});
  }
  return ok;
}

} // namespace

std::optional<FailureSpec> parse_failure_spec(ObjectReader& r, double default_afr, const std::string& what, int count) {
  auto& diag = r.get_diagnostics();
  std::optional<double> mtbf;
  double afr = 0; // 0: not given
  FailureSpec spec;
  bool ok = parse_scheduled(r, count, spec.scheduled);
  if (r.has("afr")) {
    const auto given = r.number("afr", std::nullopt, 0.0, 1.0);
    if (given && *given <= 0)
      diag.error(r.child_pointer("afr"), "a failure rate must be positive (expected a number above 0 and at most 1, "
                                         "got 0; leave out \"" +
                                             what + "\" for components that never fail)");
    afr = given.value_or(0.0);
    ok = ok && afr > 0;
  } else {
    r.accept("afr");
  }
  ok = r.optional_quantity("mtbf", Dimension::seconds, mtbf) && ok;
  if (afr > 0 && mtbf) {
    diag.error(r.child_pointer("mtbf"), "both afr and mtbf given (expected one of them)");
    return std::nullopt;
  }
  auto shape = r.number("weibull_shape", 1.0, 0.1, 10.0);
  auto repair = r.quantity("repair_time", Dimension::seconds, nullptr);
  r.finish();
  if (!ok || !shape || !repair)
    return std::nullopt;
  spec.shape = *shape;
  spec.repair = Seconds(*repair);
  if (mtbf) {
    spec.mtbf = Seconds(*mtbf);
  } else if (afr > 0 || (default_afr > 0 && spec.scheduled.empty())) {
    spec.mtbf = Seconds(kSecondsPerYear / (afr > 0 ? afr : default_afr));
  } else if (spec.scheduled.empty()) {
    diag.error(r.get_pointer(), "no failure rate (expected afr, mtbf or failures at set times under \"at\")");
    return std::nullopt;
  }
  return spec;
}

std::string server_component(const std::string& kind) {
  if (kind == "jbof")
    return "enclosure";
  if (kind == "array")
    return "controller";
  if (kind == "pfs")
    return "server";
  return "";
}

double FailureSpec::scale_s() const { return mtbf.value / std::tgamma(1.0 + 1.0 / shape); }

double FailureSpec::draw_lifetime_s(std::mt19937_64& rng) const {
  return std::weibull_distribution<double>(shape, scale_s())(rng);
}

int failing_drives(const StorageSystem& sys) { return sys.servers * sys.drives_per_server; }

int members_per_slot(const StorageSystem& sys) {
  return sys.failover == "active_passive" ? std::max(1, sys.controllers / std::max(1, sys.servers)) : 1;
}

int failing_servers(const StorageSystem& sys) { return sys.servers * members_per_slot(sys); }

std::optional<StorageFailureSpecs> parse_storage_failures(ObjectReader& system, const StorageSystem& sys) {
  const std::string& kind = sys.kind;
  const double drive_afr = sys.drive ? sys.drive->afr : 0.0;
  const bool active_passive = sys.failover == "active_passive";
  StorageFailureSpecs out;
  const std::string server = server_component(kind);
  if (!system.has("failures")) {
    if (!server.empty()) // listed among the kind's keys only where it applies
      system.accept("failures");
    return out;
  }
  if (server.empty()) {
    system.accept("failures");
    system.get_diagnostics().error(system.child_pointer("failures"),
                                   "failures are not simulated on kind \"" + kind +
                                       "\" (expected them on jbof, array or pfs systems)");
    return std::nullopt;
  }
  auto f = system.object("failures", false);
  if (!f)
    return std::nullopt;
  bool ok = true;
  if (f->has("drives")) {
    auto d = f->object("drives", false);
    out.drives = d ? parse_failure_spec(*d, drive_afr, "drives", failing_drives(sys)) : std::nullopt;
    ok = out.drives.has_value();
  } else {
    f->accept("drives");
  }
  const std::string key = server + "s";
  if (f->has(key)) {
    auto s = f->object(key, false);
    if (s && active_passive) {
      // A standby controller needs this long to take over its partner's volumes; seconds to tens of seconds is
      // what dual-controller arrays state, so 30 s is taken when the planner says nothing.
      auto takeover = s->quantity("takeover_time", Dimension::seconds, "30s", Bound::non_negative);
      if (takeover)
        out.takeover = Seconds(*takeover);
      ok = ok && takeover;
    }
    out.servers = s ? parse_failure_spec(*s, 0.0, key, failing_servers(sys)) : std::nullopt;
    ok = ok && out.servers.has_value();
  } else {
    f->accept(key);
  }
  f->finish();
  if (!ok)
    return std::nullopt;
  return out;
}

} // namespace aisim::models
