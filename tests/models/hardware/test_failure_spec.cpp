// Storage failure processes as a scenario states them: rates from AFR, MTBF or the drive model, Weibull lifetimes,
// failures at set times, and every bad value reported with its pointer.
#include "tests/models/scenario/scenario_errors.hpp"

#include "models/hardware/failure_spec.hpp"
#include "models/hardware/stripe_groups.hpp"
#include "models/scenario/scenario_parser.hpp"

#include <catch2/catch.hpp>

#include <cmath>
#include <random>

using namespace aisim::models;

namespace {

Json base() {
  return Json::parse(R"({
    "schema_version": 1,
    "cluster": {"node_groups": [{"name": "g", "count": 2, "gpu": "H100-SXM"}]},
    "drives": {"d": {"capacity": "7.68TB", "read_bandwidth": "7GB/s", "write_bandwidth": "7GB/s", "price": "$1000",
                     "afr": 0.01}},
    "storage": {
      "hot": {"kind": "jbof", "enclosures": 2, "drives_per_enclosure": 4, "drive": "d"},
      "arr": {"kind": "array", "controllers": 4, "failover": "active_passive", "controller_bandwidth": "40GB/s",
              "shelves": 1, "drives_per_shelf": 12, "drive": "d", "protection": {"scheme": "raid6", "data": 8}},
      "cold": {"kind": "object", "capacity": "1PB"}},
    "workloads": [{"name": "j", "kind": "training", "gpus": 16, "step_time": "1s", "global_batch": 8,
                   "sample_size": "1MB", "dataset": {"size": "1TB", "storage": "hot"},
                   "checkpoint": {"size": "100GB", "interval": "10min", "storage": "hot"}}]
  })");
}

StorageSystem parsed(const Json& doc, const char* name) {
  auto r = parse_scenario(doc, "s.json", ".");
  INFO(r.diagnostics.format(true));
  REQUIRE(r.scenario.has_value());
  return *r.scenario->find_storage(name);
}

} // namespace

TEST_CASE("failures: none unless stated; drives default to the drive model's AFR", "[failures]") {
  Json doc = base();
  CHECK_FALSE(parsed(doc, "hot").failures.any());
  doc["storage"]["hot"]["failures"] = Json::parse(R"({"drives": {"repair_time": "24h"},
                                                      "enclosures": {"mtbf": "100000h", "repair_time": "4h"}})");
  const auto f = parsed(doc, "hot").failures;
  REQUIRE(f.drives);
  // AFR is failures per component-year: 1% a year is a mean life of 100 years.
  CHECK(f.drives->mtbf.value == Approx(100 * kSecondsPerYear));
  CHECK(f.drives->annual_rate() == Approx(0.01));
  CHECK(f.drives->shape == 1.0);
  CHECK(f.drives->repair.value == 86400.0);
  REQUIRE(f.servers);
  CHECK(f.servers->mtbf.value == 100000 * 3600.0);
  CHECK(f.servers->repair.value == 4 * 3600.0);
  // An explicit AFR wins over the drive model's.
  doc["storage"]["hot"]["failures"]["drives"]["afr"] = 0.02;
  CHECK(parsed(doc, "hot").failures.drives->annual_rate() == Approx(0.02));
}

TEST_CASE("failures: an active-passive array's controllers fail in pairs with a takeover time", "[failures]") {
  Json doc = base();
  doc["storage"]["arr"]["failures"] = Json::parse(R"({"controllers": {"afr": 0.05, "repair_time": "8h"}})");
  const auto arr = parsed(doc, "arr");
  REQUIRE(arr.failures.servers);
  CHECK(arr.failures.takeover.value == 30.0);
  CHECK(members_per_slot(arr) == 2);
  CHECK(failing_servers(arr) == 4);
  CHECK(failing_drives(arr) == 12);
  CHECK(server_component("array") == "controller");
  CHECK(server_component("jbof") == "enclosure");
  CHECK(server_component("pfs") == "server");
}

TEST_CASE("failures: at set times, with or without a rate", "[failures]") {
  Json doc = base();
  doc["storage"]["hot"]["failures"] =
      Json::parse(R"({"enclosures": {"at": [{"time": "1h", "index": 1}, {"time": "2h"}], "repair_time": "4h"}})");
  const auto f = parsed(doc, "hot").failures;
  REQUIRE(f.servers);
  CHECK_FALSE(f.servers->random());
  REQUIRE(f.servers->scheduled.size() == 2);
  CHECK(f.servers->scheduled[0].at.value == 3600.0);
  CHECK(f.servers->scheduled[0].index == 1);
  CHECK(f.servers->scheduled[1].index == 0);
  // Drives with failures at set times only fail then, unless a rate is stated too.
  doc["storage"]["hot"]["failures"] = Json::parse(R"({"drives": {"at": [{"time": "1h"}], "repair_time": "4h"}})");
  CHECK_FALSE(parsed(doc, "hot").failures.drives->random());
}

