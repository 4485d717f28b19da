// Threats other than hardware failure (the seed's "how much is your AI data worth"): accidental deletion and
// ransomware. Each destroys the copies it can reach; what saves a copy is a property of the system holding it
// (snapshots, a retention lock, being offline), so placement decides what survives. The engine carries it out
// (sim/engine/lifecycle_threats.cpp).
#pragma once

#include "models/common/json_reader.hpp"
#include "models/common/units.hpp"
#include "models/hardware/storage_system.hpp"
#include "models/scenario/policies.hpp"

#include <string>
#include <vector>

namespace aisim::models {

struct Threat {
  // "deletion": a user or a job deletes data by mistake (rm -rf, a bad cleanup script): snapshots bring it back,
  // a retention lock refuses the delete. "ransomware": an attacker with administrator rights encrypts what it
  // reaches and deletes the snapshots it can: only immutable snapshots, a retention lock or an unreached (offline)
  // system save a copy.
  std::string kind;
  double rate_per_year = 0;       // random events (Poisson, from simulation.seed); 0: only `at`
  std::vector<Seconds> at;        // events at set times (what-if)
  std::vector<std::string> reach; // the systems it reaches; every online system when the scenario gives none
  std::vector<DataClass> classes; // deletion: what is deleted (every class when none given); ransomware: all
};

// Whether `sys` keeps snapshots that survive `t`: any snapshots survive a deletion; only immutable ones survive
// ransomware, which deletes the rest. The one rule the engine and the placement advice both apply.
inline bool snapshots_survive(const StorageSystem& sys, const Threat& t) {
  return sys.snapshots && (t.kind == "deletion" || sys.snapshots->immutable);
}

// Reads the top-level `threats` array. `storage` holds the systems that parsed (for `offline`), `storage_names`
// every name. Problems go to the diagnostics; the threats that parsed are returned.
std::vector<Threat> parse_threats(Json& list, const std::string& pointer, Diagnostics& diag,
                                  const std::vector<std::string>& storage_names,
                                  const std::vector<StorageSystem>& storage);

} // namespace aisim::models
