// Moving bytes between GPU node sets and a storage system, as one fluid activity per (node set, enclosure)
// pair on the network and one per drive. Network and drives run concurrently, as a pipelined stream does, so a
// transfer lasts as long as its bottleneck needs: size / min(NIC, port, drive bandwidth shares).
#pragma once

#include "metrics.hpp"
#include "platform.hpp"

#include <simgrid/s4u.hpp>

#include <vector>

namespace aisim::sim {

struct Flow {
  int node_set = -1;
  double bytes = 0;
};

class Transfer {
public:
  // Starts at once. Bytes of each flow are striped evenly over the system's enclosures, and each
  // enclosure's share over its drives.
  Transfer(const Platform& platform, int storage, IoDirection direction, const std::vector<Flow>& flows,
           Metrics& metrics);
  // Blocks the calling actor until every part has completed; records the transfer once. Idempotent.
  void wait();
  double get_bytes() const { return bytes_; }

private:
  std::vector<simgrid::s4u::CommPtr> comms_;
  std::vector<simgrid::s4u::IoPtr> ios_;
  int storage_;
  IoDirection direction_;
  double bytes_ = 0;
  double start_s_ = 0;
  bool done_ = false;
  Metrics* metrics_;
};

} // namespace aisim::sim
