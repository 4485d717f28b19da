#include "sim/platform/builder.hpp"

#include "models/cluster/wire.hpp"

#include <map>
#include <set>

namespace aisim::sim {

namespace sg4 = simgrid::s4u;
using Dir = sg4::LinkInRoute::Direction;

// Switch-level links are bundles of equal-cost cables (models/hardware/fabric.hpp). A merged class of GPU leaves
// gets one link standing for all their uplinks, shared by every node set on those leaves (named after the first).
void PlatformBuilder::add_fabric_links() {
  for (const auto& l : net_.fabric.links())
    fabric_links_.push_back(create_link(l.name, l.capacity_Bps)->seal());
  class_uplinks_.assign(p_.node_sets.size(), nullptr);
  std::map<int, sg4::Link*> by_class;
  for (size_t n = 0; n < p_.node_sets.size(); ++n) {
    const auto& c = set_layout_[n];
    if (c.leaves.size() < 2)
      continue;
    auto& link = by_class[c.leaf_class];
    if (!link) {
      double capacity = 0;
      for (int leaf : c.leaves)
        capacity += net_.fabric.links()[net_.fabric.uplink_of(leaf)].capacity_Bps;
      link = create_link(p_.node_sets[n].name + "-uplinks", capacity)->seal();
    }
    class_uplinks_[n] = link;
  }
}

PlatformBuilder::Route PlatformBuilder::hops(int from_leaf, int to_leaf, sg4::Link* merged_first,
                                             sg4::Link* merged_last) const {
  Route out;
  const auto route = net_.fabric.route(from_leaf, to_leaf);
  for (size_t i = 0; i < route.size(); ++i) {
    sg4::Link* link = fabric_links_[route[i].link];
    if (i == 0 && merged_first)
      link = merged_first;
    if (i + 1 == route.size() && merged_last)
      link = merged_last;
    out.emplace_back(link, route[i].up ? Dir::UP : Dir::DOWN);
  }
  return out;
}

PlatformBuilder::Route PlatformBuilder::outward(int server) const {
  Route out;
  if (internals_[server])
    out.emplace_back(internals_[server], Dir::UP);
  out.emplace_back(front_ends_[server], Dir::UP);
  return out;
}

void PlatformBuilder::inward(Route& route, int server) const {
  route.emplace_back(front_ends_[server], Dir::DOWN);
  if (internals_[server])
    route.emplace_back(internals_[server], Dir::DOWN);
}

// Every node set reaches every server; the way back mirrors the way there. Towards a system whose client limits
// a node a node set also crosses its client link: over TCP a bounded number of connections, each received by a
// core (towards an object store each paying the request latency once per object), and a client that reaches only
// a share of the NICs (Lustre's): models::client_node_rate.
void PlatformBuilder::add_node_routes() {
  for (size_t n = 0; n < p_.node_sets.size(); ++n) {
    const auto& ns = p_.node_sets[n];
    const int leaf = set_layout_[n].leaves.front();
    std::map<int, sg4::Link*> pools;
    const auto& group = sc_.node_groups[ns.group];
    for (size_t s = 0; s < sc_.storage.size(); ++s)
      if (const double pool = models::client_node_rate(sc_, group, sc_.storage[s]).value; pool > 0)
        pools[static_cast<int>(s)] =
            create_link(ns.name + "-" + sc_.storage[s].name + "-client", pool * ns.nodes, false)->seal();
    for (size_t e = 0; e < p_.servers.size(); ++e) {
      const int srv = static_cast<int>(e);
      const int server_leaf = server_layout_[e].leaf;
      auto* pool = pools.count(p_.servers[e].storage) ? pools[p_.servers[e].storage] : nullptr;
      Route there{sg4::LinkInRoute(nics_[n], Dir::UP)};
      if (host_paths_[n])
        there.emplace_back(host_paths_[n], Dir::UP);
      if (pool)
        there.emplace_back(pool, Dir::UP);
      for (const auto& h : hops(leaf, server_leaf, class_uplinks_[n], nullptr))
        there.push_back(h);
      inward(there, srv);
      Route back = outward(srv);
      for (const auto& h : hops(server_leaf, leaf, nullptr, class_uplinks_[n]))
        back.push_back(h);
      if (pool)
        back.emplace_back(pool, Dir::DOWN);
      if (host_paths_[n])
        back.emplace_back(host_paths_[n], Dir::DOWN);
      back.emplace_back(nics_[n], Dir::DOWN);
      add_route(ns.host, p_.servers[e].host, there);
      add_route(p_.servers[e].host, ns.host, back);
    }
  }
}

// Replication and the policies' staging, archiving and promotion: every server of the source reaches every server
// of the target. Within a system that protects data across its servers and can fail, rebuilds read from the
// servers of a stripe group and write to the one rebuilt.
void PlatformBuilder::add_copy_routes() {
  const auto policy = models::copy_routes(sc_);
  std::set<size_t> rebuilt; // systems whose rebuilds copy between their own servers
  auto routes = policy;
  for (size_t s = 0; s < sc_.storage.size(); ++s) {
    const auto& sys = sc_.storage[s];
    if (sc_.storage_can_fail(static_cast<int>(s)) && sys.protection.parity > 0 &&
        (sys.kind == "jbof" || sys.kind == "pfs")) {
      rebuilt.insert(s);
      routes.emplace(s, s);
    }
  }
  for (const auto& [s, t] : routes) {
    // A policy's copy within a system (Transfer::replicate) is each server copying its own share through itself;
    // only rebuilds copy between two servers of one system.
    const bool copies_within = s == t && policy.count({s, t}) > 0;
    const bool rebuilds = s == t && rebuilt.count(s) > 0;
    for (int a : p_.servers_of_storage[s])
      for (int b : p_.servers_of_storage[t]) {
        if (a != b) {
          if (s == t && !rebuilds)
            continue;
          Route route = outward(a);
          for (const auto& h : hops(server_layout_[a].leaf, server_layout_[b].leaf, nullptr, nullptr))
            route.push_back(h);
          inward(route, b);
          add_route(p_.servers[a].host, p_.servers[b].host, route);
          continue;
        }
        // From a server to itself: an array's controllers copy behind their front-end ports (through their
        // internal limit both ways); any other server sends a copy out of its ports and back in (a JBOF through a
        // host, a file or object server through its network). Servers merged into one host (fidelity aggregate)
        // rebuild one another the same way, through their ports (the rebuild caps such a copy at one server's
        // share).
        if (s != t || !(copies_within || (rebuilds && p_.servers[a].weight > 1)))
          continue;
        Route route;
        if (sc_.storage[s].kind == "array" && copies_within) {
          if (internals_[a])
            route = {sg4::LinkInRoute(internals_[a], Dir::UP), sg4::LinkInRoute(internals_[a], Dir::DOWN)};
        } else {
          route = outward(a);
          inward(route, a);
        }
        if (route.empty())
          continue;
        add_route(p_.servers[a].host, p_.servers[a].host, route);
        p_.servers[a].copies_within = copies_within;
      }
  }
}

} // namespace aisim::sim
