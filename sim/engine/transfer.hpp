// Moving bytes between GPU node sets and a storage system, or from one system to another (replication), as one
// fluid activity per (sender, receiver) pair on the network and one per disk. Network and disks run
// concurrently, as a pipelined stream does, so a transfer lasts as long as its bottleneck needs.
#pragma once

#include "sim/engine/flows.hpp"
#include "sim/engine/metrics.hpp"
#include "sim/platform/platform.hpp"

#include "models/scenario/scenario.hpp"

#include <simgrid/s4u.hpp>

#include <vector>

namespace aisim::sim {

struct Flow {
  int node_set = -1;
  double bytes = 0;
};

class Transfer {
public:
  // Starts at once. Each flow's bytes are striped evenly over the system's servers and each server's share over
  // its disks; local_nvme flows go to the node set's own disks. Writes carry the system's protection: extra
  // copies or parity land on disks and, for host-side protection, cross the network too.
  // `files` (0: many) bounds how far a parallel file system can spread the bytes: each file is striped over
  // stripe_count servers.
  Transfer(const models::Scenario& sc, const Platform& platform, int storage, IoDirection direction,
           const std::vector<Flow>& flows, Metrics& metrics, int files = 0);
  // Copies `bytes` from every server of `from` to every server of `to`, written to `to`'s disks. Replication
  // forwards data as it arrives (`read_source` false); a copy of data at rest (tiering, promotion) also reads
  // it from `from`'s disks. Either way it is recorded at both ends: a read served by `from` (where an object
  // tier's retrieval is charged) and a write stored on `to`, each also counted as a copy.
  static Transfer replicate(const models::Scenario& sc, const Platform& platform, int from, int to, double bytes,
                            Metrics& metrics, bool read_source = false);
  Transfer(Transfer&&) = default;

  // Marks the transfer as one-off work (staging a dataset, preprocessing): the cost model never repeats it when it
  // extrapolates the simulated period to the horizon. Call before wait().
  Transfer& once() {
    one_off_ = true;
    return *this;
  }
  // Names the job phase the transfer belongs to, for the record. Call before wait().
  Transfer& for_job(int job, Traffic traffic) {
    job_ = job;
    traffic_ = traffic;
    return *this;
  }
  // Blocks the calling actor until every part has completed; records the transfer once. Idempotent.
  void wait();
  double get_bytes() const { return bytes_; }

private:
  Transfer(const Platform& platform, int storage, IoDirection direction, Metrics& metrics);
  // Queues the disk side: `bytes` spread evenly over `disks`. start() issues everything queued.
  void write_to_disks(const std::vector<simgrid::s4u::Disk*>& disks, double bytes, IoDirection direction);
  // Starts the flows (Flows::start) and the disk I/Os queued (in a child actor).
  void start();

  struct DiskIo {
    simgrid::s4u::Disk* disk;
    uint64_t bytes;
    bool write;
  };

  Flows flows_;
  std::vector<DiskIo> ios_;
  simgrid::s4u::ActorPtr disk_actor_;
  int storage_;
  int source_ = -1; // a copy's source system; -1 for the GPUs' own traffic
  IoDirection direction_;
  double bytes_ = 0;
  double start_s_ = 0;
  bool done_ = false;
  bool one_off_ = false;
  int job_ = -1;
  Traffic traffic_ = Traffic::other;
  Metrics* metrics_;
};

} // namespace aisim::sim
