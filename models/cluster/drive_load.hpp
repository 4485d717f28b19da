// What the drives of a storage system see from the workloads that use it: request size, access pattern and
// queue depth per drive, per direction. The engine hands it to each SimGrid disk's sharing callback, so the
// drive model's Little's-law curve (models/drive_model.hpp) sets the disk's capacity as transfers pile up.
#pragma once

#include "models/scenario/scenario.hpp"

#include <optional>

namespace aisim::models {

struct DriveLoad {
  IoPattern pattern = IoPattern::sequential;
  Bytes io_size;
  double queue_depth = 0; // outstanding requests per drive that one transfer adds
};

// Reads come from the first job reading its dataset from `storage`, writes from the first job checkpointing to
// it. A system no job uses in that direction (a replication target) gets deep sequential 1 MiB requests, as a
// storage controller streaming a copy keeps its drives busy.
DriveLoad drive_load(const Scenario& sc, int storage, IoOp op);

// One server's internal limit in one direction, if it has one: its PCIe switch or controller bandwidth and, for
// array controllers, their IOPS ceiling at the request size the workloads use.
std::optional<BytesPerSecond> server_internal_limit(const Scenario& sc, int storage, IoOp op);

} // namespace aisim::models