TEST_CASE("failures: bad rates, shapes, repair times and indexes are errors with their pointers", "[failures]") {
  Json doc = base();
  doc["storage"]["hot"]["failures"] = Json::parse(R"({"drives": {"afr": 1.5, "repair_time": "24h"}})");
  CHECK_THAT(errors_of(doc), Catch::Contains("/storage/hot/failures/drives/afr: out of range"));
  doc["storage"]["hot"]["failures"] = Json::parse(R"({"drives": {"afr": 0, "repair_time": "24h"}})");
  CHECK_THAT(errors_of(doc), Catch::Contains("/storage/hot/failures/drives/afr: a failure rate must be positive"));
  doc["storage"]["hot"]["failures"] = Json::parse(R"({"drives": {"afr": -0.1, "repair_time": "24h"}})");
  CHECK_THAT(errors_of(doc), Catch::Contains("/storage/hot/failures/drives/afr: out of range"));
  doc["storage"]["hot"]["failures"] = Json::parse(R"({"enclosures": {"mtbf": "0s", "repair_time": "4h"}})");
  CHECK_THAT(errors_of(doc), Catch::Contains("/storage/hot/failures/enclosures/mtbf"));
  doc["storage"]["hot"]["failures"] = Json::parse(R"({"enclosures": {"mtbf": "1000h", "repair_time": "0s"}})");
  CHECK_THAT(errors_of(doc), Catch::Contains("/storage/hot/failures/enclosures/repair_time"));
  doc["storage"]["hot"]["failures"] = Json::parse(R"({"enclosures": {"mtbf": "1000h"}})");
  CHECK_THAT(errors_of(doc), Catch::Contains("/storage/hot/failures/enclosures/repair_time: missing"));
  doc["storage"]["hot"]["failures"] = Json::parse(R"({"enclosures": {"repair_time": "4h"}})");
  CHECK_THAT(errors_of(doc), Catch::Contains("/storage/hot/failures/enclosures: no failure rate"));
  doc["storage"]["hot"]["failures"] =
      Json::parse(R"({"enclosures": {"afr": 0.1, "mtbf": "1000h", "repair_time": "4h"}})");
  CHECK_THAT(errors_of(doc), Catch::Contains("both afr and mtbf"));
  doc["storage"]["hot"]["failures"] =
      Json::parse(R"({"enclosures": {"afr": 0.1, "weibull_shape": 0, "repair_time": "4h"}})");
  CHECK_THAT(errors_of(doc), Catch::Contains("/storage/hot/failures/enclosures/weibull_shape: out of range"));
  doc["storage"]["hot"]["failures"] =
      Json::parse(R"({"enclosures": {"at": [{"time": "1h", "index": 2}], "repair_time": "4h"}})");
  CHECK_THAT(errors_of(doc), Catch::Contains("/storage/hot/failures/enclosures/at/0/index: out of range"));
  // Components a kind does not have, and kinds whose failures are not simulated.
  doc["storage"]["hot"]["failures"] = Json::parse(R"({"controllers": {"afr": 0.1, "repair_time": "4h"}})");
  CHECK_THAT(errors_of(doc), Catch::Contains("/storage/hot/failures/controllers: unknown key"));
  doc["storage"]["hot"].erase("failures");
  doc["storage"]["cold"]["failures"] = Json::parse(R"({"drives": {"afr": 0.1, "repair_time": "4h"}})");
  CHECK_THAT(errors_of(doc), Catch::Contains("/storage/cold/failures: failures are not simulated on kind \"object\""));
  // takeover_time belongs to active-passive arrays only.
  doc["storage"]["cold"].erase("failures");
  doc["storage"]["arr"]["failover"] = "active_active";
  doc["storage"]["arr"]["failures"] =
      Json::parse(R"({"controllers": {"afr": 0.1, "repair_time": "4h", "takeover_time": "10s"}})");
  CHECK_THAT(errors_of(doc), Catch::Contains("/storage/arr/failures/controllers/takeover_time: unknown key"));
}

