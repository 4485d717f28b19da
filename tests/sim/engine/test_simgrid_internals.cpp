// What aisim relies on in SimGrid (sim/engine/simgrid_internals.hpp): the release check names the version found,
// the whole check passes on the library this build runs with, and the clock reset reaches the engine.
#include "sim/engine/simgrid_internals.hpp"

#include "tests/sim/test_engine.hpp"

#include <catch2/catch.hpp>
#include <simgrid/s4u.hpp>

using namespace aisim::sim;
namespace sg4 = simgrid::s4u;

TEST_CASE("simgrid internals: another release is refused, naming what was found", "[engine]") {
  CHECK_NOTHROW(check_simgrid_release(3, 32, 0));
  CHECK_NOTHROW(check_simgrid_release(3, 32, 1)); // a patch release keeps its internals
  for (auto [major, minor] : {std::pair{3, 33}, std::pair{3, 31}, std::pair{4, 32}}) {
    try {
      check_simgrid_release(major, minor, 0);
      FAIL("accepted " << major << "." << minor);
    } catch (const SimGridMismatch& e) {
      const std::string what = e.what();
      CHECK_THAT(what, Catch::Contains("SimGrid " + std::to_string(major) + "." + std::to_string(minor) + ".0 found"));
      CHECK_THAT(what, Catch::Contains("checked on 3.32.0"));
      CHECK_THAT(what, Catch::Contains("sim/engine/simgrid_internals.hpp"));
    }
  }
}

TEST_CASE("simgrid internals: the library this build runs with passes every check", "[engine]") {
  CHECK(simgrid_version_found().rfind("3.32.", 0) == 0);
  CHECK_NOTHROW(check_simgrid());
  CHECK_NOTHROW(check_simgrid()); // once per process; later calls return at once
}

TEST_CASE("simgrid internals: a second engine in a process starts at time 0 once the clock is reset", "[engine]") {
  {
    aisim::test::TestEngine t;
    auto* zone = sg4::create_full_zone("z");
    auto* h = zone->create_host("h", 1e9)->seal();
    zone->seal();
    sg4::Actor::create("sleeper", h, [] { sg4::this_actor::sleep_for(42); });
    t.engine.run();
    CHECK(sg4::Engine::get_clock() >= 42);
  }
  aisim::test::TestEngine t;
  reset_simgrid_clock();
  CHECK(sg4::Engine::get_clock() == 0);
}
