#include "models/cost/cost.hpp"
#include "models/scenario/scenario_parser.hpp"

#include <catch2/catch.hpp>

#include <cmath>

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
  const auto c = compute_cost(*r.scenario, split, {}, RunTotals{1000 * 3600.0, 0, true}, {});
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
  CHECK(c.gpu_stalled.value == Approx(8 * 1000 * 0.25 * 2.0));
  CHECK(c.gpu_unused.value == 0);
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
  usage[1].start_bytes = usage[1].end_bytes = 100e12;
  usage[1].read_bytes = 1e6 * 365 * 86400; // 1 MB/s over the year simulated
  const auto c = compute_cost(*r.scenario, GpuTimeSplit{1, 0, 0, 0, 0}, usage, RunTotals{365 * 86400.0, 0, true}, {});
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

TEST_CASE("cost: the simulated period repeated or once, one-off work once either way", "[cost]") {
  const Json doc = Json::parse(R"({
    "schema_version": 1,
    "cluster": {"node_groups": [{"name": "g", "count": 1, "gpus_per_node": 8, "gpu": "H100-SXM"}]},
    "drives": {"d": {"capacity": "1TB", "read_bandwidth": "1GB/s", "write_bandwidth": "1GB/s", "price": "$100"}},
    "storage": {"s": {"kind": "jbof", "enclosures": 1, "drives_per_enclosure": 10, "drive": "d"},
                "o": {"kind": "object", "gateways": 1, "gateway_bandwidth": "1GB/s", "capacity": "1PB",
                      "storage_price": "$1/TB-month", "retrieval_price": "$0.01/GB"}},
    "workloads": [{"name": "j", "kind": "training", "gpus": 8, "step_time": "1s", "global_batch": 1,
                   "sample_size": "1MB", "dataset": {"size": "1GB", "storage": "s"},
                   "checkpoint": {"size": "1GB", "interval": "1h", "storage": "s"}}],
    "costs": {"horizon": "360d", "gpu_hour_price": "$2/h"}
  })");
  for (const char* mode : {"repeat", "once"}) {
    Json d = doc;
    d["costs"]["extrapolation"] = mode;
    auto r = parse_scenario(d, "c.json", ".");
    REQUIRE(r.scenario.has_value());
    const bool once = std::string(mode) == "once";
    std::vector<StorageUsage> usage(2);
    // A 30-day period: the object tier starts with 10 TB, gains 6 TB of archives (1 TB of it a one-off dataset
    // made by preprocessing), and serves 2 TB, 1 TB of it one-off staging.
    auto& o = usage[1];
    o.start_bytes = 10e12;
    o.end_bytes = 16e12;
    o.mean_stored_bytes = 13e12;
    o.mean_by_class[static_cast<size_t>(DataClass::archived_checkpoint)] = 13e12;
    o.one_off_write_bytes = 1e12;
    o.read_bytes = 2e12;
    o.one_off_read_bytes = 1e12;
    const GpuTimeSplit split{0.6, 0.1, 0.1, 0, 0.2};
    const auto c = compute_cost(*r.scenario, split, usage, RunTotals{30 * 86400.0, 0, true}, {});
    INFO(mode);
    CHECK(c.windows == Approx(12));
    const auto& obj = c.components[2];
    if (once) {
      // Read once: 2 TB x $0.01/GB. Held: 13 TB for one month, then the 16 TB it ends with for 11.
      CHECK(obj.retrieval.value == Approx(20.0 * 1e3 / 1e3 * 1));
      CHECK(obj.space.value == Approx((13 + 16 * 11) * 360.0 / 365.0 * 12.0 / 12.0).epsilon(1e-9));
      // The GPUs: the period's split for one month of twelve, unused after it.
      CHECK(c.useful_gpu_hours == Approx(8 * 360 * 24 * 0.6 / 12));
      CHECK(c.gpu_stalled.value == Approx(8 * 360 * 24 * 0.2 / 12 * 2));
      CHECK(c.gpu_unused.value == Approx(8 * 360 * 24 * (1 - 0.8 / 12) * 2));
    } else {
      // One-off 1 TB once, the recurring 1 TB twelve times: 13 TB x $0.01/GB.
      CHECK(obj.retrieval.value == Approx(130));
      // Each month holds the first's 13 TB plus 5 TB of recurring growth per month before it, and the one-off
      // 1 TB from the second month on: mean 13 + 5 x 11 / 2 + 1 x 11 / 12 TB over 360 days.
      const double mean_tb = 13 + 5 * 11 / 2.0 + 11 / 12.0;
      CHECK(obj.space.value == Approx(mean_tb * 360.0 * 86400 / (365.0 * 86400 / 12)));
      CHECK(c.useful_gpu_hours == Approx(8 * 360 * 24 * 0.6));
      CHECK(c.gpu_stalled.value == Approx(8 * 360 * 24 * 0.2 * 2));
      CHECK(c.gpu_unused.value == Approx(8 * 360 * 24 * 0.2 * 2));
    }
    CHECK(c.usd_per_useful_gpu_hour == Approx(c.total.value / c.useful_gpu_hours));
  }
}

