// The report module (app/report/): the time series as the page gets it, the comparison `aisim compare` prints and
// draws, and the page's safety as a self-contained file.
#include "app/report/compare.hpp"
#include "app/report/report.hpp"

#include <catch2/catch.hpp>

#include <stdexcept>
#include <string>

using aisim::models::Json;
using namespace aisim::app;

TEST_CASE("timeseries_for_page: columns by name, long runs averaged into at most N points", "[report]") {
  std::string csv = "time_s,gpu_utilization,hot_read_Bps\n";
  for (int i = 0; i < 10; ++i)
    csv += std::to_string(i * 60) + "," + (i % 2 ? "1" : "0") + "," + std::to_string(i * 100) + "\n";
  const Json all = timeseries_for_page(csv, 100);
  CHECK(all["bins_per_point"] == 1);
  CHECK(all["rows"] == 10);
  CHECK(all["columns"]["hot_read_Bps"].size() == 10);
  const Json few = timeseries_for_page(csv, 5);
  CHECK(few["bins_per_point"] == 2);
  REQUIRE(few["columns"]["time_s"].size() == 5);
  CHECK(few["columns"]["time_s"][1] == 120);                        // each point starts where its bins start
  CHECK(few["columns"]["gpu_utilization"][0].get<double>() == 0.5); // and averages them
  CHECK(few["columns"]["hot_read_Bps"][4].get<double>() == 850);
  CHECK_THROWS_WITH(timeseries_for_page("when,x\n1,2\n"), Catch::Contains("line 1: expected a header"));
  CHECK_THROWS_WITH(timeseries_for_page("time_s,x\n1,2\n3\n"), Catch::Contains("line 3: expected 2 values, got 1"));
  CHECK_THROWS_WITH(timeseries_for_page("time_s,x\n1,abc\n"), Catch::Contains("line 2: expected a number"));
  CHECK_THROWS_WITH(timeseries_for_page("time_s,x\n1,inf\n"), Catch::Contains("line 2: expected a number"));
}

namespace {
Json run(double util, double cost, double write_s, bool with_cost = true) {
  Json r = {{"schema_version", 1},
            {"gpu", {{"utilization", util}, {"stall", {{"data", 0.0}, {"checkpoint", 1 - util}, {"failure", 0.0}}}}},
            {"jobs",
             {{{"name", "train"},
               {"utilization", util},
               {"checkpoints", {{"count", 3}, {"write_s", {{"mean", write_s}, {"p99", write_s}}}}}}}}};
  if (with_cost)
    r["cost"] = {{"total_usd", cost}};
  return r;
}
const Json& metric(const Json& c, const std::string& label) {
  for (const auto& m : c["metrics"])
    if (m["label"] == label)
      return m;
  FAIL("no metric " << label);
  return c;
}
} // namespace

TEST_CASE("compare_runs: the better value of each shared metric; what is missing is listed", "[report]") {
  const Json c = compare_runs({{"a", run(0.90, 1000, 8)}, {"b", run(0.95, 1200, 4)}});
  CHECK(metric(c, "GPU utilization")["best"] == 1);
  CHECK(metric(c, "total cost")["best"] == 0);
  CHECK(metric(c, "checkpoint write mean, train")["best"] == 1);
  CHECK(metric(c, "failure")["best"].is_null()); // a tie has no winner
  bool listed = false;
  for (const auto& m : c["not_compared"])
    listed = listed || m == "cost per useful GPU-hour";
  CHECK(listed);
  // A run without a section: its metrics are not compared, the rest are.
  const Json partial = compare_runs({{"a", run(0.9, 1000, 8)}, {"b", run(0.9, 0, 8, false)}});
  bool cost_missing = false;
  for (const auto& m : partial["not_compared"])
    cost_missing = cost_missing || m == "total cost";
  CHECK(cost_missing);
  CHECK(metric(partial, "GPU utilization")["best"].is_null());
  // Differences below what the table prints are ties.
  const Json close = compare_runs({{"a", run(0.9, 1000, 8)}, {"b", run(0.9000001, 1000, 8)}});
  CHECK(metric(close, "GPU utilization")["best"].is_null());
  const std::string table = format_comparison(c);
  CHECK(table.find("B - A") != std::string::npos);
  CHECK(table.find("-4 s") != std::string::npos);
}

TEST_CASE("render_report: one self-contained page; text from results cannot end its script early", "[report]") {
  Json r = run(0.9, 1000, 8);
  r["scenario"] = {{"name", "x</script><script>alert(1)</script>"}};
  const std::string page = render_report(r, timeseries_for_page("time_s,gpu_utilization\n0,1\n"));
  CHECK(page.rfind("<!DOCTYPE html>", 0) == 0);
  CHECK(page.find("Content-Security-Policy") != std::string::npos);
  CHECK(page.find("Chart.js v") != std::string::npos); // the library is inlined, not linked
  CHECK(page.find("<script src") == std::string::npos);
  CHECK(page.find("x</script>") == std::string::npos);
  CHECK(page.find("<title>aisim report: x&lt;/script&gt;") != std::string::npos);
}

TEST_CASE("render_sweep: a large sweep's page keeps the front and an even spread, and says so", "[report]") {
  Json sweep{{"kind", "sweep"}, {"run", {{"scenario", "s.json"}}}, {"points", Json::array()}};
  for (int i = 0; i < 25000; ++i)
    sweep["points"].push_back({{"point", i + 1}, {"pareto", i == 12345 || i == 24999}, {"metrics", Json::object()}});
  const std::string page = render_sweep(sweep);
  const auto start = page.find("<script id=\"aisim-data\" type=\"application/json\">");
  REQUIRE(start != std::string::npos);
  const auto body = page.find('>', start) + 1;
  const Json data = Json::parse(page.substr(body, page.find("</script>", body) - body));
  CHECK(data["mode"] == "sweep");
  CHECK(data["thinned"] == true);
  CHECK(data["total"] == 25000);
  const auto& kept = data["sweep"]["points"];
  CHECK(kept.size() <= 20000);
  CHECK(kept.size() >= 12500);
  int front = 0;
  for (const auto& p : kept)
    front += p["pareto"].get<bool>();
  CHECK(front == 2);
}
