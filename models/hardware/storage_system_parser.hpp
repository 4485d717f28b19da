// A storage system read from its scenario object (/storage/NAME): the keys of each kind (jbof, array, pfs, object,
// local_nvme), the drive bay, protection, the client protocol and how the system fails.
#pragma once

#include "models/common/json_reader.hpp"
#include "models/hardware/storage_system.hpp"

#include <optional>
#include <string>
#include <vector>

namespace aisim::models {

// Reads one system under /storage/NAME. `drives` are the parsed drive models, `drive_names` every name defined
// under /drives, `group_names` every node group (for local_nvme), `storage_names` every system (replication).
std::optional<StorageSystem> parse_storage_system(ObjectReader& r, const std::string& name,
                                                  const std::vector<DriveModel>& drives,
                                                  const std::vector<std::string>& drive_names,
                                                  const std::vector<std::string>& group_names,
                                                  const std::vector<std::string>& storage_names);

} // namespace aisim::models
