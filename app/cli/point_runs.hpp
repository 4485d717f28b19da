// What `aisim sweep` and `aisim size` share about their points: each point an ordinary `aisim run` in its own
// folder (points/point-000001/...), every value checked in the scenario before anything runs, and a failed run's
// error read back from its log.
#pragma once

#include "app/executor/process_pool.hpp"
#include "app/sweep/sweep_plan.hpp"

#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace aisim::app {

// A point's folder under the sweep's, by its place in the plan: points/point-000001.
std::string point_folder(size_t i);

// The run of one point: `aisim run SCENARIO` with `sets` (the common ones, then the point's assignments), the seed
// when >= 0, into `dir`, its output logged there. Points write no report.html (`aisim report` renders one).
ChildSpec point_run(const std::string& exe, const std::string& scenario, const std::vector<std::string>& sets,
                    long long seed, const std::filesystem::path& dir);

// What a failed run said: its first error line, else its last line (a crash says nothing; its outcome tells).
std::string log_error(const std::filesystem::path& log);

// Checks every value each axis takes at the plan's points, each in the scenario (with `sets`) and the other axes as
// written, so a value of the wrong unit or a pointer that does not exist is refused before anything runs. Prints
// each problem, naming the --vary, and returns false then.
bool check_values(const std::string& scenario, const std::vector<std::string>& sets, const SweepPlan& plan);

// The --vary arguments as axes, one per pointer. Prints what is wrong (naming the --vary) and returns nullopt then.
std::optional<std::vector<SweepAxis>> parse_axes(const std::vector<std::string>& vary);

struct CheckedPlan {
  SweepPlan plan;
  unsigned long long scenario_seed = 0; // the scenario's simulation.seed (with `sets`)
};

// The scenario's JSON document with `sets` applied (as --set applies them), for reading values; prints why and
// returns nullopt when it cannot be read or parsed.
std::optional<models::Json> scenario_document(const std::string& scenario, const std::vector<std::string>& sets);

// Loads the scenario with `sets`, makes the plan and checks every value its points take (check_values). Prints
// every problem and returns nullopt then: nothing is to be run or written.
std::optional<CheckedPlan> load_and_check(const std::string& scenario, const std::vector<std::string>& sets,
                                          const std::function<SweepPlan()>& make_plan);

// Loads the scenario with `sets`, plans the points and checks every value they take (check_values). Prints every
// problem and returns nullopt then: nothing is to be run or written.
std::optional<CheckedPlan> load_and_plan(const std::string& scenario, const std::vector<std::string>& sets,
                                         std::vector<SweepAxis> axes, const SampleSpec& sample);

} // namespace aisim::app
