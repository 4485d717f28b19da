#include "scenario_errors.hpp"

#include "models/scenario/scenario_parser.hpp"

#include <catch2/catch.hpp>

using namespace aisim::models;

namespace {

// Three tiers: a hot JBOF, a protected array and an object store, with placement by class.
Json tiers() {
  return Json::parse(R"({
    "schema_version": 1,
    "cluster": {"node_groups": [{"name": "g", "count": 2, "gpu": "H100-SXM"}]},
    "drives": {"d": {"capacity": "7.68TB", "read_bandwidth": "7GB/s", "write_bandwidth": "7GB/s", "price": "$1000"}},
    "storage": {"hot": {"kind": "jbof", "enclosures": 1, "drives_per_enclosure": 4, "drive": "d"},
                "safe": {"kind": "array", "controllers": 2, "controller_bandwidth": "40GB/s", "shelves": 1,
                         "drives_per_shelf": 12, "drive": "d", "protection": {"scheme": "raid6", "data": 8}},
                "cold": {"kind": "object", "gateways": 2, "capacity": "1PB"}},
    "policies": {"placement": {"training_dataset": "hot", "active_checkpoint": "hot",
                               "validated_model": "safe", "production_model": "cold"},
                 "promotion": {"evaluate_every": 4, "evaluation_time": "30min", "pass_rate": 0.5,
                               "production_every": 2},
                 "tiering": {"dataset_home": "cold", "stage_dataset_before": "2h", "demote_dataset_after": "1d",
                             "archive_checkpoints_to": "cold", "replicate_validated_to": "cold"}},
    "workloads": [{"name": "j", "kind": "training", "gpus": 16, "step_time": "1s", "global_batch": 8,
                   "sample_size": "1MB", "dataset": {"size": "1TB"},
                   "checkpoint": {"size": "100GB", "interval": "10min"}}]
  })");
}

} // namespace

TEST_CASE("policies: placement gives workloads their storage; promotion and tiering are read", "[policies]") {
  auto r = parse_scenario(tiers(), "s.json", ".");
  INFO(r.diagnostics.format(true));
  REQUIRE(r.scenario.has_value());
  const auto& sc = *r.scenario;
  CHECK(sc.jobs[0].dataset.storage == "hot");
  CHECK(sc.jobs[0].checkpoint.storage == "hot");
  CHECK(sc.resolved["workloads"][0]["dataset"]["storage"] == "hot"); // written back: the resolved file says it
  const auto& p = sc.policies;
  CHECK(p.place(DataClass::validated_model) == "safe");
  REQUIRE(p.promotion);
  CHECK(p.promotion->evaluate_every == 4);
  CHECK(p.promotion->evaluation_time.value == 1800);
  CHECK(p.promotion->pass_rate == 0.5);
  CHECK(p.promotion->production_every == 2);
  CHECK(p.tiering.dataset_home == "cold");
  CHECK(p.tiering.stage_dataset_before.value == 7200);
  REQUIRE(p.tiering.demote_dataset_after);
  CHECK(p.tiering.demote_dataset_after->value == 86400);
  CHECK(p.on_full == "fail_job");
}

TEST_CASE("policies: bad placement and tiering are reported with their pointers", "[policies]") {
  SECTION("a placement naming a missing system") {
    Json doc = tiers();
    doc["policies"]["placement"]["validated_model"] = "saf";
    CHECK(errors_of(doc) == "s.json:/policies/placement/validated_model: names \"saf\", which is not defined, "
                            "did you mean \"safe\"? "
                            "(expected one of the storage systems under /storage: \"hot\", \"safe\" or \"cold\")\n");
  }
  SECTION("a placement for a data class that does not exist") {
    Json doc = tiers();
    doc["policies"]["placement"]["checkpoints"] = "hot";
    CHECK(errors_of(doc).find("/policies/placement/checkpoints: unknown key") != std::string::npos);
  }
  SECTION("promotion without a place for validated models") {
    Json doc = tiers();
    doc["policies"]["placement"].erase("validated_model");
    CHECK(errors_of(doc) == "s.json:/policies/placement: promotion needs a place for validated models (expected "
                            "placement.validated_model)\n");
  }
  SECTION("demotion without a home") {
    Json doc = tiers();
    doc["policies"]["tiering"].erase("dataset_home");
    CHECK(errors_of(doc) == "s.json:/policies/tiering/demote_dataset_after: demoting a dataset drops its hot copy, so "
                            "it needs a copy at home (expected tiering.dataset_home)\n");
  }
  SECTION("a workload with no storage and no placement rule") {
    Json doc = tiers();
    doc["policies"]["placement"].erase("training_dataset");
    CHECK(errors_of(doc).find("/workloads/0/dataset/storage: missing") != std::string::npos);
  }
  SECTION("a dataset larger than its home") {
    Json doc = tiers();
    doc["workloads"][0]["dataset"]["size"] = "2PB";
    CHECK(errors_of(doc).find("/workloads/0/dataset/size: dataset larger than its home \"cold\"") != std::string::npos);
  }
  SECTION("an unknown full-system policy") {
    Json doc = tiers();
    doc["policies"]["on_full"] = "panic";
    CHECK(errors_of(doc).find("/policies/on_full:") != std::string::npos);
  }
}

TEST_CASE("inference fleets: model from the production placement, scale events checked", "[inference]") {
  Json doc = tiers();
  doc["workloads"].push_back(Json::parse(R"({"name": "serve", "kind": "inference", "gpus": 16, "gpus_per_replica": 8,
      "start": "1d", "model": {"parameters": 8e9},
      "scale": [{"at": "0s", "replicas": 1}, {"at": "1h", "replicas": 2}],
      "requests": {"rate": "10k op/s", "reads_per_request": 4, "read_size": "16KiB", "storage": "hot", "slo": "2ms"}})"));
  doc["workloads"][0]["duration"] = "1d"; // the training job frees the nodes for the fleet
  auto r = parse_scenario(doc, "s.json", ".");
  INFO(r.diagnostics.format(true));
  REQUIRE(r.scenario.has_value());
  const auto& inf = r.scenario->jobs[1].inference;
  CHECK(inf.model_size.value == 16e9); // BF16 weights: 2 bytes per parameter
  CHECK(inf.model_storage == "cold");  // placement.production_model
  CHECK(inf.scale.size() == 2);
  CHECK(inf.request_rate.value == 10e3);
  CHECK(inf.slo.value == Approx(2e-3));
  SECTION("more replicas than the fleet holds") {
    doc["workloads"][1]["scale"][1]["replicas"] = 3;
    CHECK(errors_of(doc) == "s.json:/workloads/1/scale/1/replicas: more replicas than the fleet's GPUs hold "
                            "(expected at most 2 = gpus / gpus_per_replica, got 3)\n");
  }
  SECTION("scale events out of order") {
    doc["workloads"][1]["scale"][1]["at"] = "0s";
    CHECK(errors_of(doc) == "s.json:/workloads/1/scale/1/at: scale events out of order (expected times after the "
                            "previous event's)\n");
  }
  SECTION("training keys are not inference keys") {
    doc["workloads"][1]["step_time"] = "1s";
    CHECK(errors_of(doc).find("/workloads/1/step_time: unknown key") != std::string::npos);
  }
}
