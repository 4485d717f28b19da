// send_weighted: a flow standing for k flows of fidelity "full" takes k shares of a contended link, with or without
// route latency (CM02 applies the sharing penalty only once the latency is paid), and weight 1 is a plain flow.
#include "sim/engine/weighted_comm.hpp"

#include "tests/sim/test_engine.hpp"

#include <catch2/catch.hpp>
#include <simgrid/s4u.hpp>

#include <vector>

namespace sg4 = simgrid::s4u;
using aisim::test::TestEngine;

namespace {

// Two senders share one 100 B/s link towards a receiver; each sends `bytes` with its weight. Returns how long
// each flow took.
std::vector<double> race(double latency_s, double weight_a, double weight_b, uint64_t bytes = 300) {
  TestEngine t;
  auto* zone = sg4::create_full_zone("z");
  auto* a = zone->create_host("a", 1e9)->seal();
  auto* b = zone->create_host("b", 1e9)->seal();
  auto* c = zone->create_host("c", 1e9)->seal();
  auto* shared = zone->create_link("shared", 100)->set_latency(latency_s)->seal();
  zone->add_route(a->get_netpoint(), c->get_netpoint(), nullptr, nullptr, {sg4::LinkInRoute(shared)}, false);
  zone->add_route(b->get_netpoint(), c->get_netpoint(), nullptr, nullptr, {sg4::LinkInRoute(shared)}, false);
  zone->seal();
  std::vector<double> ended(2, -1);
  const double t0 = sg4::Engine::get_clock(); // SimGrid's clock goes on from an earlier engine in the process
  sg4::Actor::create("sender-a", a, [&] {
    aisim::sim::send_weighted(a, c, bytes, weight_a)->wait();
    ended[0] = sg4::Engine::get_clock() - t0;
  });
  sg4::Actor::create("sender-b", b, [&] {
    aisim::sim::send_weighted(b, c, bytes, weight_b)->wait();
    ended[1] = sg4::Engine::get_clock() - t0;
  });
  t.engine.run();
  return ended;
}

} // namespace

TEST_CASE("weighted comm: weight 3 against weight 1 takes 75% of a link without latency", "[engine]") {
  // 300 B at 75 B/s ends at 4 s; the other has 100 B by then and its last 200 B alone take 2 s.
  const auto ended = race(0.0, 3, 1);
  CHECK(ended[0] == Approx(4.0).epsilon(1e-9));
  CHECK(ended[1] == Approx(6.0).epsilon(1e-9));
}

TEST_CASE("weighted comm: the weight survives the route latency being paid", "[engine]") {
  const double lat = 0.5;
  const auto ended = race(lat, 3, 1);
  CHECK(ended[0] == Approx(4.0 + lat).epsilon(1e-9));
  CHECK(ended[1] == Approx(6.0 + lat).epsilon(1e-9));
}

TEST_CASE("weighted comm: equal weights share equally as plain flows do", "[engine]") {
  for (double w : {1.0, 8.0}) {
    const auto ended = race(0.25, w, w);
    CHECK(ended[0] == Approx(6.25).epsilon(1e-9));
    CHECK(ended[1] == Approx(6.25).epsilon(1e-9));
  }
}

TEST_CASE("weighted comm: the lighter flow gets the smaller share", "[engine]") {
  // Weight 1 against 4: 20 B/s; the heavy one ends at 300 / 80 = 3.75 s, the light one then runs alone.
  const auto ended = race(0.0, 1, 4);
  REQUIRE(ended[0] > ended[1]);
  CHECK(ended[1] == Approx(3.75).epsilon(1e-9));
  CHECK(ended[0] == Approx(3.75 + (300 - 75) / 100.0).epsilon(1e-9));
}

TEST_CASE("weighted comm: a weight that is not positive is an error", "[engine]") {
  TestEngine t;
  auto* zone = sg4::create_full_zone("z");
  auto* a = zone->create_host("a", 1e9)->seal();
  auto* c = zone->create_host("c", 1e9)->seal();
  auto* l = zone->create_link("l", 100)->seal();
  zone->add_route(a->get_netpoint(), c->get_netpoint(), nullptr, nullptr, {sg4::LinkInRoute(l)}, false);
  zone->seal();
  bool threw = false;
  sg4::Actor::create("sender", a, [&] {
    try {
      aisim::sim::send_weighted(a, c, 100, 0.0)->wait();
    } catch (const std::invalid_argument&) {
      threw = true;
    }
  });
  t.engine.run();
  CHECK(threw);
}
