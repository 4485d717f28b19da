#include "app/sweep/sweep_plan.hpp"
#include "app/sweep/sweep_table.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>
#include <unistd.h>

using namespace aisim::app;
using aisim::models::Json;

namespace {

SweepAxis axis(const std::string& arg) {
  std::string error;
  auto a = parse_vary(arg, &error);
  INFO(error);
  REQUIRE(a);
  return *a;
}

std::string refusal(const std::string& arg) {
  std::string error;
  CHECK_FALSE(parse_vary(arg, &error));
  return error;
}

} // namespace

TEST_CASE("sweep axes: lists, ranges with units and factors, JSON arrays, files", "[sweep]") {
  const auto list = axis("/storage/hot/enclosures=1,2,4,8");
  CHECK(list.pointer == "/storage/hot/enclosures");
  CHECK(list.values == std::vector<Json>{1, 2, 4, 8});
  REQUIRE(list.unit);
  CHECK(list.unit->empty());

  const auto names = axis("/cluster/node_groups/0/gpu=H100-SXM, B200");
  CHECK(names.values == std::vector<Json>{"H100-SXM", "B200"});
  CHECK_FALSE(names.unit);

  const auto step = axis("/x=8..64:8");
  CHECK(step.values.size() == 8);
  CHECK(step.values.front() == 8);
  CHECK(step.values.back() == 64);
  CHECK(step.range);

  // A factor step in a unit; the end in another unit of the same dimension converts.
  const auto speeds = axis("/p=400Gbps..1.6Tbps:x2");
  CHECK(speeds.values == std::vector<Json>{"400Gbps", "800Gbps", "1600Gbps"});
  CHECK(*speeds.unit == "Gbps");
  CHECK(speeds.numbers == std::vector<double>{400, 800, 1600});

  // A fractional step lands on round decimals, not on the float noise of repeated addition.
  const auto fractions = axis("/f=0.1..0.5:0.1");
  REQUIRE(fractions.values.size() == 5);
  CHECK(fractions.values[2].get<double>() == 0.3);
  CHECK(fractions.values[4].get<double>() == 0.5);

  // A step with its own unit converts to the range's.
  const auto sizes = axis("/s=500GB..2TB:500GB");
  CHECK(sizes.values == std::vector<Json>{"500GB", "1000GB", "1500GB", "2000GB"});

  // Whole sub-objects, inline or from a file; each string "8" stays a string.
  const auto objects = axis(R"(/storage/hot=[{"kind": "jbof", "name": "a"}, {"kind": "array"}])");
  REQUIRE(objects.values.size() == 2);
  CHECK(objects.values[0]["kind"] == "jbof");
  CHECK(axis_label(objects, 0) == "a");
  CHECK(axis_label(objects, 1) == "value 2");
  CHECK(assignment(axis(R"(/n=["8"])"), 0) == R"(/n="8")");

  const auto file = std::filesystem::temp_directory_path() / ("aisim-vary-" + std::to_string(::getpid()) + ".json");
  std::ofstream(file) << R"([{"enclosures": 2}, {"enclosures": 4}])";
  const auto from_file = axis("/storage/hot=@" + file.string());
  std::filesystem::remove(file);
  CHECK(from_file.values.size() == 2);
}

