#include "platform.hpp"

#include "models/drive_load.hpp"

#include <algorithm>
#include <malloc.h>
#include <set>

namespace aisim::sim {

namespace sg4 = simgrid::s4u;
using Dir = sg4::LinkInRoute::Direction;

void configure_engine(sg4::Engine& /*engine*/) {
  // LV08's latency and bandwidth factors describe wide-area TCP; RDMA fabrics deliver line rate, so use CM02
  // and a TCP window large enough never to bind (it otherwise caps a flow at gamma / (2 x latency)).
  sg4::Engine::set_config("network/model:CM02");
  sg4::Engine::set_config("network/crosstraffic:0");
  sg4::Engine::set_config("network/TCP-gamma:1e18");
  // Actors here are shallow (a job's loop, a transfer's disk side, a background copy) and short-lived, and many
  // are created: SimGrid's default 8 MiB stack makes each creation an mmap and each end a munmap with a TLB
  // flush, which dominated the run time. 128 KiB is ample for these call depths.
  sg4::Engine::set_config("contexts/stack-size:128");
  // glibc serves blocks this large with mmap and returns them with munmap; a higher threshold keeps actor stacks
  // in the heap, where a freed stack is reused by the next actor.
  mallopt(M_MMAP_THRESHOLD, 4 << 20);
  mallopt(M_TRIM_THRESHOLD, 64 << 20); // and keep freed stacks rather than giving the heap's top back at once
}

namespace {

// Disks for `drives` drives of one model: one each at fidelity "full", one with their summed bandwidth otherwise
// (transfers stripe evenly, so both behave the same). Each disk's capacity per direction follows the drive
// model: with n transfers active, each adding the workload's queue depth, a drive delivers
// throughput(n x depth) (Little's law), never more than its PCIe-limited bandwidth.
std::vector<sg4::Disk*> create_disks(sg4::Host* host, const std::string& name, const models::Scenario& sc, int storage,
                                     int drives, bool full) {
  const auto& sys = sc.storage[storage];
  const models::DriveModel drive = *sys.drive;
  std::vector<sg4::Disk*> out;
  const int disks = full ? drives : 1;
  const double per_disk = static_cast<double>(drives) / disks;
  for (int d = 0; d < disks; ++d) {
    auto* disk = host->create_disk(name + "-nvme" + std::to_string(d), sys.drive_read_bandwidth().value * per_disk,
                                   sys.drive_write_bandwidth().value * per_disk);
    for (auto [op, sg_op] : {std::pair{models::IoOp::read, sg4::Disk::Operation::READ},
                             std::pair{models::IoOp::write, sg4::Disk::Operation::WRITE}}) {
      const models::DriveLoad load = models::drive_load(sc, storage, op);
      disk->set_sharing_policy(
          sg_op, sg4::Disk::SharingPolicy::NONLINEAR, [drive, load, op, per_disk](double capacity, int n) {
            if (n <= 0)
              return capacity;
            const double per_drive = drive.throughput(op, load.pattern, load.io_size, n * load.queue_depth).value;
            return std::min(capacity, per_drive * per_disk);
          });
    }
    out.push_back(disk->seal());
  }
  return out;
}

} // namespace

namespace {

// A group of GPU leaves that a symmetric layout lets the engine merge: every leaf holds `nodes` nodes of one job
// and nothing of any other, so they all carry the same load (spine-leaf and rail fabrics only; a fat tree's pods
// would have to merge too).
struct LeafClass {
  int job = -1;
  int group = -1;
  int nodes_per_leaf = 0;
  std::vector<int> leaves;
  std::vector<int> first_nodes; // the first node of the job on each leaf, for names
};

} // namespace

// Pairs of distinct shared systems that copy data from one to the other: replication, and every movement the
// policies can make. Node-local storage is reached through the nodes instead.
std::set<std::pair<size_t, size_t>> copy_routes(const models::Scenario& sc) {
  std::set<std::pair<size_t, size_t>> routes;
  auto add = [&](const std::string& from, const std::string& to) {
    const auto* a = sc.find_storage(from);
    const auto* b = sc.find_storage(to);
    if (a && b && a != b && a->kind != "local_nvme" && b->kind != "local_nvme")
      routes.emplace(a - sc.storage.data(), b - sc.storage.data());
  };
  for (const auto& sys : sc.storage)
    if (sys.replication)
      add(sys.name, sys.replication->target);
  const auto& pol = sc.policies;
  const auto& validated = pol.place(models::DataClass::validated_model);
  for (const auto& job : sc.jobs) {
    add(pol.tiering.dataset_home, job.dataset.storage);
    add(job.checkpoint.storage, pol.tiering.archive_checkpoints_to);
    if (pol.promotion)
      add(job.checkpoint.storage, validated);
  }
  add(validated, pol.tiering.replicate_validated_to);
  add(validated, pol.place(models::DataClass::production_model));
  return routes;
}

Platform build_platform(const models::Scenario& sc, const models::ClusterNetwork& net) {
  Platform p;
  auto* zone = sg4::create_full_zone("cluster");
  const double latency = sc.network.link_latency.value;
  const auto& fabric = net.fabric;
  const bool full = sc.simulation.fidelity == "full";
  const bool leaves_merge = !full && (sc.network.topology == "spine_leaf" || sc.network.topology == "rail_optimized");

  // Which job holds which nodes, leaf by leaf.
  struct Span {
    int job, group, leaf, first, count;
  };
  std::vector<Span> spans;
  std::map<int, std::set<int>> jobs_on_leaf;
  // Jobs take nodes in order of start time; a node frees when its job ends, so a schedule reuses it (the parser
  // checked that no instant needs more nodes than a group has). Lowest free nodes first keeps a job's nodes
  // together under few leaves.
  std::vector<std::vector<double>> free_from(sc.node_groups.size());
  for (size_t g = 0; g < sc.node_groups.size(); ++g)
    free_from[g].assign(sc.node_groups[g].count, 0.0);
  std::vector<int> order(sc.jobs.size());
  for (size_t j = 0; j < order.size(); ++j)
    order[j] = static_cast<int>(j);
  std::stable_sort(order.begin(), order.end(),
                   [&](int a, int b) { return sc.jobs[a].start.value < sc.jobs[b].start.value; });
  const double period = sc.simulation.duration.value;
  for (int j : order) {
    const auto& job = sc.jobs[j];
    int g = 0;
    while (sc.node_groups[g].name != job.node_group)
      ++g;
    const int want = job.gpus / sc.node_groups[g].gpus_per_node;
    std::vector<int> nodes;
    for (int n = 0; n < sc.node_groups[g].count && static_cast<int>(nodes.size()) < want; ++n)
      if (free_from[g][n] <= job.start.value)
        nodes.push_back(n);
    if (static_cast<int>(nodes.size()) < want) // a job after the simulated period: any nodes will do
      for (int n = static_cast<int>(nodes.size()); n < want; ++n)
        nodes.push_back(n);
    for (int n : nodes)
      free_from[g][n] = std::max(free_from[g][n], job.end_s(period));
    // Runs of consecutive nodes on one leaf become spans.
    for (size_t a = 0; a < nodes.size();) {
      const int leaf = fabric.leaf_of(net.node_endpoint(g, nodes[a]));
      size_t b = a + 1;
      while (!full && b < nodes.size() && nodes[b] == nodes[b - 1] + 1 &&
             fabric.leaf_of(net.node_endpoint(g, nodes[b])) == leaf)
        ++b;
      spans.push_back({j, g, leaf, nodes[a], static_cast<int>(b - a)});
      jobs_on_leaf[leaf].insert(j);
      a = b;
    }
  }
  // GPU node sets: one per node at fidelity "full"; at "aggregate" one per job and leaf, and one per class of
  // leaves that hold the same number of one job's nodes and nothing else (see LeafClass).
  std::vector<LeafClass> classes;
  for (const auto& sp : spans) {
    const bool exclusive = leaves_merge && jobs_on_leaf[sp.leaf].size() == 1;
    auto it = std::find_if(classes.begin(), classes.end(), [&](const LeafClass& c) {
      return exclusive && c.job == sp.job && c.nodes_per_leaf == sp.count && jobs_on_leaf[c.leaves.front()].size() == 1;
    });
    if (it == classes.end())
      it = classes.insert(classes.end(), LeafClass{sp.job, sp.group, sp.count, {}, {}});
    it->leaves.push_back(sp.leaf);
    it->first_nodes.push_back(sp.first);
  }

  p.node_sets_of_job.resize(sc.jobs.size());
  std::vector<sg4::Link*> nics;
  std::vector<const LeafClass*> class_of_set;
  std::set<std::string> set_names;
  for (const auto& c : classes) {
    const auto& group = sc.node_groups[c.group];
    NodeSet ns;
    ns.group = c.group;
    ns.job = c.job;
    ns.nodes = c.nodes_per_leaf * static_cast<int>(c.leaves.size());
    ns.gpus = ns.nodes * group.gpus_per_node;
    ns.name = group.name + "-" + std::to_string(c.first_nodes.front()) +
              (ns.nodes > 1 ? "-" + std::to_string(c.first_nodes.back() + c.nodes_per_leaf - 1) : "") +
              (c.leaves.size() > 1 ? "-x" + std::to_string(c.leaves.size()) + "-leaves" : "");
    // Jobs that follow each other on the same nodes get node sets of their own.
    if (!set_names.insert(ns.name).second) {
      ns.name += "-" + sc.jobs[c.job].name;
      set_names.insert(ns.name);
    }
    ns.host = zone->create_host(ns.name, 1e9);
    for (size_t s = 0; s < sc.storage.size(); ++s) {
      const auto& sys = sc.storage[s];
      if (sys.kind == "local_nvme" && sys.node_group == group.name)
        ns.local_disks[static_cast<int>(s)] = create_disks(ns.host, ns.name + "-" + sys.name, sc, static_cast<int>(s),
                                                           ns.nodes * sys.drives_per_node, full);
    }
    ns.host->seal();
    nics.push_back(zone->create_split_duplex_link(ns.name + "-nic", sc.storage_bandwidth(group).value * ns.nodes)
                       ->set_latency(latency)
                       ->seal());
    class_of_set.push_back(&c);
    p.node_sets_of_job[c.job].push_back(static_cast<int>(p.node_sets.size()));
    p.node_sets.push_back(ns);
  }

  // Converged network: a peer per node set for the collectives, across the set's NIC link in each direction.
  const bool collectives = sc.network.converged && std::any_of(sc.jobs.begin(), sc.jobs.end(), [](const auto& j) {
                             return j.allreduce_bytes_per_step.value > 0;
                           });
  for (size_t n = 0; collectives && n < p.node_sets.size(); ++n) {
    auto& ns = p.node_sets[n];
    ns.fabric_peer = zone->create_host(ns.name + "-fabric-peer", 1e9)->seal();
    zone->add_route(ns.host->get_netpoint(), ns.fabric_peer->get_netpoint(), nullptr, nullptr,
                    {sg4::LinkInRoute(nics[n], Dir::UP)}, false);
    zone->add_route(ns.fabric_peer->get_netpoint(), ns.host->get_netpoint(), nullptr, nullptr,
                    {sg4::LinkInRoute(nics[n], Dir::DOWN)}, false);
  }

  // Storage servers: a host with its drives as disks, its front end (NVMe-oF or client ports) as one link, and
  // an internal limit (PCIe switch, controller) as another when the system has one. At fidelity "aggregate" the
  // servers of one system on one leaf are one host with their links and drives summed: transfers stripe evenly,
  // so they carry equal shares anyway.
  p.servers_of_storage.resize(sc.storage.size());
  std::vector<sg4::Link*> front_ends, internals;
  std::vector<int> leaf_of_server;
  for (size_t s = 0; s < sc.storage.size(); ++s) {
    const auto& sys = sc.storage[s];
    for (int e = 0; e < sys.servers;) {
      const int leaf = fabric.leaf_of(net.enclosure_endpoint(static_cast<int>(s), e));
      int f = e + 1;
      // PFS servers stay apart: a checkpoint's few files may stripe over only some of them.
      while (!full && sys.kind != "pfs" && f < sys.servers &&
             fabric.leaf_of(net.enclosure_endpoint(static_cast<int>(s), f)) == leaf)
        ++f;
      const int k = f - e;
      StorageServer srv;
      srv.storage = static_cast<int>(s);
      srv.weight = k;
      const std::string name = sys.name + "-" + std::to_string(e) + (k > 1 ? "-" + std::to_string(f - 1) : "");
      srv.host = zone->create_host(name, 1e9);
      if (sys.drive)
        srv.disks = create_disks(srv.host, name, sc, static_cast<int>(s), sys.drives_per_server * k, full);
      srv.host->seal();
      front_ends.push_back(
          zone->create_split_duplex_link(name + "-front-end", sys.front_end.value * k)->set_latency(latency)->seal());
      // Outward (UP) carries reads, inward (DOWN) writes; array controllers' IOPS ceilings differ by direction.
      const auto read_limit = models::server_internal_limit(sc, static_cast<int>(s), models::IoOp::read);
      const auto write_limit = models::server_internal_limit(sc, static_cast<int>(s), models::IoOp::write);
      sg4::SplitDuplexLink* internal = nullptr;
      if (read_limit || write_limit) {
        internal = zone->create_split_duplex_link(name + "-internal", read_limit.value_or(*write_limit).value * k);
        internal->get_link_up()->set_bandwidth(read_limit.value_or(*write_limit).value * k);
        internal->get_link_down()->set_bandwidth(write_limit.value_or(*read_limit).value * k);
        internal->seal();
      }
      internals.push_back(internal);
      leaf_of_server.push_back(leaf);
      p.servers_of_storage[s].push_back(static_cast<int>(p.servers.size()));
      p.servers.push_back(srv);
      e = f;
    }
  }

  // Switch-level links (bundles of equal-cost cables, see models/fabric.hpp), and for each merged class of GPU
  // leaves one link standing for all their uplinks.
  std::vector<sg4::Link*> fabric_links;
  for (const auto& l : fabric.links())
    fabric_links.push_back(zone->create_split_duplex_link(l.name, l.capacity_Bps)->set_latency(latency)->seal());
  std::vector<sg4::Link*> class_uplinks(p.node_sets.size(), nullptr);
  for (size_t n = 0; n < p.node_sets.size(); ++n) {
    const auto* c = class_of_set[n];
    if (c->leaves.size() < 2)
      continue;
    double capacity = 0;
    for (int leaf : c->leaves)
      capacity += fabric.links()[fabric.uplink_of(leaf)].capacity_Bps;
    class_uplinks[n] =
        zone->create_split_duplex_link(p.node_sets[n].name + "-uplinks", capacity)->set_latency(latency)->seal();
  }
  // Fabric hops from a leaf to another; a merged class crosses its own uplink link instead of its first leaf's.
  auto hops = [&](int from_leaf, int to_leaf, sg4::Link* merged_first, sg4::Link* merged_last) {
    std::vector<sg4::LinkInRoute> out;
    const auto route = fabric.route(from_leaf, to_leaf);
    for (size_t i = 0; i < route.size(); ++i) {
      sg4::Link* link = fabric_links[route[i].link];
      if (i == 0 && merged_first)
        link = merged_first;
      if (i + 1 == route.size() && merged_last)
        link = merged_last;
      out.emplace_back(link, route[i].up ? Dir::UP : Dir::DOWN);
    }
    return out;
  };
  auto outward = [&](int server) {
    std::vector<sg4::LinkInRoute> out;
    if (internals[server])
      out.emplace_back(internals[server], Dir::UP);
    out.emplace_back(front_ends[server], Dir::UP);
    return out;
  };
  auto inward = [&](std::vector<sg4::LinkInRoute>& route, int server) {
    route.emplace_back(front_ends[server], Dir::DOWN);
    if (internals[server])
      route.emplace_back(internals[server], Dir::DOWN);
  };

  // Every node set reaches every server; the way back mirrors the way there. Towards an object store a node set
  // also crosses its connection pool: a bounded number of connections, each paying the request latency once per
  // object (StorageSystem::object_node_rate).
  for (size_t n = 0; n < p.node_sets.size(); ++n) {
    const int leaf = class_of_set[n]->leaves.front();
    std::map<int, sg4::Link*> pools;
    for (size_t s = 0; s < sc.storage.size(); ++s)
      if (sc.storage[s].kind == "object")
        pools[static_cast<int>(s)] =
            zone->create_split_duplex_link(p.node_sets[n].name + "-" + sc.storage[s].name + "-connections",
                                           sc.storage[s].object_node_rate().value * p.node_sets[n].nodes)
                ->seal();
    for (size_t e = 0; e < p.servers.size(); ++e) {
      const int srv = static_cast<int>(e);
      auto* pool = pools.count(p.servers[e].storage) ? pools[p.servers[e].storage] : nullptr;
      std::vector<sg4::LinkInRoute> there{sg4::LinkInRoute(nics[n], Dir::UP)};
      if (pool)
        there.emplace_back(pool, Dir::UP);
      for (const auto& h : hops(leaf, leaf_of_server[e], class_uplinks[n], nullptr))
        there.push_back(h);
      inward(there, srv);
      auto back = outward(srv);
      for (const auto& h : hops(leaf_of_server[e], leaf, nullptr, class_uplinks[n]))
        back.push_back(h);
      if (pool)
        back.emplace_back(pool, Dir::DOWN);
      back.emplace_back(nics[n], Dir::DOWN);
      zone->add_route(p.node_sets[n].host->get_netpoint(), p.servers[e].host->get_netpoint(), nullptr, nullptr, there,
                      false);
      zone->add_route(p.servers[e].host->get_netpoint(), p.node_sets[n].host->get_netpoint(), nullptr, nullptr, back,
                      false);
    }
  }
  p.metadata_host.assign(sc.storage.size(), nullptr);
  for (size_t s = 0; s < sc.storage.size(); ++s) {
    const auto& sys = sc.storage[s];
    if (sys.kind == "pfs")
      p.metadata_host[s] =
          zone->create_host(sys.name + "-metadata", sys.metadata_servers * sys.metadata_ops_per_server.value)->seal();
  }

  // System-to-system copies (replication, and the policies' staging, archiving and promotion): every server of
  // the source reaches every server of the target.
  for (const auto& [s, t] : copy_routes(sc))
    for (int a : p.servers_of_storage[s])
      for (int b : p.servers_of_storage[t]) {
        auto route = outward(a);
        for (const auto& h : hops(leaf_of_server[a], leaf_of_server[b], nullptr, nullptr))
          route.push_back(h);
        inward(route, b);
        zone->add_route(p.servers[a].host->get_netpoint(), p.servers[b].host->get_netpoint(), nullptr, nullptr, route,
                        false);
      }
  zone->seal();
  return p;
}

} // namespace aisim::sim
