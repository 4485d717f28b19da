#include "models/cluster/host_path.hpp"

#include <algorithm>
#include <limits>

namespace aisim::models {
namespace {

// What one request of the job's I/O in direction `op` looks like on a node: the system it goes to, its size, the
// requests in flight per node, and the metadata operations (opens, closes) each of its bytes costs. Reads are the
// dataset (an inference fleet's: the model), writes the checkpoints (a preprocessing job's: its output).
struct NodeIo {
  const std::string* storage = nullptr;
  double request = 0;
  int in_flight = 0;
  double ops_per_byte = 0;
};

NodeIo node_io(const TrainingJob& job, IoOp op) {
  if (op == IoOp::read) {
    if (job.kind == "inference")
      return {&job.inference.model_storage, job.inference.model_io.io_size.value,
              job.inference.model_io.outstanding_per_node, 0.0};
    const auto& ds = job.dataset;
    return {&ds.storage, ds.io.io_size.value, ds.io.outstanding_per_node,
            ds.small_files() ? ds.metadata_ops_per_file / ds.file_size.value : 0.0};
  }
  if (job.kind == "preprocessing")
    return {&job.output.storage, job.output.io.io_size.value, job.output.io.outstanding_per_node, 0.0};
  // A checkpoint shard per rank: no request larger than the shard.
  const auto& c = job.checkpoint;
  const Bytes shard = job.checkpoint_shard();
  return {&c.storage, shard.value > 0 ? std::min(c.io.io_size.value, shard.value) : c.io.io_size.value,
          c.io.outstanding_per_node, 0.0};
}

} // namespace

std::vector<HostPathLimit> host_path_limits(const NodeGroup& g, const TrainingJob& job, IoOp op,
                                            const StorageSystem* storage) {
  std::vector<HostPathLimit> out;
  const NodeIo io = node_io(job, op);
  const double gpus = g.gpus_per_node;
  // GPUDirect Storage needs a NIC that writes GPU memory itself (RDMA); a client over TCP (NVMe/TCP, NFS over
  // TCP, S3) receives into socket buffers in host memory (NVIDIA, "GPUDirect Storage O_DIRECT Requirements Guide":
  // "for remote storage, a NIC device performs RDMA").
  const bool direct = g.gpudirect_storage && !(storage && storage->over_tcp());
  if (direct) {
    out.push_back({"GPU PCIe links (GPUDirect Storage)", gpus * g.gpu_host_bandwidth.value,
                   format_times(gpus, g.gpu_host_bandwidth)});
  } else {
    const double switches = g.pcie_switches;
    out.push_back({"PCIe switch uplinks (host bounce buffers)", switches * g.pcie_switch_uplink.value,
                   format_times(switches, g.pcie_switch_uplink)});
    out.push_back({"host memory (host bounce buffers)", g.host_memory_bandwidth.value / 4,
                   format_rate(g.host_memory_bandwidth) + " / 4 (each byte written and read twice)"});
  }
  // CPU seconds per byte: a request's fixed cost, the copy (bounce only), the opens and closes of small files.
  if (io.request > 0 && io.in_flight > 0) {
    const double t = g.io_request_cpu_time.value;
    const double copy = direct ? 0.0 : 1.0 / g.core_copy_bandwidth.value;
    const double per_byte = t / io.request + copy + io.ops_per_byte * t;
    const int threads = std::min(io.in_flight, g.cpu_cores);
    if (per_byte > 0)
      out.push_back({"CPU I/O threads", threads / per_byte,
                     std::to_string(threads) + " threads x " + format_rate(BytesPerSecond(1.0 / per_byte)) + " (" +
                         format_bytes(Bytes(io.request)) + " requests" + (direct ? "" : ", copied once") + ")"});
  }
  return out;
}

double host_path_bandwidth(const NodeGroup& g, const TrainingJob& job, IoOp op, const StorageSystem* storage) {
  double lowest = std::numeric_limits<double>::infinity();
  for (const auto& l : host_path_limits(g, job, op, storage))
    lowest = std::min(lowest, l.Bps);
  return lowest;
}

const StorageSystem* main_storage(const Scenario& sc, const TrainingJob& job, IoOp op) {
  return sc.find_storage(*node_io(job, op).storage);
}

double host_path_bandwidth(const Scenario& sc, const NodeGroup& g, const TrainingJob& job, IoOp op) {
  return host_path_bandwidth(g, job, op, main_storage(sc, job, op));
}

} // namespace aisim::models
