// The network between GPU nodes and storage, as a graph of switches and cables (Boost.Graph): where each endpoint
// attaches, which switch-level links a flow crosses, and the max-flow bound from storage to the GPUs.
//
// For routing, parallel equal-cost links (a leaf's uplinks to all spines, a pod's uplinks to all cores) are
// bundled into one link with their summed capacity: ideal ECMP spreading, the fluid view the simulation uses.
// The max-flow bound is computed on the unbundled graph, every switch and cable apart.
#pragma once

#include "models/common/units.hpp"

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace aisim::models {

struct NetworkSpec {
  std::string topology;        // "single_switch", "spine_leaf", "fat_tree" or "rail_optimized"
  Seconds link_latency;        // one cable plus the switch it enters
  int nodes_per_leaf = 0;      // spine_leaf: GPU nodes per leaf; rail_optimized: nodes per rail group
  int enclosures_per_leaf = 0; // spine_leaf, rail_optimized: storage enclosures per storage leaf
  int spines = 0;              // spine_leaf, rail_optimized
  double oversubscription = 1; // spine_leaf, rail_optimized: a leaf's downlink bandwidth over its uplink bandwidth
  int k = 0;                   // fat_tree: switch radix (k pods, k^3/4 endpoints)
  BytesPerSecond link_speed;   // fat_tree: every switch-to-switch cable
  bool converged = false;      // storage traffic rides the GPU fabric's NICs, beside the collectives
  // What the links are: "ethernet" (TCP/IP, or RDMA as RoCEv2) or "infiniband"; Ethernet's IP MTU in bytes. They
  // set how much of a line rate carries data (models/cluster/wire.hpp).
  std::string fabric = "ethernet";
  int mtu = 9000;
  // What the storage fabric costs: each switch, and each switch port with its optic and half a cable.
  Dollars switch_price;
  Dollars port_price;
  Watts switch_power;
};

// What a fabric is built of, for its cost.
struct SwitchInventory {
  int switches = 0;
  long long ports = 0; // switch ports in use: towards endpoints and between switches
};

enum class EndpointKind { gpu_node, storage };

// One physical endpoint: a GPU node (its storage NICs) or a storage enclosure (its front-end ports).
struct FabricEndpoint {
  EndpointKind kind = EndpointKind::gpu_node;
  BytesPerSecond bandwidth; // all its NICs or ports together, each direction
  int ports = 1;            // NICs or ports; rail_optimized wires a node's NIC i to rail switch i
};

// A switch-level link (possibly a bundle); its lower side faces the endpoints.
struct FabricLink {
  std::string name;
  double capacity_Bps = 0;
};

struct Hop {
  int link = -1;
  bool up = true; // crossing from the lower to the upper side
};

class Fabric {
public:
  // Endpoints attach in order: GPU nodes fill GPU leaves (edge switches for fat_tree), storage fills storage
  // leaves. The spec must already be valid (see endpoint_limit).
  Fabric(const NetworkSpec& spec, std::vector<FabricEndpoint> endpoints);

  const std::vector<FabricEndpoint>& endpoints() const { return endpoints_; }
  const std::vector<FabricLink>& links() const { return links_; }
  int leaf_of(int endpoint) const { return leaf_of_[endpoint]; }
  int leaf_count() const { return static_cast<int>(leaf_uplink_.size()); }
  // The link bundling a leaf's uplinks, -1 for a single switch.
  int uplink_of(int leaf) const { return leaf_uplink_[leaf]; }
  // Switch-level links from leaf a to leaf b (empty within one leaf).
  std::vector<Hop> route(int leaf_a, int leaf_b) const;

  // The switches the topology needs for these endpoints and the ports in use on them. Uplinks run at the speed of
  // the endpoint ports below them (fat_tree: one port per link), a leaf has as many uplink ports as its downlink
  // ports over the oversubscription, and a fat tree uses only the pods (and core) its endpoints need.
  SwitchInventory inventory() const;

  // Max flow on the full graph from `sources` (endpoint, extra cap on what it can inject, e.g. its drives) to
  // `sinks`, in bytes per second. Push-relabel (Boost.Graph). With `switches_only` the endpoints' own NICs and
  // ports are left unlimited, so the result is what the switches and the cables between them can carry (a bound
  // of each tier on its own, for naming the bottleneck); infinity when nothing between the switches limits it.
  double max_flow_Bps(const std::vector<std::pair<int, double>>& sources, const std::vector<int>& sinks,
                      bool switches_only = false) const;

private:
  NetworkSpec spec_;
  std::vector<FabricEndpoint> endpoints_;
  std::vector<int> leaf_of_;
  std::vector<FabricLink> links_;
  std::vector<int> leaf_uplink_; // link index per leaf, -1 when the leaf has no uplink (single switch)
  std::vector<int> leaf_pod_;    // fat_tree: pod of each edge switch
  std::vector<int> pod_uplink_;  // fat_tree: link index per pod
  std::vector<double> leaf_down_Bps_;
};

// How many endpoints the topology can attach, when it is bounded (fat_tree: k^3/4).
std::optional<long long> endpoint_limit(const NetworkSpec& spec);

} // namespace aisim::models
