#include "models/hardware/storage_system_parser.hpp"

#include <algorithm>
#include <cmath>

namespace aisim::models {

namespace {

constexpr int64_t kMaxServers = 10'000'000;

// The drive a system names, with the bay's PCIe link; nullopt when missing or broken (reported elsewhere).
struct DriveBay {
  std::optional<DriveModel> drive;
  int lanes = 4;
  std::string generation = "gen4";
  bool ok = false;
};

DriveBay read_drive_bay(ObjectReader& s, const std::vector<DriveModel>& drives,
                        const std::vector<std::string>& drive_names) {
  DriveBay bay;
  auto name = s.reference("drive", drive_names, "drive models under /drives");
  auto lanes = s.integer("drive_pcie_lanes", 4, 1, 16);
  auto gen = s.choice("pcie_generation", "gen4", {"gen3", "gen4", "gen5", "gen6"});
  const int64_t width = lanes.value_or(0);
  const bool width_ok = width == 1 || width == 2 || width == 4 || width == 8 || width == 16;
  if (lanes && !width_ok)
    s.get_diagnostics().error(s.child_pointer("drive_pcie_lanes"),
                              "not a PCIe link width (expected 1, 2, 4, 8 or 16, got " + std::to_string(width) + ")");
  if (name) {
    const auto d = std::find_if(drives.begin(), drives.end(), [&](const DriveModel& m) { return m.name == *name; });
    if (d != drives.end())
      bay.drive = *d;
  }
  bay.lanes = static_cast<int>(width);
  bay.generation = gen.value_or("gen4");
  bay.ok = bay.drive && width_ok && gen;
  return bay;
}

// {"scheme": ..., "data": D, "parity": P} or for mirrors {"scheme": "mirror"|"raid1"|"raid10", "copies": C}.
std::optional<Protection> read_protection(ObjectReader& s, const std::vector<std::string>& schemes,
                                          const char* default_scheme, int max_width) {
  auto p = s.object("protection", false);
  if (!p)
    return std::nullopt;
  Protection out;
  auto scheme = p->choice("scheme", default_scheme, schemes);
  if (!scheme)
    return std::nullopt;
  out.scheme = *scheme;
  if (out.scheme == "mirror" || out.scheme == "raid1" || out.scheme == "raid10") {
    auto copies = p->integer("copies", 2, 2, 8);
    if (!copies)
      return std::nullopt;
    out.data = 1;
    out.parity = static_cast<int>(*copies) - 1;
  } else if (out.scheme == "raid5" || out.scheme == "raid6" || out.scheme == "erasure") {
    auto data = p->integer("data", 8, 1, 64);
    std::optional<int64_t> parity;
    if (out.scheme == "erasure")
      parity = p->integer("parity", 2, 1, 16);
    else
      parity = out.scheme == "raid5" ? 1 : 2;
    if (!data || !parity)
      return std::nullopt;
    out.data = static_cast<int>(*data);
    out.parity = static_cast<int>(*parity);
  }
  if (out.scheme != "none") {
    auto priority = p->number("rebuild_priority", 1.0, 0.01, 100.0);
    std::optional<double> rate;
    const bool rate_ok = p->optional_quantity("rebuild_rate", Dimension::bytes_per_second, rate);
    if (!priority || !rate_ok)
      return std::nullopt;
    out.rebuild_priority = *priority;
    if (rate)
      out.rebuild_rate = BytesPerSecond(*rate);
  }
  p->finish();
  if (out.width() > max_width) {
    s.get_diagnostics().error(s.child_pointer("protection"),
                              "scheme wider than what it spreads over (expected at most " + std::to_string(max_width) +
                                  " pieces, got " + std::to_string(out.data) + "+" + std::to_string(out.parity) + ")");
    return std::nullopt;
  }
  return out;
}

// The client protocol (`protocols`, the first the default) and, over TCP, its connections per node and what one
// connection carries.
bool read_client(ObjectReader& s, StorageSystem& sys, const std::vector<std::string>& protocols) {
  auto protocol = s.choice("protocol", protocols.front().c_str(), protocols);
  if (!protocol)
    return false;
  sys.protocol = *protocol;
  // Lustre Operations Manual, "Lustre File System Scalability and Performance": a single client's I/O reaches 90 %
  // of its network bandwidth (its practical range; 15 GB/s on HDR InfiniBand in production). No such figure for
  // the other clients: their NICs and, over TCP, their connections bound them.
  auto share = s.number("client_nic_share", sys.protocol == "lustre" ? 0.9 : 1.0, 0.01, 1.0);
  if (!share)
    return false;
  sys.client_nic_share = *share;
  if (!sys.over_tcp()) {
    bool ok = true;
    for (const char* key : {"connections_per_node", "connection_bandwidth"})
      if (s.has(key)) {
        s.accept(key);
        s.get_diagnostics().error(s.child_pointer(key), "only a client over TCP has connections that limit it "
                                                        "(expected \"protocol\" \"nvme-tcp\" or \"nfs-tcp\", got \"" +
                                                            sys.protocol + "\")");
        ok = false;
      }
    return ok;
  }
  // NFS: the nconnect mount option, 1 to 16 connections (Linux 5.3 and later; nfs(5)); 16, the most, is what NFS
  // vendors' guides for bandwidth-bound clients set. NVMe/TCP: one I/O queue, each its own connection, per online
  // CPU (nvme-cli's nr_io_queues default): 0 here, resolved per node group from cpu_cores.
  std::optional<int64_t> conns = 0;
  if (sys.protocol == "nfs-tcp")
    conns = s.integer("connections_per_node", 16, 1, 16);
  else if (s.has("connections_per_node"))
    conns = s.integer("connections_per_node", std::nullopt, 1, 4096);
  // One TCP stream is received by one core: 15-35 Gb/s on a tuned 100G host (ESnet fasterdata, "Performance
  // Expectations for a 100G Host", 2024); the middle of that range.
  auto cbw = s.quantity("connection_bandwidth", Dimension::bytes_per_second, "25Gbps");
  if (!conns || !cbw)
    return false;
  sys.connections_per_node = static_cast<int>(*conns);
  sys.connection_bandwidth = BytesPerSecond(*cbw);
  return true;
}

bool parse_jbof(ObjectReader& s, StorageSystem& sys, const DriveBay& bay) {
  auto enc = s.integer("enclosures", std::nullopt, 1, kMaxServers);
  auto dpe = s.integer("drives_per_enclosure", std::nullopt, 1, 1024);
  auto bays = s.integer("bays_per_enclosure", 24, 1, 1024);
  std::optional<double> uplink; // absent: the PCIe switch never limits
  const bool uplink_ok = s.optional_quantity("switch_uplink", Dimension::bytes_per_second, uplink);
  auto ports = s.integer("ports_per_enclosure", 2, 1, 64);
  auto pspeed = s.quantity("port_speed", Dimension::bytes_per_second, "200Gbps");
  auto price = s.quantity("enclosure_price", Dimension::dollars, "$25k", Bound::non_negative);
  auto power = s.quantity("enclosure_power", Dimension::watts, "600W", Bound::non_negative);
  // A local file system on one node: mdtest with 2 tasks on one node measured 353k file creates/s and 1.18 M
  // stats/s (vi4io.org, tools/benchmarks/mdtest); the create, the slowest operation a file costs, rounded down.
  auto mops = s.quantity("metadata_ops_per_node", Dimension::ops_per_second, "300k op/s");
  // Host-side protection spreads copies or stripes across enclosures.
  auto prot =
      read_protection(s, {"none", "mirror", "raid5", "raid6", "erasure"}, "none", static_cast<int>(enc.value_or(1)));
  const bool client = read_client(s, sys, {"nvme-rdma", "nvme-tcp"});
  if (dpe && bays && *dpe > *bays)
    s.get_diagnostics().error(s.child_pointer("drives_per_enclosure"), "more drives than bays (expected at most " +
                                                                           std::to_string(*bays) + ", got " +
                                                                           std::to_string(*dpe) + ")");
  if (!enc || !dpe || !bays || *dpe > *bays || !uplink_ok || !ports || !pspeed || !price || !power || !prot || !mops ||
      !client)
    return false;
  sys.metadata_ops_per_node = OpsPerSecond(*mops);
  sys.servers = static_cast<int>(*enc);
  sys.drives_per_server = static_cast<int>(*dpe);
  sys.bays_per_enclosure = static_cast<int>(*bays);
  if (uplink)
    sys.internal_limit = BytesPerSecond(uplink.value_or(0));
  sys.front_end_ports = static_cast<int>(*ports);
  sys.front_end = BytesPerSecond(*pspeed) * static_cast<double>(*ports);
  sys.chassis_price = Dollars(*price) * static_cast<double>(*enc);
  sys.chassis_power = Watts(*power) * static_cast<double>(*enc);
  sys.protection = *prot;
  sys.host_side_protection = true;
  return bay.ok;
}

bool parse_array(ObjectReader& s, StorageSystem& sys, const DriveBay& bay, const std::vector<std::string>& systems) {
  auto ctrl = s.integer("controllers", 2, 1, 64);
  auto failover = s.choice("failover", "active_active", {"active_active", "active_passive"});
  // Absent: nothing between a controller's ports and its drives limits beyond controller_iops (a controller is
  // built to fill its front end); vendors publish a figure per model, which belongs here.
  std::optional<double> cbw;
  const bool cbw_ok = s.optional_quantity("controller_bandwidth", Dimension::bytes_per_second, cbw);
  auto ciops = s.quantity("controller_iops", Dimension::ops_per_second, "1MIOPS");
  // NFS operations (SPECsfs2008, most of them metadata: lookups, getattr, access): 180k op/s from 3 Avere FXT 3800
  // nodes (spec.org, result sfs2008-20140303-00241), a million from 16 NetApp FAS6240 nodes (Silverton
  // Consulting's SPECsfs2008 chart, February 2012): 60k op/s per controller.
  auto cmops = s.quantity("metadata_ops_per_controller", Dimension::ops_per_second, "60k op/s");
  auto ports = s.integer("ports_per_controller", 4, 1, 64);
  auto pspeed = s.quantity("port_speed", Dimension::bytes_per_second, "200Gbps");
  auto shelves = s.integer("shelves", 1, 1, 1000);
  auto dps = s.integer("drives_per_shelf", std::nullopt, 1, 1024);
  auto bays = s.integer("bays_per_shelf", 24, 1, 1024);
  auto price = s.quantity("array_price", Dimension::dollars, "$150k", Bound::non_negative);
  auto power = s.quantity("array_power", Dimension::watts, "1.5kW", Bound::non_negative);
  const int drives = static_cast<int>(shelves.value_or(1) * dps.value_or(1));
  auto prot = read_protection(s, {"none", "raid1", "raid10", "raid5", "raid6", "erasure"}, "raid6", drives);
  const bool client = read_client(s, sys, {"nfs-tcp", "nfs-rdma"});
  bool ok = ctrl && failover && cbw_ok && ciops && cmops && ports && pspeed && shelves && dps && bays && price &&
            power && prot && client;
  if (dps && bays && *dps > *bays) {
    s.get_diagnostics().error(s.child_pointer("drives_per_shelf"), "more drives than bays (expected at most " +
                                                                       std::to_string(*bays) + ", got " +
                                                                       std::to_string(*dps) + ")");
    ok = false;
  }
  if (auto snap = s.has("snapshots") ? s.object("snapshots", false) : std::nullopt) {
    auto interval = snap->quantity("interval", Dimension::seconds, "1h");
    auto retention = snap->quantity("retention", Dimension::seconds, "24h");
    auto immutable = snap->boolean("immutable", false);
    snap->finish();
    if (interval && retention && immutable)
      sys.snapshots = Snapshots{Seconds(*interval), Seconds(*retention), *immutable};
    ok = ok && interval && retention && immutable;
  } else {
    s.accept("snapshots");
  }
  if (auto rep = s.has("replication") ? s.object("replication", false) : std::nullopt) {
    std::vector<std::string> others;
    for (const auto& n : systems)
      if (n != sys.name)
        others.push_back(n);
    auto target = rep->reference("target", others, "other storage systems under /storage");
    auto mode = rep->choice("mode", "async", {"sync", "async"});
    rep->finish();
    if (target && mode)
      sys.replication = Replication{*target, *mode};
    ok = ok && target && mode;
  } else {
    s.accept("replication");
  }
  if (s.has("retention_lock")) {
    auto lock = s.quantity("retention_lock", Dimension::seconds, nullptr);
    if (lock)
      sys.retention_lock = Seconds(*lock);
    ok = ok && lock;
  } else {
    s.accept("retention_lock");
  }
  if (!ok)
    return false;
  sys.controllers = static_cast<int>(*ctrl);
  sys.failover = *failover;
  // Active-passive: half the controllers stand by and serve nothing until a failover.
  sys.servers = sys.failover == "active_passive" ? std::max(1, sys.controllers / 2) : sys.controllers;
  sys.drives_per_server = std::max(1, drives / sys.servers);
  if (drives % sys.servers != 0) {
    s.get_diagnostics().error(s.child_pointer("drives_per_shelf"),
                              "drives do not divide evenly among the active controllers (expected a multiple of " +
                                  std::to_string(sys.servers) + " drives in all, got " + std::to_string(drives) + ")");
    return false;
  }
  if (cbw)
    sys.internal_limit = BytesPerSecond(*cbw);
  sys.controller_iops = OpsPerSecond(*ciops);
  sys.metadata_ops_per_controller = OpsPerSecond(*cmops);
  sys.front_end_ports = static_cast<int>(*ports);
  sys.front_end = BytesPerSecond(*pspeed) * static_cast<double>(*ports);
  sys.chassis_price = Dollars(*price);
  sys.chassis_power = Watts(*power);
  sys.protection = *prot;
  return bay.ok;
}

bool parse_pfs(ObjectReader& s, StorageSystem& sys, const DriveBay& bay) {
  auto servers = s.integer("servers", std::nullopt, 1, kMaxServers);
  auto dps = s.integer("drives_per_server", std::nullopt, 1, 1024);
  auto ports = s.integer("ports_per_server", 2, 1, 64);
  auto pspeed = s.quantity("port_speed", Dimension::bytes_per_second, "200Gbps");
  auto stripe_count = s.integer("stripe_count", servers.value_or(1), 1, kMaxServers);
  auto stripe_size = s.quantity("stripe_size", Dimension::bytes, "1MiB");
  auto mds = s.integer("metadata_servers", 2, 1, 1024);
  auto mops = s.quantity("metadata_ops_per_server", Dimension::ops_per_second, "50k op/s");
  auto price = s.quantity("server_price", Dimension::dollars, "$40k", Bound::non_negative);
  auto power = s.quantity("server_power", Dimension::watts, "800W", Bound::non_negative);
  // What one server's file-system software and memory move per direction. A server's data crosses its DRAM at
  // least twice (NIC to memory, memory to drives) and its software checksums, locks and answers RPCs per byte, so
  // a storage server moves well below its ports and drives together. Fitted on MLPerf Storage v1.0 (closed) unet3d
  // H100 throughputs of two vendors' systems, DDN AI400X2 Turbo's one appliance (99,018 MiB/s = 103.8 GB/s) and
  // IEI AS13000's 3 storage nodes (362,524 MiB/s / 3 = 126.7 GB/s per node): their geometric mean, rounded
  // (validation/README.md, "MLPerf Storage v1.0", lists the fitted and the checked rows).
  auto server_bw = s.quantity("server_bandwidth", Dimension::bytes_per_second, "115GB/s");
  const bool server_bw_ok = server_bw.has_value();
  auto prot = read_protection(s, {"none", "mirror", "raid5", "raid6", "erasure"}, "none",
                              static_cast<int>(servers.value_or(1)));
  const bool client = read_client(s, sys, {"lustre", "nfs-tcp", "nfs-rdma"});
  bool ok = servers && dps && ports && pspeed && stripe_count && stripe_size && mds && mops && price && power && prot &&
            server_bw_ok && client;
  if (servers && stripe_count && *stripe_count > *servers) {
    s.get_diagnostics().error(s.child_pointer("stripe_count"),
                              "stripes over more servers than exist (expected at most " + std::to_string(*servers) +
                                  ", got " + std::to_string(*stripe_count) + ")");
    ok = false;
  }
  // Lustre's and BeeGFS's stripe (chunk) sizes run from 64 KiB to 4 GiB (Lustre Operations Manual, "Setting the
  // File Layout/Striping Configuration"; GPFS block sizes fall inside).
  if (stripe_size && (*stripe_size < 65536 || *stripe_size > 4294967296.0)) {
    s.get_diagnostics().error(s.child_pointer("stripe_size"),
                              "expected a stripe unit from 64KiB (65536 bytes) to 4GiB, got " +
                                  std::to_string(std::llround(*stripe_size)) + " bytes");
    ok = false;
  }
  if (!ok)
    return false;
  sys.servers = static_cast<int>(*servers);
  sys.drives_per_server = static_cast<int>(*dps);
  sys.front_end_ports = static_cast<int>(*ports);
  sys.front_end = BytesPerSecond(*pspeed) * static_cast<double>(*ports);
  sys.internal_limit = BytesPerSecond(*server_bw);
  sys.stripe_count = static_cast<int>(*stripe_count);
  sys.stripe_size = Bytes(*stripe_size);
  sys.metadata_servers = static_cast<int>(*mds);
  sys.metadata_ops_per_server = OpsPerSecond(*mops);
  sys.chassis_price = Dollars(*price) * static_cast<double>(*servers);
  sys.chassis_power = Watts(*power) * static_cast<double>(*servers);
  sys.protection = *prot;
  sys.host_side_protection = false; // servers compute parity among themselves
  return bay.ok;
}

bool parse_object(ObjectReader& s, StorageSystem& sys) {
  auto gateways = s.integer("gateways", 4, 1, kMaxServers);
  auto gbw = s.quantity("gateway_bandwidth", Dimension::bytes_per_second, "25GB/s");
  auto cap = s.quantity("capacity", Dimension::bytes, nullptr);
  auto conns = s.integer("connections_per_node", 16, 1, 4096);
  auto cbw = s.quantity("connection_bandwidth", Dimension::bytes_per_second, "500MB/s");
  auto lat = s.quantity("request_latency", Dimension::seconds, "10ms", Bound::non_negative);
  auto osize = s.quantity("object_size", Dimension::bytes, "64MiB");
  // Amazon S3 User Guide, "Best practices design patterns: optimizing Amazon S3 performance": at least 3,500
  // PUT/COPY/POST/DELETE and 5,500 GET/HEAD requests per second per partitioned prefix, scaling with prefixes.
  auto prefixes = s.integer("prefixes", 1, 1, 1000000);
  auto gets = s.quantity("get_requests_per_prefix", Dimension::ops_per_second, "5500 op/s");
  auto puts = s.quantity("put_requests_per_prefix", Dimension::ops_per_second, "3500 op/s");
  std::optional<double> bucket; // absent: none (S3 has no bucket-wide request limit)
  const bool bucket_ok = s.optional_quantity("bucket_requests", Dimension::ops_per_second, bucket);
  auto durability = s.number("durability", 0.99999999999, 0.0, 1.0);
  // Rented from a provider (billed per TB-month held and per byte read) or owned (an object store of one's own:
  // bought per TB of usable capacity, powered, housed).
  auto ownership = s.choice("ownership", "rented", {"rented", "owned"});
  const bool owned = ownership && *ownership == "owned";
  std::optional<double> purchase = 0.0;
  double power_w = 0.0;
  bool power_ok = true;
  if (owned) {
    purchase = s.quantity("purchase_price", Dimension::dollars_per_byte, nullptr, Bound::non_negative);
    // Estimate: a 4U server of 90 x 20 TB disks draws about 1.2 kW for 1.8 PB raw; erasure coding 8+3 brings
    // it to about 1 W per usable TB.
    char default_power[48];
    std::snprintf(default_power, sizeof default_power, "%.6gW", cap.value_or(0.0) / 1e12 * 1.0);
    const auto power = s.quantity("power", Dimension::watts, default_power, Bound::non_negative);
    power_ok = power.has_value();
    power_w = power.value_or(0.0);
  } else {
    for (const char* key : {"purchase_price", "power"})
      if (s.has(key)) {
        s.accept(key);
        s.get_diagnostics().error(s.child_pointer(key), "a rented store is the provider's to buy and power (expected "
                                                        "\"ownership\": \"owned\" for a store of one's own)");
        power_ok = false;
      }
  }
  auto sprice = s.quantity("storage_price", Dimension::dollars_per_byte_month, owned ? "$0/TB-month" : "$10/TB-month",
                           Bound::non_negative);
  auto rprice = s.quantity("retrieval_price", Dimension::dollars_per_byte, "$0/GB", Bound::non_negative);
  auto eprice = s.quantity("egress_price", Dimension::dollars_per_byte, "$0/GB", Bound::non_negative);
  auto offline = s.boolean("offline", false);
  std::optional<double> lock;
  const bool lock_ok = s.optional_quantity("retention_lock", Dimension::seconds, lock);
  if (!gateways || !gbw || !cap || !conns || !cbw || !lat || !osize || !durability || !sprice || !rprice || !eprice ||
      !ownership || !purchase || !power_ok || !offline || !lock_ok || !prefixes || !gets || !puts || !bucket_ok)
    return false;
  sys.prefixes = static_cast<int>(*prefixes);
  sys.get_requests_per_prefix = OpsPerSecond(*gets);
  sys.put_requests_per_prefix = OpsPerSecond(*puts);
  if (bucket)
    sys.bucket_requests = OpsPerSecond(*bucket);
  sys.offline = *offline;
  if (lock)
    sys.retention_lock = Seconds(*lock);
  sys.owned = owned;
  if (owned) {
    sys.chassis_price = Dollars(*purchase * *cap);
    sys.chassis_power = Watts(power_w);
  }
  sys.servers = static_cast<int>(*gateways);
  sys.front_end = BytesPerSecond(*gbw);
  sys.object_capacity = Bytes(*cap);
  sys.protocol = "s3";
  sys.connections_per_node = static_cast<int>(*conns);
  sys.connection_bandwidth = BytesPerSecond(*cbw);
  sys.request_latency = Seconds(*lat);
  sys.object_size = Bytes(*osize);
  sys.durability = *durability;
  sys.storage_price = DollarsPerByteMonth(*sprice);
  sys.retrieval_price = DollarsPerByte(*rprice);
  sys.egress_price = DollarsPerByte(*eprice);
  return true;
}

bool parse_local_nvme(ObjectReader& s, StorageSystem& sys, const DriveBay& bay,
                      const std::vector<std::string>& group_names) {
  auto group = s.reference("node_group", group_names, "node groups under /cluster/node_groups");
  auto dpn = s.integer("drives_per_node", std::nullopt, 1, 64);
  if (!group || !dpn)
    return false;
  sys.node_group = *group;
  sys.drives_per_node = static_cast<int>(*dpn);
  return bay.ok;
}

} // namespace

std::optional<StorageSystem> parse_storage_system(ObjectReader& s, const std::string& name,
                                                  const std::vector<DriveModel>& drives,
                                                  const std::vector<std::string>& drive_names,
                                                  const std::vector<std::string>& group_names,
                                                  const std::vector<std::string>& storage_names) {
  StorageSystem sys;
  sys.name = name;
  auto kind = s.choice("kind", nullptr, {"jbof", "array", "pfs", "object", "local_nvme"});
  if (!kind)
    return std::nullopt; // without a kind the other keys cannot be judged; no cascade of "unknown key"
  sys.kind = *kind;
  DriveBay bay;
  if (sys.kind != "object") {
    bay = read_drive_bay(s, drives, drive_names);
    sys.drive = bay.drive;
    sys.drive_pcie_lanes = bay.lanes;
    sys.pcie_generation = bay.generation;
  }
  bool ok = false;
  if (sys.kind == "jbof")
    ok = parse_jbof(s, sys, bay);
  else if (sys.kind == "array")
    ok = parse_array(s, sys, bay, storage_names);
  else if (sys.kind == "pfs")
    ok = parse_pfs(s, sys, bay);
  else if (sys.kind == "object")
    ok = parse_object(s, sys);
  else
    ok = parse_local_nvme(s, sys, bay, group_names);
  auto failures = parse_storage_failures(s, sys);
  s.accept("holds"); // the scenario parser reads it
  s.finish();
  if (!ok || !failures)
    return std::nullopt;
  sys.failures = *failures;
  return sys;
}

} // namespace aisim::models
