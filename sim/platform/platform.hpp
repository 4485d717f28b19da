// Turns a scenario's cluster and storage into SimGrid hosts, links, disks and routes. The only place that
// converts model units to SimGrid's SI doubles for the platform. build_platform runs the steps in
// sim/platform/builder.hpp in order; layout.hpp decides their shape without SimGrid.
#pragma once

#include "models/cluster/cluster_network.hpp"
#include "models/scenario/scenario.hpp"
#include "sim/platform/route_latency.hpp"

#include <simgrid/s4u.hpp>

#include <array>
#include <map>
#include <string>
#include <vector>

namespace aisim::sim {

// A set of identical GPU nodes doing the same thing: a job's consecutive nodes on one leaf; at fidelity "aggregate"
// also a class of leaves that each hold the same number of that job's nodes and nothing else (one host whose NIC
// link carries the set's summed bandwidth). Both levels model the same bandwidths;
// tests/CMakeLists.txt checks that they agree.
struct NodeSet {
  std::string name;
  int group = -1;
  int job = -1;
  int nodes = 0;
  int gpus = 0;
  simgrid::s4u::Host* host = nullptr;
  // On a converged network, the rest of the GPU fabric as seen by this set's collectives: reached through the
  // set's own NIC link only (collectives stay on their rails; only the NICs are shared with storage traffic).
  simgrid::s4u::Host* fabric_peer = nullptr;
  std::map<int, std::vector<simgrid::s4u::Disk*>> local_disks; // by storage index, for local_nvme systems
};

// A storage server: a JBOF enclosure, an active array controller, a file server or an object gateway, or all of one
// system's servers on one leaf where they take the same stripes (sim/platform/layout.hpp says when). Its disks are one
// per drive at fidelity "full", one standing for all its drives at "aggregate" (none for object).
struct StorageServer {
  int storage = -1;
  int weight = 1; // physical servers it stands for: its share of every transfer to its system
  simgrid::s4u::Host* host = nullptr;
  std::vector<simgrid::s4u::Disk*> disks;
  // What storage failures degrade (sim/engine/storage_failures.cpp), with the bandwidths they had when built.
  simgrid::s4u::SplitDuplexLink* front_end = nullptr;
  simgrid::s4u::SplitDuplexLink* internal = nullptr; // none without an internal limit
  double front_end_Bps = 0, internal_read_Bps = 0, internal_write_Bps = 0;
  std::vector<std::pair<double, double>> disk_Bps; // read, write; by disk
  // Whether a copy within its system passes through it host-to-itself (sim/platform/routes.cpp): its internal limit
  // (an array's controllers) or its ports out and back in; false where nothing of it bounds such a copy.
  bool copies_within = false;
  // Of its `weight` physical servers, those serving now. Failures change it while the platform is otherwise
  // fixed; new transfers stripe over serving servers only (a failed enclosure takes no new stripes).
  mutable int serving = 1;
};

struct Platform {
  std::vector<NodeSet> node_sets;
  std::vector<StorageServer> servers;
  std::vector<std::vector<int>> servers_of_storage; // by storage index
  std::vector<std::vector<int>> node_sets_of_job;   // by job index
  // Where a file's metadata operations (creates, opens, closes) run, as hosts whose speed is an operation rate:
  // executions on them, so that what shares them waits as it would. A parallel file system's metadata servers,
  // an array's controllers' file service: one host per system, shared by every job (nullptr: none).
  std::vector<simgrid::s4u::Host*> metadata_host; // by storage index
  // A jbof's host-side file system: each node set's own, its nodes' summed rate (empty for other kinds).
  std::vector<std::vector<simgrid::s4u::Host*>> node_metadata_host; // by storage index, then node set
  // An object store's request limits: its GETs' host and its PUTs' host, whose speeds are requests per second
  // (nullptr for other kinds).
  std::vector<std::array<simgrid::s4u::Host*, 2>> request_host; // by storage index, then [read, write]
  // Drive bytes read per byte asked while a protected system has drives out or rebuilding: their share of the
  // data is reconstructed from D pieces each (sim/engine/storage_failures.cpp). 1 when healthy.
  mutable std::vector<double> read_amplification; // by storage index
  // Which links flows pay the scenario's link latency on: the SimGrid links carry none (route_latency.hpp).
  RouteLatency routes;
};

// Network settings for datacenter fabrics (RDMA / NVMe-oF): CM02 without TCP window or cross-traffic effects.
// Must run before the platform is built; SimGrid keeps them for the process, so a later engine inherits them (the
// simulated clock is reset by sim/engine/simgrid_internals.hpp).
void configure_engine(simgrid::s4u::Engine& engine);

Platform build_platform(const models::Scenario& sc, const models::ClusterNetwork& net);

} // namespace aisim::sim