TEST_CASE("failures: Weibull lifetimes have the stated mean whatever their shape", "[failures]") {
  for (double shape : {0.7, 1.0, 2.5}) {
    FailureSpec f;
    f.mtbf = Seconds(1000);
    f.shape = shape;
    std::mt19937_64 rng(42);
    double sum = 0;
    constexpr int n = 200000;
    for (int i = 0; i < n; ++i)
      sum += f.draw_lifetime_s(rng);
    // The standard error of the mean is below 1% of it for these shapes (coefficient of variation <= 1.5).
    CHECK(sum / n == Approx(1000).epsilon(0.02));
  }
}

TEST_CASE("stripe groups: an array over consecutive drives, a jbof across enclosures at one bay", "[failures]") {
  StorageSystem array;
  array.kind = "array";
  array.servers = 2;
  array.drives_per_server = 6; // 12 drives
  array.protection.scheme = "raid6";
  array.protection.data = 3;
  array.protection.parity = 2; // width 5: groups 0-4 and 5-11 (the last takes the two left over)
  CHECK(stripe_group_count(array) == 2);
  CHECK(stripe_group_of(array, 4) == 0);
  CHECK(stripe_group_of(array, 5) == 1);
  CHECK(stripe_group_of(array, 11) == 1);
  CHECK(stripe_group_drives(array, 1) == std::vector<int>{5, 6, 7, 8, 9, 10, 11});

  StorageSystem jbof;
  jbof.kind = "jbof";
  jbof.servers = 5;
  jbof.drives_per_server = 3;
  jbof.protection.scheme = "mirror";
  jbof.protection.data = 1;
  jbof.protection.parity = 1; // two copies across enclosures: blocks {0,1} and {2,3,4}, one group per bay
  CHECK(stripe_group_count(jbof) == 6);
  CHECK(stripe_group_of(jbof, 1) == 1);      // enclosure 0, bay 1
  CHECK(stripe_group_of(jbof, 3 + 1) == 1);  // enclosure 1, bay 1: the same group
  CHECK(stripe_group_of(jbof, 12 + 2) == 5); // enclosure 4, bay 2
  CHECK(stripe_group_drives(jbof, 5) == std::vector<int>{8, 11, 14});

  jbof.protection.parity = 0;
  CHECK(stripe_group_count(jbof) == 0);
}

TEST_CASE("protection: rebuild priority and rate, and host-side RAID 5/6 across enclosures", "[failures]") {
  Json doc = base();
  doc["storage"]["hot"]["protection"] =
      Json::parse(R"({"scheme": "mirror", "rebuild_priority": 0.5, "rebuild_rate": "200MB/s"})");
  auto hot = parsed(doc, "hot");
  CHECK(hot.protection.rebuild_priority == 0.5);
  REQUIRE(hot.protection.rebuild_rate);
  CHECK(hot.protection.rebuild_rate->value == 200e6);
  doc["storage"]["hot"]["protection"] = Json::parse(R"({"scheme": "raid5", "data": 1})");
  hot = parsed(doc, "hot");
  CHECK(hot.protection.parity == 1);
  CHECK(hot.protection.rebuild_priority == 1.0);
  CHECK_FALSE(hot.protection.rebuild_rate);
  doc["storage"]["hot"]["protection"] = Json::parse(R"({"scheme": "raid6", "data": 8})");
  CHECK_THAT(errors_of(doc), Catch::Contains("/storage/hot/protection: scheme wider than what it spreads over"));
  doc["storage"]["hot"]["protection"] = Json::parse(R"({"scheme": "none", "rebuild_priority": 2})");
  CHECK_THAT(errors_of(doc), Catch::Contains("/storage/hot/protection/rebuild_priority: unknown key"));
  doc["storage"]["hot"]["protection"] = Json::parse(R"({"scheme": "mirror", "rebuild_priority": 0})");
  CHECK_THAT(errors_of(doc), Catch::Contains("/storage/hot/protection/rebuild_priority: out of range"));
}

TEST_CASE("failures_at: node failures at set times, in order", "[failures]") {
  Json doc = base();
  doc["workloads"][0]["failures_at"] = Json::parse(R"(["1h", "90min"])");
  auto r = parse_scenario(doc, "s.json", ".");
  INFO(r.diagnostics.format(true));
  REQUIRE(r.scenario.has_value());
  REQUIRE(r.scenario->jobs[0].failures_at.size() == 2);
  CHECK(r.scenario->jobs[0].failures_at[1].value == 5400.0);
  doc["workloads"][0]["failures_at"] = Json::parse(R"(["2h", "1h"])");
  CHECK_THAT(errors_of(doc), Catch::Contains("/workloads/0/failures_at/1: not a failure time"));
  doc["workloads"][0]["failures_at"] = Json::parse(R"([3600])");
  CHECK_THAT(errors_of(doc), Catch::Contains("/workloads/0/failures_at/0: not a failure time"));
}
