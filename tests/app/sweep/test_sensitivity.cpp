#include "app/sweep/sensitivity.hpp"

#include <catch2/catch.hpp>

using namespace aisim::app;
using aisim::models::Json;

TEST_CASE("sensitivity: relative ranges as planners write them", "[sweep]") {
  std::string error;
  CHECK(*parse_relative_range("20%", &error) == Approx(0.2));
  CHECK(*parse_relative_range("±20%", &error) == Approx(0.2));
  CHECK(*parse_relative_range("+-5%", &error) == Approx(0.05));
  CHECK(*parse_relative_range("0.3", &error) == Approx(0.3));
  for (const char* bad : {"0", "0%", "100%", "1.5", "-10%", "abc", "", "20 %x"}) {
    INFO(bad);
    CHECK_FALSE(parse_relative_range(bad, &error));
    CHECK(error.find("--range") != std::string::npos);
  }
}

TEST_CASE("sensitivity: a value scaled keeps its unit and its prefix", "[sweep]") {
  CHECK(*scale_value(Json("400Gbps"), 0.8) == Json("320Gbps"));
  CHECK(*scale_value(Json("$2.50/h"), 1.2) == Json("$3/h"));
  CHECK(*scale_value(Json("$0.12/kWh"), 0.8) == Json("$0.096/kWh"));
  CHECK(*scale_value(Json("1.6MIOPS"), 1.25) == Json("2MIOPS"));
  CHECK(*scale_value(Json("50k op/s"), 0.9) == Json("45k op/s"));
  CHECK(*scale_value(Json(0.02), 1.5) == Json(0.03));
  CHECK_FALSE(scale_value(Json("jbof"), 2));
  CHECK_FALSE(scale_value(Json(true), 2));
}

TEST_CASE("sensitivity: the uncertain inputs are rates, prices and failure rates; the scenario's own ranges win",
          "[sweep]") {
  const Json doc = Json::parse(R"({
    "schema_version": 1, "name": "n",
    "cluster": {"node_groups": [{"name": "g", "count": 4, "nic_speed": "400Gbps", "host_memory": "2TiB",
                                 "node_mtbf": "5000h"}]},
    "drives": {"d": {"capacity": "7.68TB", "read_bandwidth": "7GB/s", "max_iops": "1.6MIOPS", "price": "$1000",
                     "afr": 0.9}},
    "storage": {"s": {"kind": "jbof", "enclosures": 2, "port_speed": "0Gbps",
                      "failures": {"enclosures": {"mtbf": "100000h", "repair_time": "4h"}}}},
    "workloads": [{"name": "w", "step_time": "1s", "checkpoint": {"interval": "30min"}}],
    "costs": {"energy_price": "$0.12/kWh", "pue": 1.3},
    "simulation": {"duration": "7d", "seed": 1},
    "uncertainty": {"/drives/d/read_bandwidth": {"low": "5GB/s", "high": "7.5GB/s"},
                    "/workloads/0/step_time": {"low": "0.8s", "high": "1.5s"}}
  })");
  const auto inputs = uncertain_inputs(doc, 0.2);
  std::vector<std::string> pointers;
  for (const auto& in : inputs)
    pointers.push_back(in.pointer);
  // Sizes, counts, durations that are not MTBFs, factors, zero values and the simulation section are not varied.
  CHECK(pointers == std::vector<std::string>{"/cluster/node_groups/0/nic_speed", "/cluster/node_groups/0/node_mtbf",
                                             "/drives/d/read_bandwidth", "/drives/d/max_iops", "/drives/d/price",
                                             "/drives/d/afr", "/storage/s/failures/enclosures/mtbf",
                                             "/costs/energy_price", "/workloads/0/step_time"});
  CHECK(inputs[0].kind == "bandwidth");
  CHECK(inputs[0].source == "±20%");
  CHECK(inputs[0].low == Json("320Gbps"));
  CHECK(inputs[0].high == Json("480Gbps"));
  CHECK(inputs[1].kind == "failure rate");
  CHECK(inputs[3].kind == "operation rate");
  CHECK(inputs[4].kind == "price");
  CHECK(inputs[5].high == Json(1)); // an AFR stays at most 1
  // The scenario's own range replaces the ±20% of the same input and keeps its kind; a given one is added.
  CHECK(inputs[2].source == "scenario");
  CHECK(inputs[2].kind == "bandwidth");
  CHECK(inputs[2].low == Json("5GB/s"));
  CHECK(inputs[2].nominal == Json("7GB/s"));
  CHECK(inputs[8].kind == "given");
  CHECK(inputs[8].high == Json("1.5s"));
}

TEST_CASE("sensitivity: one input at a time around the nominal run, ranked by swing", "[sweep]") {
  std::vector<UncertainInput> inputs{{"/a", "bandwidth", "±20%", Json("10GB/s"), Json("8GB/s"), Json("12GB/s")},
                                     {"/b", "price", "±20%", Json("$5/h"), Json("$4/h"), Json("$6/h")},
                                     {"/c", "given", "scenario", Json(3), Json(1), Json(9)}};
  const auto plan = plan_sensitivity(inputs);
  REQUIRE(plan.points.size() == 7);
  CHECK(plan.points[0].choice == std::vector<uint32_t>{0, 0, 0});
  CHECK(plan.points[1].choice == std::vector<uint32_t>{1, 0, 0});
  CHECK(plan.points[2].choice == std::vector<uint32_t>{2, 0, 0});
  CHECK(plan.points[6].choice == std::vector<uint32_t>{0, 0, 2});
  CHECK(plan.axes[0].unit == std::optional<std::string>("GB/s"));
  CHECK(assignment(plan.axes[1], 2) == "/b=\"$6/h\"");
  CHECK(plan_json(plan)["sample"]["mode"] == "one_at_a_time");

  std::vector<SweepRow> rows(7);
  const double metric[] = {0.9, 0.8, 0.95, 0.9, 0.9, 0.5, 0.91};
  for (size_t i = 0; i < rows.size(); ++i) {
    rows[i].status = "ok";
    rows[i].metrics["gpu_utilization_fraction"] = metric[i];
  }
  rows[4].status = "failed"; // /b at its high: no swing can be told
  rows[4].metrics.clear();
  const auto s = rank_sensitivity(inputs, rows, "gpu_utilization_fraction");
  CHECK(*s.nominal == 0.9);
  REQUIRE(s.rows.size() == 3);
  CHECK(s.rows[0].pointer == "/c");
  CHECK(s.rows[0].swing == Approx(0.41));
  CHECK(s.rows[1].pointer == "/a");
  CHECK(s.rows[1].swing == Approx(0.15));
  CHECK(s.rows[1].low_label == "8GB/s");
  CHECK(s.rows[2].pointer == "/b");
  CHECK_FALSE(s.rows[2].at_high);
  CHECK(s.rows[2].swing == 0);
  const Json j = sensitivity_json(s);
  CHECK(j["inputs"][2]["at_high"].is_null());
  CHECK(j["metric"] == "gpu_utilization_fraction");
}
