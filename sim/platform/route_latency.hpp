// What a flow pays before its first byte moves, and its share where flows contend. The platform's SimGrid links
// carry no latency: CM02 would otherwise share a flow by its route latency (its sharing penalty), whose inverse is
// about 10^6 per second of latency, and thousands of such terms summed and taken back one by one in SimGrid's
// max-min solver leave a residual above its absolute precision (10^-5): a link that looks used with no flow on it,
// and SimGrid 3.32 crashes reporting it (sim/engine/README.md, "The solver crash"). The engine pays the latency
// itself (sim/engine/flows.hpp) and hands the solver penalties of order 1.
#pragma once

#include <simgrid/s4u/Host.hpp>
#include <simgrid/s4u/Link.hpp>

#include <cstdint>
#include <functional>
#include <unordered_map>
#include <unordered_set>
#include <utility>

namespace aisim::sim {

class RouteLatency {
public:
  explicit RouteLatency(double link_latency_s = 0) : link_latency_s_(link_latency_s) {}

  // A link whose latency flows pay (both directions of a split-duplex link are added by the caller).
  void add_link(const simgrid::s4u::Link* link) { latency_links_.insert(link); }

  // How many latency-bearing links the route from `from` to `to` crosses (looked up once per pair).
  int hops(const simgrid::s4u::Host* from, const simgrid::s4u::Host* to) const;
  struct Route {
    double latency_s; // hops x the scenario's link latency
    // CM02's sharing penalty for one flow on the route, divided by the latency of one link, so that it is of order 1
    // (max-min shares are the same when every penalty is scaled alike): the hop count, or 1 where flows pay no
    // latency (CM02 then shares every flow with penalty 1).
    double penalty;
  };
  // What a flow from `from` to `to` pays before its first byte, and its share where flows contend.
  Route route(const simgrid::s4u::Host* from, const simgrid::s4u::Host* to) const;
  double link_latency_s() const { return link_latency_s_; }

private:
  double link_latency_s_;
  std::unordered_set<const simgrid::s4u::Link*> latency_links_;
  using Pair = std::pair<const simgrid::s4u::Host*, const simgrid::s4u::Host*>;
  struct PairHash {
    size_t operator()(const Pair& p) const {
      return std::hash<const void*>()(p.first) * 0x9e3779b97f4a7c15ULL ^ std::hash<const void*>()(p.second);
    }
  };
  mutable std::unordered_map<Pair, int, PairHash> hops_;
};

} // namespace aisim::sim
