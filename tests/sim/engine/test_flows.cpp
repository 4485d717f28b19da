// Flows: a flow standing for k flows of fidelity "full" takes k shares of a contended link, with or without route
// latency (paid before the first byte, as CM02 would), weight 1 is a plain flow, and a bound holds.
#include "sim/engine/flows.hpp"

#include "tests/sim/test_engine.hpp"

#include <catch2/catch.hpp>
#include <simgrid/s4u.hpp>

#include <vector>

namespace sg4 = simgrid::s4u;
using aisim::sim::Flows;
using aisim::sim::RouteLatency;
using aisim::test::TestEngine;

namespace {

struct Spec {
  double weight = 1;
  double max_Bps = 0;
};

// Two senders share one 100 B/s link (`hops` latency-bearing links of `latency_s` each, the last the shared one)
// towards a receiver; each sends `bytes` with its weight and bound. Returns how long each flow took.
std::vector<double> race(double latency_s, Spec a_spec, Spec b_spec, uint64_t bytes = 300, int hops_b = 1) {
  TestEngine t;
  auto* zone = sg4::create_full_zone("z");
  auto* a = zone->create_host("a", 1e9)->seal();
  auto* b = zone->create_host("b", 1e9)->seal();
  auto* c = zone->create_host("c", 1e9)->seal();
  RouteLatency routes(latency_s);
  auto* shared = zone->create_link("shared", 100)->seal();
  routes.add_link(shared);
  std::vector<sg4::LinkInRoute> b_route;
  for (int h = 1; h < hops_b; ++h) {
    auto* extra = zone->create_link("extra-" + std::to_string(h), 1e9)->seal();
    routes.add_link(extra);
    b_route.emplace_back(extra);
  }
  b_route.emplace_back(shared);
  zone->add_route(a->get_netpoint(), c->get_netpoint(), nullptr, nullptr, {sg4::LinkInRoute(shared)}, false);
  zone->add_route(b->get_netpoint(), c->get_netpoint(), nullptr, nullptr, b_route, false);
  zone->seal();
  std::vector<double> ended(2, -1);
  const double t0 = sg4::Engine::get_clock();
  auto sender = [&](sg4::Host* from, Spec s, double& end) {
    return [&routes, from, c, s, bytes, t0, &end] {
      Flows f(routes);
      f.add(from, c, bytes, s.weight, s.max_Bps);
      f.start();
      f.wait();
      end = sg4::Engine::get_clock() - t0;
    };
  };
  sg4::Actor::create("sender-a", a, sender(a, a_spec, ended[0]));
  sg4::Actor::create("sender-b", b, sender(b, b_spec, ended[1]));
  t.engine.run();
  return ended;
}

} // namespace

TEST_CASE("flows: weight 3 against weight 1 takes 75% of a link without latency", "[engine]") {
  // 300 B at 75 B/s ends at 4 s; the other has 100 B by then and its last 200 B alone take 2 s.
  const auto ended = race(0.0, {3}, {1});
  CHECK(ended[0] == Approx(4.0).epsilon(1e-9));
  CHECK(ended[1] == Approx(6.0).epsilon(1e-9));
}

TEST_CASE("flows: the route latency is paid before the first byte and the weight holds from it", "[engine]") {
  const double lat = 0.5;
  const auto ended = race(lat, {3}, {1});
  CHECK(ended[0] == Approx(4.0 + lat).epsilon(1e-9));
  CHECK(ended[1] == Approx(6.0 + lat).epsilon(1e-9));
}

TEST_CASE("flows: equal weights share equally as plain flows do", "[engine]") {
  for (double w : {1.0, 8.0}) {
    const auto ended = race(0.25, {w}, {w});
    CHECK(ended[0] == Approx(6.25).epsilon(1e-9));
    CHECK(ended[1] == Approx(6.25).epsilon(1e-9));
  }
}

TEST_CASE("flows: the lighter flow gets the smaller share", "[engine]") {
  // Weight 1 against 4: 20 B/s; the heavy one ends at 300 / 80 = 3.75 s, the light one then runs alone.
  const auto ended = race(0.0, {1}, {4});
  REQUIRE(ended[0] > ended[1]);
  CHECK(ended[1] == Approx(3.75).epsilon(1e-9));
  CHECK(ended[0] == Approx(3.75 + (300 - 75) / 100.0).epsilon(1e-9));
}

TEST_CASE("flows: a longer route shares as CM02 shares it, by its latency", "[engine]") {
  // b crosses three latency-bearing links to a's one: CM02's penalty is the route latency, so a gets 3/4 of the
  // link once both run. b starts 2 us later (its latency); a's 300 B at 75 B/s end near 4 s.
  const double lat = 1e-6;
  const auto ended = race(lat, {1}, {1}, 300, 3);
  CHECK(ended[0] == Approx(4.0).epsilon(1e-6));
  CHECK(ended[1] == Approx(6.0).epsilon(1e-6));
}

TEST_CASE("flows: a bound holds from the first byte, latency or not", "[engine]") {
  for (double lat : {0.0, 0.5}) {
    // a at most 20 B/s: 300 B take 15 s; b takes the other 80 B/s and ends at 3.75 s.
    const auto ended = race(lat, {1, 20}, {1});
    CHECK(ended[0] == Approx(15.0 + lat).epsilon(1e-9));
    CHECK(ended[1] == Approx(3.75 + lat).epsilon(1e-9));
  }
}

TEST_CASE("flows: a weight that is not positive is an error", "[engine]") {
  TestEngine t;
  auto* zone = sg4::create_full_zone("z");
  auto* a = zone->create_host("a", 1e9)->seal();
  auto* c = zone->create_host("c", 1e9)->seal();
  auto* l = zone->create_link("l", 100)->seal();
  zone->add_route(a->get_netpoint(), c->get_netpoint(), nullptr, nullptr, {sg4::LinkInRoute(l)}, false);
  zone->seal();
  RouteLatency routes;
  Flows f(routes);
  CHECK_THROWS_AS(f.add(a, c, 100, 0.0), std::invalid_argument);
  CHECK_THROWS_AS(f.add(a, c, 100, -1.0), std::invalid_argument);
  CHECK(f.size() == 0);
}
