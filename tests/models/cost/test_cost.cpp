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
    "costs": {"horizon": "1000h", "energy_price": "$0.10/kWh", "pue": 1.0, "gpu_hour_price": "$2/h",
              "service_life": "2000h", "maintenance": 0.0876}
  })");
  auto r = parse_scenario(doc, "c.json", ".");
  REQUIRE(r.scenario.has_value());
  GpuTimeSplit split{0.75, 0.25, 0, 0, 0};
  const auto c = compute_cost(*r.scenario, split, {});
  const double bought = 8 * 10000 + 20000 + 5000 + 10 * 100;
  CHECK(c.capex.value == Approx(bought));
  // Written off over 2000 h: half of it in a 1000 h horizon.
  CHECK(c.capex_amortized.value == Approx(bought / 2));
  // 8.76 % a year is 0.001 % an hour: 1 % of the purchase over 1000 h.
  CHECK(c.maintenance.value == Approx(bought * 0.01));
  // GPUs: 8 x 700 W x (0.75 + 0.25 x idle fraction); node 1 kW; enclosure 100 W; drives 10 x 10 W.
  const double watts = 8 * 700 * (0.75 + 0.25 * kGpuIdlePowerFraction) + 1000 + 100 + 100;
  CHECK(c.energy.value == Approx(watts * 1000 / 1000.0 * 0.10));
  CHECK(c.opex.value == Approx(c.energy.value + c.maintenance.value));
  CHECK(c.total.value == Approx(c.capex_amortized.value + c.opex.value));
  REQUIRE(c.components.size() == 2);
  CHECK(c.components[0].kind == "compute");
  CHECK(c.components[1].purchase.value == Approx(5000 + 10 * 100));
  CHECK(c.components[1].energy.value == Approx(200 * 1000 / 1000.0 * 0.10));
  CHECK(c.useful_gpu_hours == Approx(8 * 1000 * 0.75));
  CHECK(c.gpu_idle.value == Approx(8 * 1000 * 0.25 * 2.0));
  CHECK(c.usd_per_useful_gpu_hour == Approx(c.total.value / 6000.0));
}

TEST_CASE("cost: an object tier bills the data held on average and the bytes read; classes share the cost", "[cost]") {
  const Json doc = Json::parse(R"({
    "schema_version": 1,
    "cluster": {"node_groups": [{"name": "g", "count": 1, "gpus_per_node": 8, "gpu": "H100-SXM"}]},
    "drives": {"d": {"capacity": "1TB", "read_bandwidth": "1GB/s", "write_bandwidth": "1GB/s", "price": "$100",
                     "power_active": "1W", "power_idle": "1W"}},
    "storage": {"s": {"kind": "jbof", "enclosures": 1, "drives_per_enclosure": 10, "drive": "d",
                      "enclosure_price": "$0", "enclosure_power": "0W"},
                "o": {"kind": "object", "gateways": 1, "gateway_bandwidth": "1GB/s", "capacity": "1PB",
                      "storage_price": "$10/TB-month", "retrieval_price": "$0.01/GB", "egress_price": "$0.01/GB"}},
    "workloads": [{"name": "j", "kind": "training", "gpus": 8, "step_time": "1s", "global_batch": 1,
                   "sample_size": "1MB", "dataset": {"size": "1GB", "storage": "s"},
                   "checkpoint": {"size": "1GB", "interval": "1h", "storage": "s"}}],
    "costs": {"horizon": "1y", "service_life": "1y", "maintenance": 0, "energy_price": "$0/kWh"}
  })");
  auto r = parse_scenario(doc, "c.json", ".");
  INFO(r.diagnostics.format(true));
  REQUIRE(r.scenario.has_value());
  std::vector<StorageUsage> usage(2);
  // The JBOF tier (10 TB) holds a dataset of 2.5 TB and checkpoints of 2.5 TB on average: half unused.
  usage[0].mean_by_class[static_cast<size_t>(DataClass::training_dataset)] = 2.5e12;
  usage[0].mean_by_class[static_cast<size_t>(DataClass::active_checkpoint)] = 2.5e12;
  usage[0].mean_stored_bytes = 5e12;
  // The object tier holds 100 TB of replicas on average and serves 1 MB/s.
  usage[1].mean_by_class[static_cast<size_t>(DataClass::replica)] = 100e12;
  usage[1].mean_stored_bytes = 100e12;
  usage[1].read_Bps = 1e6;
  const auto c = compute_cost(*r.scenario, GpuTimeSplit{1, 0, 0, 0, 0}, usage);
  const auto& o = c.components[2];
  CHECK(o.space.value == Approx(10.0 * 100 * 12));                 // $10 per TB-month x 100 TB x 12 months
  CHECK(o.retrieval.value == Approx(0.02e-9 * 1e6 * 365 * 86400)); // $0.02/GB x 31.5 TB read in the year
  const auto& jbof = c.components[1];
  CHECK(jbof.total().value == Approx(1000)); // 10 drives x $100, written off in the 1-year horizon
  const auto cls = [&](DataClass k) { return c.storage_by_class[static_cast<size_t>(k)].value; };
  CHECK(cls(DataClass::training_dataset) == Approx(250));
  CHECK(cls(DataClass::active_checkpoint) == Approx(250));
  CHECK(c.storage_unused.value == Approx(500));
  CHECK(cls(DataClass::replica) == Approx(o.space.value));
  CHECK(c.storage_retrieval.value == Approx(o.retrieval.value));
}
