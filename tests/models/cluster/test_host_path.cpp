// The node's own data path between its NICs and its GPUs (models/cluster/host_path.hpp): GPUDirect Storage's
// GPU links, or the host bounce buffers' PCIe uplinks, DRAM and CPU threads.
#include "models/cluster/host_path.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <string>

using namespace aisim::models;

namespace {
constexpr double G = 1e9;

NodeGroup dgx() {
  NodeGroup g;
  g.gpus_per_node = 8;
  g.gpu_host_bandwidth = BytesPerSecond(50 * G);
  g.pcie_switches = 4;
  g.pcie_switch_uplink = BytesPerSecond(50 * G);
  g.host_memory_bandwidth = BytesPerSecond(614.4 * G);
  g.cpu_cores = 112;
  g.core_copy_bandwidth = BytesPerSecond(10 * G);
  g.io_request_cpu_time = Seconds(5e-6);
  return g;
}

TrainingJob reader(double io_size, int outstanding, double file_size = 0) {
  TrainingJob j;
  j.kind = "training";
  j.gpus = 8;
  j.dataset.io = IoShape{Bytes(io_size), IoPattern::random, outstanding};
  j.dataset.file_size = Bytes(file_size);
  j.checkpoint.size = Bytes(80 * G);
  j.checkpoint.io = IoShape{Bytes(4 * 1048576.0), IoPattern::sequential, 16};
  return j;
}

double limit(const std::vector<HostPathLimit>& l, const std::string& prefix) {
  for (const auto& x : l)
    if (x.name.rfind(prefix, 0) == 0)
      return x.Bps;
  FAIL("no limit " << prefix);
  return 0;
}
} // namespace

TEST_CASE("host bounce buffers: PCIe uplinks, DRAM crossed four times, threads that copy", "[host_path]") {
  const auto g = dgx();
  const auto l = host_path_limits(g, reader(1048576, 16), IoOp::read);
  CHECK(limit(l, "PCIe switch uplinks") == Approx(4 * 50 * G));
  CHECK(limit(l, "host memory") == Approx(614.4 * G / 4));
  // 16 threads, each request 5 us + 1 MiB / 10 GB/s.
  CHECK(limit(l, "CPU I/O threads") == Approx(16 * 1048576 / (5e-6 + 1048576 / (10 * G))));
  // The lowest: the threads' 152.7 GB/s, just under DRAM's 153.6 GB/s.
  CHECK(host_path_bandwidth(g, reader(1048576, 16), IoOp::read) == Approx(limit(l, "CPU I/O threads")));
}

TEST_CASE("GPUDirect Storage: the GPUs' links bound it and threads only issue requests", "[host_path]") {
  auto g = dgx();
  g.gpudirect_storage = true;
  const auto l = host_path_limits(g, reader(1048576, 16), IoOp::read);
  CHECK(limit(l, "GPU PCIe links") == Approx(8 * 50 * G));
  CHECK(std::none_of(l.begin(), l.end(), [](const auto& x) { return x.name.find("bounce") != std::string::npos; }));
  CHECK(limit(l, "CPU I/O threads") == Approx(16 * 1048576 / 5e-6));
}

TEST_CASE("small files cost their opens and closes in CPU time; threads are at most the cores", "[host_path]") {
  auto g = dgx();
  // 110 kB files, one request each plus an open and a close: 3 x 5 us + 110 kB / 10 GB/s per file, 4 threads.
  auto j = reader(110e3, 4, 110e3);
  CHECK(limit(host_path_limits(g, j, IoOp::read), "CPU I/O threads") ==
        Approx(4 * 110e3 / (3 * 5e-6 + 110e3 / (10 * G))));
  g.cpu_cores = 2;
  CHECK(limit(host_path_limits(g, j, IoOp::read), "CPU I/O threads") ==
        Approx(2 * 110e3 / (3 * 5e-6 + 110e3 / (10 * G))));
}

TEST_CASE("checkpoint writes: one request per rank's shard at most, the writers' own requests in flight",
          "[host_path]") {
  const auto g = dgx();
  auto j = reader(1048576, 16);
  // 80 GB over 8 ranks: 10 GB shards, 4 MiB requests, 16 in flight.
  CHECK(limit(host_path_limits(g, j, IoOp::write), "CPU I/O threads") ==
        Approx(16 * 4 * 1048576 / (5e-6 + 4 * 1048576 / (10 * G))));
  j.checkpoint.size = Bytes(8 * 1e6); // 1 MB shards: 1 MB requests
  CHECK(limit(host_path_limits(g, j, IoOp::write), "CPU I/O threads") == Approx(16 * 1e6 / (5e-6 + 1e6 / (10 * G))));
}

TEST_CASE("a client over TCP receives into host memory: GPUDirect Storage does not apply", "[host_path]") {
  auto g = dgx();
  g.gpudirect_storage = true;
  StorageSystem object;
  object.kind = "object";
  object.protocol = "s3";
  const auto l = host_path_limits(g, reader(1048576, 16), IoOp::read, &object);
  CHECK(limit(l, "PCIe switch uplinks") == Approx(4 * 50 * G));
  StorageSystem nfs;
  nfs.kind = "array";
  nfs.protocol = "nfs-tcp";
  CHECK(limit(host_path_limits(g, reader(1048576, 16), IoOp::read, &nfs), "PCIe switch uplinks") == Approx(4 * 50 * G));
  StorageSystem pfs;
  pfs.kind = "pfs";
  pfs.protocol = "lustre";
  CHECK(limit(host_path_limits(g, reader(1048576, 16), IoOp::read, &pfs), "GPU PCIe links") == Approx(8 * 50 * G));
  nfs.protocol = "nfs-rdma";
  CHECK(limit(host_path_limits(g, reader(1048576, 16), IoOp::read, &nfs), "GPU PCIe links") == Approx(8 * 50 * G));
}
