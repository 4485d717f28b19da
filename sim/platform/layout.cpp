#include "sim/platform/layout.hpp"

#include <algorithm>
#include <array>
#include <map>

namespace aisim::sim {

namespace {

// The nodes of group `g` that `job` takes: the lowest ones free at its start.
std::vector<int> take_nodes(const models::Scenario& sc, const models::TrainingJob& job, int g,
                            std::vector<double>& free_from) {
  const int want = job.gpus / sc.node_groups[g].gpus_per_node;
  std::vector<int> nodes;
  for (int n = 0; n < sc.node_groups[g].count && static_cast<int>(nodes.size()) < want; ++n)
    if (free_from[n] <= job.start.value)
      nodes.push_back(n);
  if (static_cast<int>(nodes.size()) < want) // a job after the simulated period: any nodes will do
    for (int n = static_cast<int>(nodes.size()); n < want; ++n)
      nodes.push_back(n);
  for (int n : nodes)
    free_from[n] = std::max(free_from[n], job.end_s(sc.simulation.duration.value));
  return nodes;
}

// Where a job's node list must break between spans: an inference fleet's cold start loads only the nodes of the
// replicas it adds (those after the ones already serving), so every replica count its scale events reach starts
// or ends a span, and no set lends a cold start the links of nodes it does not load. A count that ends mid-node
// cuts both sides of that node.
std::set<int> span_cuts(const models::Scenario& sc, const models::TrainingJob& job, int g) {
  std::set<int> cuts;
  if (job.kind != "inference")
    return cuts;
  const int per_node = sc.node_groups[g].gpus_per_node;
  for (const auto& step : job.inference.scale) {
    const int gpus = step.replicas * job.inference.gpus_per_replica;
    cuts.insert(gpus / per_node);
    cuts.insert((gpus + per_node - 1) / per_node);
  }
  return cuts;
}

} // namespace

std::vector<NodeSpan> place_jobs(const models::Scenario& sc, const models::ClusterNetwork& net) {
  // The parser checked that no instant needs more nodes than a group has.
  std::vector<std::vector<double>> free_from(sc.node_groups.size());
  for (size_t g = 0; g < sc.node_groups.size(); ++g)
    free_from[g].assign(sc.node_groups[g].count, 0.0);
  std::vector<int> order(sc.jobs.size());
  for (size_t j = 0; j < order.size(); ++j)
    order[j] = static_cast<int>(j);
  std::stable_sort(order.begin(), order.end(),
                   [&](int a, int b) { return sc.jobs[a].start.value < sc.jobs[b].start.value; });
  std::vector<NodeSpan> spans;
  for (int j : order) {
    const int g = static_cast<int>(sc.find_node_group(sc.jobs[j].node_group) - sc.node_groups.data());
    const std::vector<int> nodes = take_nodes(sc, sc.jobs[j], g, free_from[g]);
    const std::set<int> cuts = span_cuts(sc, sc.jobs[j], g);
    for (size_t a = 0; a < nodes.size();) {
      const int leaf = net.fabric.leaf_of(net.node_endpoint(g, nodes[a]));
      size_t b = a + 1;
      while (b < nodes.size() && nodes[b] == nodes[b - 1] + 1 &&
             net.fabric.leaf_of(net.node_endpoint(g, nodes[b])) == leaf && !cuts.count(static_cast<int>(b)))
        ++b;
      const auto band = std::distance(cuts.begin(), cuts.upper_bound(static_cast<int>(a)));
      spans.push_back({j, g, leaf, nodes[a], static_cast<int>(b - a), static_cast<int>(band)});
      a = b;
    }
  }
  return spans;
}

std::vector<NodeSetLayout> layout_node_sets(const models::Scenario& sc, const std::vector<NodeSpan>& spans,
                                            bool leaves_merge) {
  // A leaf's spans as (job, band, nodes), in span order: leaves with the same list carry the same load throughout.
  using Part = std::array<int, 3>;
  std::map<int, std::vector<Part>> parts_on_leaf;
  std::vector<int> nth(spans.size()); // the span's place among equal parts on its leaf
  for (size_t i = 0; i < spans.size(); ++i) {
    const auto& sp = spans[i];
    auto& parts = parts_on_leaf[sp.leaf];
    const Part part{sp.job, sp.band, sp.count};
    nth[i] = static_cast<int>(std::count(parts.begin(), parts.end(), part));
    parts.push_back(part);
  }
  // Leaves with the same list are one class; each list is looked up once per leaf, not once per span.
  std::map<std::vector<Part>, int> classes;
  std::map<int, int> class_of_leaf;
  for (const auto& [leaf, parts] : parts_on_leaf)
    class_of_leaf[leaf] = classes.emplace(parts, static_cast<int>(classes.size())).first->second;
  // (leaf class, job, band, nodes, which of equal parts) -> set
  std::map<std::array<int, 5>, size_t> set_of;
  std::vector<NodeSetLayout> sets;
  for (size_t i = 0; i < spans.size(); ++i) {
    const auto& sp = spans[i];
    if (!leaves_merge) {
      sets.push_back(
          NodeSetLayout{"", sp.job, sp.group, sp.count, sp.band, static_cast<int>(sets.size()), {sp.leaf}, {sp.first}});
      continue;
    }
    const int cls = class_of_leaf[sp.leaf];
    // Each set holds each of its leaves once: a job with two equal spans on a leaf has two sets there.
    auto [it, added] = set_of.emplace(std::array<int, 5>{cls, sp.job, sp.band, sp.count, nth[i]}, sets.size());
    if (added)
      sets.push_back(NodeSetLayout{"", sp.job, sp.group, sp.count, sp.band, cls, {}, {}});
    sets[it->second].leaves.push_back(sp.leaf);
    sets[it->second].first_nodes.push_back(sp.first);
  }
  std::set<std::string> names;
  for (auto& c : sets) {
    const int nodes = c.nodes();
    c.name = sc.node_groups[c.group].name + "-" + std::to_string(c.first_nodes.front()) +
             (nodes > 1 ? "-" + std::to_string(c.first_nodes.back() + c.nodes_per_leaf - 1) : "") +
             (c.leaves.size() > 1 ? "-x" + std::to_string(c.leaves.size()) + "-leaves" : "");
    if (!names.insert(c.name).second) {
      c.name += "-" + sc.jobs[c.job].name;
      names.insert(c.name);
    }
  }
  return sets;
}

std::vector<ServerLayout> layout_storage_servers(const models::Scenario& sc, const models::ClusterNetwork& net,
                                                 bool full) {
  std::vector<ServerLayout> out;
  for (size_t s = 0; s < sc.storage.size(); ++s) {
    const auto& sys = sc.storage[s];
    const int storage = static_cast<int>(s);
    const bool merge = sys.kind != "pfs" && !(full && sc.storage_can_fail(storage));
    for (int e = 0; e < sys.servers;) {
      const int leaf = net.fabric.leaf_of(net.enclosure_endpoint(storage, e));
      int f = e + 1;
      while (merge && f < sys.servers && net.fabric.leaf_of(net.enclosure_endpoint(storage, f)) == leaf)
        ++f;
      const std::string name = sys.name + "-" + std::to_string(e) + (f - e > 1 ? "-" + std::to_string(f - 1) : "");
      out.push_back({name, storage, e, f - e, leaf});
      e = f;
    }
  }
  return out;
}

} // namespace aisim::sim
