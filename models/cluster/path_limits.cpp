#include "models/cluster/path_limits.hpp"

#include "models/cluster/drive_load.hpp"
#include "models/cluster/host_path.hpp"
#include "models/cluster/wire.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <tuple>

namespace aisim::models {

namespace {

std::string ports_name(const std::string& kind) {
  if (kind == "jbof")
    return "enclosure ports";
  if (kind == "array")
    return "array front-end ports";
  if (kind == "pfs")
    return "file server ports";
  return "object gateways";
}

std::string internal_name(const std::string& kind) {
  if (kind == "jbof")
    return "enclosure PCIe switch uplinks";
  if (kind == "array")
    return "array controllers";
  return "file server internal bandwidth";
}
// One drive as the engine's disks see it: the drive model at the workloads' request size and queue depth
// (models/cluster/drive_load.hpp), never above its PCIe-limited bandwidth.
double drive_rate(const Scenario& sc, int storage, IoOp op) {
  const auto& sys = sc.storage[storage];
  const DriveLoad load = drive_load(sc, storage, op);
  const double ceiling = (op == IoOp::write ? sys.drive_write_bandwidth() : sys.drive_read_bandwidth()).value;
  return std::min(ceiling, sys.drive->throughput(op, load.pattern, load.io_size, load.queue_depth).value);
}

// The switches between some storage servers and some endpoints alone, when they limit at all.
void add_fabric(std::vector<TierLimit>& out, const Scenario& sc, const ClusterNetwork& net, int storage,
                const std::vector<int>& sinks, double amp) {
  // Cables are full duplex with equal capacity both ways: one max flow serves both directions.
  if (const double fabric = net.switch_bound_Bps(storage, sc.storage[storage].servers, sinks); std::isfinite(fabric))
    out.push_back({"fabric", "fabric (" + sc.network.topology + ")", fabric / amp, "max flow between the switches"});
}

// Behind `servers` of a system's servers, in one direction: their internal limits, then their drives (writes with
// the protection's extra pieces written behind the server). `prefix` and `suffix` name whose they are.
void add_behind_servers(std::vector<TierLimit>& out, const Scenario& sc, int storage, IoOp op, double servers,
                        const std::string& tier_prefix, const std::string& prefix, const std::string& suffix) {
  const auto& sys = sc.storage[storage];
  if (const auto internal = server_internal_limit(sc, storage, op))
    out.push_back({tier_prefix + "internal", prefix + internal_name(sys.kind) + suffix, servers * internal->value,
                   format_times(servers, *internal)});
  const double drives = servers * sys.drives_per_server, each = drive_rate(sc, storage, op);
  const double amp = op == IoOp::write ? sys.protection.write_amplification() : 1.0;
  std::string detail = format_times(drives, BytesPerSecond(each));
  if (amp > 1)
    detail += ", " + format_count(amp, 2) + "x written with " + sys.protection.scheme;
  out.push_back({tier_prefix + "drives", prefix + "drives" + suffix, drives * each / amp, detail});
}

// A system's ports as data bytes: "4 x 100 GB/s at 98.0 % (RoCEv2)"; an object store's gateways as they are.
TierLimit ports_limit(const Scenario& sc, const StorageSystem& sys, double servers, const std::string& tier,
                      const std::string& name, double amp) {
  const BytesPerSecond payload = port_payload(sc, sys);
  std::string detail = format_times(servers, sys.front_end);
  if (const double eff = payload.value / sys.front_end.value; eff < 1)
    detail += " at " + format_count(100 * eff, 1) + " % (" + wire_name(sc.network, sys.protocol) + ")";
  return {tier, name, servers * payload.value / amp, detail};
}

std::vector<TierLimit> lowest_first(std::vector<TierLimit> tiers) {
  std::stable_sort(tiers.begin(), tiers.end(), [](const TierLimit& a, const TierLimit& b) { return a.Bps < b.Bps; });
  return tiers;
}
} // namespace

std::vector<TierLimit> path_limits(const Scenario& sc, const ClusterNetwork& net, const PathQuery& q) {
  const auto& sys = sc.storage[q.storage];
  const auto& g = sc.node_groups[q.group];
  const double nodes = static_cast<double>(q.nodes.size());
  const bool write = q.op == IoOp::write;
  std::vector<TierLimit> out;

  if (sys.kind == "local_nvme") {
    const double drives = nodes * sys.drives_per_node, each = drive_rate(sc, q.storage, q.op);
    out.push_back({"drives", "drives in the nodes", drives * each, format_times(drives, BytesPerSecond(each))});
    return out;
  }

  // Host-side protection sends every extra copy or parity piece from the nodes: each data byte is `amp` bytes on
  // the NICs, the fabric, the ports and the drives.
  const double amp = write && sys.host_side_protection ? sys.protection.write_amplification() : 1.0;
  const double servers = sys.servers_for_files(q.files, Bytes(q.file_size));

  // The NICs carry this system's client protocol: its headers take part of the line rate.
  const double line = sc.storage_bandwidth(g).value, eff = wire_efficiency(sc, sys);
  out.push_back({"node_nics", "node NICs", nodes * line * eff / amp,
                 format_times(nodes, BytesPerSecond(line)) + " at " + format_count(100 * eff, 1) + " % (" +
                     wire_name(sc.network, sys.protocol) + ")"});
  // Between the NICs and the GPUs: GPUDirect Storage or host bounce buffers (models/cluster/host_path.hpp).
  if (q.job >= 0)
    for (const auto& l : host_path_limits(g, sc.jobs[q.job], q.op, &sys))
      out.push_back({"host_path", l.name, nodes * l.Bps / amp, format_count(nodes) + " x (" + l.detail + ")"});
  if (const BytesPerSecond pool = sys.connection_pool_rate(g.cpu_cores); pool.value > 0) {
    const bool object = sys.kind == "object";
    out.push_back({object ? "object_connections" : "tcp_connections",
                   object ? "object connections per node" : protocol_name(sys.protocol) + " connections per node",
                   nodes * pool.value / amp,
                   format_times(nodes, pool) + " (" + std::to_string(sys.connection_streams(g.cpu_cores)) +
                       " connections each)"});
  }
  if (sys.client_nic_share < 1)
    out.push_back({"client", protocol_name(sys.protocol) + " client per node",
                   nodes * sys.client_nic_share * line / amp,
                   format_times(nodes, BytesPerSecond(line)) + " x " + format_count(100 * sys.client_nic_share, 0) +
                       " % (its share of the NICs)"});
  if (sys.kind == "object") {
    // Each request moves one small file, or a part of at most object_size of a large one.
    const double per_request =
        q.file_size > 0 ? q.file_size / sys.object_requests(q.file_size, 1) : sys.object_size.value;
    const double rate = sys.object_request_rate(write);
    out.push_back({"requests", std::string("object ") + (write ? "PUT" : "GET") + " requests", rate * per_request,
                   format_count(rate) + " requests/s (" + format_count(sys.prefixes) + " prefix" +
                       (sys.prefixes == 1 ? "" : "es") + ") x " + format_bytes(Bytes(per_request))});
  }

  std::vector<int> sinks;
  for (int n : q.nodes)
    sinks.push_back(net.node_endpoint(q.group, n));
  add_fabric(out, sc, net, q.storage, sinks, amp);
  out.push_back(ports_limit(sc, sys, servers, "storage_ports", ports_name(sys.kind), amp));
  // Host-side protection's extra pieces arrive as extra bytes, server-side ones are written behind the server:
  // either way each data byte is write_amplification() bytes on the drives.
  if (sys.kind != "object")
    add_behind_servers(out, sc, q.storage, q.op, servers, "", "", "");
  // A synchronous replica is written before the write completes: the target's ports, internal limit and drives.
  if (write && sys.replication && sys.replication->mode == "sync") {
    const int t = sc.storage_index(sys.replication->target);
    const auto& target = sc.storage[t];
    const auto internal = server_internal_limit(sc, t, IoOp::write);
    double per_server = std::min(port_payload(sc, target).value, target.server_write_bandwidth().value);
    if (internal)
      per_server = std::min(per_server, internal->value);
    out.push_back({"replica_target", "synchronous replica on " + target.name, target.servers * per_server,
                   format_times(target.servers, BytesPerSecond(per_server))});
  }
  if (const double ops = sys.metadata_ops_rate(nodes); ops > 0 && q.metadata_ops_per_byte > 0) {
    // Who serves the operations, how many of them and at what rate each (their product is `ops`).
    const auto [name, count, each] =
        sys.kind == "pfs"
            ? std::tuple{"metadata servers", static_cast<double>(sys.metadata_servers), sys.metadata_ops_per_server}
        : sys.kind == "array"
            ? std::tuple{"controllers' file service", static_cast<double>(sys.servers), sys.metadata_ops_per_controller}
            : std::tuple{"node file systems", nodes, sys.metadata_ops_per_node};
    out.push_back({"metadata", name, ops / q.metadata_ops_per_byte,
                   format_count(count) + " x " + format_count(each.value) + " op/s"});
  }
  return lowest_first(std::move(out));
}

std::vector<TierLimit> copy_limits(const Scenario& sc, const ClusterNetwork& net, int from, int to,
                                   bool reads_at_rest) {
  const auto& src = sc.storage[from];
  const auto& dst = sc.storage[to];
  std::vector<TierLimit> out;
  out.push_back(
      ports_limit(sc, src, src.servers, "source_ports", "source " + ports_name(src.kind) + " (" + src.name + ")", 1));
  if (reads_at_rest && src.kind != "object")
    add_behind_servers(out, sc, from, IoOp::read, src.servers, "source_", "source ", " (" + src.name + ")");
  std::vector<int> sinks;
  for (int e = 0; e < dst.servers; ++e)
    sinks.push_back(net.enclosure_endpoint(to, e));
  add_fabric(out, sc, net, from, sinks, 1.0);
  out.push_back(ports_limit(sc, dst, dst.servers, "storage_ports", ports_name(dst.kind) + " (" + dst.name + ")", 1));
  if (dst.kind != "object")
    add_behind_servers(out, sc, to, IoOp::write, dst.servers, "", "", " (" + dst.name + ")");
  return lowest_first(std::move(out));
}

std::vector<TierLimit> rebuild_limits(const Scenario& sc, int storage) {
  const auto& sys = sc.storage[storage];
  std::vector<TierLimit> out;
  const double write = sys.drive_write_bandwidth().value;
  out.push_back({"drives", "a replacement drive's writes", write, format_rate(BytesPerSecond(write)) + " per drive"});
  if (sys.protection.rebuild_rate)
    out.push_back({"rebuild_rate", "the rebuild_rate cap", sys.protection.rebuild_rate->value,
                   format_rate(*sys.protection.rebuild_rate) + " per drive"});
  return lowest_first(std::move(out));
}

} // namespace aisim::models
