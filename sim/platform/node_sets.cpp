#include "sim/platform/builder.hpp"

#include "models/cluster/host_path.hpp"
#include "models/cluster/wire.hpp"

#include <algorithm>

namespace aisim::sim {

namespace sg4 = simgrid::s4u;
using Dir = sg4::LinkInRoute::Direction;

void PlatformBuilder::add_node_sets() {
  p_.node_sets_of_job.resize(sc_.jobs.size());
  for (const auto& c : set_layout_) {
    const auto& group = sc_.node_groups[c.group];
    NodeSet ns{.name = c.name,
               .group = c.group,
               .job = c.job,
               .nodes = c.nodes(),
               .gpus = c.nodes() * group.gpus_per_node,
               .host = zone_->create_host(c.name, 1e9),
               .fabric_peer = nullptr,
               .local_disks = {}};
    for (size_t s = 0; s < sc_.storage.size(); ++s) {
      const auto& sys = sc_.storage[s];
      if (sys.kind == "local_nvme" && sys.node_group == group.name)
        ns.local_disks[static_cast<int>(s)] = create_drive_disks(
            ns.host, ns.name + "-" + sys.name, sc_, static_cast<int>(s), ns.nodes * sys.drives_per_node, full_);
    }
    ns.host->seal();
    // The NICs carry data at the wire efficiency of the job's own systems' clients (models/cluster/wire.hpp): up
    // for writes, down for reads.
    const auto& job = sc_.jobs[c.job];
    const double line = sc_.storage_bandwidth(group).value;
    auto data_rate = [&](models::IoOp op) {
      const auto* sys = models::main_storage(sc_, job, op);
      return sys ? line * models::wire_efficiency(sc_, *sys) : line * models::fabric_wire_efficiency(sc_);
    };
    const double nic_up = data_rate(models::IoOp::write), nic_down = data_rate(models::IoOp::read);
    auto* nic = create_link(ns.name + "-nic", std::max(nic_up, nic_down) * ns.nodes);
    nic->get_link_up()->set_bandwidth(nic_up * ns.nodes);
    nic->get_link_down()->set_bandwidth(nic_down * ns.nodes);
    nics_.push_back(nic->seal());
    // The nodes' own path between NICs and GPU memory (models/cluster/host_path.hpp), up for writes and down for
    // reads, where it is narrower than the NICs.
    const double up = models::host_path_bandwidth(sc_, group, job, models::IoOp::write);
    const double down = models::host_path_bandwidth(sc_, group, job, models::IoOp::read);
    sg4::SplitDuplexLink* host = nullptr;
    if (up < nic_up || down < nic_down) {
      host = create_link(ns.name + "-host-path", std::max(nic_up, nic_down) * ns.nodes, false);
      host->get_link_up()->set_bandwidth(std::min(up, nic_up) * ns.nodes);
      host->get_link_down()->set_bandwidth(std::min(down, nic_down) * ns.nodes);
      host->seal();
    }
    host_paths_.push_back(host);
    p_.node_sets_of_job[c.job].push_back(static_cast<int>(p_.node_sets.size()));
    p_.node_sets.push_back(ns);
  }
}

void PlatformBuilder::add_fabric_peers() {
  const bool collectives = sc_.network.converged && std::any_of(sc_.jobs.begin(), sc_.jobs.end(), [](const auto& j) {
                             return j.allreduce_bytes_per_step.value > 0;
                           });
  if (!collectives)
    return;
  for (size_t n = 0; n < p_.node_sets.size(); ++n) {
    auto& ns = p_.node_sets[n];
    ns.fabric_peer = zone_->create_host(ns.name + "-fabric-peer", 1e9)->seal();
    add_route(ns.host, ns.fabric_peer, {sg4::LinkInRoute(nics_[n], Dir::UP)});
    add_route(ns.fabric_peer, ns.host, {sg4::LinkInRoute(nics_[n], Dir::DOWN)});
  }
}

} // namespace aisim::sim
