// A host-to-host flow that stands for several identical flows of fidelity "full". SimGrid shares a link among its
// flows in proportion to 1 / sharing penalty (CM02: the route's latency); at fidelity "aggregate" one flow carries
// what k node-to-server flows would, so it must also take their k shares wherever it meets another job's flows.
#pragma once

#include <simgrid/s4u/Comm.hpp>
#include <simgrid/s4u/Host.hpp>

#include <cstdint>

namespace aisim::sim {

// Starts a flow of `bytes` from `from` to `to` that takes `weight` shares of every contended link it crosses (and
// is bounded by nothing else it would not meet alone). Weight 1 is SimGrid's plain sendto_async, unchanged.
simgrid::s4u::CommPtr send_weighted(simgrid::s4u::Host* from, simgrid::s4u::Host* to, uint64_t bytes, double weight);

// Starts a plain flow that never exceeds `max_Bps` (what one of several servers merged into one host can send).
simgrid::s4u::CommPtr send_capped(simgrid::s4u::Host* from, simgrid::s4u::Host* to, uint64_t bytes, double max_Bps);

} // namespace aisim::sim
