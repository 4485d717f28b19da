#include "models/hardware/fabric.hpp"

#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/push_relabel_max_flow.hpp>

#include <algorithm>
#include <cmath>
#include <limits>

namespace aisim::models {

namespace {

using Traits = boost::adjacency_list_traits<boost::vecS, boost::vecS, boost::directedS>;
using Capacity = long long;
using Graph = boost::adjacency_list<
    boost::vecS, boost::vecS, boost::directedS, boost::no_property,
    boost::property<boost::edge_capacity_t, Capacity,
                    boost::property<boost::edge_residual_capacity_t, Capacity,
                                    boost::property<boost::edge_reverse_t, Traits::edge_descriptor>>>>;
using Vertex = int;

// Switches and cables with capacities in bytes per second (infinity: a cable that never binds), solved by
// push-relabel on integers. On doubles, Boost's check that the answer conserves flow exactly at every switch fails
// by rounding (a debug build aborted three validation cases on it). Unlimited arcs get one more than all finite
// ones together (no flow can use more unless a path of unlimited arcs joins source and sink: then the flow is
// infinite), and every capacity is scaled so that all of them together fit in 62 bits (no excess at a switch can
// overflow; a power of two, so whole bytes per second stay exact): a link is exact to about one part in
// 2^61 / (2 x arcs + 1) of the fabric's total, better than a part per million of a 1 GB/s link in a 100,000-link
// fabric.
class FlowNetwork {
public:
  Vertex vertex() { return vertices_++; }
  void arc(Vertex a, Vertex b, double cap) { arcs_.push_back({a, b, std::max(0.0, cap)}); }
  // A full-duplex cable: the given capacity in each direction.
  void cable(Vertex a, Vertex b, double cap) {
    arc(a, b, cap);
    arc(b, a, cap);
  }
  double max_flow(Vertex source, Vertex sink) const {
    double finite = 0;
    size_t unlimited = 0;
    for (const auto& a : arcs_)
      std::isfinite(a.cap) ? finite += a.cap : ++unlimited;
    const double big = finite + 1;
    // A power of two, so that scaling is exact: capacities in whole bytes per second give exactly the answer the
    // solver on doubles gave.
    const double scale =
        std::ldexp(1.0, std::ilogb(std::ldexp(1.0, 62) / (finite + static_cast<double>(unlimited) * big)));
    Graph g(static_cast<size_t>(vertices_));
    auto capacity = boost::get(boost::edge_capacity, g);
    auto reverse = boost::get(boost::edge_reverse, g);
    for (const auto& a : arcs_) {
      // The directed edge and the zero-capacity twin push-relabel needs.
      auto e = boost::add_edge(static_cast<size_t>(a.from), static_cast<size_t>(a.to), g).first;
      auto r = boost::add_edge(static_cast<size_t>(a.to), static_cast<size_t>(a.from), g).first;
      capacity[e] = static_cast<Capacity>((std::isfinite(a.cap) ? a.cap : big) * scale);
      capacity[r] = 0;
      reverse[e] = r;
      reverse[r] = e;
    }
    const double flow =
        static_cast<double>(boost::push_relabel_max_flow(g, static_cast<size_t>(source), static_cast<size_t>(sink))) /
        scale;
    return flow > finite * (1 + 1e-9) ? std::numeric_limits<double>::infinity() : flow;
  }

private:
  struct Arc {
    Vertex from, to;
    double cap;
  };
  std::vector<Arc> arcs_;
  Vertex vertices_ = 0;
};

bool is_leafy(const std::string& topology) { return topology == "spine_leaf" || topology == "rail_optimized"; }

} // namespace

std::optional<long long> endpoint_limit(const NetworkSpec& spec) {
  if (spec.topology == "fat_tree")
    return static_cast<long long>(spec.k) * spec.k * spec.k / 4;
  return std::nullopt;
}

Fabric::Fabric(const NetworkSpec& spec, std::vector<FabricEndpoint> endpoints)
    : spec_(spec), endpoints_(std::move(endpoints)), leaf_of_(endpoints_.size(), 0) {
  const auto n = static_cast<int>(endpoints_.size());
  if (spec_.topology == "fat_tree") {
    const int half = spec_.k / 2;
    const int edges = spec_.k * half;
    for (int i = 0; i < n; ++i)
      leaf_of_[i] = i / half;
    leaf_down_Bps_.assign(edges, 0);
    for (int e = 0; e < edges; ++e) {
      leaf_pod_.push_back(e / half);
      leaf_uplink_.push_back(static_cast<int>(links_.size()));
      links_.push_back({"edge" + std::to_string(e) + "-uplinks", half * spec_.link_speed.value});
    }
    for (int p = 0; p < spec_.k; ++p) {
      pod_uplink_.push_back(static_cast<int>(links_.size()));
      links_.push_back({"pod" + std::to_string(p) + "-uplinks", half * half * spec_.link_speed.value});
    }
  } else if (is_leafy(spec_.topology)) {
    // GPU nodes fill GPU leaves, then storage fills storage leaves of its own.
    int gpu_seen = 0, storage_seen = 0;
    for (const auto& e : endpoints_)
      (e.kind == EndpointKind::gpu_node ? gpu_seen : storage_seen)++;
    const int gpu_leaves = (gpu_seen + spec_.nodes_per_leaf - 1) / spec_.nodes_per_leaf;
    const int storage_leaves = (storage_seen + spec_.enclosures_per_leaf - 1) / spec_.enclosures_per_leaf;
    leaf_down_Bps_.assign(gpu_leaves + storage_leaves, 0);
    int gi = 0, si = 0;
    for (int i = 0; i < n; ++i) {
      const bool gpu = endpoints_[i].kind == EndpointKind::gpu_node;
      leaf_of_[i] = gpu ? gi++ / spec_.nodes_per_leaf : gpu_leaves + si++ / spec_.enclosures_per_leaf;
    }
    for (int i = 0; i < n; ++i)
      leaf_down_Bps_[leaf_of_[i]] += endpoints_[i].bandwidth.value;
    for (int l = 0; l < gpu_leaves + storage_leaves; ++l) {
      leaf_uplink_.push_back(static_cast<int>(links_.size()));
      const std::string kind =
          l < gpu_leaves ? (spec_.topology == "rail_optimized" ? "railgroup" : "leaf") : "storageleaf";
      links_.push_back({kind + std::to_string(l) + "-uplinks", leaf_down_Bps_[l] / spec_.oversubscription});
    }
  } else { // single_switch: one non-blocking switch, nothing but the endpoints' own links
    leaf_uplink_.push_back(-1);
    leaf_down_Bps_.assign(1, 0);
  }
}

SwitchInventory Fabric::inventory() const {
  SwitchInventory inv;
  long long endpoint_ports = 0;
  for (const auto& e : endpoints_)
    endpoint_ports += e.ports;
  if (spec_.topology == "fat_tree") {
    // Each endpoint takes one edge port; every edge switch in use has k/2 uplinks to its pod's aggregation
    // switches, and with more than one pod every aggregation switch has k/2 uplinks to the core.
    const long long half = spec_.k / 2;
    const long long n = static_cast<long long>(endpoints_.size());
    const long long edges = (n + half - 1) / half;
    const long long pods = (edges + half - 1) / half;
    const bool core = pods > 1;
    inv.switches = static_cast<int>(edges + pods * half + (core ? half * half : 0));
    inv.ports = n + edges * half * 2 + (core ? pods * half * half * 2 : 0);
    return inv;
  }
  if (!is_leafy(spec_.topology)) {
    inv.switches = 1;
    inv.ports = endpoint_ports;
    return inv;
  }
  const int leaves = leaf_count();
  std::vector<long long> down(leaves, 0);
  std::vector<int> rails(leaves, 1);
  for (size_t i = 0; i < endpoints_.size(); ++i) {
    down[leaf_of_[i]] += endpoints_[i].ports;
    // A rail group is one switch per rail: node NIC r on rail switch r.
    if (spec_.topology == "rail_optimized" && endpoints_[i].kind == EndpointKind::gpu_node)
      rails[leaf_of_[i]] = std::max(rails[leaf_of_[i]], endpoints_[i].ports);
  }
  inv.switches = spec_.spines;
  for (int l = 0; l < leaves; ++l) {
    const auto up = static_cast<long long>(std::ceil(down[l] / spec_.oversubscription));
    inv.switches += rails[l];
    inv.ports += down[l] + 2 * up; // the leaf's own ports and, for each uplink, one on a spine
  }
  return inv;
}

std::vector<Hop> Fabric::route(int a, int b) const {
  if (a == b)
    return {};
  std::vector<Hop> hops{{leaf_uplink_[a], true}};
  if (spec_.topology == "fat_tree" && leaf_pod_[a] != leaf_pod_[b]) {
    hops.push_back({pod_uplink_[leaf_pod_[a]], true});
    hops.push_back({pod_uplink_[leaf_pod_[b]], false});
  }
  hops.push_back({leaf_uplink_[b], false});
  return hops;
}

double Fabric::max_flow_Bps(const std::vector<std::pair<int, double>>& sources, const std::vector<int>& sinks,
                            bool switches_only) const {
  // An endpoint cable that never binds.
  constexpr double kUnlimited = std::numeric_limits<double>::infinity();
  const auto endpoint_Bps = [&](size_t i) { return switches_only ? kUnlimited : endpoints_[i].bandwidth.value; };
  FlowNetwork g;
  const auto n = endpoints_.size();
  auto vertex = [&g]() { return g.vertex(); };
  const Vertex source = vertex(), sink = vertex();
  std::vector<Vertex> ep(n);
  for (auto& v : ep)
    v = vertex();

  const int leaves = leaf_count();
  if (spec_.topology == "fat_tree") {
    const int half = spec_.k / 2;
    std::vector<Vertex> edge(leaves), agg(spec_.k * half), core(half * half);
    for (auto& v : edge)
      v = vertex();
    for (auto& v : agg)
      v = vertex();
    for (auto& v : core)
      v = vertex();
    const double c = spec_.link_speed.value;
    for (int e = 0; e < leaves; ++e)
      for (int a = 0; a < half; ++a)
        g.cable(edge[e], agg[leaf_pod_[e] * half + a], c);
    for (int p = 0; p < spec_.k; ++p)
      for (int a = 0; a < half; ++a)
        for (int j = 0; j < half; ++j)
          g.cable(agg[p * half + a], core[a * half + j], c);
    for (size_t i = 0; i < n; ++i)
      g.cable(ep[i], edge[leaf_of_[i]], endpoint_Bps(i));
  } else if (is_leafy(spec_.topology)) {
    std::vector<Vertex> spine(spec_.spines);
    for (auto& v : spine)
      v = vertex();
    // Each leaf's endpoints, found once: scanning every endpoint per leaf made 100,000 nodes take 8 s and a million
    // ten minutes.
    std::vector<std::vector<size_t>> on_leaf(leaves);
    for (size_t i = 0; i < n; ++i)
      on_leaf[leaf_of_[i]].push_back(i);
    for (int l = 0; l < leaves; ++l) {
      // rail_optimized: a GPU rail group is one switch per rail, node NIC r on rail switch r; storage leaves and
      // spine_leaf leaves are single switches.
      int rails = 1;
      for (const size_t i : on_leaf[l])
        if (spec_.topology == "rail_optimized" && endpoints_[i].kind == EndpointKind::gpu_node)
          rails = std::max(rails, endpoints_[i].ports);
      std::vector<Vertex> sw(rails);
      for (auto& v : sw)
        v = vertex();
      for (const size_t i : on_leaf[l]) {
        const int p = rails > 1 ? endpoints_[i].ports : 1;
        for (int r = 0; r < p; ++r)
          g.cable(ep[i], sw[r % rails], endpoint_Bps(i) / p);
      }
      const double up = leaf_down_Bps_[l] / spec_.oversubscription / (rails * spec_.spines);
      for (int r = 0; r < rails; ++r)
        for (int s = 0; s < spec_.spines; ++s)
          g.cable(sw[r], spine[s], up);
    }
  } else {
    const Vertex sw = vertex();
    for (size_t i = 0; i < n; ++i)
      g.cable(ep[i], sw, endpoint_Bps(i));
  }

  double total_source = 0;
  for (const auto& [e, cap] : sources) {
    const double c = std::min(cap, kUnlimited);
    g.arc(source, ep[e], c);
    total_source += c;
  }
  for (int e : sinks)
    g.arc(ep[e], sink, total_source + 1.0); // never the bottleneck
  return g.max_flow(source, sink);          // infinite only with switches_only, when no switch stands between them
}

} // namespace aisim::models
