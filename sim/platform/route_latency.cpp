#include "sim/platform/route_latency.hpp"

#include <vector>

namespace aisim::sim {

int RouteLatency::hops(const simgrid::s4u::Host* from, const simgrid::s4u::Host* to) const {
  auto [it, added] = hops_.try_emplace({from, to}, 0);
  if (added) {
    std::vector<simgrid::s4u::Link*> links;
    from->route_to(to, links, nullptr);
    for (const auto* l : links)
      it->second += latency_links_.contains(l) ? 1 : 0;
  }
  return it->second;
}

RouteLatency::Route RouteLatency::route(const simgrid::s4u::Host* from, const simgrid::s4u::Host* to) const {
  const int h = hops(from, to);
  return {h * link_latency_s_, link_latency_s_ > 0 && h > 0 ? h : 1.0};
}

} // namespace aisim::sim