TEST_CASE("sweep axes: bad values are refused, naming the argument", "[sweep]") {
  CHECK(refusal("storage=1").find("expected /json/pointer=VALUES") != std::string::npos);
  CHECK(refusal("/x=").find("no values") != std::string::npos);
  CHECK(refusal("/x=8..2:1").find("empty range") != std::string::npos);
  CHECK(refusal("/x=2..8").find("needs a step") != std::string::npos);
  CHECK(refusal("/x=2..8:0").find("above 0") != std::string::npos);
  CHECK(refusal("/x=2..8:x1").find("above 1") != std::string::npos);
  CHECK(refusal("/x=0..8:x2").find("start above 0") != std::string::npos);
  CHECK(refusal("/x=100Gbps..1TB:x2").find("do not convert") != std::string::npos);
  CHECK(refusal("/x=1,,2").find("empty item") != std::string::npos);
  CHECK(refusal("/x=[]").find("non-empty JSON array") != std::string::npos);
  CHECK(refusal("/x=@/nonexistent/values.json").find("/nonexistent/values.json") != std::string::npos);
  CHECK(refusal("/x=1..2000000:1").find("1,000,000") != std::string::npos);
  // Found by tests/fuzz (vary): each stopped aisim sweep with an uncaught exception.
  CHECK(refusal("/x=1,2e308") == "--vary /x=1,2e308: \"2e308\" is a number a double cannot hold");
  CHECK(refusal("/x=[1, 1e400]").find("not valid JSON") != std::string::npos);
  CHECK(refusal("/x=H100,\x95") == "--vary: not UTF-8 text (a scenario is JSON, which is UTF-8)");
  for (const auto& arg : {"storage=1", "/x=8..2:1", "/x=[]", "/x=1,2e308"})
    CHECK(refusal(arg).starts_with("--vary"));
}

TEST_CASE("sweep plans: the grid in nested-loop order, samples reproducible and distinct", "[sweep]") {
  const std::vector<SweepAxis> axes{axis("/a=1,2,3"), axis("/b=10,20")};
  const auto grid = plan_sweep(axes, {});
  REQUIRE(grid.points.size() == 6);
  CHECK(grid.points[0].choice == std::vector<uint32_t>{0, 0});
  CHECK(grid.points[1].choice == std::vector<uint32_t>{0, 1});
  CHECK(grid.points[5].choice == std::vector<uint32_t>{2, 1});
  CHECK(assignment(axes[1], grid.points[1].choice[1]) == "/b=20");

  std::string error;
  const auto random = parse_sample("random:4", &error);
  REQUIRE(random);
  const auto r1 = plan_sweep(axes, *random);
  const auto r2 = plan_sweep(axes, *random);
  REQUIRE(r1.points.size() == 4);
  std::set<std::vector<uint32_t>> distinct;
  for (size_t i = 0; i < 4; ++i) {
    CHECK(r1.points[i].choice == r2.points[i].choice);
    distinct.insert(r1.points[i].choice);
  }
  CHECK(distinct.size() == 4);
  // A sample as large as the grid is the grid.
  CHECK(plan_sweep(axes, *parse_sample("random:100", &error)).points.size() == 6);

  // Latin: every stratum of every axis taken once, whatever the sample size.
  const std::vector<SweepAxis> wide{axis("/a=1..100:1"), axis("/b=1..50:1")};
  const auto latin = plan_sweep(wide, *parse_sample("latin:10", &error));
  REQUIRE(latin.points.size() == 10);
  std::set<uint32_t> strata_a, strata_b;
  for (const auto& p : latin.points) {
    strata_a.insert(p.choice[0] / 10);
    strata_b.insert(p.choice[1] / 5);
  }
  CHECK(strata_a.size() == 10);
  CHECK(strata_b.size() == 10);
  // Another seed, another sample.
  SampleSpec other = *parse_sample("latin:10", &error);
  other.seed = 2;
  const auto latin2 = plan_sweep(wide, other);
  bool differs = false;
  for (size_t i = 0; i < 10; ++i)
    differs = differs || latin2.points[i].choice != latin.points[i].choice;
  CHECK(differs);

  CHECK_FALSE(parse_sample("latin:0", &error));
  CHECK_FALSE(parse_sample("sobol:4", &error));
  CHECK(points_to_run({axis("/a=1..1000:1"), axis("/b=1..1000:1"), axis("/c=1,2")}, {}) == 2e6);
}

