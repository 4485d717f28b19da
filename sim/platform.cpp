#include "platform.hpp"

namespace aisim::sim {

namespace sg4 = simgrid::s4u;
using Dir = sg4::LinkInRoute::Direction;

void configure_engine(sg4::Engine& /*engine*/) {
  // LV08's latency and bandwidth factors describe wide-area TCP; RDMA fabrics deliver line rate, so use CM02
  // and a TCP window large enough never to bind (it otherwise caps a flow at gamma / (2 x latency)).
  sg4::Engine::set_config("network/model:CM02");
  sg4::Engine::set_config("network/crosstraffic:0");
  sg4::Engine::set_config("network/TCP-gamma:1e18");
}

Platform build_platform(const models::Scenario& sc, const models::ClusterNetwork& net) {
  Platform p;
  auto* zone = sg4::create_full_zone("cluster");
  const double latency = sc.network.link_latency.value;
  const auto& fabric = net.fabric;

  // GPU node sets: a job's nodes in one leaf form one set at fidelity "aggregate"; each node is a set at "full".
  p.node_sets_of_job.resize(sc.jobs.size());
  std::vector<sg4::Link*> nics;
  std::vector<int> leaf_of_set;
  std::vector<int> next_free_node(sc.node_groups.size(), 0);
  const bool full = sc.simulation.fidelity == "full";
  for (size_t j = 0; j < sc.jobs.size(); ++j) {
    const auto& job = sc.jobs[j];
    int g = 0;
    while (sc.node_groups[g].name != job.node_group)
      ++g;
    const auto& group = sc.node_groups[g];
    const int first = next_free_node[g];
    const int last = first + job.gpus / group.gpus_per_node; // one past
    next_free_node[g] = last;
    for (int a = first; a < last;) {
      const int leaf = fabric.leaf_of(net.node_endpoint(g, a));
      int b = a + 1;
      while (!full && b < last && fabric.leaf_of(net.node_endpoint(g, b)) == leaf)
        ++b;
      NodeSet ns;
      ns.group = g;
      ns.job = static_cast<int>(j);
      ns.nodes = b - a;
      ns.gpus = ns.nodes * group.gpus_per_node;
      ns.name = group.name + "-" + std::to_string(a) + (ns.nodes > 1 ? "-" + std::to_string(b - 1) : "");
      ns.host = zone->create_host(ns.name, 1e9)->seal();
      nics.push_back(zone->create_split_duplex_link(ns.name + "-nic", group.nic_bandwidth().value * ns.nodes)
                         ->set_latency(latency)
                         ->seal());
      leaf_of_set.push_back(leaf);
      p.node_sets_of_job[j].push_back(static_cast<int>(p.node_sets.size()));
      p.node_sets.push_back(ns);
      a = b;
    }
  }

  // JBOF enclosures: a host with its drives as disks and its NVMe-oF ports as one link.
  p.enclosures_of_storage.resize(sc.storage.size());
  std::vector<sg4::Link*> ports;
  std::vector<sg4::Link*> switches;
  std::vector<int> leaf_of_enclosure;
  for (size_t s = 0; s < sc.storage.size(); ++s) {
    const auto& sys = sc.storage[s];
    for (int e = 0; e < sys.enclosures; ++e) {
      Enclosure enc;
      enc.storage = static_cast<int>(s);
      const std::string name = sys.name + "-enc" + std::to_string(e);
      enc.host = zone->create_host(name, 1e9);
      // Transfers stripe evenly over an enclosure's drives, so at fidelity "aggregate" one disk with the summed
      // bandwidth behaves the same as the drives side by side, at a fraction of the simulation cost.
      const int disks = full ? sys.drives_per_enclosure : 1;
      const double per_disk = static_cast<double>(sys.drives_per_enclosure) / disks;
      for (int d = 0; d < disks; ++d)
        enc.drives.push_back(enc.host
                                 ->create_disk(name + "-nvme" + std::to_string(d),
                                               sys.drive_read_bandwidth().value * per_disk,
                                               sys.drive_write_bandwidth().value * per_disk)
                                 ->seal());
      enc.host->seal();
      ports.push_back(
          zone->create_split_duplex_link(name + "-ports", sys.port_bandwidth().value)->set_latency(latency)->seal());
      // The PCIe switch between the drives and the NVMe-oF controllers, when the scenario says it can limit.
      switches.push_back(sys.switch_uplink
                             ? zone->create_split_duplex_link(name + "-pcie-switch", sys.switch_uplink->value)->seal()
                             : nullptr);
      leaf_of_enclosure.push_back(fabric.leaf_of(net.enclosure_endpoint(static_cast<int>(s), e)));
      p.enclosures_of_storage[s].push_back(static_cast<int>(p.enclosures.size()));
      p.enclosures.push_back(enc);
    }
  }

  // Switch-level links (bundles of equal-cost cables, see models/fabric.hpp).
  std::vector<sg4::Link*> fabric_links;
  for (const auto& l : fabric.links())
    fabric_links.push_back(zone->create_split_duplex_link(l.name, l.capacity_Bps)->set_latency(latency)->seal());
  auto hops = [&](int from_leaf, int to_leaf) {
    std::vector<sg4::LinkInRoute> out;
    for (const auto& h : fabric.route(from_leaf, to_leaf))
      out.emplace_back(fabric_links[h.link], h.up ? Dir::UP : Dir::DOWN);
    return out;
  };

  // Every node set reaches every enclosure: its NIC, the fabric between their leaves, the enclosure's ports.
  for (size_t n = 0; n < p.node_sets.size(); ++n) {
    for (size_t e = 0; e < p.enclosures.size(); ++e) {
      auto* node = p.node_sets[n].host->get_netpoint();
      auto* enc = p.enclosures[e].host->get_netpoint();
      std::vector<sg4::LinkInRoute> to_enc{sg4::LinkInRoute(nics[n], Dir::UP)};
      for (const auto& h : hops(leaf_of_set[n], leaf_of_enclosure[e]))
        to_enc.push_back(h);
      to_enc.emplace_back(ports[e], Dir::DOWN);
      std::vector<sg4::LinkInRoute> to_node;
      if (switches[e]) {
        to_enc.emplace_back(switches[e], Dir::DOWN);
        to_node.emplace_back(switches[e], Dir::UP);
      }
      to_node.emplace_back(ports[e], Dir::UP);
      for (const auto& h : hops(leaf_of_enclosure[e], leaf_of_set[n]))
        to_node.push_back(h);
      to_node.emplace_back(nics[n], Dir::DOWN);
      zone->add_route(node, enc, nullptr, nullptr, to_enc, false);
      zone->add_route(enc, node, nullptr, nullptr, to_node, false);
    }
  }
  zone->seal();
  return p;
}

} // namespace aisim::sim
