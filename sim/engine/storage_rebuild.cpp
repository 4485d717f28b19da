// Rebuilding a protected system's lost drives as real traffic: every drive rebuilt is written whole (its
// capacity) from D pieces read from the drives of its stripe group still holding their data, across the network
// when the group spans servers (jbof, pfs). The rebuild competes with the jobs at `rebuild_priority` on every
// drive it touches and runs at most at one drive's write bandwidth per drive rebuilt (or `rebuild_rate`), paced
// in chunks: a chunk that finishes early waits for its share of that time, one held back by the jobs delays the
// rest.
#include "sim/engine/flows.hpp"
#include "sim/engine/storage_failures.hpp"

#include <algorithm>
#include <limits>

namespace aisim::sim {

namespace sg4 = simgrid::s4u;

namespace {

constexpr int kChunks = 32;

} // namespace

sg4::Disk* StorageFailures::disk_of(const System& sys, int drive) const {
  const int slot = drive / sys.drives_per_slot;
  const int host = sys.slots[slot].host;
  const auto& disks = platform_->servers[host].disks;
  const int local = (slot - sys.first_slot[host]) * sys.drives_per_slot + drive % sys.drives_per_slot;
  // One disk per drive at fidelity "full", one for all of a server's drives at "aggregate".
  return disks.size() > 1 ? disks[local] : disks.front();
}

StorageFailures::RebuildChunk StorageFailures::rebuild_chunk(const System& sys, const std::vector<int>& drives) const {
  const auto& spec = sc_->storage[sys.storage];
  const auto& p = spec.protection;
  const double capacity = spec.drive->capacity.value;
  // What one chunk does: write each drive's share, read D shares from its group's drives still whole, summed per
  // disk: a disk standing for n drives (fidelity "aggregate") takes the rebuild at priority x drives involved / n,
  // the share its drives' own I/Os would take against the jobs' at fidelity "full".
  RebuildChunk chunk;
  auto& shares = chunk.shares;
  auto& copies = chunk.copies;
  using DiskShare = RebuildChunk::DiskShare;
  using Copy = RebuildChunk::Copy;
  auto host_of = [&](int drive) { return sys.slots[drive / sys.drives_per_slot].host; };
  auto add_share = [&](int drive, bool write, double bytes) {
    auto* disk = disk_of(sys, drive);
    const auto& srv = platform_->servers[host_of(drive)];
    const double drives_per_disk = srv.disks.size() > 1 ? 1.0 : srv.weight * sys.drives_per_slot;
    auto it = std::find_if(shares.begin(), shares.end(),
                           [&](const DiskShare& x) { return x.disk == disk && x.write == write; });
    if (it == shares.end())
      it = shares.insert(shares.end(), DiskShare{disk, write, 0.0, 0.0});
    it->bytes += bytes;
    it->priority += p.rebuild_priority / drives_per_disk;
  };
  // Across servers (jbof, pfs), pieces held by another server cross the network to the one rebuilt; an array's
  // controllers reach all its shelves.
  auto add_copy = [&](int from, int to, double bytes) {
    const auto& src = platform_->servers[host_of(from)];
    auto* a = src.host;
    auto* b = platform_->servers[host_of(to)].host;
    const bool same_server = from / sys.drives_per_slot == to / sys.drives_per_slot;
    if (spec.kind == "array" || same_server || (a == b && src.weight == 1))
      return;
    auto it = std::find_if(copies.begin(), copies.end(), [&](const Copy& x) { return x.from == a && x.to == b; });
    if (it == copies.end())
      it = copies.insert(copies.end(), Copy{a, b, 0.0, a == b ? src.front_end_Bps / src.weight : -1.0});
    it->bytes += bytes;
  };
  for (int d : drives) {
    add_share(d, true, capacity / kChunks);
    const std::vector<int> whole = whole_in_group(sys, d);
    for (int m : whole) { // at least D (StorageFailures::drives_back)
      const double bytes = capacity * p.data / static_cast<double>(whole.size()) / kChunks;
      add_share(m, false, bytes);
      add_copy(m, d, bytes);
    }
  }
  return chunk;
}

void StorageFailures::run_rebuild(int system, const std::vector<int>& drives, const std::vector<int>& generations,
                                  const RebuildChunk& chunk, size_t record, double chunk_s) {
  const auto& shares = chunk.shares;
  const auto& copies = chunk.copies;
  auto& sys = systems_[system];
  const double t0 = sg4::Engine::get_clock();
  auto still_lost = [&] {
    for (size_t i = 0; i < drives.size(); ++i)
      if (sys.generation[drives[i]] != generations[i])
        return false; // lost again (a further failure): a later rebuild starts over
    return true;
  };
  for (int c = 0; c < kChunks; ++c) {
    // (The period's end read afresh: a run limit may end it early.)
    if (!still_lost() || sg4::Engine::get_clock() >= metrics_->period_end_s)
      return;
    std::vector<sg4::IoPtr> ios;
    Flows comms(platform_->routes);
    for (const auto& x : shares)
      ios.push_back(
          x.disk->io_init(static_cast<sg_size_t>(x.bytes), x.write ? sg4::Io::OpType::WRITE : sg4::Io::OpType::READ)
              ->set_priority(x.priority)
              ->start());
    for (const auto& copy : copies)
      comms.add(copy.from, copy.to, static_cast<uint64_t>(copy.bytes), 1.0, copy.rate);
    comms.start();
    metrics_->activities += ios.size() + comms.size();
    for (auto& io : ios)
      io->wait();
    comms.wait();
    auto& rec = metrics_->storage[sys.storage].rebuilds[record];
    for (const auto& x : shares)
      (x.write ? rec.written_bytes : rec.read_bytes) += x.bytes;
    sg4::this_actor::sleep_until(std::min(metrics_->period_end_s, t0 + (c + 1) * chunk_s));
  }
  if (!still_lost())
    return;
  metrics_->storage[sys.storage].rebuilds[record].end_s = sg4::Engine::get_clock();
  for (int d : drives)
    restore_data(sys, d);
}

void StorageFailures::start_rebuild(int system, std::vector<int> drives, const std::string& component, int index) {
  auto& sys = systems_[system];
  const auto& spec = sc_->storage[sys.storage];
  const double capacity = spec.drive->capacity.value;
  const double cap = spec.rebuild_bandwidth().value;
  const RebuildChunk chunk = rebuild_chunk(sys, drives);
  std::vector<int> generations;
  for (int d : drives)
    generations.push_back(sys.generation[d]);
  auto& list = metrics_->storage[sys.storage].rebuilds;
  list.push_back({sg4::Engine::get_clock(), std::numeric_limits<double>::infinity(), component, index,
                  static_cast<int>(drives.size()), 0.0, 0.0});
  const size_t record = list.size() - 1;
  const double chunk_s = capacity / cap / kChunks;
  sg4::Actor::create(spec.name + "-rebuild", sg4::this_actor::get_host(),
                     [=, this] { run_rebuild(system, drives, generations, chunk, record, chunk_s); });
}

} // namespace aisim::sim
