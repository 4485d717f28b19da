#include "sim/engine/file_ops.hpp"

#include <simgrid/s4u/Actor.hpp>
#include <simgrid/s4u/Host.hpp>

namespace aisim::sim {

namespace sg4 = simgrid::s4u;

std::vector<sg4::ExecPtr> start_file_costs(const models::Scenario& sc, const Platform& platform, int storage,
                                           const std::vector<Flow>& flows, IoDirection direction, const FileCost& cost,
                                           Metrics& metrics) {
  std::vector<sg4::ExecPtr> out;
  auto start = [&](sg4::Host* host, double n) {
    if (!(n > 0))
      return;
    out.push_back(sg4::this_actor::exec_init(n)->set_host(host));
    out.back()->start();
  };
  double bytes = 0;
  for (const auto& f : flows)
    bytes += f.bytes;
  const double ops = cost.files * cost.ops_per_file;
  if (auto* shared = platform.metadata_host[storage]) {
    start(shared, ops);
  } else if (const auto& own = platform.node_metadata_host[storage]; !own.empty()) {
    for (const auto& f : flows)
      if (f.bytes > 0)
        start(own.at(static_cast<size_t>(f.node_set)), ops * f.bytes / bytes);
  } else if (auto* requests = platform.request_host[storage][direction == IoDirection::write ? 1 : 0]) {
    start(requests, sc.storage[storage].object_requests(bytes, cost.files));
  }
  metrics.activities += out.size();
  return out;
}

std::vector<sg4::ExecPtr> open_files(const models::Scenario& sc, const Platform& platform, int storage,
                                     const std::vector<Flow>& flows, IoDirection direction, const FileCost& cost,
                                     Metrics& metrics) {
  auto requests = start_file_costs(sc, platform, storage, flows, direction, cost, metrics);
  if (sc.storage[storage].kind == "object")
    return requests;
  for (auto& op : requests)
    op->wait();
  return {};
}

} // namespace aisim::sim
