// Fuzz target: a results folder as `aisim report` and `aisim compare` read it (a user may hand them one edited by
// hand, cut short, or written by another version). An input is results.json's text, then a line
// "--- timeseries.csv ---" and the CSV; both are written to a folder and read from there.
// Properties: no crash, hang or leak; a folder refused says why; an accepted one renders its report page and
// compares with itself (every metric compared equal, none "best").
#include "tests/fuzz/fuzz_input.hpp"

#include "app/cli/report_command.hpp"
#include "app/report/compare.hpp"
#include "app/report/report.hpp"
#include "sim/results/results.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace aisim;
  const auto [json_text, csv] =
      fuzz::split_at_marker(std::string_view(reinterpret_cast<const char*>(data), size), "--- timeseries.csv ---");
  const auto& dir = fuzz::scratch_dir("results");
  fuzz::write_file(dir / "results.json", json_text);
  fuzz::write_file(dir / "timeseries.csv", csv);
  const auto page = app::render_folder_page(dir.string());
  fuzz::require(page.why.empty() != page.html.empty(), "a folder neither rendered nor refused with a reason");
  std::string read_why;
  const auto results = sim::read_results(dir.string(), &read_why);
  if (results.is_discarded()) {
    fuzz::require(!read_why.empty(), "a results.json refused without a reason");
    return 0;
  }
  const std::vector<std::pair<std::string, models::Json>> runs{{"a", results}, {"b", results}};
  const auto comparison = app::compare_runs(runs);
  for (const auto& m : comparison.value("metrics", models::Json::array()))
    fuzz::require(m.value("best", models::Json()).is_null(), "a run compared with itself is better at something");
  (void)app::format_comparison(comparison);
  (void)app::render_comparison(comparison, runs);
  return 0;
}
