#include "app/cli/point_runs.hpp"

#include "models/scenario/included_file.hpp"
#include "models/scenario/scenario_parser.hpp"

#include <algorithm>
#include <cstdio>
#include <iostream>
#include <set>

namespace aisim::app {

namespace fs = std::filesystem;
using models::Json;

std::string point_folder(size_t i) {
  char name[32];
  std::snprintf(name, sizeof name, "point-%06zu", i + 1);
  return (fs::path("points") / name).string();
}

std::string log_error(const fs::path& log) {
  std::string why;
  const auto text = models::read_text_file(log.string(), &why);
  if (!text)
    return "";
  std::string first_error, last;
  size_t start = 0;
  while (start < text->size()) {
    auto end = text->find('\n', start);
    if (end == std::string::npos)
      end = text->size();
    const std::string line = text->substr(start, end - start);
    if (!line.empty()) {
      last = line;
      if (first_error.empty() && (line.find("error") != std::string::npos))
        first_error = line;
    }
    start = end + 1;
  }
  std::string e = first_error.empty() ? last : first_error;
  return e.size() > 400 ? e.substr(0, 397) + "..." : e;
}

ChildSpec point_run(const std::string& exe, const std::string& scenario, const std::vector<std::string>& sets,
                    long long seed, const fs::path& dir) {
  std::vector<std::string> argv{exe, "run", scenario, "--progress", "none", "--no-report"};
  if (seed >= 0)
    argv.insert(argv.end(), {"--seed", std::to_string(seed)});
  argv.insert(argv.end(), {"--out", dir.string()});
  for (const auto& s : sets)
    argv.insert(argv.end(), {"--set", s});
  return {std::move(argv), (dir / "run.log").string(), dir.string()};
}

std::optional<Json> scenario_document(const std::string& scenario, const std::vector<std::string>& sets) {
  std::string why;
  const auto text = models::read_text_file(scenario, &why);
  if (!text) {
    std::cerr << "aisim: " << scenario << ": " << why << "\n";
    return std::nullopt;
  }
  models::Diagnostics syntax(scenario);
  auto doc = models::parse_json_text(*text, syntax);
  if (!doc) {
    std::cerr << syntax.format(true);
    return std::nullopt;
  }
  for (const auto& s : sets)
    models::apply_override(*doc, s, syntax);
  return doc;
}

bool check_values(const std::string& scenario, const std::vector<std::string>& sets, const SweepPlan& plan) {
  const auto doc = scenario_document(scenario, sets);
  if (!doc)
    return false;
  const auto base = fs::path(scenario).parent_path().string();
  bool ok = true;
  for (size_t k = 0; k < plan.axes.size(); ++k) {
    std::set<uint32_t> used;
    for (const auto& p : plan.points)
      used.insert(p.choice[k]);
    // Values failing the same way (a pointer that does not exist fails them all) are named in one message.
    std::vector<std::pair<std::string, std::vector<std::string>>> failures;
    for (const uint32_t v : used) {
      Json d = *doc;
      models::Diagnostics diag(scenario);
      models::apply_override(d, assignment(plan.axes[k], v), diag);
      auto parsed = models::parse_scenario(std::move(d), scenario, base.empty() ? "." : base);
      for (const auto& item : parsed.diagnostics.items())
        diag.add(item);
      if (!diag.has_errors())
        continue;
      std::string text;
      for (const auto& item : diag.items())
        if (!item.warning)
          text += item.pointer + ": " + item.message + "\n";
      const auto it = std::find_if(failures.begin(), failures.end(), [&](const auto& f) { return f.first == text; });
      (it == failures.end() ? failures.emplace_back(text, std::vector<std::string>{}) : *it)
          .second.push_back(plan.axes[k].values[v].dump());
    }
    for (const auto& [text, values] : failures) {
      ok = false;
      std::string which = values.front();
      for (size_t i = 1; i < values.size() && i < 8; ++i)
        which += (i + 1 == values.size() ? " and " : ", ") + values[i];
      if (values.size() > 8)
        which += " and " + std::to_string(values.size() - 8) + " more";
      std::cerr << "aisim: " << plan.axes[k].flag << " " << plan.axes[k].spec << ": "
                << (values.size() == 1 ? "the value " : "the values ") << which
                << (values.size() == 1 ? " does" : " do") << " not make a valid scenario:\n";
      size_t start = 0;
      while (start < text.size()) {
        const auto end = text.find('\n', start);
        std::cerr << "  " << scenario << ":" << text.substr(start, end - start) << "\n";
        start = end + 1;
      }
    }
  }
  return ok;
}

std::optional<std::vector<SweepAxis>> parse_axes(const std::vector<std::string>& vary) {
  std::vector<SweepAxis> axes;
  std::set<std::string> pointers;
  for (const auto& v : vary) {
    std::string error;
    auto axis = parse_vary(v, &error);
    if (!axis) {
      std::cerr << "aisim: " << error << "\n";
      return std::nullopt;
    }
    if (!pointers.insert(axis->pointer).second) {
      std::cerr << "aisim: --vary " << v << ": " << axis->pointer << " is varied twice (one --vary per pointer)\n";
      return std::nullopt;
    }
    axes.push_back(std::move(*axis));
  }
  return axes;
}

std::optional<CheckedPlan> load_and_check(const std::string& scenario, const std::vector<std::string>& sets,
                                          const std::function<SweepPlan()>& make_plan) {
  auto loaded = models::load_scenario(scenario, sets);
  std::cerr << loaded.diagnostics.format(true);
  if (!loaded.scenario) {
    std::cerr << "aisim: " << scenario << ": the scenario has errors; nothing was run or written\n";
    return std::nullopt;
  }
  CheckedPlan out{make_plan(), loaded.scenario->simulation.seed};
  if (!check_values(scenario, sets, out.plan)) {
    std::cerr << "aisim: nothing was run or written\n";
    return std::nullopt;
  }
  return out;
}

std::optional<CheckedPlan> load_and_plan(const std::string& scenario, const std::vector<std::string>& sets,
                                         std::vector<SweepAxis> axes, const SampleSpec& sample) {
  return load_and_check(scenario, sets, [&] { return plan_sweep(std::move(axes), sample); });
}

} // namespace aisim::app
