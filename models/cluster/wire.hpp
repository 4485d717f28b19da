// What part of a storage network's line rate carries data. Every frame or packet also carries headers, a trailer
// and, on Ethernet, a preamble and an inter-frame gap; the bytes left for data depend on the transport the
// storage client uses (TCP, RDMA) and the fabric under it (Ethernet, InfiniBand):
//
//   TCP over Ethernet (NVMe/TCP, NFS over TCP, S3): (MTU - 52) / (MTU + 38): IPv4 20 B (RFC 791), TCP 20 B with
//     the timestamp option's 12 B (RFC 9293, RFC 7323; on by default in Linux) inside the IP MTU; MAC header 14 B,
//     FCS 4 B, preamble and start delimiter 8 B and the 12 B inter-frame gap outside it (IEEE 802.3).
//     Jumbo frames (9000): 99.0 %; 1500: 94.1 %.
//   RDMA over Ethernet (RoCEv2: NVMe/RDMA, NFS over RDMA, Lustre's o2ib): a 4096 B payload per packet (the largest
//     RDMA MTU that fits the IP MTU: 4096 with jumbo frames, 1024 with 1500) under IPv4 20 B, UDP 8 B, the base
//     transport header 12 B and the invariant CRC 4 B (IBTA, RoCEv2 annex A17), plus Ethernet's 38 B: 98.0 %.
//   RDMA over InfiniBand: 4096 B under the local route header 8 B, BTH 12 B, ICRC 4 B and VCRC 2 B (IBTA
//     Architecture Specification vol. 1): 99.4 %.
//   TCP over InfiniBand (IPoIB, datagram mode): an IP MTU of 4092 B (RFC 4391's 4 B encapsulation header in a
//     4096 B packet) with TCP/IP's 52 B, under LRH, BTH, the datagram header 8 B, ICRC and VCRC: 97.8 %.
//
// Line rates (nic_speed, port_speed, link_speed) are data rates after line coding and FEC, as both standards name
// their speeds; acknowledgements travel the other way and are left out.
#pragma once

#include "models/hardware/fabric.hpp"
#include "models/scenario/scenario.hpp"

#include <string>

namespace aisim::models {

// Data bytes per line-rate byte of `protocol` ("nvme-tcp", "nfs-tcp", "s3", "nvme-rdma", "nfs-rdma", "lustre") on
// the network `net`.
double wire_efficiency(const NetworkSpec& net, const std::string& protocol);
// A client protocol as a planner names it: "Lustre", "NFS over TCP", "NVMe/RDMA", "S3".
std::string protocol_name(const std::string& protocol);
// How it travels, for details: "TCP/IP over Ethernet, MTU 9000", "RoCEv2", "InfiniBand", "IPoIB".
std::string wire_name(const NetworkSpec& net, const std::string& protocol);
// One system's client on the scenario's network; 1 for local_nvme (no network).
double wire_efficiency(const Scenario& sc, const StorageSystem& sys);
// The lowest over every system on the network: what links that several systems' traffic shares (switch uplinks,
// node NICs in the fabric's max flow) carry at most.
double fabric_wire_efficiency(const Scenario& sc);
// The most one node of group `g` moves to or from `sys` through its client, each direction: its connections over
// TCP (StorageSystem::connection_pool_rate), its client's share of the NICs' line rate; 0 where neither limits.
BytesPerSecond client_node_rate(const Scenario& sc, const NodeGroup& g, const StorageSystem& sys);
// What one storage port of `sys` carries per second, each direction: its ports' line rate at its client's wire
// efficiency. An object store's gateways are a payload figure already.
BytesPerSecond port_payload(const Scenario& sc, const StorageSystem& sys);

} // namespace aisim::models