TEST_CASE("cost: a scenario that trains no model has no cost per useful GPU-hour", "[cost]") {
  const Json doc = Json::parse(R"({
    "schema_version": 1,
    "cluster": {"node_groups": [{"name": "g", "count": 1, "gpus_per_node": 8, "gpu": "H100-SXM"}]},
    "drives": {"d": {"capacity": "1TB", "read_bandwidth": "1GB/s", "write_bandwidth": "1GB/s", "price": "$100"}},
    "storage": {"s": {"kind": "jbof", "enclosures": 1, "drives_per_enclosure": 10, "drive": "d"}},
    "workloads": [{"name": "j", "kind": "training", "gpus": 8, "step_time": "1s", "global_batch": 1,
                   "sample_size": "1MB", "dataset": {"size": "1GB", "storage": "s"},
                   "checkpoint": {"size": "1GB", "interval": "1h", "storage": "s"}}]
  })");
  auto r = parse_scenario(doc, "c.json", ".");
  REQUIRE(r.scenario.has_value());
  std::vector<StorageUsage> usage(1);
  usage[0].mean_stored_bytes = 5e12;
  const auto c = compute_cost(*r.scenario, GpuTimeSplit{0.5, 0, 0, 0, 0.5}, usage, RunTotals{86400, 1e9, false}, {});
  CHECK(c.usd_per_useful_gpu_hour == 0);
  CHECK(c.usd_per_1000_requests == Approx(c.total.value / (1e9 * c.windows / 1000)));
  CHECK(c.usd_per_tb_month > 0);
}

