#include "sim/engine/transfer.hpp"

#include <algorithm>
#include <cmath>

namespace aisim::sim {

namespace sg4 = simgrid::s4u;

namespace {

// How many stripes each server of a system takes: the physical servers it stands for that are serving. Failed
// enclosures, controllers or file servers (storage_failures.hpp) take no new stripes, the others carry them;
// with none serving, a transfer is striped as usual and waits for repairs.
struct Stripes {
  const Platform& platform;
  int total = 0;
  bool all_out = false;
  Stripes(const Platform& p, int storage) : platform(p) {
    for (int e : p.servers_of_storage[storage])
      total += p.servers[e].serving;
    all_out = total == 0;
    if (all_out)
      for (int e : p.servers_of_storage[storage])
        total += p.servers[e].weight;
  }
  int of(int server) const { return all_out ? platform.servers[server].weight : platform.servers[server].serving; }
};

} // namespace

Transfer::Transfer(const Platform& platform, int storage, IoDirection direction, Metrics& metrics)
    : flows_(platform.routes), storage_(storage), direction_(direction), start_s_(sg4::Engine::get_clock()),
      metrics_(&metrics) {}

void Transfer::write_to_disks(const std::vector<sg4::Disk*>& disks, double bytes, IoDirection direction) {
  if (disks.empty())
    return;
  const auto per_disk = static_cast<uint64_t>(std::llround(bytes / static_cast<double>(disks.size())));
  if (per_disk == 0)
    return;
  for (auto* d : disks)
    ios_.push_back({d, per_disk, direction == IoDirection::write});
}

Transfer::Transfer(const models::Scenario& sc, const Platform& platform, int storage, IoDirection direction,
                   const std::vector<Flow>& flows, Metrics& metrics, int files)
    : Transfer(platform, storage, direction, metrics) {
  const auto& sys = sc.storage[storage];
  for (const auto& f : flows)
    bytes_ += f.bytes;
  const bool write = direction == IoDirection::write;
  // Reads of a protected system with drives out reconstruct their share from D pieces each.
  const double disk_amp = write ? sys.protection.write_amplification() : platform.read_amplification[storage];
  if (sys.kind == "local_nvme") {
    for (const auto& f : flows)
      write_to_disks(platform.node_sets[f.node_set].local_disks.at(storage), f.bytes * disk_amp, direction);
    metrics.activities += ios_.size();
    start();
    return;
  }
  // Host-side protection: the clients themselves send the extra pieces, and fetch the pieces a degraded read needs.
  const double net_amp = sys.host_side_protection ? disk_amp : 1.0;
  // Each server host takes the share of the physical servers it stands for. Few files on a parallel file system
  // reach only the servers their stripes land on (placed round-robin from the first; PFS servers are never merged,
  // see sim/platform/layout.hpp): stripe_count each, fewer for a file of fewer stripe units.
  std::vector<std::pair<int, double>> servers; // host index, its share
  const Stripes stripes(platform, storage);
  long long budget = stripes.total;
  if (sys.kind == "pfs" && files > 0)
    budget = std::min<long long>(budget, sys.servers_for_files(files, models::Bytes(bytes_ / files)));
  const double used = static_cast<double>(budget);
  for (int e : platform.servers_of_storage[storage]) {
    if (budget <= 0)
      break;
    if (stripes.of(e) == 0)
      continue;
    servers.emplace_back(e, stripes.of(e) / used);
    budget -= stripes.of(e);
  }
  for (const auto& [e, share] : servers) {
    const auto& srv = platform.servers[e];
    for (const auto& f : flows) {
      const auto size = static_cast<uint64_t>(std::llround(f.bytes * net_amp * share));
      if (size == 0)
        continue;
      const auto& ns = platform.node_sets[f.node_set];
      auto* from = write ? ns.host : srv.host;
      auto* to = write ? srv.host : ns.host;
      // One flow here for each (node, server) pair of fidelity "full": their shares wherever other jobs contend.
      flows_.add(from, to, size, static_cast<double>(ns.nodes) * stripes.of(e));
    }
    write_to_disks(srv.disks, bytes_ * disk_amp * share, direction);
  }
  metrics.activities += flows_.size() + ios_.size();
  start();
}

Transfer Transfer::replicate(const models::Scenario& sc, const Platform& platform, int from, int to, double bytes,
                             Metrics& metrics, bool read_source) {
  Transfer t(platform, to, IoDirection::write, metrics);
  t.bytes_ = bytes;
  t.source_ = from;
  const auto& src = platform.servers_of_storage[from];
  const auto& dst = platform.servers_of_storage[to];
  const Stripes src_stripes(platform, from), dst_stripes(platform, to);
  const double src_total = src_stripes.total, dst_total = dst_stripes.total;
  // A copy within one system (a validated model cloned for production on the same array) stays in its servers:
  // each copies its own share through itself (its controller, or its ports out and back in), which the platform's
  // route from the server to itself holds (sim/platform/routes.cpp).
  if (from == to)
    for (int a : src) {
      const auto size = static_cast<uint64_t>(std::llround(bytes * src_stripes.of(a) / src_total));
      if (size > 0 && platform.servers[a].copies_within)
        t.flows_.add(platform.servers[a].host, platform.servers[a].host, size, static_cast<double>(src_stripes.of(a)));
    }
  for (int a : from == to ? std::vector<int>{} : src)
    for (int b : dst) {
      const double share = src_stripes.of(a) / src_total * dst_stripes.of(b) / dst_total;
      const auto size = static_cast<uint64_t>(std::llround(bytes * share));
      if (size > 0)
        t.flows_.add(platform.servers[a].host, platform.servers[b].host, size,
                     static_cast<double>(src_stripes.of(a)) * dst_stripes.of(b));
    }
  for (int a : src)
    if (read_source && src_stripes.of(a) > 0)
      t.write_to_disks(platform.servers[a].disks,
                       bytes * platform.read_amplification[from] * src_stripes.of(a) / src_total, IoDirection::read);
  const double amp = sc.storage[to].protection.write_amplification();
  for (int b : dst)
    if (dst_stripes.of(b) > 0)
      t.write_to_disks(platform.servers[b].disks, bytes * amp * dst_stripes.of(b) / dst_total, IoDirection::write);
  metrics.activities += t.flows_.size() + t.ios_.size();
  t.start();
  return t;
}

void Transfer::start() {
  flows_.start();
  if (ios_.empty())
    return;
  // SimGrid 3.32: when one actor has an Io and a Comm in flight at once, every completion scans a list that grows
  // with each such pair (measured: quadratic in the number of transfers; and 1.6 times the run time of
  // scenarios/bench/llm-100k-365d with one child actor per transfer for both sides). A child actor per transfer
  // runs the disk side, which keeps the cost linear; the flows run beside it (flows.hpp).
  disk_actor_ = sg4::Actor::create("disks", ios_.front().disk->get_host(), [ios = ios_] {
    std::vector<sg4::IoPtr> started;
    for (const auto& io : ios)
      started.push_back(io.write ? io.disk->write_async(io.bytes) : io.disk->read_async(io.bytes));
    for (auto& io : started)
      io->wait();
  });
}

void Transfer::wait() {
  if (done_)
    return;
  done_ = true;
  flows_.wait();
  if (disk_actor_)
    disk_actor_->join();
  const double end_s = sg4::Engine::get_clock();
  auto& sm = metrics_->storage[storage_];
  (direction_ == IoDirection::read ? sm.read_bytes : sm.write_bytes) += bytes_;
  if (one_off_)
    (direction_ == IoDirection::read ? sm.one_off_read_bytes : sm.one_off_write_bytes) += bytes_;
  const bool copy = source_ >= 0;
  sm.transfers.push_back({start_s_, end_s, bytes_, direction_, copy, job_, traffic_, source_});
  if (copy) {
    sm.copied_in_bytes += bytes_;
    auto& src = metrics_->storage[source_];
    src.read_bytes += bytes_;
    src.copied_out_bytes += bytes_;
    if (one_off_)
      src.one_off_read_bytes += bytes_;
    src.transfers.push_back({start_s_, end_s, bytes_, IoDirection::read, true});
  }
}

} // namespace aisim::sim
