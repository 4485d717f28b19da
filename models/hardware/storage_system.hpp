// Storage systems a scenario names under "storage", by kind:
// - jbof: NVMe enclosures (drives behind PCIe lanes and a PCIe switch, NVMe-oF ports), no data services of their
//   own; protection only as host-side mirroring or erasure coding across enclosures.
// - array: dedicated storage: controllers with bandwidth limits and failover, front-end ports, drive shelves,
//   RAID or erasure coding, snapshots, replication to another system, retention lock.
// - pfs: a parallel file system on storage servers: striping, metadata servers with an operation rate.
// - object: a cold tier behind gateways: per-connection and total bandwidth, request latency, durability, prices.
// - local_nvme: drives inside the GPU nodes of one node group, no network.
// The engine sees every kind the same way: "servers" (enclosures, controllers, file servers, gateways) with a
// front-end link, an optional internal limit and disks (see sim/platform/).
#pragma once

#include "models/common/diagnostics.hpp"
#include "models/common/json_reader.hpp"
#include "models/common/units.hpp"
#include "models/hardware/drive_model.hpp"
#include "models/hardware/failure_spec.hpp"

#include <optional>
#include <string>
#include <vector>

namespace aisim::models {

// Whether a client protocol runs over TCP ("nvme-tcp", "nfs-tcp", "s3"); the others run over RDMA.
bool protocol_over_tcp(const std::string& protocol);

// Usable bandwidth of one PCIe lane per direction after line encoding (128b/130b for Gen3-5, FLIT for Gen6).
BytesPerSecond pcie_lane_bandwidth(const std::string& generation);

struct Protection {
  std::string scheme = "none"; // none, mirror, raid1, raid10, raid5, raid6, erasure
  int data = 1;                // data pieces per stripe (copies: 1)
  int parity = 0;              // parity pieces, or extra copies for mirrors
  // Rebuilding a lost drive: its share of a drive against one job transfer's, and an optional cap per drive.
  double rebuild_priority = 1;
  std::optional<BytesPerSecond> rebuild_rate;
  // Usable over raw capacity.
  double efficiency() const { return static_cast<double>(data) / (data + parity); }
  // Bytes written to drives per byte stored (full-stripe writes, as large checkpoint and dataset writes are).
  double write_amplification() const { return static_cast<double>(data + parity) / data; }
  int width() const { return data + parity; }
};

struct Snapshots {
  Seconds interval;
  Seconds retention;
  // Tamper-proof (locked until they expire): an attacker with administrator rights cannot delete them, so they
  // survive ransomware as well as accidental deletion.
  bool immutable = false;
};

struct Replication {
  std::string target;
  std::string mode; // "sync": a write completes when both copies are written; "async": copied afterwards
};

struct StorageSystem {
  std::string name;
  std::string kind;

  // The engine's view.
  int servers = 0;           // enclosures, active controllers, file servers or gateways (0 for local_nvme)
  int drives_per_server = 0; // drives behind each server (array: the shelves' drives shared evenly)
  std::optional<BytesPerSecond> internal_limit; // per server: PCIe switch uplink or controller bandwidth
  BytesPerSecond front_end;                     // per server: its ports together, each direction
  int front_end_ports = 1;
  std::optional<DriveModel> drive; // none for object
  int drive_pcie_lanes = 4;
  std::string pcie_generation = "gen4";
  Protection protection;
  bool host_side_protection = false; // jbof: clients send the extra copies or parity over the network
  StorageFailureSpecs failures;      // what fails, how often, for how long (none by default)

