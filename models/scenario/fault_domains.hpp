// Fault domains: what fails together. A rack, a leaf switch, a power feed or an enclosure's shared backplane takes
// all its members out at once, so a stripe group or mirror with more of its members in one domain than its parity
// is one domain failure from losing its data, whatever each component's own failure rate. A scenario declares
// domains (`fault_domains`); the exposure of each protected system to them is computed here, and the engine fails
// a domain's members together (sim/engine/storage_failures.hpp).
#pragma once

#include "models/common/json_reader.hpp"
#include "models/hardware/failure_spec.hpp"
#include "models/hardware/storage_system.hpp"

#include <optional>
#include <string>
#include <vector>

namespace aisim::models {

struct DomainMember {
  int storage = -1;
  bool drive = false; // a drive; else a server slot's member: an enclosure, a controller or a file server
  int index = 0;      // numbered as under the system's `failures` (drives server by server)
};

struct FaultDomain {
  std::string name;
  std::string kind; // "rack", "leaf_switch", "power_feed" or "backplane"
  std::vector<DomainMember> members;
  std::optional<FailureSpec> failures; // absent: declared for the exposure analysis only
};

// Reads the top-level `fault_domains` array. Members are written "SYSTEM/drives/I", "SYSTEM/enclosures/I",
// "SYSTEM/controllers/I" or "SYSTEM/servers/I" (the system's `failures` keys and numbering), I an index or a range
// "FIRST-LAST". A component may be in several domains, but in one of each kind.
std::vector<FaultDomain> parse_fault_domains(Json& list, const std::string& pointer, Diagnostics& diag,
                                             const std::vector<StorageSystem>& storage);

// The drives whose data a domain's failure takes out on system `storage`: its drives, and every drive of an
// enclosure or file server in it (an array's controllers hold no data).
std::vector<int> data_drives_in_domain(const StorageSystem& sys, int storage, const FaultDomain& domain);

// A protected system's exposure to one domain: the stripe groups (or mirrors) that have more drives in the domain
// than they tolerate. An unprotected system loses data to any domain holding one of its drives: every stripe of
// it is exposed.
struct DomainExposure {
  int domain = -1;
  int drives = 0;         // the system's data-bearing drives the domain takes out
  int groups_exposed = 0; // of the system's groups (1 for an unprotected system)
};
struct SystemExposure {
  int groups = 0;         // the system's stripe groups (1 for an unprotected system: every drive together)
  int exposed_groups = 0; // exposed to at least one domain
  std::vector<DomainExposure> by_domain; // the domains holding any of its drives
};
SystemExposure domain_exposure(const StorageSystem& sys, int storage, const std::vector<FaultDomain>& domains);

} // namespace aisim::models
