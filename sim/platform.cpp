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

Platform build_platform(const models::Scenario& sc) {
  Platform p;
  auto* zone = sg4::create_full_zone("cluster");
  const double half_latency = sc.network.latency.value / 2.0;

  // GPU node sets, one per job and group (aggregate) or one per node (full).
  p.node_sets_of_job.resize(sc.jobs.size());
  std::vector<sg4::Link*> nics;
  std::vector<int> next_free_node(sc.node_groups.size(), 0);
  for (size_t j = 0; j < sc.jobs.size(); ++j) {
    const auto& job = sc.jobs[j];
    int g = 0;
    while (sc.node_groups[g].name != job.node_group)
      ++g;
    const auto& group = sc.node_groups[g];
    const int nodes = job.gpus / group.gpus_per_node;
    const int sets = sc.simulation.fidelity == "full" ? nodes : 1;
    for (int s = 0; s < sets; ++s) {
      NodeSet ns;
      ns.group = g;
      ns.job = static_cast<int>(j);
      ns.nodes = nodes / sets;
      ns.gpus = ns.nodes * group.gpus_per_node;
      ns.name = group.name + "-" + std::to_string(next_free_node[g]) +
                (ns.nodes > 1 ? "-" + std::to_string(next_free_node[g] + ns.nodes - 1) : "");
      next_free_node[g] += ns.nodes;
      ns.host = zone->create_host(ns.name, 1e9)->seal();
      auto* nic = zone->create_split_duplex_link(ns.name + "-nic", group.nic_bandwidth().value * ns.nodes)
                      ->set_latency(half_latency)
                      ->seal();
      nics.push_back(nic);
      p.node_sets_of_job[j].push_back(static_cast<int>(p.node_sets.size()));
      p.node_sets.push_back(ns);
    }
  }

  // JBOF enclosures: a host with one disk per drive and its NVMe-oF ports as one link.
  p.enclosures_of_storage.resize(sc.storage.size());
  std::vector<sg4::Link*> ports;
  for (size_t s = 0; s < sc.storage.size(); ++s) {
    const auto& sys = sc.storage[s];
    for (int e = 0; e < sys.enclosures; ++e) {
      Enclosure enc;
      enc.storage = static_cast<int>(s);
      const std::string name = sys.name + "-enc" + std::to_string(e);
      enc.host = zone->create_host(name, 1e9);
      // Transfers stripe evenly over an enclosure's drives, so at fidelity "aggregate" one disk with the summed
      // bandwidth behaves the same as the drives side by side, at a fraction of the simulation cost.
      const int disks = sc.simulation.fidelity == "full" ? sys.drives_per_enclosure : 1;
      const double per_disk = static_cast<double>(sys.drives_per_enclosure) / disks;
      for (int d = 0; d < disks; ++d)
        enc.drives.push_back(enc.host
                                 ->create_disk(name + "-nvme" + std::to_string(d),
                                               sys.drive.read_bandwidth.value * per_disk,
                                               sys.drive.write_bandwidth.value * per_disk)
                                 ->seal());
      enc.host->seal();
      ports.push_back(zone->create_split_duplex_link(name + "-ports", sys.port_bandwidth().value)
                          ->set_latency(half_latency)
                          ->seal());
      p.enclosures_of_storage[s].push_back(static_cast<int>(p.enclosures.size()));
      p.enclosures.push_back(enc);
    }
  }

  // A non-blocking switch: every node set reaches every enclosure through its NIC and the enclosure's ports.
  for (size_t n = 0; n < p.node_sets.size(); ++n) {
    for (size_t e = 0; e < p.enclosures.size(); ++e) {
      auto* src = p.node_sets[n].host->get_netpoint();
      auto* dst = p.enclosures[e].host->get_netpoint();
      zone->add_route(src, dst, nullptr, nullptr,
                      {sg4::LinkInRoute(nics[n], Dir::UP), sg4::LinkInRoute(ports[e], Dir::DOWN)}, false);
      zone->add_route(dst, src, nullptr, nullptr,
                      {sg4::LinkInRoute(ports[e], Dir::UP), sg4::LinkInRoute(nics[n], Dir::DOWN)}, false);
    }
  }
  zone->seal();
  return p;
}

} // namespace aisim::sim
