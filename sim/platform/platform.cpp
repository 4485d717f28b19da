#include "sim/platform/platform.hpp"

#include "sim/platform/builder.hpp"

#include <malloc.h>
#include <xbt/config.hpp>

namespace aisim::sim {

namespace sg4 = simgrid::s4u;

void configure_engine(sg4::Engine& /*engine*/) {
  // SimGrid keeps its configuration for the whole process and refuses a change of network model once an earlier
  // engine has initialised its models; a process that runs several simulations in turn (an executor's worker,
  // app/executor/process_pool.cpp) configures the first and the later ones inherit it.
  if (!simgrid::config::is_default("network/model"))
    return;
  // LV08's latency and bandwidth factors describe wide-area TCP; RDMA fabrics deliver line rate, so use CM02
  // and a TCP window large enough never to bind (it otherwise caps a flow at gamma / (2 x latency)).
  sg4::Engine::set_config("network/model:CM02");
  sg4::Engine::set_config("network/crosstraffic:0");
  sg4::Engine::set_config("network/TCP-gamma:1e18");
  // SimGrid 3.32's lazy update re-solves only the constraints it marks modified, and when several flows pay their
  // latency at the same instant and share their first link, the later ones' other links are not marked: a node's
  // NIC then stops limiting flows that started together (tests/sim/platform/test_engine_config.cpp). The full
  // update solves every constraint each step; measured on the bench scenarios it is no slower.
  sg4::Engine::set_config("network/optim:Full");
  // Actors here are shallow (a job's loop, a transfer's disk side, a background copy) and short-lived, and many
  // are created: SimGrid's default 8 MiB stack makes each creation an mmap and each end a munmap with a TLB
  // flush, which dominated the run time; and SimGrid zeroes each stack it allocates (230,000 actors in the
  // 100,000-GPU cluster year: at 128 KiB, a tenth of its run time). The deepest use, measured over every shipped
  // scenario and bench by the highest byte written below each actor's first frame, a forced end's unwinding
  // included, is 5.0 KiB (a preprocessing job's loop; a transfer's disk side 3.4 KiB): 32 KiB is six times that.
  sg4::Engine::set_config("contexts/stack-size:32");
  // SimGrid guards each actor stack with a protected page: an mprotect when an actor starts and another when it
  // ends, 12,000 of them in a month of scenarios/failures.json, a third of its run time, and they serialize
  // replicas running side by side (sys time doubled with two at once). The actors' call depths are a few frames
  // of our own code over SimGrid's; the simulation itself runs on the maestro's stack, so the guard buys little.
  // The sanitizer build keeps it: its frames are larger, and every test runs there (make sanitize, in CI), so an
  // actor that outgrows its stack faults there instead of writing over the heap unseen.
#if !defined(__SANITIZE_ADDRESS__)
  sg4::Engine::set_config("contexts/guard-size:0");
#endif
  // glibc serves blocks this large with mmap and returns them with munmap; a higher threshold keeps actor stacks
  // in the heap, where a freed stack is reused by the next actor.
  mallopt(M_MMAP_THRESHOLD, 4 << 20);
  mallopt(M_TRIM_THRESHOLD, 64 << 20); // and keep freed stacks rather than giving the heap's top back at once
}

Platform build_platform(const models::Scenario& sc, const models::ClusterNetwork& net) {
  // The order is SimGrid's creation order; results depend on it only through names, but keep it stable.
  PlatformBuilder b(sc, net);
  b.add_node_sets();
  b.add_fabric_peers();
  b.add_storage_servers();
  b.add_fabric_links();
  b.add_node_routes();
  b.add_metadata_hosts();
  b.add_copy_routes();
  return b.finish();
}

PlatformBuilder::PlatformBuilder(const models::Scenario& sc, const models::ClusterNetwork& net)
    : sc_(sc), net_(net), full_(sc.simulation.fidelity == "full"), zone_(sg4::create_full_zone("cluster")) {
  const bool leaves_merge = !full_ && (sc.network.topology == "spine_leaf" || sc.network.topology == "rail_optimized");
  set_layout_ = layout_node_sets(sc, place_jobs(sc, net), leaves_merge);
  server_layout_ = layout_storage_servers(sc, net, full_);
  p_.routes = RouteLatency(sc.network.link_latency.value);
}

sg4::SplitDuplexLink* PlatformBuilder::create_link(const std::string& name, double bandwidth_Bps, bool with_latency) {
  auto* link = zone_->create_split_duplex_link(name, bandwidth_Bps);
  if (with_latency) {
    p_.routes.add_link(link->get_link_up());
    p_.routes.add_link(link->get_link_down());
  }
  return link;
}

void PlatformBuilder::add_route(sg4::Host* from, sg4::Host* to, const Route& links) {
  zone_->add_route(from->get_netpoint(), to->get_netpoint(), nullptr, nullptr, links, false);
}

Platform PlatformBuilder::finish() {
  zone_->seal();
  return std::move(p_);
}

} // namespace aisim::sim
