// What files and requests cost beside the bytes a transfer moves. File systems: metadata operations (creates,
// opens, closes) on a parallel file system's metadata servers and an array's controllers, shared by every job, or
// on a jbof on each node's own file system. Object stores: GET or PUT requests under the store's request limits
// (per prefix, per bucket). Node-local drives charge none.
#pragma once

#include "sim/engine/metrics.hpp"
#include "sim/engine/transfer.hpp"
#include "sim/platform/platform.hpp"

#include "models/scenario/scenario.hpp"

#include <simgrid/s4u/Exec.hpp>

#include <vector>

namespace aisim::sim {

// What a transfer's data is, as files: how many (0: no file structure, e.g. large dataset shards streamed) and,
// on a file system, the metadata operations each costs (2 to read: open and close; 1 to write: the create).
struct FileCost {
  double files = 0;
  double ops_per_file = 0;
};

// Starts what the flows' files cost on `storage`: on a file system `files` x `ops_per_file` metadata operations
// (on a jbof each node set runs its share, in proportion to its bytes, on its own file system); on an object store
// the requests that move the flows' bytes as `files` objects, each in parts of at most object_size (or, with no
// files, as objects of object_size). Empty where nothing is charged; wait on each to pace the data behind them.
std::vector<simgrid::s4u::ExecPtr> start_file_costs(const models::Scenario& sc, const Platform& platform, int storage,
                                                    const std::vector<Flow>& flows, IoDirection direction,
                                                    const FileCost& cost, Metrics& metrics);

// The same, for files whose data moves only once they exist: on a file system it waits for the metadata
// operations (a file is created or opened before its data moves) and returns nothing; on an object store it returns
// the requests, which carry the data: wait on them once the data has moved.
std::vector<simgrid::s4u::ExecPtr> open_files(const models::Scenario& sc, const Platform& platform, int storage,
                                              const std::vector<Flow>& flows, IoDirection direction,
                                              const FileCost& cost, Metrics& metrics);

} // namespace aisim::sim
