#include "models/hardware/storage_system.hpp"

#include <catch2/catch.hpp>

using namespace aisim::models;

namespace {

Protection scheme(const char* name, int data, int parity) {
  Protection p;
  p.scheme = name;
  p.data = data;
  p.parity = parity;
  return p;
}

} // namespace

TEST_CASE("protection schemes: usable fraction and full-stripe write amplification", "[storage]") {
  const Protection raid6 = scheme("raid6", 8, 2);
  CHECK(raid6.efficiency() == Approx(0.8));
  CHECK(raid6.write_amplification() == Approx(1.25));
  CHECK(raid6.width() == 10);
  const Protection mirror = scheme("mirror", 1, 2); // three copies
  CHECK(mirror.efficiency() == Approx(1.0 / 3));
  CHECK(mirror.write_amplification() == Approx(3.0));
  Protection none;
  CHECK(none.efficiency() == 1.0);
  CHECK(none.write_amplification() == 1.0);
}

TEST_CASE("PCIe lane rates per generation", "[storage]") {
  CHECK(pcie_lane_bandwidth("gen3").value == Approx(0.98462e9).epsilon(1e-4));
  CHECK(pcie_lane_bandwidth("gen4").value == Approx(1.96923e9).epsilon(1e-4));
  CHECK(pcie_lane_bandwidth("gen5").value == Approx(3.93846e9).epsilon(1e-4));
  CHECK(pcie_lane_bandwidth("gen6").value == Approx(7.5625e9).epsilon(1e-4));
}

TEST_CASE("an object store's per-node rate pays the request latency once per object", "[storage]") {
  StorageSystem s;
  s.kind = "object";
  s.protocol = "s3";
  s.object_size = Bytes(64e6);
  s.connection_bandwidth = BytesPerSecond(500e6);
  s.request_latency = Seconds(0.01);
  s.connections_per_node = 4;
  // 64 MB per 10 ms + 128 ms = 463.8 MB/s per connection.
  CHECK(s.connection_pool_rate(112).value == Approx(4 * 64e6 / 0.138));
  s.request_latency = Seconds(0);
  CHECK(s.connection_pool_rate(112).value == Approx(4 * 500e6));
}

TEST_CASE("a client over TCP moves at most one connection per core; RDMA clients have no connection limit",
          "[storage]") {
  StorageSystem s;
  s.kind = "array";
  s.protocol = "nfs-tcp";
  s.connections_per_node = 16;
  s.connection_bandwidth = BytesPerSecond(25e9 / 8);
  CHECK(s.over_tcp());
  CHECK(s.connection_pool_rate(112).value == Approx(16 * 3.125e9));
  CHECK(s.connection_pool_rate(8).value == Approx(8 * 3.125e9)); // fewer cores than connections
  s.kind = "jbof";
  s.protocol = "nvme-tcp";
  s.connections_per_node = 0; // one I/O queue per core
  CHECK(s.connection_streams(112) == 112);
  CHECK(s.connection_pool_rate(112).value == Approx(112 * 3.125e9));
  s.protocol = "nvme-rdma";
  CHECK_FALSE(s.over_tcp());
  CHECK(s.connection_pool_rate(112).value == 0);
}

TEST_CASE("an object store's requests: per prefix, capped per bucket; files in parts of at most object_size",
          "[storage]") {
  StorageSystem s;
  s.kind = "object";
  s.object_size = Bytes(64e6);
  s.prefixes = 4;
  s.get_requests_per_prefix = OpsPerSecond(5500);
  s.put_requests_per_prefix = OpsPerSecond(3500);
  CHECK(s.object_request_rate(false) == Approx(4 * 5500));
  CHECK(s.object_request_rate(true) == Approx(4 * 3500));
  s.bucket_requests = OpsPerSecond(10000);
  CHECK(s.object_request_rate(false) == Approx(10000));
  CHECK(s.object_request_rate(true) == Approx(10000));
  // 1,000 small files: a request each; 8 shards of 100 MB: two parts each; no files: objects of object_size.
  CHECK(s.object_requests(1000 * 110e3, 1000) == Approx(1000));
  CHECK(s.object_requests(8 * 100e6, 8) == Approx(16));
  CHECK(s.object_requests(640e6, 0) == Approx(10));
  CHECK(s.object_requests(0, 5) == 0);
  StorageSystem pfs;
  pfs.kind = "pfs";
  CHECK(pfs.object_request_rate(false) == 0);
}

