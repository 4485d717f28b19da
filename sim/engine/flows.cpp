#include "sim/engine/flows.hpp"

#include <simgrid/kernel/resource/Action.hpp>
#include <simgrid/kernel/resource/Model.hpp>
#include <simgrid/s4u/Engine.hpp>

#include <algorithm>
#include <span>
#include <stdexcept>
#include <string>

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
    throw std::logic_error("flows: SimGrid has no network model");
  return *model;
}

// Starts `flows` now, appending their comms to `comms`, and gives each its penalty and bound.
void launch(std::span<const Flows::Pending> flows, std::vector<sg4::CommPtr>& comms) {
  struct Unset {
    const void* activity;
    const Flows::Pending* flow;
  };
  std::vector<Unset> unset; // in the order started
  for (const auto& f : flows) {
    comms.push_back(sg4::Comm::sendto_async(f.from, f.to, f.bytes));
    // A route without latency starts its flow with penalty 1 (CM02) and no bound.
    if (f.bytes > 0 && (f.penalty != 1.0 || f.max_Bps > 0))
      unset.push_back({comms.back()->get_impl(), &f});
  }
  // SimGrid 3.32 installs no header that links a Comm to its network action. Each action joins the back of the
  // model's started set as its comm starts, so ours are its last ones, in order, with at most the actions other
  // actors started in the same scheduling round between them: one walk from the back finds them all.
  auto& started = *network_model().get_started_action_set();
  auto next = unset.rbegin();
  for (auto it = started.rbegin(); it != started.rend() && next != unset.rend(); ++it) {
    if (it->get_activity() != next->activity)
      continue;
    if (next->flow->penalty != 1.0)
      it->set_sharing_penalty(next->flow->penalty);
    if (next->flow->max_Bps > 0)
      it->set_bound(next->flow->max_Bps);
    ++next;
  }
  if (next != unset.rend())
    throw std::logic_error("flows: " + std::to_string(unset.rend() - next) + " flows started without a network action");
}

} // namespace

void Flows::add(sg4::Host* from, sg4::Host* to, uint64_t bytes, double weight, double max_Bps) {
  if (!(weight > 0))
    throw std::invalid_argument("flows: a flow's weight must be positive, got " + std::to_string(weight));
  const auto route = routes_->route(from, to);
  pending_.push_back({from, to, bytes, route.penalty / weight, max_Bps, route.latency_s});
  ++count_;
}

void Flows::start() {
  if (pending_.empty())
    return;
  if (std::all_of(pending_.begin(), pending_.end(), [](const Pending& p) { return p.latency_s == 0; })) {
    launch(pending_, comms_);
    pending_.clear();
    return;
  }
  if (actor_)
    throw std::logic_error("flows: started twice with latency to pay");
  auto* host = pending_.front().from;
  actor_ = sg4::Actor::create("flows", host, [flows = std::move(*this)]() mutable { flows.run(); });
  pending_.clear();
}

void Flows::run() {
  std::stable_sort(pending_.begin(), pending_.end(),
                   [](const Pending& a, const Pending& b) { return a.latency_s < b.latency_s; });
  const double t0 = sg4::Engine::get_clock();
  for (size_t i = 0; i < pending_.size();) {
    size_t j = i;
    while (j < pending_.size() && pending_[j].latency_s == pending_[i].latency_s)
      ++j;
    if (pending_[i].latency_s > 0)
      sg4::this_actor::sleep_until(t0 + pending_[i].latency_s);
    launch(std::span(pending_).subspan(i, j - i), comms_);
    i = j;
  }
  pending_.clear();
  wait();
}

void Flows::wait() {
  start();
  for (auto& c : comms_)
    c->wait();
  comms_.clear();
  if (actor_) {
    actor_->join();
    actor_ = nullptr;
  }
}

} // namespace aisim::sim
