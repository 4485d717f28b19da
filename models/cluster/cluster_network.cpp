#include "models/cluster/cluster_network.hpp"

#include "models/cluster/drive_load.hpp"
#include "models/cluster/wire.hpp"

#include <algorithm>
#include <limits>
#include <set>

namespace aisim::models {

namespace {
std::vector<FabricEndpoint> endpoints_of(const Scenario& sc, std::vector<int>& first_node,
                                         std::vector<int>& first_enclosure) {
  // Data bytes, not line bytes: a node's NICs carry every system's traffic, at the lowest wire efficiency among them.
  std::vector<FabricEndpoint> eps;
  const double shared = fabric_wire_efficiency(sc);
  for (const auto& g : sc.node_groups) {
    first_node.push_back(static_cast<int>(eps.size()));
    for (int i = 0; i < g.count; ++i)
      eps.push_back({EndpointKind::gpu_node, sc.storage_bandwidth(g) * shared, sc.storage_ports(g)});
  }
  for (const auto& s : sc.storage) {
    first_enclosure.push_back(static_cast<int>(eps.size()));
    for (int e = 0; e < s.servers; ++e) // local_nvme has none: its drives sit in the GPU nodes
      eps.push_back({EndpointKind::storage, port_payload(sc, s), s.front_end_ports});
  }
  return eps;
}
} // namespace

ClusterNetwork build_cluster_network(const Scenario& sc) {
  std::vector<int> first_node, first_enclosure;
  auto eps = endpoints_of(sc, first_node, first_enclosure);
  // A leaf's uplinks follow from its endpoints' (data) bandwidth; a fat tree's cables carry data at the same rate.
  NetworkSpec spec = sc.network;
  spec.link_speed = spec.link_speed * fabric_wire_efficiency(sc);
  return ClusterNetwork{Fabric(spec, std::move(eps)), std::move(first_node), std::move(first_enclosure)};
}

double ClusterNetwork::switch_bound_Bps(int storage, int servers, const std::vector<int>& sinks) const {
  // One sink per distinct (leaf, ports, kind): the others reach the same switches through cables that never bind.
  std::vector<int> representatives;
  std::set<std::tuple<int, int, int>> seen;
  for (const int e : sinks) {
    const auto& ep = fabric.endpoints()[e];
    if (seen.emplace(fabric.leaf_of(e), ep.ports, static_cast<int>(ep.kind)).second)
      representatives.push_back(e);
  }
  SwitchBoundKey key{storage, {seen.begin(), seen.end()}};
  if (const auto it = switch_bounds.find(key); it != switch_bounds.end())
    return it->second;
  std::vector<std::pair<int, double>> sources;
  for (int e = 0; e < servers; ++e)
    sources.emplace_back(enclosure_endpoint(storage, e), std::numeric_limits<double>::infinity());
  const double bound = fabric.max_flow_Bps(sources, representatives, true);
  switch_bounds.emplace(std::move(key), bound);
  return bound;
}

std::vector<FlowBound> storage_flow_bounds(const Scenario& sc, const ClusterNetwork& net) {
  std::vector<int> gpus;
  for (size_t g = 0; g < sc.node_groups.size(); ++g)
    for (int i = 0; i < sc.node_groups[g].count; ++i)
      gpus.push_back(net.node_endpoint(static_cast<int>(g), i));
  std::vector<FlowBound> out;
  for (size_t s = 0; s < sc.storage.size(); ++s) {
    const auto& sys = sc.storage[s];
    if (sys.kind == "local_nvme") {
      // No network: each node reaches only its own drives.
      const double nodes = sys.nodes, per_node = sys.drives_per_node;
      out.push_back(
          {sys.drive_read_bandwidth().value * per_node * nodes, sys.drive_write_bandwidth().value * per_node * nodes});
      continue;
    }
    std::vector<std::pair<int, double>> rd, wr;
    const auto cap = [&](BytesPerSecond drives, IoOp op) {
      const auto limit = server_internal_limit(sc, static_cast<int>(s), op);
      return (limit ? std::min(drives, *limit) : drives).value;
    };
    for (int e = 0; e < sys.servers; ++e) {
      const int ep = net.enclosure_endpoint(static_cast<int>(s), e);
      rd.emplace_back(ep, cap(sys.server_read_bandwidth(), IoOp::read));
      wr.emplace_back(ep, cap(sys.server_write_bandwidth(), IoOp::write));
    }
    // Cables are full duplex with equal capacity both ways, so the GPU -> storage bound is the storage -> GPU
    // flow with what the servers can absorb as the cap.
    // Host-side protection sends every extra copy or parity piece over the network as well: the data rate is
    // the flow divided by the write amplification.
    const double net_amp = sys.host_side_protection ? sys.protection.write_amplification() : 1.0;
    out.push_back({net.fabric.max_flow_Bps(rd, gpus), net.fabric.max_flow_Bps(wr, gpus) / net_amp});
  }
  return out;
}

} // namespace aisim::models
