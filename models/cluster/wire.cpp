#include "models/cluster/wire.hpp"

#include <algorithm>

namespace aisim::models {

namespace {
constexpr double kEthernetFraming = 8 + 14 + 4 + 12; // preamble and SFD, MAC header, FCS, inter-frame gap
constexpr double kTcpIp = 20 + 20 + 12;              // IPv4, TCP, timestamp option
constexpr double kRoce = 20 + 8 + 12 + 4;            // IPv4, UDP, BTH, ICRC
constexpr double kInfiniband = 8 + 12 + 4 + 2;       // LRH, BTH, ICRC, VCRC
constexpr double kIbDatagram = kInfiniband + 8;      // and DETH (unreliable datagram, IPoIB)
constexpr double kIbMtu = 4096;
constexpr double kIpoibHeader = 4;

} // namespace

double wire_efficiency(const NetworkSpec& net, const std::string& protocol) {
  const bool rdma = !protocol_over_tcp(protocol);
  if (net.fabric == "infiniband") {
    if (rdma)
      return kIbMtu / (kIbMtu + kInfiniband);
    const double ip_mtu = kIbMtu - kIpoibHeader;
    return (ip_mtu - kTcpIp) / (kIbMtu + kIbDatagram);
  }
  const double mtu = net.mtu;
  if (rdma) {
    // The largest RDMA path MTU (256 ... 4096) whose packet fits the IP MTU.
    double payload = kIbMtu;
    while (payload > 256 && payload + kRoce > mtu)
      payload /= 2;
    return payload / (payload + kRoce + kEthernetFraming);
  }
  return (mtu - kTcpIp) / (mtu + kEthernetFraming);
}

std::string protocol_name(const std::string& protocol) {
  if (protocol == "lustre")
    return "Lustre";
  if (protocol == "s3")
    return "S3";
  if (protocol == "nfs-tcp" || protocol == "nfs-rdma")
    return std::string("NFS over ") + (protocol == "nfs-tcp" ? "TCP" : "RDMA");
  if (protocol == "nvme-tcp" || protocol == "nvme-rdma")
    return std::string("NVMe/") + (protocol == "nvme-tcp" ? "TCP" : "RDMA");
  return protocol;
}

std::string wire_name(const NetworkSpec& net, const std::string& protocol) {
  if (net.fabric == "infiniband")
    return protocol_over_tcp(protocol) ? "IPoIB" : "InfiniBand";
  return protocol_over_tcp(protocol) ? "TCP/IP over Ethernet, MTU " + std::to_string(net.mtu) : "RoCEv2";
}

double wire_efficiency(const Scenario& sc, const StorageSystem& sys) {
  return sys.kind == "local_nvme" ? 1.0 : wire_efficiency(sc.network, sys.protocol);
}

double fabric_wire_efficiency(const Scenario& sc) {
  double lowest = 1.0;
  for (const auto& sys : sc.storage)
    if (sys.kind != "local_nvme")
      lowest = std::min(lowest, wire_efficiency(sc, sys));
  return lowest;
}

BytesPerSecond client_node_rate(const Scenario& sc, const NodeGroup& g, const StorageSystem& sys) {
  double rate = sys.connection_pool_rate(g.cpu_cores).value;
  if (sys.client_nic_share < 1) {
    const double share = sys.client_nic_share * sc.storage_bandwidth(g).value;
    rate = rate > 0 ? std::min(rate, share) : share;
  }
  return BytesPerSecond(rate);
}

BytesPerSecond port_payload(const Scenario& sc, const StorageSystem& sys) {
  return sys.kind == "object" ? sys.front_end : sys.front_end * wire_efficiency(sc, sys);
}

} // namespace aisim::models