TEST_CASE("cost: rented GPUs, an owned object store, the fabric and facility space", "[cost]") {
  const Json doc = Json::parse(R"({
    "schema_version": 1,
    "cluster": {"node_groups": [{"name": "cloud", "count": 2, "gpus_per_node": 8, "gpu": "H100-SXM",
                                 "gpu_rent": "$2/h"}]},
    "network": {"switch_price": "$10k", "port_price": "$500", "switch_power": "500W"},
    "storage": {"o": {"kind": "object", "gateways": 1, "gateway_bandwidth": "1GB/s", "capacity": "1PB",
                      "ownership": "owned", "purchase_price": "$20/TB", "power": "1kW"}},
    "workloads": [{"name": "j", "kind": "training", "gpus": 16, "step_time": "1s", "global_batch": 1,
                   "sample_size": "1MB", "dataset": {"size": "1GB", "storage": "o"},
                   "checkpoint": {"size": "1GB", "interval": "1h", "storage": "o"}}],
    "costs": {"horizon": "1y", "service_life": "2y", "maintenance": 0.1, "energy_price": "$0.10/kWh", "pue": 1.0,
              "facility_price": "$100/kW-month"}
  })");
  auto r = parse_scenario(doc, "c.json", ".");
  INFO(r.diagnostics.format(true));
  REQUIRE(r.scenario.has_value());
  std::vector<StorageUsage> usage(1);
  usage[0].mean_stored_bytes = usage[0].end_bytes = 100e12;
  const auto c = compute_cost(*r.scenario, GpuTimeSplit{1, 0, 0, 0, 0}, usage, RunTotals{365 * 86400.0, 0, true},
                              SwitchInventory{3, 100});
  REQUIRE(c.components.size() == 3);
  const auto& cloud = c.components[0];
  CHECK(cloud.purchase.value == 0);
  CHECK(cloud.energy.value == 0);
  CHECK(cloud.facility.value == 0);
  CHECK(cloud.rent.value == Approx(16 * 2.0 * 8760)); // every GPU-hour of the year
  const auto& fabric = c.components[1];
  CHECK(fabric.kind == "network");
  CHECK(fabric.purchase.value == Approx(3 * 10000 + 100 * 500));
  CHECK(fabric.energy.value == Approx(1.5 * 8760 * 0.10));
  CHECK(fabric.facility.value == Approx(1.5 * 100 * 12));
  const auto& o = c.components[2];
  CHECK(o.purchase.value == Approx(1000 * 20)); // 1 PB at $20/TB
  CHECK(o.amortized.value == Approx(10000));    // half of it in one year of two
  CHECK(o.maintenance.value == Approx(2000));
  CHECK(o.energy.value == Approx(1.0 * 8760 * 0.10));
  CHECK(o.facility.value == Approx(1.0 * 100 * 12));
  CHECK(o.space.value == 0); // owned: no provider bill
  CHECK(c.rent.value == Approx(cloud.rent.value));
  CHECK(c.opex.value == Approx(c.maintenance.value + c.energy.value + c.facility.value + c.rent.value));
  CHECK(c.opex_per_year.value == Approx(c.opex.value));
  // An owned store is paid whole: what no class holds is unused capacity.
  CHECK(c.storage_unused.value == Approx(o.total().value));
}

TEST_CASE("cost: growing data buys capacity the year it is needed and fills object tiers", "[cost]") {
  const Json doc = Json::parse(R"({
    "schema_version": 1,
    "cluster": {"node_groups": [{"name": "g", "count": 1, "gpus_per_node": 8, "gpu": "H100-SXM"}]},
    "drives": {"d": {"capacity": "1TB", "read_bandwidth": "1GB/s", "write_bandwidth": "1GB/s", "price": "$100",
                     "power_active": "10W", "power_idle": "10W"}},
    "storage": {"s": {"kind": "jbof", "enclosures": 1, "drives_per_enclosure": 10, "drive": "d",
                      "enclosure_price": "$0", "enclosure_power": "0W"},
                "o": {"kind": "object", "gateways": 1, "gateway_bandwidth": "1GB/s", "capacity": "1PB",
                      "storage_price": "$10/TB-month"}},
    "workloads": [{"name": "j", "kind": "training", "gpus": 8, "step_time": "1s", "global_batch": 1,
                   "sample_size": "1MB", "dataset": {"size": "1GB", "storage": "s"},
                   "checkpoint": {"size": "1GB", "interval": "1h", "storage": "s"}}],
    "costs": {"horizon": "730d", "service_life": "730d", "maintenance": 0, "energy_price": "$1/kWh", "pue": 1.0,
              "data_growth": 0.5}
  })");
  auto r = parse_scenario(doc, "c.json", ".");
  INFO(r.diagnostics.format(true));
  REQUIRE(r.scenario.has_value());
  std::vector<StorageUsage> usage(2);
  usage[0].mean_stored_bytes = usage[0].start_bytes = usage[0].end_bytes = 8e12; // 8 TB of 10
  usage[1].mean_stored_bytes = usage[1].start_bytes = usage[1].end_bytes = 100e12;
  const auto c = compute_cost(*r.scenario, GpuTimeSplit{1, 0, 0, 0, 0}, usage, RunTotals{730 * 86400.0, 0, true}, {});
  const auto& s = c.components[1];
  // Year one ends with 12 TB: 2 TB more bought at the start; year two ends with 18 TB: 6 TB more a year later.
  CHECK(s.growth.value == Approx(800));
  CHECK(s.amortized.value == Approx(1000 + 200 + 600 * 0.5));
  // 100 W for two years, 20 W more for two, 60 W more for one.
  CHECK(s.energy.value == Approx((100 * 2 + 20 * 2 + 60) * 8760 / 1000.0));
  CHECK(c.capex.value == Approx(8 * 30000 + 60000 + 1000 + 800));
  CHECK(c.capex_growth.value == Approx(800));
  // The object tier holds 100 TB x 1.5^t: on average (1.5^2 - 1) / (2 ln 1.5) times as much over two years.
  const double mean = (1.5 * 1.5 - 1) / (2 * std::log(1.5));
  CHECK(c.components[2].space.value == Approx(10.0 * 100 * mean * 24).epsilon(1e-6));
}