  // jbof
  int bays_per_enclosure = 0;
  // The file system each GPU node runs on its own volumes of the enclosures (host-side: no file service in a
  // JBOF), metadata operations per second per node.
  OpsPerSecond metadata_ops_per_node;
  // array
  int controllers = 0;
  std::string failover;
  OpsPerSecond controller_iops;
  OpsPerSecond metadata_ops_per_controller; // its file service (NFS-like): opens, closes, creates per second
  std::optional<Snapshots> snapshots;
  std::optional<Replication> replication;
  // Data at rest from the start and kept throughout (archives, past datasets): (data class index, bytes). Read by
  // the scenario parser, which knows the data classes.
  std::vector<std::pair<int, Bytes>> holds;
  std::optional<Seconds> retention_lock; // array: a retention lock; object: object lock (compliance mode)
  bool offline = false;                  // object: an air-gapped vault no job, user or attacker reaches online
  // pfs
  int stripe_count = 0;
  Bytes stripe_size;
  int metadata_servers = 0;
  OpsPerSecond metadata_ops_per_server;
  // The client protocol the GPU nodes reach it with: jbof "nvme-rdma" or "nvme-tcp"; array "nfs-tcp" or
  // "nfs-rdma"; pfs "lustre" (LNet over RDMA), "nfs-tcp" or "nfs-rdma"; object "s3" (HTTP over TCP); local_nvme "".
  std::string protocol;
  // Over TCP a CPU core receives each connection's bytes (socket buffers in host memory, then a copy): a node
  // moves at most min(connections, cores) x connection_bandwidth; 0 connections: one per core (NVMe/TCP's I/O
  // queues). Object stores also pay request_latency once per object on each connection.
  int connections_per_node = 0;
  BytesPerSecond connection_bandwidth;
  // The most one node's file-system or block client moves, as a share of its storage NICs' line rate (1: no limit
  // of its own; Lustre's client: 0.9).
  double client_nic_share = 1.0;
  // object
  Bytes object_capacity;
  Seconds request_latency;
  Bytes object_size;
  int prefixes = 1; // key prefixes the data is spread over: request limits are per prefix
  OpsPerSecond get_requests_per_prefix;
  OpsPerSecond put_requests_per_prefix;
  std::optional<OpsPerSecond> bucket_requests; // a cap on the whole bucket's GETs, and on its PUTs
  double durability = 0;
  DollarsPerByteMonth storage_price;
  DollarsPerByte retrieval_price;
  DollarsPerByte egress_price; // data leaving the provider's network towards the GPUs
  bool owned = false;          // object: bought (chassis_price, chassis_power) rather than rented
  // local_nvme
  std::string node_group;
  int drives_per_node = 0;
  int nodes = 0; // filled from the node group

  // Prices and power of what is bought besides the drives (enclosures, array chassis and controllers, servers).
  Dollars chassis_price;
  Watts chassis_power;

  int drive_count() const;
  Bytes raw_capacity() const;
  Bytes capacity() const; // usable, after protection
  BytesPerSecond drive_read_bandwidth() const;
  BytesPerSecond drive_write_bandwidth() const;
  // The most a rebuild writes per drive it rebuilds: one drive's write bandwidth, or `rebuild_rate` when lower.
  BytesPerSecond rebuild_bandwidth() const;
  // What one server's drives can deliver through its internal limit, counting write amplification for writes.
  BytesPerSecond server_read_bandwidth() const;
  BytesPerSecond server_write_bandwidth() const;
  // The servers one file of `file_size` bytes is spread over: on a parallel file system its stripes of
  // stripe_size go round-robin to stripe_count servers, so a file smaller than a stripe sits on one server (0
  // bytes: a file large enough for all stripe_count); every server otherwise.
  int servers_per_file(Bytes file_size) const;
  // The servers `files` files of `file_size` bytes each written at once reach (0 files: many, so every server).
  int servers_for_files(long long files, Bytes file_size = Bytes(0)) const;
  // The pieces one client request of `request` bytes is split into on the servers: on a parallel file system one
  // contiguous piece per stripe unit it covers (at most stripe_count, each server's share of the request is
  // contiguous in its object), so the drives see requests of request / pieces, that many more of them in flight.
  // One piece on every other kind.
  int stripe_pieces(Bytes request) const;
  // Metadata operations per second (opens, closes, creates) that files on this system get while `nodes` GPU nodes
  // use them: a pfs's metadata servers and an array's active controllers, shared by every job; a jbof's node
  // file systems, each node its own. 0 where a file costs no metadata operation here (object, local_nvme).
  double metadata_ops_rate(double nodes) const;
  // Requests per second an object store takes: GETs (reads) or PUTs (writes, multipart parts included) over its
  // prefixes, at most bucket_requests. 0 for other kinds.
  double object_request_rate(bool write) const;
  // Requests that move `bytes` as `files` objects (0: as objects of object_size), each sent in parts of at most
  // object_size: multipart uploads, ranged GETs.
  double object_requests(double bytes, double files) const;
  // Whether its client runs over TCP (nvme-tcp, nfs-tcp, s3): its bytes pass through host memory and a core, so
  // neither GPUDirect Storage nor RDMA's zero copy applies.
  bool over_tcp() const;
  // The most one GPU node of `cpu_cores` cores moves to or from it through its client's connections, each
  // direction; 0 where no connection limits (RDMA clients, local_nvme). An object store's connections each pay
  // the request latency once per object.
  BytesPerSecond connection_pool_rate(int cpu_cores) const;
  // The connections that move data at once on a node of `cpu_cores` cores: an object store's pool, else at most
  // one per core.
  int connection_streams(int cpu_cores) const;
};

} // namespace aisim::models
