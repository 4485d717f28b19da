// What part of a line rate carries data, per transport and fabric (models/cluster/wire.hpp): header counts from the
// standards, worked by hand here.
#include "models/cluster/wire.hpp"

#include <catch2/catch.hpp>

using namespace aisim::models;

namespace {
NetworkSpec network(const std::string& fabric, int mtu = 9000) {
  NetworkSpec n;
  n.fabric = fabric;
  n.mtu = mtu;
  return n;
}
} // namespace

TEST_CASE("TCP over Ethernet: IP, TCP and timestamps inside the MTU, framing and the gap outside", "[wire]") {
  // 9000 - 20 - 20 - 12 = 8948 data bytes per 9000 + 14 + 4 + 8 + 12 = 9038 on the wire.
  CHECK(wire_efficiency(network("ethernet"), "nfs-tcp") == Approx(8948.0 / 9038));
  CHECK(wire_efficiency(network("ethernet"), "nvme-tcp") == Approx(0.99004).epsilon(1e-4));
  CHECK(wire_efficiency(network("ethernet"), "s3") == Approx(8948.0 / 9038));
  CHECK(wire_efficiency(network("ethernet", 1500), "nfs-tcp") == Approx(1448.0 / 1538)); // 94.1 %
}

TEST_CASE("RDMA over Ethernet: 4096-byte RoCEv2 packets, or 1024 when jumbo frames are off", "[wire]") {
  // 4096 + IPv4 20 + UDP 8 + BTH 12 + ICRC 4 + 38 of Ethernet = 4178.
  CHECK(wire_efficiency(network("ethernet"), "nvme-rdma") == Approx(4096.0 / 4178));
  CHECK(wire_efficiency(network("ethernet"), "lustre") == Approx(0.98037).epsilon(1e-4));
  CHECK(wire_efficiency(network("ethernet", 1500), "nfs-rdma") == Approx(1024.0 / 1106));
  CHECK(wire_name(network("ethernet"), "lustre") == "RoCEv2");
}

TEST_CASE("InfiniBand: RDMA under 26 bytes of headers; TCP as IPoIB datagrams", "[wire]") {
  CHECK(wire_efficiency(network("infiniband"), "lustre") == Approx(4096.0 / 4122)); // 99.4 %
  // IP packet 4092 less TCP/IP's 52, in a 4096-byte payload under LRH, BTH, DETH, ICRC and VCRC (34).
  CHECK(wire_efficiency(network("infiniband"), "nfs-tcp") == Approx(4040.0 / 4130));
  CHECK(wire_name(network("infiniband"), "nfs-tcp") == "IPoIB");
}

TEST_CASE("a node's client: TCP connections, a share of the NICs, or nothing", "[wire]") {
  Scenario sc;
  NodeGroup g;
  g.nics = 2;
  g.nic_speed = BytesPerSecond(50e9); // 2 x 400 Gb/s
  g.cpu_cores = 112;
  StorageSystem lustre;
  lustre.kind = "pfs";
  lustre.protocol = "lustre";
  lustre.client_nic_share = 0.9;
  CHECK(client_node_rate(sc, g, lustre).value == Approx(0.9 * 100e9));
  StorageSystem nfs;
  nfs.kind = "array";
  nfs.protocol = "nfs-tcp";
  nfs.connections_per_node = 16;
  nfs.connection_bandwidth = BytesPerSecond(3.125e9);
  CHECK(client_node_rate(sc, g, nfs).value == Approx(50e9));
  nfs.client_nic_share = 0.3; // the lower of the two
  CHECK(client_node_rate(sc, g, nfs).value == Approx(30e9));
  StorageSystem rdma;
  rdma.kind = "jbof";
  rdma.protocol = "nvme-rdma";
  CHECK(client_node_rate(sc, g, rdma).value == 0);
}

TEST_CASE("client protocols by the names planners use", "[wire]") {
  CHECK(protocol_name("lustre") == "Lustre");
  CHECK(protocol_name("nfs-tcp") == "NFS over TCP");
  CHECK(protocol_name("nvme-rdma") == "NVMe/RDMA");
  CHECK(protocol_name("s3") == "S3");
}
