// Reading the scenario's `workloads` array, and the checks that need the whole scenario: a schedule whose jobs
// never ask for more nodes than a group has at any moment.
#pragma once

#include "models/common/json_reader.hpp"
#include "models/scenario/scenario.hpp"

#include <string>
#include <vector>

namespace aisim::models {

// Appends the valid jobs to sc.jobs. Needs sc.node_groups, sc.storage and sc.policies (placement defaults).
void parse_workloads(ObjectReader& top, Scenario& sc, const std::vector<std::string>& group_names,
                     const std::vector<std::string>& storage_names);

// A model's bytes: `size`, or `parameters` x `bytes_per_parameter` (default as given); `what` names it in the
// error when both are given.
std::optional<double> parse_model_bytes(ObjectReader& r, double bytes_per_parameter, const std::string& what);

// Jobs on one node group share its nodes over time: at no instant may running jobs hold more nodes than exist.
// Needs sc.simulation (a job without a duration runs to the end).
void check_node_schedule(const Scenario& sc, Diagnostics& diag);

} // namespace aisim::models
