// Host-to-host flows started together, each with its share and its bound, on SimGrid's installed API only.
//
// A flow can stand for k identical flows of fidelity "full" (fidelity "aggregate" merges a job's nodes on a leaf
// class into one host, a system's servers on a leaf into another): it must then take k shares wherever it meets
// other flows. SimGrid shares a link among its flows in proportion to 1 / sharing penalty, and CM02's penalty is
// the route's latency, so a flow's penalty is its route's (RouteLatency::Route::penalty, scaled to order 1) divided by
// its weight. CM02 applies a penalty only once the route latency is paid, and that moment is not reachable from the
// installed headers; so the platform's links carry no latency (sim/platform/route_latency.hpp), and the latency is
// paid here, as a sleep before the flow starts: SimGrid then shares the flow by its penalty
// (Action::set_sharing_penalty) and bound (Action::set_bound) from its first byte, as CM02 would after the latency.
#pragma once

#include "sim/platform/route_latency.hpp"

#include <simgrid/s4u/Actor.hpp>
#include <simgrid/s4u/Comm.hpp>
#include <simgrid/s4u/Host.hpp>

#include <cstdint>
#include <vector>

namespace aisim::sim {

class Flows {
public:
  explicit Flows(const RouteLatency& routes) : routes_(&routes) {}

  // Queues a flow of `bytes` from `from` to `to` that takes `weight` (> 0) shares of every contended link on its
  // route, and never exceeds `max_Bps` (0: nothing but the links bounds it; what one of several servers merged
  // into one host can send).
  void add(simgrid::s4u::Host* from, simgrid::s4u::Host* to, uint64_t bytes, double weight = 1.0, double max_Bps = 0);
  // Starts what is queued: each flow once its route's latency has passed. Where no route has latency the flows
  // start at once in the calling actor; otherwise a child actor pays the latencies, starts the flows and waits
  // for them.
  void start();
  // Pays the latencies, starts the flows queued and waits for them, all in the calling actor: for an actor that
  // has other work in flight beside the flows (a transfer's disk side).
  void run();
  // Blocks the calling actor until every flow started has arrived (starting any still queued). Idempotent.
  void wait();
  size_t size() const { return count_; }

  struct Pending {
    simgrid::s4u::Host* from;
    simgrid::s4u::Host* to;
    uint64_t bytes;
    double penalty;
    double max_Bps;
    double latency_s;
  };

private:
  const RouteLatency* routes_;
  std::vector<Pending> pending_;
  std::vector<simgrid::s4u::CommPtr> comms_;
  simgrid::s4u::ActorPtr actor_;
  size_t count_ = 0;
};

} // namespace aisim::sim
