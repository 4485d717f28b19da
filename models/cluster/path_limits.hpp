// What each tier of the path between some GPU nodes and one storage system could carry on its own, in one
// direction: the node NICs, the switches between, the storage ports, the servers' internal limits (PCIe switch
// uplinks, controllers), the drives at the request size and queue depth the workloads give them, and the metadata
// servers for small files. The lowest is the static bottleneck; the next says how much headroom removing it buys.
#pragma once

#include "models/cluster/cluster_network.hpp"
#include "models/scenario/scenario.hpp"

#include <string>
#include <vector>

namespace aisim::models {

struct TierLimit {
  std::string tier;   // node_nics, host_path, object_connections, tcp_connections, client, fabric, storage_ports,
                      // internal, drives, metadata
  std::string name;   // as a planner says it: "enclosure ports", "array controllers"
  double Bps = 0;     // data bytes per second the tier carries with every other tier unlimited
  std::string detail; // how it adds up: "4 x 100 GB/s"
};

struct PathQuery {
  int storage = -1;
  IoOp op = IoOp::read;
  int group = -1;                   // the nodes' group
  std::vector<int> nodes;           // node numbers within the group
  int job = -1;                     // whose I/O it is: the nodes' own data path follows its requests (-1: left out)
  int files = 0;                    // parallel file system: the files moved at once (0: many), which bound its servers
  double metadata_ops_per_byte = 0; // small files: metadata operations per data byte (opens and closes)
  double file_size = 0; // bytes per file: the servers a pfs spreads each over, an object store's requests for
                        // each; 0: large
};

// Every tier that limits the path, lowest first (ties keep the path's order, nodes to drives). Host-side
// protection's extra copies count against every tier they cross, server-side protection's against the drives.
std::vector<TierLimit> path_limits(const Scenario& sc, const ClusterNetwork& net, const PathQuery& q);

// A copy from one shared system to another (replication, staging, tiering): the source's ports (and, when the copy
// reads data at rest, its internal limit and drives), the switches between the two, the destination's ports,
// internal limit and drives with its protection's extra writes. Lowest first.
std::vector<TierLimit> copy_limits(const Scenario& sc, const ClusterNetwork& net, int from, int to, bool reads_at_rest);

// What bounds rebuilding one lost drive: the replacement's write bandwidth and the system's `rebuild_rate` cap, per
// drive rebuilt. Lowest first.
std::vector<TierLimit> rebuild_limits(const Scenario& sc, int storage);

} // namespace aisim::models
