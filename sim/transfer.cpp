#include "transfer.hpp"

#include <cmath>

namespace aisim::sim {

namespace sg4 = simgrid::s4u;

Transfer::Transfer(const Platform& platform, int storage, IoDirection direction, const std::vector<Flow>& flows,
                   Metrics& metrics)
    : storage_(storage), direction_(direction), start_s_(sg4::Engine::get_clock()), metrics_(&metrics) {
  const auto& encs = platform.enclosures_of_storage[storage];
  const double n_enc = static_cast<double>(encs.size());
  for (const auto& f : flows)
    bytes_ += f.bytes;
  for (int e : encs) {
    const auto& enc = platform.enclosures[e];
    for (const auto& f : flows) {
      const auto size = static_cast<uint64_t>(std::llround(f.bytes / n_enc));
      if (size == 0)
        continue;
      auto* node = platform.node_sets[f.node_set].host;
      comms_.push_back(direction == IoDirection::write ? sg4::Comm::sendto_async(node, enc.host, size)
                                                       : sg4::Comm::sendto_async(enc.host, node, size));
    }
    const auto per_drive = static_cast<uint64_t>(std::llround(bytes_ / n_enc / static_cast<double>(enc.drives.size())));
    if (per_drive == 0)
      continue;
    for (auto* d : enc.drives)
      ios_.push_back(direction == IoDirection::write ? d->write_async(per_drive) : d->read_async(per_drive));
  }
  metrics.activities += comms_.size() + ios_.size();
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
  (direction_ == IoDirection::read ? sm.read_bytes : sm.write_bytes) += bytes_;
  sm.transfers.push_back({start_s_, sg4::Engine::get_clock(), bytes_, direction_});
}

} // namespace aisim::sim