TEST_CASE("metadata operation rates: shared on a pfs and an array, per node on a jbof, none on an object store",
          "[storage]") {
  StorageSystem s;
  s.kind = "pfs";
  s.metadata_servers = 2;
  s.metadata_ops_per_server = OpsPerSecond(50e3);
  CHECK(s.metadata_ops_rate(16) == Approx(100e3));
  s.kind = "array";
  s.servers = 2; // active controllers
  s.metadata_ops_per_controller = OpsPerSecond(60e3);
  CHECK(s.metadata_ops_rate(16) == Approx(120e3));
  s.kind = "jbof";
  s.metadata_ops_per_node = OpsPerSecond(300e3);
  CHECK(s.metadata_ops_rate(16) == Approx(16 * 300e3));
  s.kind = "object";
  CHECK(s.metadata_ops_rate(16) == 0);
}

TEST_CASE("server bandwidth: drives behind PCIe lanes, protection and the internal limit", "[storage]") {
  StorageSystem s;
  s.kind = "array";
  DriveModel d;
  d.read_bandwidth = BytesPerSecond(7e9);
  d.write_bandwidth = BytesPerSecond(7e9);
  s.drive = d;
  s.drive_pcie_lanes = 1;
  s.pcie_generation = "gen4";
  s.drives_per_server = 10;
  s.protection = scheme("raid6", 8, 2);
  // Each drive is held to one Gen4 lane; RAID 6 writes 1.25 bytes per byte stored.
  CHECK(s.server_read_bandwidth().value == Approx(10 * 1.96923e9).epsilon(1e-4));
  CHECK(s.server_write_bandwidth().value == Approx(10 * 1.96923e9 / 1.25).epsilon(1e-4));
  s.internal_limit = BytesPerSecond(5e9);
  CHECK(s.server_read_bandwidth().value == 5e9);
  // Host-side protection sends the extra pieces over the network; what reaches a server is all stored as is.
  s.host_side_protection = true;
  s.internal_limit.reset();
  CHECK(s.server_write_bandwidth().value == Approx(10 * 1.96923e9).epsilon(1e-4));
}

TEST_CASE("a parallel file system's stripes: servers per file and pieces per request follow stripe_size", "[storage]") {
  StorageSystem s;
  s.kind = "pfs";
  s.servers = 16;
  s.stripe_count = 4;
  s.stripe_size = Bytes(1048576);
  // A file smaller than one stripe sits on one server; larger ones cover one server per stripe, up to stripe_count.
  CHECK(s.servers_per_file(Bytes(110e3)) == 1);
  CHECK(s.servers_per_file(Bytes(1048576)) == 1);
  CHECK(s.servers_per_file(Bytes(3 * 1048576 - 1)) == 3);
  CHECK(s.servers_per_file(Bytes(1e9)) == 4);
  CHECK(s.servers_per_file(Bytes(0)) == 4); // size unknown: a large file
  CHECK(s.servers_for_files(2, Bytes(500e3)) == 2);
  CHECK(s.servers_for_files(2, Bytes(1e9)) == 8);
  CHECK(s.servers_for_files(100, Bytes(1e9)) == 16);
  CHECK(s.servers_for_files(0, Bytes(1e3)) == 16); // many files: every server
  // A 4 MiB request on 1 MiB stripes: four 1 MiB pieces; a 256 KiB one stays whole; at most stripe_count pieces.
  CHECK(s.stripe_pieces(Bytes(4 * 1048576)) == 4);
  CHECK(s.stripe_pieces(Bytes(262144)) == 1);
  CHECK(s.stripe_pieces(Bytes(64 * 1048576)) == 4);
  s.stripe_size = Bytes(4 * 1048576);
  CHECK(s.stripe_pieces(Bytes(4 * 1048576)) == 1);
  CHECK(s.servers_for_files(2, Bytes(4e6)) == 2);
  // Every other kind spreads each file over every server and keeps requests whole.
  StorageSystem j;
  j.kind = "jbof";
  j.servers = 6;
  CHECK(j.servers_per_file(Bytes(1e3)) == 6);
  CHECK(j.servers_for_files(2, Bytes(1e3)) == 6);
  CHECK(j.stripe_pieces(Bytes(64e6)) == 1);
}
