// Reading the scenario's `policies` section: placement per data class, promotion, tiering and what a full
// system does. Cross-checks against the storage systems' kinds are made here too.
#pragma once

#include "models/common/json_reader.hpp"
#include "models/hardware/storage_system.hpp"
#include "models/scenario/policies.hpp"

#include <optional>
#include <vector>

namespace aisim::models {

// `storage` holds the systems that parsed; `storage_names` every name, so a reference to a system with its own
// errors does not cascade. Problems go to the reader's diagnostics; what parsed is returned either way, so
// workloads relying on a rule do not report it again.
Policies parse_policies(ObjectReader& pol, const std::vector<std::string>& storage_names,
                        const std::vector<StorageSystem>& storage);

} // namespace aisim::models
