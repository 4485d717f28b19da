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

std::set<std::pair<size_t, size_t>> copy_routes(const Scenario& sc) {
  std::set<std::pair<size_t, size_t>> routes;
  auto add = [&](const std::string& from, const std::string& to) {
    const auto* a = sc.find_storage(from);
    const auto* b = sc.find_storage(to);
    if (a && b && a->kind != "local_nvme" && b->kind != "local_nvme")
      routes.emplace(a - sc.storage.data(), b - sc.storage.data());
  };
  for (const auto& sys : sc.storage)
    if (sys.replication)
      add(sys.name, sys.replication->target);
  const auto& pol = sc.policies;
  const auto& validated = pol.place(DataClass::validated_model);
  for (const auto& job : sc.jobs) {
    add(pol.tiering.dataset_home, job.dataset.storage);
    add(job.checkpoint.storage, pol.tiering.archive_checkpoints_to);
    if (pol.promotion)
      add(job.checkpoint.storage, validated);
  }
  add(validated, pol.tiering.replicate_validated_to);
  add(validated, pol.place(DataClass::production_model));
  return routes;
}

std::vector<FlowBound> storage_flow_bounds(const Scenario& sc, const ClusterNetwork& net) {
  std::vector<int> gpus;
  for (size_t g = 0; g < sc.node_groups.size(); ++g)
    for (int i = 0; i < sc.node_groups[g].count; ++i)
      gpus.push_back(net.node_endpoint(static_cast<int>(g), i));
  const auto copies = copy_routes(sc);
  std::vector<FlowBound> out;
  for (size_t s = 0; s < sc.storage.size(); ++s) {
    const auto& sys = sc.storage[s];
    if (sys.kind == "local_nvme") {
      // No network: each node reaches only its own drives.
      const double nodes = sys.nodes, per_node = sys.drives_per_node;
      const double rd = sys.drive_read_bandwidth().value * per_node * nodes;
      const double wr = sys.drive_write_bandwidth().value * per_node * nodes;
      out.push_back({rd, wr, rd, wr});
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
    FlowBound b{net.fabric.max_flow_Bps(rd, gpus), net.fabric.max_flow_Bps(wr, gpus) / net_amp};
    // Copies reach the enclosures of the systems at their other end (a copy within a system, its own: through
    // itself, capped by what its servers carry). Copies are sent without host-side protection's extra pieces.
    // The GPUs' endpoints and those of the systems at the copies' other ends (`other_end(from, to)`: that system,
    // or -1); the GPUs' bound where the system copies nothing that way.
    const auto with_copies = [&](const auto& caps, double gpus_only, auto other_end) {
      std::vector<int> ends;
      for (const auto& [from, to] : copies)
        if (const int other = other_end(from, to); other >= 0)
          for (int e = 0; e < sc.storage[other].servers; ++e)
            ends.push_back(net.enclosure_endpoint(other, e));
      if (ends.empty())
        return gpus_only;
      ends.insert(ends.end(), gpus.begin(), gpus.end());
      return net.fabric.max_flow_Bps(caps, ends);
    };
    b.read_with_copies_Bps = with_copies(rd, b.read_Bps, [s](size_t from, size_t to) {
      return from == s ? static_cast<int>(to) : -1;
    });
    b.write_with_copies_Bps = with_copies(wr, b.write_Bps, [s](size_t from, size_t to) {
      return to == s ? static_cast<int>(from) : -1;
    });
    out.push_back(b);
  }
  return out;
}

} // namespace aisim::models
