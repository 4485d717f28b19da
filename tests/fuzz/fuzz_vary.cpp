// Fuzz target: the sweep flags as a planner types them. An input is lines "--vary POINTER=VALUES" and
// "--sample MODE" (other lines are ignored; an @FILE list is not read: a fuzzer's file names are not inputs).
// Properties: no crash, hang or leak; a refusal says why; an accepted axis has 1 to 1,000,000 values, and when it
// has a unit every value's number is finite; an accepted sample of N asks for at least one point; the plan of a
// sweep that would be run (at most 20,000 points here) takes exactly the points it counted (a Latin sample less
// the duplicates it dropped), each choice within its axis and, on a grid or a random sample, no point twice; and
// each point's --set assignment names the axis' pointer.
#include "tests/fuzz/fuzz_input.hpp"

#include "app/sweep/sweep_plan.hpp"

#include <cmath>
#include <set>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace aisim;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  std::vector<app::SweepAxis> axes;
  app::SampleSpec sample;
  bool ok = true;
  size_t start = 0;
  while (start < text.size()) {
    const auto nl = text.find('\n', start);
    const std::string line(text.substr(start, nl == std::string_view::npos ? text.npos : nl - start));
    start = nl == std::string_view::npos ? text.size() : nl + 1;
    std::string error;
    if (line.rfind("--vary ", 0) == 0) {
      const std::string arg = line.substr(7);
      if (arg.find('@') != std::string::npos)
        continue;
      auto axis = app::parse_vary(arg, &error);
      if (!axis) {
        fuzz::require(!error.empty(), "a --vary refused without a reason");
        ok = false;
        continue;
      }
      fuzz::require(!axis->values.empty() && axis->values.size() <= 1'000'000, "an axis with no or too many values");
      if (axis->unit) {
        fuzz::require(axis->numbers.size() == axis->values.size(), "an axis with a unit lacks a value's number");
        for (const double v : axis->numbers)
          fuzz::require(std::isfinite(v), "an axis value that is not a finite number");
      }
      axes.push_back(std::move(*axis));
    } else if (line.rfind("--sample ", 0) == 0) {
      auto s = app::parse_sample(line.substr(9), &error);
      if (!s) {
        fuzz::require(!error.empty(), "a --sample refused without a reason");
        ok = false;
        continue;
      }
      fuzz::require(s->mode == app::SampleMode::grid || s->count >= 1, "a sample of no points accepted");
      sample = *s;
    }
  }
  if (!ok || axes.empty())
    return 0;
  const double count = app::points_to_run(axes, sample);
  if (!(count <= 20'000))
    return 0;
  const app::SweepPlan plan = app::plan_sweep(axes, sample);
  fuzz::require(static_cast<double>(plan.points.size() + plan.duplicates) == count,
                "a plan took another number of points than it counted");
  std::set<std::vector<uint32_t>> seen;
  for (const auto& p : plan.points) {
    fuzz::require(p.choice.size() == plan.axes.size(), "a point without a choice for every axis");
    for (size_t k = 0; k < p.choice.size(); ++k)
      fuzz::require(p.choice[k] < plan.axes[k].values.size(), "a point's choice beyond its axis");
    if (sample.mode != app::SampleMode::latin)
      fuzz::require(seen.insert(p.choice).second, "a grid or random sample took a point twice");
  }
  for (const auto& a : plan.axes)
    fuzz::require(app::assignment(a, 0).rfind(a.pointer + "=", 0) == 0, "an assignment that does not name its pointer");
  (void)app::plan_json(plan);
  return 0;
}