TEST_CASE("sweep table: headline metrics, the Pareto front and plain-decimal CSV", "[sweep]") {
  const Json run = Json::parse(R"({
    "gpu": {"utilization": 0.9, "stall": {"data": 0.05, "checkpoint": 0.03, "failure": 0.0, "idle": 0.02}},
    "jobs": [{"checkpoints": {"count": 3, "write_s": {"p99": 2.5}}},
             {"checkpoints": {"count": 0, "write_s": {"p99": 0}}}],
    "failures": {"lost_usd": {"total": 10}, "data_loss_events": [], "data_lost_by_class": {}},
    "placement": [{"expected_loss_usd_per_year": 5}, {"expected_loss_usd_per_year": null}],
    "cost": {"capex_usd": 1e6, "opex_per_year_usd": 2e5, "total_usd": 1.6e6, "total_with_lost_gpu_usd": 1.7e6,
             "usd_per_useful_gpu_hour": 1.25},
    "sim": {"simulated_s": 86400, "events": 1234}})");
  const auto m = headline_metrics(run);
  CHECK(m.at("gpu_utilization_fraction") == 0.9);
  CHECK(m.at("checkpoint_write_p99_s") == 2.5);
  CHECK(m.at("total_usd") == 1.6e6);
  CHECK(m.at("total_with_lost_gpu_usd") == 1.7e6);
  CHECK_FALSE(m.contains("expected_loss_usd_per_year")); // only part of the data is priced
  CHECK_FALSE(m.contains("serving_p99_s"));

  // Utilization up, cost with lost GPU time down: b dominates a; c is cheaper but slower; d equals b. Spend alone
  // is no objective: a's spend is the lowest of all (its GPUs stalled, drawing less power), yet it is dominated.
  std::vector<SweepRow> rows(5);
  const std::vector<std::pair<double, double>> uc{{0.90, 200}, {0.95, 150}, {0.80, 100}, {0.95, 150}, {0.99, 300}};
  for (size_t i = 0; i < rows.size(); ++i) {
    rows[i].status = "ok";
    rows[i].metrics = {
        {"gpu_utilization_fraction", uc[i].first}, {"total_with_lost_gpu_usd", uc[i].second}, {"total_usd", 50}};
  }
  rows[0].metrics["total_usd"] = 10;
  rows[4].status = "failed";
  const auto objectives = pareto_objectives(rows);
  CHECK(objectives == std::vector<std::string>{"gpu_utilization_fraction", "total_with_lost_gpu_usd"});
  mark_pareto(rows, objectives);
  CHECK_FALSE(rows[0].pareto);
  CHECK(rows[1].pareto);
  CHECK(rows[2].pareto);
  CHECK(rows[3].pareto);
  CHECK_FALSE(rows[4].pareto); // a failed point is on no front

  // Risk joins the objectives when every finished point has it: a dearer but safer point is then on the front.
  rows[0].metrics["expected_loss_usd_per_year"] = 1;
  for (size_t i = 1; i < 4; ++i)
    rows[i].metrics["expected_loss_usd_per_year"] = 50;
  const auto with_risk = pareto_objectives(rows);
  CHECK(with_risk.size() == 3);
  mark_pareto(rows, with_risk);
  CHECK(rows[0].pareto);

  CHECK(plain_number(2.8070801470523233e-10) == "0.00000000028070801470523233");
  CHECK(plain_number(19464800) == "19464800");

  SweepPlan plan = plan_sweep({axis("/p=400Gbps,800Gbps"), axis(R"(/n=["a,b", "c"])")}, {});
  std::vector<SweepRow> two(plan.points.size());
  for (auto& r : two) {
    r.status = "ok";
    r.metrics = {{"total_usd", 1e-7}};
  }
  two[1].status = "failed";
  two[1].error = "said \"no\"";
  two[1].metrics.clear();
  const std::string csv = sweep_csv(plan, two, false);
  CHECK(csv.starts_with("point,status,/p [Gbps],/n,gpu_utilization_fraction,"));
  CHECK(csv.find("\n1,ok,400,\"a,b\",") != std::string::npos);
  CHECK(csv.find(",0.0000001,") != std::string::npos);
  CHECK(csv.find("\"said \"\"no\"\"\"\n") != std::string::npos);
  CHECK(csv.find("e-0") == std::string::npos); // no exponent anywhere
}
