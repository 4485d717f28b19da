#include "models/cluster/path_limits.hpp"

#include "models/cluster/drive_load.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace aisim::models {

namespace {
std::string times(double n, double each_Bps) { return format_count(n) + " x " + format_rate(BytesPerSecond(each_Bps)); }

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
  const auto drive_Bps = [&] { return drive_rate(sc, q.storage, q.op); };

  if (sys.kind == "local_nvme") {
    const double drives = nodes * sys.drives_per_node;
    out.push_back({"drives", "drives in the nodes", drives * drive_Bps(), times(drives, drive_Bps())});
    return out;
  }

  // Host-side protection sends every extra copy or parity piece from the nodes: each data byte is `amp` bytes on
  // the NICs, the fabric, the ports and the drives.
  const double amp = write && sys.host_side_protection ? sys.protection.write_amplification() : 1.0;
  const double servers =
      sys.kind == "pfs" && q.files > 0
          ? static_cast<double>(std::min<long long>(sys.servers, static_cast<long long>(q.files) * sys.stripe_count))
          : sys.servers;

  const double nic = sc.storage_bandwidth(g).value;
  out.push_back({"node_nics", "node NICs", nodes * nic / amp, times(nodes, nic)});
  if (sys.kind == "object") {
    const double conn = sys.object_node_rate().value;
    out.push_back({"object_connections", "object connections per node", nodes * conn,
                   times(nodes, conn) + " (" + std::to_string(sys.connections_per_node) + " connections each)"});
  }

  std::vector<std::pair<int, double>> sources;
  for (int e = 0; e < sys.servers; ++e)
    sources.emplace_back(net.enclosure_endpoint(q.storage, e), std::numeric_limits<double>::infinity());
  std::vector<int> sinks;
  for (int n : q.nodes)
    sinks.push_back(net.node_endpoint(q.group, n));
  // Cables are full duplex with equal capacity both ways: one max flow serves both directions.
  if (const double fabric = net.fabric.max_flow_Bps(sources, sinks, true); std::isfinite(fabric))
    out.push_back({"fabric", "fabric (" + sc.network.topology + ")", fabric / amp, "max flow between the switches"});

  out.push_back({"storage_ports", ports_name(sys.kind), servers * sys.front_end.value / amp,
                 times(servers, sys.front_end.value)});
  if (sys.kind != "object") {
    if (const auto internal = server_internal_limit(sc, q.storage, q.op))
      out.push_back({"internal", internal_name(sys.kind), servers * internal->value, times(servers, internal->value)});
    const double drives = servers * sys.drives_per_server;
    // Server-side protection writes its extra pieces behind the server; host-side ones arrived as extra bytes.
    const double drive_amp = write ? sys.protection.write_amplification() : 1.0;
    std::string detail = times(drives, drive_Bps());
    if (drive_amp > 1)
      detail += ", " + format_count(drive_amp, 2) + "x written with " + sys.protection.scheme;
    out.push_back({"drives", "drives", drives * drive_Bps() / drive_amp, detail});
  }
  // A synchronous replica is written before the write completes: the target's ports, internal limit and drives.
  if (write && sys.replication && sys.replication->mode == "sync") {
    const int t = sc.storage_index(sys.replication->target);
    const auto& target = sc.storage[t];
    const auto internal = server_internal_limit(sc, t, IoOp::write);
    double per_server = std::min(target.front_end.value, target.server_write_bandwidth().value);
    if (internal)
      per_server = std::min(per_server, internal->value);
    out.push_back({"replica_target", "synchronous replica on " + target.name, target.servers * per_server,
                   times(target.servers, per_server)});
  }
  if (sys.kind == "pfs" && q.metadata_ops_per_byte > 0) {
    const double ops = sys.metadata_servers * sys.metadata_ops_per_server.value;
    out.push_back(
        {"metadata", "metadata servers", ops / q.metadata_ops_per_byte,
         format_count(sys.metadata_servers) + " x " + format_count(sys.metadata_ops_per_server.value) + " op/s"});
  }
  return lowest_first(std::move(out));
}

std::vector<TierLimit> copy_limits(const Scenario& sc, const ClusterNetwork& net, int from, int to,
                                   bool reads_at_rest) {
  const auto& src = sc.storage[from];
  const auto& dst = sc.storage[to];
  std::vector<TierLimit> out;
  out.push_back({"source_ports", "source " + ports_name(src.kind) + " (" + src.name + ")",
                 src.servers * src.front_end.value, times(src.servers, src.front_end.value)});
  if (reads_at_rest && src.kind != "object") {
    if (const auto internal = server_internal_limit(sc, from, IoOp::read))
      out.push_back({"source_internal", "source " + internal_name(src.kind) + " (" + src.name + ")",
                     src.servers * internal->value, times(src.servers, internal->value)});
    const double drives = static_cast<double>(src.drive_count());
    const double each = drive_rate(sc, from, IoOp::read);
    out.push_back({"source_drives", "source drives (" + src.name + ")", drives * each, times(drives, each)});
  }
  std::vector<std::pair<int, double>> sources;
  for (int e = 0; e < src.servers; ++e)
    sources.emplace_back(net.enclosure_endpoint(from, e), std::numeric_limits<double>::infinity());
  std::vector<int> sinks;
  for (int e = 0; e < dst.servers; ++e)
    sinks.push_back(net.enclosure_endpoint(to, e));
  if (const double fabric = net.fabric.max_flow_Bps(sources, sinks, true); std::isfinite(fabric))
    out.push_back({"fabric", "fabric (" + sc.network.topology + ")", fabric, "max flow between the switches"});
  out.push_back({"storage_ports", ports_name(dst.kind) + " (" + dst.name + ")", dst.servers * dst.front_end.value,
                 times(dst.servers, dst.front_end.value)});
  if (dst.kind != "object") {
    if (const auto internal = server_internal_limit(sc, to, IoOp::write))
      out.push_back({"internal", internal_name(dst.kind) + " (" + dst.name + ")", dst.servers * internal->value,
                     times(dst.servers, internal->value)});
    const double drives = static_cast<double>(dst.drive_count());
    const double each = drive_rate(sc, to, IoOp::write);
    const double amp = dst.protection.write_amplification();
    std::string detail = times(drives, each);
    if (amp > 1)
      detail += ", " + format_count(amp, 2) + "x written with " + dst.protection.scheme;
    out.push_back({"drives", "drives (" + dst.name + ")", drives * each / amp, detail});
  }
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
