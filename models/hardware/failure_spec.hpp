// How the components of a storage system fail: for each kind of component (its drives, and its enclosures, array
// controllers or file servers), a failure rate, the shape of its lifetime distribution and the time a failed one
// stays out before it is repaired or replaced. Read from a system's "failures" object; the engine draws the
// failures themselves (sim/engine/storage_failures.hpp).
#pragma once

#include "models/common/json_reader.hpp"
#include "models/common/units.hpp"

#include <optional>
#include <random>
#include <string>
#include <vector>

namespace aisim::models {

inline constexpr double kSecondsPerYear = 365.25 * 86400.0;

// One kind of component. Lifetimes are Weibull with the given shape (1: exponential, a constant rate; above 1:
// wear-out; below 1: infant mortality) and the scale that makes their mean the MTBF; a repaired or replaced
// component starts a new life (a renewal process).
// A failure at a set time, for what-if questions ("the controller fails during the checkpoint").
struct ScheduledFailure {
  Seconds at;
  int index = 0; // which component of its kind
};

struct FailureSpec {
  Seconds mtbf;     // mean time between failures of one component; 0: only the scheduled failures
  double shape = 1; // Weibull shape
  Seconds repair;   // out of service after a failure: repair, or replacement for a drive
  std::vector<ScheduledFailure> scheduled;
  bool random() const { return mtbf.value > 0; }
  // Failures per component-year, as AFR is defined for fleets (failures / component-years in service).
  double annual_rate() const { return kSecondsPerYear / mtbf.value; }
  double scale_s() const;
  // One lifetime, from the time the component enters service.
  double draw_lifetime_s(std::mt19937_64& rng) const;
};

struct StorageFailureSpecs {
  std::optional<FailureSpec> drives;
  std::optional<FailureSpec> servers; // enclosures (jbof), controllers (array) or file servers (pfs)
  Seconds takeover;                   // array with active_passive failover: the standby's takeover time
  bool any() const { return drives || servers; }
};

// What a system's non-drive components are called in the scenario (plural key) and in results (singular):
// "enclosure", "controller" or "server"; "" for kinds whose servers do not fail here (object, local_nvme).
std::string server_component(const std::string& kind);

struct StorageSystem;

// How many components of each kind can fail: the system's drives, and its enclosures, file servers or array
// controllers (an active-passive array's controllers are numbered pair by pair: 0 and 1 are the first active
// controller and its standby).
int failing_drives(const StorageSystem& sys);
int failing_servers(const StorageSystem& sys);
// Controllers per slot: an active one and its standbys (active_passive), else 1.
int members_per_slot(const StorageSystem& sys);

// One failure process: {"afr": 0.0044 | "mtbf": "2Mh", "weibull_shape": 1, "repair_time": "24h", "at": [{"time",
// "index"}]} for `count` components named `what` in messages; `default_afr` > 0 stands in when neither rate is given
// and nothing is scheduled. Finishes the reader (its other keys must have been read or accepted first).
std::optional<FailureSpec> parse_failure_spec(ObjectReader& r, double default_afr, const std::string& what, int count);

// Reads `failures` under a system already read into `sys` (its kind, servers, drives and failover): the drive
// model's AFR is its drives' default rate. Returns nullopt after reporting an error; absent, an empty spec.
std::optional<StorageFailureSpecs> parse_storage_failures(ObjectReader& system, const StorageSystem& sys);

} // namespace aisim::models
