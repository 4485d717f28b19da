// The engine as configure_engine sets it up shares links as max-min fairness says, also where SimGrid 3.32's lazy
// update does not (sim/platform/platform.cpp): flows that start at one instant, pay their latency together and
// share their first link must still be limited by every other link they cross.
#include "tests/sim/test_engine.hpp"

#include <catch2/catch.hpp>
#include <simgrid/s4u.hpp>

#include <string>
#include <vector>

namespace sg4 = simgrid::s4u;
using aisim::test::TestEngine;

TEST_CASE("engine config: flows that start together respect each node's NIC", "[platform]") {
  // Two servers (50 GB/s front ends) send to three nodes (25 GB/s NICs): 70 GB to node 0, 140 GB to nodes 1 and 2
  // from each server. Max-min: every flow is NIC-bound at 12.5 GB/s, node 0's end at 5.6 s and then nodes 1 and 2
  // stay NIC-bound, so the last flow ends at 140 / 12.5 = 11.2 s. The lazy update let them run at the front ends'
  // 50 / 3 GB/s and end at 8.4 s.
  TestEngine t;
  using Dir = sg4::LinkInRoute::Direction;
  auto* zone = sg4::create_full_zone("z");
  std::vector<sg4::Host*> servers, nodes;
  std::vector<sg4::Link*> fronts;
  for (int s = 0; s < 2; ++s) {
    servers.push_back(zone->create_host("server-" + std::to_string(s), 1e9)->seal());
    fronts.push_back(zone->create_split_duplex_link("front-" + std::to_string(s), 50e9)->set_latency(1e-6)->seal());
  }
  for (int n = 0; n < 3; ++n) {
    nodes.push_back(zone->create_host("node-" + std::to_string(n), 1e9)->seal());
    auto* nic = zone->create_split_duplex_link("nic-" + std::to_string(n), 25e9)->set_latency(1e-6)->seal();
    for (int s = 0; s < 2; ++s)
      zone->add_route(servers[s]->get_netpoint(), nodes[n]->get_netpoint(), nullptr, nullptr,
                      {sg4::LinkInRoute(fronts[s], Dir::UP), sg4::LinkInRoute(nic, Dir::DOWN)}, false);
  }
  zone->seal();
  double took = -1;
  sg4::Actor::create("reader", nodes[0], [&] {
    const double t0 = sg4::Engine::get_clock();
    std::vector<sg4::CommPtr> flows;
    for (auto* s : servers)
      for (int n = 0; n < 3; ++n)
        flows.push_back(sg4::Comm::sendto_async(s, nodes[n], n == 0 ? 70'000'000'000ULL : 140'000'000'000ULL));
    for (auto& f : flows)
      f->wait();
    took = sg4::Engine::get_clock() - t0;
  });
  t.engine.run();
  CHECK(took == Approx(11.2 + 2e-6).epsilon(1e-6));
}
