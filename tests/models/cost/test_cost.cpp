#include "models/cost/cost.hpp"
#include "models/scenario/scenario_parser.hpp"

#include <catch2/catch.hpp>

using namespace aisim::models;

TEST_CASE("cost adds capex and energy and prices useful GPU-hours", "[cost]") {
  const Json doc = Json::parse(R"({
    "schema_version": 1,
    "cluster": {"node_groups": [{"name": "g", "count": 1, "gpus_per_node": 8, "gpu": "H100-SXM",
                                 "gpu_price": "$10k", "node_price": "$20k", "node_power": "1kW"}]},
    "drives": {"d": {"capacity": "1TB", "read_bandwidth": "1GB/s", "write_bandwidth": "1GB/s", "price": "$100",
                     "power_active": "10W", "power_idle": "10W"}},
    "storage": {"s": {"kind": "jbof", "enclosures": 1, "drives_per_enclosure": 10, "drive": "d",
                      "enclosure_price": "$5k", "enclosure_power": "100W"}},
    "workloads": [{"name": "j", "kind": "training", "gpus": 8, "step_time": "1s", "global_batch": 1,
                   "sample_size": "1MB", "dataset": {"size": "1GB", "storage": "s"},
                   "checkpoint": {"size": "1GB", "interval": "1h", "storage": "s"}}],
    "costs": {"horizon": "1000h", "energy_price": "$0.10/kWh", "pue": 1.0, "gpu_hour_price": "$2/h"}
  })");
  auto r = parse_scenario(doc, "c.json", ".");
  REQUIRE(r.scenario.has_value());
  GpuTimeSplit split{0.75, 0.25, 0, 0, 0};
  const auto c = compute_cost(*r.scenario, split, {});
  CHECK(c.capex.value == Approx(8 * 10000 + 20000 + 5000 + 10 * 100));
  // GPUs: 8 x 700 W x (0.75 + 0.25 x idle fraction); node 1 kW; enclosure 100 W; drives 10 x 10 W.
  const double watts = 8 * 700 * (0.75 + 0.25 * kGpuIdlePowerFraction) + 1000 + 100 + 100;
  CHECK(c.opex.value == Approx(watts * 1000 / 1000.0 * 0.10));
  CHECK(c.total.value == Approx(c.capex.value + c.opex.value));
  CHECK(c.useful_gpu_hours == Approx(8 * 1000 * 0.75));
  CHECK(c.gpu_idle.value == Approx(8 * 1000 * 0.25 * 2.0));
  CHECK(c.usd_per_useful_gpu_hour == Approx(c.total.value / 6000.0));
}
