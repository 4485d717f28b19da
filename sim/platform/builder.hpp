// The steps of build_platform, one method each, in the order they run: every step adds one kind of SimGrid object
// and keeps the links that later steps route over. Internal to sim/platform/; tests reach each step's result
// through build_platform (tests/sim/platform/).
#pragma once

#include "sim/platform/layout.hpp"
#include "sim/platform/platform.hpp"

#include <optional>

namespace aisim::sim {

// Disks for `drives` drives of one model on `host`: one each at fidelity "full", one with their summed bandwidth
// otherwise. Each disk's capacity per direction follows the drive model (disks.cpp).
std::vector<simgrid::s4u::Disk*> create_drive_disks(simgrid::s4u::Host* host, const std::string& name,
                                                    const models::Scenario& sc, int storage, int drives, bool full);

class PlatformBuilder {
public:
  PlatformBuilder(const models::Scenario& sc, const models::ClusterNetwork& net);

  void add_node_sets();       // node_sets.cpp: GPU node sets, their NIC links and node-local drives
  void add_fabric_peers();    // node_sets.cpp: a collectives peer per node set on a converged network
  void add_storage_servers(); // storage_servers.cpp: servers with their drives, front ends and internal limits
  void add_metadata_hosts();  // storage_servers.cpp: where files cost metadata operations (pfs, array, jbof)
  void add_fabric_links();    // routes.cpp: switch-level links, and one uplink link per merged class of leaves
  void add_node_routes();     // routes.cpp: every node set to every server and back
  void add_copy_routes();     // routes.cpp: system-to-system copies
  Platform finish();

private:
  using Route = std::vector<simgrid::s4u::LinkInRoute>;
  // Fabric hops between two leaves; a merged class crosses its own uplink link instead of its first leaf's.
  Route hops(int from_leaf, int to_leaf, simgrid::s4u::Link* merged_first, simgrid::s4u::Link* merged_last) const;
  // Out of a server (reads, copies' sources) and into one (writes, copies' targets).
  Route outward(int server) const;
  void inward(Route& route, int server) const;
  void add_route(simgrid::s4u::Host* from, simgrid::s4u::Host* to, const Route& links);
  simgrid::s4u::SplitDuplexLink* create_link(const std::string& name, double bandwidth_Bps, bool with_latency = true);

  const models::Scenario& sc_;
  const models::ClusterNetwork& net_;
  bool full_;
  simgrid::s4u::NetZone* zone_;
  Platform p_;
  std::vector<NodeSetLayout> set_layout_;
  std::vector<ServerLayout> server_layout_;
  std::vector<simgrid::s4u::Link*> nics_;          // by node set
  std::vector<simgrid::s4u::Link*> host_paths_;    // by node set; nullptr where the NICs are the narrower
  std::vector<simgrid::s4u::Link*> class_uplinks_; // by node set; nullptr unless it spans several leaves
  std::vector<simgrid::s4u::Link*> front_ends_;    // by server
  std::vector<simgrid::s4u::Link*> internals_;     // by server; nullptr when it has no internal limit
  std::vector<simgrid::s4u::Link*> fabric_links_;  // by models::Fabric link
};

} // namespace aisim::sim
