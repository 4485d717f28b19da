#include "sim/engine/simgrid_internals.hpp"

#include "sim/engine/flows.hpp"
#include "sim/platform/platform.hpp"

#include <simgrid/s4u.hpp>
#include <simgrid/version.h>
#include <xbt/config.hpp>
#include <xbt/log.h>

#include <dlfcn.h>

#include <cmath>
#include <vector>

namespace aisim::sim {

namespace sg4 = simgrid::s4u;

namespace {

std::string version_string(int major, int minor, int patch) {
  return std::to_string(major) + "." + std::to_string(minor) + "." + std::to_string(patch);
}

[[noreturn]] void mismatch(const std::string& found, const std::string& what) {
  throw SimGridMismatch("SimGrid " + found + " found; aisim was built against " +
                        version_string(SIMGRID_VERSION_MAJOR, SIMGRID_VERSION_MINOR, SIMGRID_VERSION_PATCH) +
                        " and checked on " +
                        version_string(kSimGridChecked[0], kSimGridChecked[1], kSimGridChecked[2]) + ", and " + what +
                        " (sim/engine/simgrid_internals.hpp)");
}

// SimGrid 3.32's simulated clock, by its exported (mangled) name: looked up at run time, so that a library without
// it is reported by check_simgrid() rather than by the dynamic loader.
double* simgrid_clock() {
  static double* const now = static_cast<double*>(dlsym(RTLD_DEFAULT, "_ZN7simgrid6kernel10EngineImpl4now_E"));
  return now;
}

// Two flows share a 100 B/s link, weights 3 and 1, after a route latency of 0.5 s; a third, bounded to 20 B/s,
// crosses another link (no latency) alone. Returns each flow's end, measured from the start.
std::vector<double> flows_self_test() {
  int argc = 1;
  char name[] = "aisim-check";
  char* argv[] = {name, nullptr};
  sg4::Engine engine(&argc, argv);
  if (simgrid::config::is_default("network/model"))
    configure_engine(engine);
  reset_simgrid_clock();
  auto* zone = sg4::create_full_zone("check");
  auto* a = zone->create_host("a", 1e9)->seal();
  auto* b = zone->create_host("b", 1e9)->seal();
  auto* c = zone->create_host("c", 1e9)->seal();
  RouteLatency routes(0.5);
  auto* shared = zone->create_link("shared", 100)->seal();
  auto* other = zone->create_link("other", 100)->seal();
  routes.add_link(shared);
  zone->add_route(a->get_netpoint(), c->get_netpoint(), nullptr, nullptr, {sg4::LinkInRoute(shared)}, false);
  zone->add_route(b->get_netpoint(), c->get_netpoint(), nullptr, nullptr, {sg4::LinkInRoute(shared)}, false);
  zone->add_route(a->get_netpoint(), b->get_netpoint(), nullptr, nullptr, {sg4::LinkInRoute(other)}, false);
  zone->seal();
  std::vector<double> ended(3, -1);
  auto send = [&routes](sg4::Host* from, sg4::Host* to, double weight, double max_Bps, double& end) {
    return [&routes, from, to, weight, max_Bps, &end] {
      Flows f(routes);
      f.add(from, to, 300, weight, max_Bps);
      f.wait();
      end = sg4::Engine::get_clock();
    };
  };
  sg4::Actor::create("check-a", a, send(a, c, 3, 0, ended[0]));
  sg4::Actor::create("check-b", b, send(b, c, 1, 0, ended[1]));
  sg4::Actor::create("check-bound", a, send(a, b, 1, 20, ended[2]));
  engine.run();
  return ended;
}

} // namespace

std::string simgrid_version_found() {
  int major = 0, minor = 0, patch = 0;
  sg_version_get(&major, &minor, &patch);
  return version_string(major, minor, patch);
}

void reset_simgrid_clock() {
  if (double* now = simgrid_clock())
    *now = 0;
}

void check_simgrid_release(int major, int minor, int patch) {
  // A patch release keeps the layout of its internals; another minor release may not.
  if (major != kSimGridChecked[0] || minor != kSimGridChecked[1])
    mismatch(version_string(major, minor, patch), "relies on internals of that release");
}

void check_simgrid() {
  static bool checked = false;
  if (checked)
    return;
  int major = 0, minor = 0, patch = 0;
  sg_version_get(&major, &minor, &patch);
  check_simgrid_release(major, minor, patch);
  if (simgrid_clock() == nullptr)
    mismatch(simgrid_version_found(), "its simulated clock (simgrid::kernel::EngineImpl::now_) is not exported");
  xbt_log_control_set("root.thresh:warning"); // SimGrid's own INFO lines (configuration changes) stay quiet
  const std::vector<double> ended = flows_self_test();
  // Weight 3 against 1 on 100 B/s after 0.5 s: 300 B at 75 B/s end at 4.5 s, the other's last 200 B alone at 6.5 s;
  // the bounded flow's 300 B at 20 B/s at 15 s.
  const double expected[] = {4.5, 6.5, 15.0};
  for (int i = 0; i < 3; ++i)
    if (!(std::abs(ended[i] - expected[i]) < 1e-6))
      mismatch(simgrid_version_found(), "a flow of its self-test ended at " + std::to_string(ended[i]) +
                                            " s instead of " + std::to_string(expected[i]) +
                                            " s (weights, route latency or bounds are not applied as on 3.32)");
  // The clock is where it was looked for: it reads the engine's time, and setting it is what the engine reads.
  double* now = simgrid_clock();
  if (*now != sg4::Engine::get_clock() || *now < 15.0)
    mismatch(simgrid_version_found(), "the value at its clock's exported name is not the simulated time");
  reset_simgrid_clock();
  if (sg4::Engine::get_clock() != 0)
    mismatch(simgrid_version_found(), "setting its clock back to 0 did not reach the engine");
  checked = true;
}

} // namespace aisim::sim
