#include "transfer.hpp"

#include <algorithm>
#include <cmath>

namespace aisim::sim {

namespace sg4 = simgrid::s4u;

Transfer::Transfer(int storage, IoDirection direction, Metrics& metrics)
    : storage_(storage), direction_(direction), start_s_(sg4::Engine::get_clock()), metrics_(&metrics) {}

void Transfer::write_to_disks(const std::vector<sg4::Disk*>& disks, double bytes, IoDirection direction) {
  if (disks.empty())
    return;
  const auto per_disk = static_cast<uint64_t>(std::llround(bytes / static_cast<double>(disks.size())));
  if (per_disk == 0)
    return;
  for (auto* d : disks)
    ios_.push_back(direction == IoDirection::write ? d->write_async(per_disk) : d->read_async(per_disk));
}

Transfer::Transfer(const models::Scenario& sc, const Platform& platform, int storage, IoDirection direction,
                   const std::vector<Flow>& flows, Metrics& metrics, int files)
    : Transfer(storage, direction, metrics) {
  const auto& sys = sc.storage[storage];
  for (const auto& f : flows)
    bytes_ += f.bytes;
  const bool write = direction == IoDirection::write;
  const double disk_amp = write ? sys.protection.write_amplification() : 1.0;
  if (sys.kind == "local_nvme") {
    for (const auto& f : flows)
      write_to_disks(platform.node_sets[f.node_set].local_disks.at(storage), f.bytes * disk_amp, direction);
    metrics.activities += ios_.size();
    return;
  }
  const double net_amp = write && sys.host_side_protection ? disk_amp : 1.0;
  std::vector<int> servers = platform.servers_of_storage[storage];
  if (sys.kind == "pfs" && files > 0) {
    // Few files reach only the servers their stripes land on (placed round-robin from the first).
    const auto spread = static_cast<size_t>(
        std::min<long long>(static_cast<long long>(servers.size()), static_cast<long long>(files) * sys.stripe_count));
    servers.resize(spread);
  }
  const double n_servers = static_cast<double>(servers.size());
  for (int e : servers) {
    const auto& srv = platform.servers[e];
    for (const auto& f : flows) {
      const auto size = static_cast<uint64_t>(std::llround(f.bytes * net_amp / n_servers));
      if (size == 0)
        continue;
      const auto& ns = platform.node_sets[f.node_set];
      auto* from = write ? ns.host : srv.host;
      auto* to = write ? srv.host : ns.host;
      comms_.push_back(sg4::Comm::sendto_async(from, to, size));
    }
    write_to_disks(srv.disks, bytes_ * disk_amp / n_servers, direction);
  }
  metrics.activities += comms_.size() + ios_.size();
}

Transfer Transfer::replicate(const models::Scenario& sc, const Platform& platform, int from, int to, double bytes,
                             Metrics& metrics) {
  Transfer t(to, IoDirection::write, metrics);
  t.bytes_ = bytes;
  t.replica_ = true;
  const auto& src = platform.servers_of_storage[from];
  const auto& dst = platform.servers_of_storage[to];
  const double pairs = static_cast<double>(src.size() * dst.size());
  const auto size = static_cast<uint64_t>(std::llround(bytes / pairs));
  for (int a : src)
    for (int b : dst)
      if (size > 0)
        t.comms_.push_back(sg4::Comm::sendto_async(platform.servers[a].host, platform.servers[b].host, size));
  const double amp = sc.storage[to].protection.write_amplification();
  for (int b : dst)
    t.write_to_disks(platform.servers[b].disks, bytes * amp / static_cast<double>(dst.size()), IoDirection::write);
  metrics.activities += t.comms_.size() + t.ios_.size();
  return t;
}

void Transfer::wait() {
  if (done_)
    return;
  done_ = true;
  for (auto& c : comms_)
    c->wait();
  for (auto& io : ios_)
    io->wait();
  auto& sm = metrics_->storage[storage_];
  if (replica_)
    sm.replicated_in_bytes += bytes_;
  else
    (direction_ == IoDirection::read ? sm.read_bytes : sm.write_bytes) += bytes_;
  sm.transfers.push_back({start_s_, sg4::Engine::get_clock(), bytes_, direction_, replica_});
}

} // namespace aisim::sim
