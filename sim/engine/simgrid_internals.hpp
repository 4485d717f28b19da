// Everything aisim relies on in SimGrid that its installed API does not promise, in one place, each with why, and
// the check that it still holds. Checked on SimGrid 3.32 (Debian 12's libsimgrid3.32); CMakeLists.txt requires
// exactly that version, and check_simgrid() refuses to simulate on a library where an assumption fails, naming the
// version it found: a clear error, never a wrong answer.
//
// What remains outside the installed API:
// - The simulated clock. SimGrid 3.32 keeps it in a static member of its engine implementation
//   (simgrid::kernel::EngineImpl::now_, src/kernel/EngineImpl.hpp, not installed) and does not reset it when an
//   engine ends, so a process's second engine (an executor's worker runs one per run, app/executor/) would start
//   where the first stopped. reset_simgrid_clock() sets it back through its exported name, found at run time.
// What the engine relies on through the installed API, also checked here because a later SimGrid could change it:
// - a flow on a route without latency starts with sharing penalty 1 and takes the penalty and bound set on its
//   action at once (Action::set_sharing_penalty, Action::set_bound; sim/engine/flows.hpp);
// - a started comm's network action is at the back of its model's started-action set (flows.cpp finds it there).
#pragma once

#include <stdexcept>
#include <string>

namespace aisim::sim {

// The SimGrid release aisim was built against and checked on.
inline constexpr int kSimGridChecked[3] = {3, 32, 0};

// SimGrid at run time is not what aisim was checked on: the message names the version found and what failed.
class SimGridMismatch : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

// The version of the SimGrid library loaded, "3.32.0".
std::string simgrid_version_found();

// Sets SimGrid's simulated clock back to 0: call with a new engine, before anything is scheduled on it.
void reset_simgrid_clock();

// Throws SimGridMismatch unless a library of this version is one aisim was checked on (3.32.x).
void check_simgrid_release(int major, int minor, int patch);

// Checks every assumption above, once per process (later calls return at once): the library's version, the clock
// reset, and flows' shares, latency and bounds on a three-host engine of its own, which configures SimGrid as
// sim/platform/platform.hpp's configure_engine does. Throws SimGridMismatch. Call before the process's first
// engine.
void check_simgrid();

} // namespace aisim::sim
