#include "sim/engine/file_ops.hpp"

#include <simgrid/s4u/Actor.hpp>
#include <simgrid/s4u/Host.hpp>

namespace aisim::sim {

namespace sg4 = simgrid::s4u;

std::vector<sg4::ExecPtr> start_metadata_ops(const Platform& platform, int storage, const std::vector<Flow>& flows,
                                             double ops, Metrics& metrics) {
  std::vector<sg4::ExecPtr> out;
  if (!(ops > 0))
    return out;
  auto start = [&](sg4::Host* host, double n) {
    out.push_back(sg4::this_actor::exec_init(n)->set_host(host));
    out.back()->start();
  };
  if (auto* shared = platform.metadata_host[storage]) {
    start(shared, ops);
  } else if (const auto& own = platform.node_metadata_host[storage]; !own.empty()) {
    double bytes = 0;
    for (const auto& f : flows)
      bytes += f.bytes;
    for (const auto& f : flows)
      if (f.bytes > 0)
        start(own.at(static_cast<size_t>(f.node_set)), ops * f.bytes / bytes);
  }
  metrics.activities += out.size();
  return out;
}

} // namespace aisim::sim
