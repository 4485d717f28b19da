// Placement advice in dollars (the first seed's table, computed): for one class of data on the system it lives on,
// what it is expected to lose a year, what protecting it would cost a year, and which is larger. Where the data's
// value is unknown, the value above which protection pays; where it is known, the yearly chance of loss above which
// protection pays. Pure arithmetic; sim/results/placement.cpp gathers the inputs from a run.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace aisim::models {

struct ProtectionOption {
  std::string name;        // "replica on cold", "move to warm", "immutable snapshots on warm"
  double usd_per_year = 0; // for the class's bytes
  // Losses a year it removes; negative: all of them (a copy elsewhere, a protected tier). Snapshots remove only the
  // threats they survive: they sit on the same drives.
  double removes_per_year = -1;
};

struct PlacementInput {
  double annual_loss_probability = 0; // on its current system, every modelled cause together
  std::optional<double> value_usd;    // what one loss of the holding costs; absent: unknown
  std::vector<ProtectionOption> options;
};

enum class Verdict {
  nothing_threatens, // no modelled cause can lose it here: keep it where it is
  protect,           // the best option saves more than it costs: protection pays for itself
  enough,            // no option does: where it is (a JBOF, say) is enough
  value_unknown,     // compare the data's worth with breakeven_value_usd
  no_option,         // the scenario offers nothing that would remove any of its losses
};
const char* verdict_name(Verdict v);

struct PlacementAdvice {
  Verdict verdict = Verdict::no_option;
  std::optional<double> expected_loss_usd_per_year; // losses a year (-ln(1 - p)) x value; absent: value unknown
  // The option chosen: with a value, the one that saves the most net of its cost; without, the one that pays
  // first as the value grows (the lowest cost per loss removed).
  std::optional<ProtectionOption> best;
  std::optional<double> breakeven_value_usd;   // the chosen option pays when a loss costs more than this
  std::optional<double> breakeven_probability; // a full protection pays above this yearly chance of loss
};

// A full protection is taken to remove the loss (a replica or a protected tier loses data orders of magnitude less
// often; its own residual risk is not subtracted).
PlacementAdvice advise(const PlacementInput& in);

} // namespace aisim::models
