// The metadata operations files cost (creates, opens, closes), beside the bytes a transfer moves: on a parallel
// file system's metadata servers and an array's controllers, shared by every job; on a jbof, on each node's own
// file system. Object stores and node-local drives charge none here.
#pragma once

#include "sim/engine/metrics.hpp"
#include "sim/engine/transfer.hpp"
#include "sim/platform/platform.hpp"

#include <simgrid/s4u/Exec.hpp>

#include <vector>

namespace aisim::sim {

// Starts `ops` metadata operations on `storage` for files read or written by the flows' node sets (on a jbof each
// node set runs its share, in proportion to its bytes, on its own file system). Empty where the system charges
// none; wait on each to pace the files' data behind them.
std::vector<simgrid::s4u::ExecPtr> start_metadata_ops(const Platform& platform, int storage,
                                                      const std::vector<Flow>& flows, double ops, Metrics& metrics);

} // namespace aisim::sim
