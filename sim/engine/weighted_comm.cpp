#include "sim/engine/weighted_comm.hpp"

#include <simgrid/kernel/resource/Action.hpp>
#include <simgrid/kernel/resource/Model.hpp>
#include <simgrid/s4u/Engine.hpp>
#include <simgrid/s4u/Link.hpp>

#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

namespace aisim::sim {

namespace sg4 = simgrid::s4u;
namespace res = simgrid::kernel::resource;

namespace {

// The engine's network model. Looked up every time: a process may run several engines in turn, and a new one can
// sit at the address of the last, so a cache keyed on the engine could hand out a freed model.
res::Model& network_model() {
  res::Model* model = nullptr;
  for (auto* m : sg4::Engine::get_instance()->get_all_models())
    if (m->get_name().rfind("Network", 0) == 0)
      model = m;
  if (model == nullptr)
    throw std::logic_error("send_weighted: SimGrid has no network model");
  return *model;
}

// SimGrid 3.32 does not install the header that links a Comm to its model action; the action was just created, so
// it is at (or, if other actions started since, near) the back of the model's started set.
res::Action& action_of(const sg4::Comm& comm) {
  const auto* impl = comm.get_impl();
  auto& started = *network_model().get_started_action_set();
  for (auto it = started.rbegin(); it != started.rend(); ++it)
    if (it->get_activity() == impl)
      return *it;
  throw std::logic_error("send_weighted: the flow's network action is not running");
}

// CM02 shares a flow by the penalty its NetworkAction keeps (src/kernel/resource/NetworkModel.hpp in SimGrid 3.32,
// not installed): the route latency, handed to the solver once the latency is paid; a flow without latency shares
// with penalty 1 from the start. The NetworkAction's members follow the Action base: the two host references, then
// latency_, lat_current_ and sharing_penalty_, all three equal to the route latency when the flow starts (CM02 has
// no latency factor, and weight-S is 0). The layout is checked against the route's own latency on the first flow,
// and the three values on every flow, so that a different SimGrid build fails loudly instead of sharing wrongly.
static_assert(alignof(res::Action) == alignof(double) && sizeof(res::Action) % alignof(double) == 0);
constexpr size_t latency_offset = sizeof(res::Action) + 2 * sizeof(void*);

void set_penalty(res::Action& action, const sg4::Host* from, const sg4::Host* to, double weight) {
  auto* tail = reinterpret_cast<unsigned char*>(&action) + latency_offset;
  double lat[3]; // latency_, lat_current_, sharing_penalty_
  std::memcpy(lat, tail, sizeof(lat));
  static bool layout_checked = false;
  bool ok = lat[0] >= 0 && lat[1] == lat[0] && lat[2] == lat[0];
  if (ok && !layout_checked) {
    std::vector<sg4::Link*> links;
    double route_latency = 0;
    from->route_to(to, links, &route_latency);
    ok = route_latency == lat[0];
    layout_checked = ok && lat[0] > 0; // zeros everywhere prove nothing
  }
  if (!ok)
    throw std::logic_error("send_weighted: SimGrid's network action does not have the layout of SimGrid 3.32 "
                           "(the route latency is not where expected)");
  if (lat[0] > 0) {
    lat[2] /= weight; // installed when the latency is paid
    std::memcpy(tail + 2 * sizeof(double), &lat[2], sizeof(double));
  } else {
    action.set_sharing_penalty(1.0 / weight);
  }
}

} // namespace

sg4::CommPtr send_weighted(sg4::Host* from, sg4::Host* to, uint64_t bytes, double weight) {
  if (!(weight > 0))
    throw std::invalid_argument("send_weighted: weight must be positive, got " + std::to_string(weight));
  auto comm = sg4::Comm::sendto_async(from, to, bytes);
  if (weight == 1.0)
    return comm;
  set_penalty(action_of(*comm), from, to, weight);
  return comm;
}

sg4::CommPtr send_capped(sg4::Host* from, sg4::Host* to, uint64_t bytes, double max_Bps) {
  auto comm = sg4::Comm::sendto_async(from, to, bytes);
  // sendto comms start at once, and Comm::set_rate refuses a started comm (SimGrid 3.32): bound the action.
  if (max_Bps > 0 && bytes > 0)
    action_of(*comm).set_bound(max_Bps);
  return comm;
}

} // namespace aisim::sim
