#include "sim/platform/builder.hpp"

#include "models/cluster/drive_load.hpp"
#include "models/cluster/wire.hpp"

namespace aisim::sim {

// A server is a host with its drives as disks, its front end (NVMe-oF or client ports) as one link, and an
// internal limit (PCIe switch, controller) as another when the system has one. The servers of one system on one
// leaf may be one host with their links and drives summed (sim/platform/layout.hpp says when): transfers stripe
// evenly, so they carry equal shares anyway.
void PlatformBuilder::add_storage_servers() {
  p_.servers_of_storage.resize(sc_.storage.size());
  p_.read_amplification.assign(sc_.storage.size(), 1.0);
  for (const auto& l : server_layout_) {
    const auto& sys = sc_.storage[l.storage];
    StorageServer srv;
    srv.storage = l.storage;
    srv.weight = l.count;
    srv.host = zone_->create_host(l.name, 1e9);
    if (sys.drive)
      srv.disks = create_drive_disks(srv.host, l.name, sc_, l.storage, sys.drives_per_server * l.count, full_);
    srv.host->seal();
    srv.serving = l.count;
    for (auto* d : srv.disks)
      srv.disk_Bps.emplace_back(d->get_read_bandwidth(), d->get_write_bandwidth());
    // Its ports' line rate less the client protocol's headers (models/cluster/wire.hpp).
    srv.front_end_Bps = models::port_payload(sc_, sys).value * l.count;
    srv.front_end = create_link(l.name + "-front-end", srv.front_end_Bps);
    front_ends_.push_back(srv.front_end->seal());
    // Outward (UP) carries reads, inward (DOWN) writes; array controllers' IOPS ceilings differ by direction.
    const auto read_limit = models::server_internal_limit(sc_, l.storage, models::IoOp::read);
    const auto write_limit = models::server_internal_limit(sc_, l.storage, models::IoOp::write);
    simgrid::s4u::SplitDuplexLink* internal = nullptr;
    if (read_limit || write_limit) {
      internal = create_link(l.name + "-internal", read_limit.value_or(*write_limit).value * l.count, false);
      internal->get_link_up()->set_bandwidth(read_limit.value_or(*write_limit).value * l.count);
      internal->get_link_down()->set_bandwidth(write_limit.value_or(*read_limit).value * l.count);
      internal->seal();
    }
    internals_.push_back(internal);
    srv.internal = internal;
    srv.internal_read_Bps = read_limit.value_or(write_limit.value_or(models::BytesPerSecond(0))).value * l.count;
    srv.internal_write_Bps = write_limit.value_or(read_limit.value_or(models::BytesPerSecond(0))).value * l.count;
    p_.servers_of_storage[l.storage].push_back(static_cast<int>(p_.servers.size()));
    p_.servers.push_back(srv);
  }
}

void PlatformBuilder::add_metadata_hosts() {
  p_.metadata_host.assign(sc_.storage.size(), nullptr);
  p_.node_metadata_host.assign(sc_.storage.size(), {});
  p_.request_host.assign(sc_.storage.size(), {nullptr, nullptr});
  for (size_t s = 0; s < sc_.storage.size(); ++s) {
    const auto& sys = sc_.storage[s];
    if (sys.kind == "pfs" || sys.kind == "array")
      p_.metadata_host[s] = zone_->create_host(sys.name + "-metadata", sys.metadata_ops_rate(0))->seal();
    if (sys.kind == "jbof")
      for (const auto& ns : p_.node_sets)
        p_.node_metadata_host[s].push_back(
            zone_->create_host(sys.name + "-fs-" + ns.name, sys.metadata_ops_rate(ns.nodes))->seal());
    if (sys.kind == "object")
      p_.request_host[s] = {zone_->create_host(sys.name + "-gets", sys.object_request_rate(false))->seal(),
                            zone_->create_host(sys.name + "-puts", sys.object_request_rate(true))->seal()};
  }
}

} // namespace aisim::sim