TEST_CASE("cost: a repeated period that keeps adding data buys capacity, a provider's tier only warns", "[cost]") {
  const Json doc = Json::parse(R"({
    "schema_version": 1,
    "cluster": {"node_groups": [{"name": "g", "count": 1, "gpus_per_node": 8, "gpu": "H100-SXM"}]},
    "drives": {"d": {"capacity": "1TB", "read_bandwidth": "1GB/s", "write_bandwidth": "1GB/s", "price": "$100"}},
    "storage": {"s": {"kind": "jbof", "enclosures": 1, "drives_per_enclosure": 10, "drive": "d",
                      "enclosure_price": "$0"},
                "o": {"kind": "object", "gateways": 1, "gateway_bandwidth": "1GB/s", "capacity": "10TB"}},
    "workloads": [{"name": "j", "kind": "training", "gpus": 8, "step_time": "1s", "global_batch": 1,
                   "sample_size": "1MB", "dataset": {"size": "1GB", "storage": "s"},
                   "checkpoint": {"size": "1GB", "interval": "1h", "storage": "s"}}],
    "costs": {"horizon": "360d", "service_life": "720d", "maintenance": 0}
  })");
  auto r = parse_scenario(doc, "c.json", ".");
  REQUIRE(r.scenario.has_value());
  // Each 30-day period adds 2 TB of archives to both (4 TB at its end): 10 TB is full after 4 + 2 (t - 30 d) / 30 d
  // = 10, t = 120 d; the horizon's end needs 4 + 2 x 11 = 26 TB, 16 TB more, bought at its start.
  std::vector<StorageUsage> usage(2);
  for (auto& u : usage) {
    u.start_bytes = 2e12;
    u.end_bytes = 4e12;
    u.mean_stored_bytes = 3e12;
    u.mean_by_class[static_cast<size_t>(DataClass::archived_checkpoint)] = 3e12;
    u.gained_by_class[static_cast<size_t>(DataClass::archived_checkpoint)] = 2e12;
  }
  const auto c = compute_cost(*r.scenario, GpuTimeSplit{1, 0, 0, 0, 0}, usage, RunTotals{30 * 86400.0, 0, true}, {});
  const auto& s = c.components[1];
  CHECK(s.growth.value == Approx(1.6 * 1000));
  CHECK(s.amortized.value == Approx(2.6 * 1000 * 0.5));
  REQUIRE(c.warnings.size() == 2);
  CHECK(c.warnings[0] == "storage \"s\" (10 TB) fills up after 120 d of the 360 d horizon (2 TB more every 30 d "
                         "simulated): the cost buys $1,600 more of it when needed");
  CHECK(c.warnings[1] == "storage \"o\" (10 TB) fills up after 120 d of the 360 d horizon (2 TB more every 30 d "
                         "simulated): the cost assumes the provider has the space");
  // Everything on the JBOFs is archives: no capacity sits unused once the data outgrows what was first bought.
  CHECK(c.storage_unused.value == Approx(0).margin(1e-6));
}
