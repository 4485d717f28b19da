#include "models/hardware/storage_system.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace aisim::models {

BytesPerSecond pcie_lane_bandwidth(const std::string& generation) {
  // Transfer rate per lane x encoding efficiency / 8 bits: Gen3 8 GT/s, Gen4 16, Gen5 32 (128b/130b);
  // Gen6 64 GT/s with 242/256 FLIT efficiency (PCI-SIG base specifications).
  if (generation == "gen3")
    return BytesPerSecond(8e9 * 128 / 130 / 8);
  if (generation == "gen4")
    return BytesPerSecond(16e9 * 128 / 130 / 8);
  if (generation == "gen5")
    return BytesPerSecond(32e9 * 128 / 130 / 8);
  return BytesPerSecond(64e9 * 242 / 256 / 8);
}

int StorageSystem::drive_count() const {
  if (kind == "object")
    return 0;
  if (kind == "local_nvme")
    return nodes * drives_per_node;
  return servers * drives_per_server;
}

Bytes StorageSystem::raw_capacity() const {
  return kind == "object" ? object_capacity : drive->capacity * static_cast<double>(drive_count());
}

Bytes StorageSystem::capacity() const { return raw_capacity() * protection.efficiency(); }

BytesPerSecond StorageSystem::drive_read_bandwidth() const {
  return std::min(drive->read_bandwidth, pcie_lane_bandwidth(pcie_generation) * drive_pcie_lanes);
}

BytesPerSecond StorageSystem::drive_write_bandwidth() const {
  return std::min(drive->write_bandwidth, pcie_lane_bandwidth(pcie_generation) * drive_pcie_lanes);
}

BytesPerSecond StorageSystem::rebuild_bandwidth() const {
  const BytesPerSecond drive = drive_write_bandwidth();
  return protection.rebuild_rate ? std::min(drive, *protection.rebuild_rate) : drive;
}

BytesPerSecond StorageSystem::server_read_bandwidth() const {
  if (kind == "object")
    return front_end;
  const BytesPerSecond drives = drive_read_bandwidth() * drives_per_server;
  return internal_limit ? std::min(drives, *internal_limit) : drives;
}

BytesPerSecond StorageSystem::server_write_bandwidth() const {
  if (kind == "object")
    return front_end;
  // Server-side protection writes the extra pieces to drives behind the same server; host-side protection
  // sends them as separate flows, so each byte arriving is a byte on a drive.
  const double amp = host_side_protection ? 1.0 : protection.write_amplification();
  const BytesPerSecond drives = drive_write_bandwidth() * drives_per_server / amp;
  return internal_limit ? std::min(drives, *internal_limit) : drives;
}

namespace {
// Stripe units that `bytes` cover, at least one and at most `most`.
int stripe_units(Bytes bytes, Bytes stripe, int most) {
  if (bytes.value <= 0 || stripe.value <= 0)
    return most;
  // A request a hair over a stripe (rounding in byte counts) is still one unit.
  const double units = std::ceil(bytes.value / stripe.value - 1e-9);
  return static_cast<int>(std::clamp(units, 1.0, static_cast<double>(most)));
}
} // namespace

int StorageSystem::servers_per_file(Bytes file_size) const {
  return kind == "pfs" ? stripe_units(file_size, stripe_size, stripe_count) : servers;
}

int StorageSystem::servers_for_files(long long files, Bytes file_size) const {
  if (kind != "pfs" || files <= 0)
    return servers;
  return static_cast<int>(std::min<long long>(servers, files * servers_per_file(file_size)));
}

int StorageSystem::stripe_pieces(Bytes request) const {
  return kind == "pfs" && request.value > 0 ? stripe_units(request, stripe_size, stripe_count) : 1;
}

double StorageSystem::metadata_ops_rate(double nodes) const {
  if (kind == "pfs")
    return metadata_servers * metadata_ops_per_server.value;
  if (kind == "array")
    return servers * metadata_ops_per_controller.value;
  if (kind == "jbof")
    return nodes * metadata_ops_per_node.value;
  return 0;
}

double StorageSystem::object_request_rate(bool write) const {
  if (kind != "object")
    return 0;
  const double per_prefix = (write ? put_requests_per_prefix : get_requests_per_prefix).value;
  const double rate = prefixes * per_prefix;
  return bucket_requests ? std::min(rate, bucket_requests->value) : rate;
}

double StorageSystem::object_requests(double bytes, double files) const {
  if (!(bytes > 0))
    return 0;
  // Files as objects, each in requests of at most object_size (multipart parts, ranged GETs); data without files
  // in objects of object_size.
  if (files > 0)
    return files * std::max(1.0, std::ceil(bytes / files / object_size.value));
  return std::ceil(bytes / object_size.value);
}

bool protocol_over_tcp(const std::string& protocol) {
  return protocol == "nvme-tcp" || protocol == "nfs-tcp" || protocol == "s3";
}

bool StorageSystem::over_tcp() const { return protocol_over_tcp(protocol); }

BytesPerSecond StorageSystem::connection_pool_rate(int cpu_cores) const {
  if (!over_tcp())
    return BytesPerSecond(0);
  if (kind == "object") {
    // Each connection alternates a request's latency and its object's transfer.
    const double per_connection =
        object_size.value / (request_latency.value + object_size.value / connection_bandwidth.value);
    return BytesPerSecond(per_connection * connections_per_node);
  }
  return connection_bandwidth * static_cast<double>(connection_streams(cpu_cores));
}

int StorageSystem::connection_streams(int cpu_cores) const {
  if (kind == "object")
    return connections_per_node;
  // A core receives one connection's stream at a time.
  const int cores = std::max(1, cpu_cores);
  return connections_per_node > 0 ? std::min(connections_per_node, cores) : cores;
}

} // namespace aisim::models
