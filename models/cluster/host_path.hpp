// The node's own data path between its storage NICs and its GPUs' memory, per node and direction, for one job's
// I/O. With GPUDirect Storage the NICs move data straight to and from GPU memory across the PCIe switches they
// share with the GPUs: each GPU's link bounds it, and the CPU only issues the requests. Without it every byte is
// bounced through host memory: up a PCIe switch's uplink into DRAM, copied once by a CPU thread (the kernel's copy
// between the page cache or a staging buffer and the application's buffer) and down an uplink to the GPU, or the
// reverse for writes. The uplinks (crossed once each way, so a full duplex link carries it once per direction),
// the DRAM (each byte written twice and read twice) and the threads' copies and requests bound it.
//
// Each synchronous request in flight holds one thread (a data-loader worker reading, a checkpoint writer writing):
// the job's `outstanding_ios` per node, at most the node's cores.
#pragma once

#include "models/scenario/scenario.hpp"

#include <string>
#include <vector>

namespace aisim::models {

struct HostPathLimit {
  std::string name;   // as a planner says it: "PCIe switch uplinks (host bounce buffers)"
  double Bps = 0;     // data bytes per second per node
  std::string detail; // how it adds up
};

// Every limit of the path for `job`'s I/O in direction `op` on one node of group `g`, to or from `storage` (null:
// any). An object store is read and written over HTTP into host memory: GPUDirect Storage does not reach it.
std::vector<HostPathLimit> host_path_limits(const NodeGroup& g, const TrainingJob& job, IoOp op,
                                            const StorageSystem* storage = nullptr);

// The lowest of them.
double host_path_bandwidth(const NodeGroup& g, const TrainingJob& job, IoOp op, const StorageSystem* storage = nullptr);
// The system the job uses most in direction `op`: its dataset (an inference fleet's model) for reads, its
// checkpoints (a preprocessing job's output) for writes; null when it names none.
const StorageSystem* main_storage(const Scenario& sc, const TrainingJob& job, IoOp op);
// The path's lowest limit to or from that system.
double host_path_bandwidth(const Scenario& sc, const NodeGroup& g, const TrainingJob& job, IoOp op);

} // namespace aisim::models
