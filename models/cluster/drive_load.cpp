#include "models/cluster/drive_load.hpp"

#include <algorithm>

namespace aisim::models {

DriveLoad drive_load(const Scenario& sc, int storage, IoOp op) {
  const auto& sys = sc.storage[storage];
  for (const auto& job : sc.jobs) {
    const IoShape* io = nullptr;
    const bool checkpoint = op == IoOp::write && job.checkpoint.storage == sys.name;
    if (job.kind == "inference") {
      // Model loads are the fleet's large reads; its serving reads are small and random.
      const auto& inf = job.inference;
      if (op == IoOp::read && inf.model_storage == sys.name)
        io = &inf.model_io;
      else if (op == IoOp::read && inf.data_storage == sys.name)
        return {IoPattern::random, inf.read_size, 32.0};
    } else if (op == IoOp::read && job.dataset.storage == sys.name) {
      io = &job.dataset.io;
    } else if (op == IoOp::write && job.kind == "preprocessing" && job.output.storage == sys.name) {
      io = &job.output.io;
    } else if (checkpoint) {
      io = &job.checkpoint.io;
    }
    if (!io)
      continue;
    const NodeGroup* g = sc.find_node_group(job.node_group);
    const double nodes = static_cast<double>(job.gpus / g->gpus_per_node);
    // The job's requests spread evenly over the drives they can reach: its own nodes' drives for local NVMe,
    // every drive of the system otherwise.
    double drives = sys.kind == "local_nvme" ? nodes * sys.drives_per_node : sys.drive_count();
    Bytes request = io->io_size;
    if (checkpoint) {
      // A checkpoint is one file per rank: no request is larger than a rank's shard, and on a parallel file
      // system the shards reach only the servers their stripes land on (as sim/engine/transfer.cpp spreads them).
      const Bytes shard = job.checkpoint_shard();
      if (shard.value > 0)
        request = Bytes(std::min(request.value, shard.value));
      if (sys.kind == "pfs")
        drives = static_cast<double>(sys.servers_for_files(job.gpus, shard)) * sys.drives_per_server;
    }
    // A parallel file system splits each request at its stripe boundaries: the drives see the pieces, more of
    // them in flight.
    const int pieces = sys.stripe_pieces(request);
    return {io->access, Bytes(request.value / pieces), io->outstanding_per_node * pieces * nodes / drives};
  }
  return {IoPattern::sequential, Bytes(1048576.0), 32.0};
}

std::optional<BytesPerSecond> server_internal_limit(const Scenario& sc, int storage, IoOp op) {
  const auto& sys = sc.storage[storage];
  std::optional<BytesPerSecond> limit = sys.internal_limit;
  if (sys.kind == "array") {
    // A controller handles each host request once; parity and copies are its own back-end work.
    const BytesPerSecond iops_cap = sys.controller_iops * drive_load(sc, storage, op).io_size;
    limit = limit ? std::min(*limit, iops_cap) : iops_cap;
  }
  return limit;
}

} // namespace aisim::models
