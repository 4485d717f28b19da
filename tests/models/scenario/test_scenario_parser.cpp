#include "scenario_errors.hpp"

#include "models/scenario/scenario_parser.hpp"

#include <catch2/catch.hpp>

#include <random>

using namespace aisim::models;

namespace {

// The smallest valid scenario; tests break one thing at a time.
Json base() {
  return Json::parse(R"({
    "schema_version": 1,
    "cluster": {"node_groups": [{"name": "g", "count": 2, "gpu": "H100-SXM"}]},
    "drives": {"d": {"capacity": "7.68TB", "read_bandwidth": "7GB/s", "write_bandwidth": "7GB/s", "price": "$1000"}},
    "storage": {"hot": {"kind": "jbof", "enclosures": 1, "drives_per_enclosure": 4, "drive": "d"}},
    "workloads": [{"name": "j", "kind": "training", "gpus": 16, "step_time": "1s", "global_batch": 8,
                   "sample_size": "1MB", "dataset": {"size": "1TB", "storage": "hot"},
                   "checkpoint": {"size": "100GB", "interval": "10min", "storage": "hot"}}]
  })");
}

} // namespace

TEST_CASE("a minimal scenario parses and its defaults are filled in", "[scenario]") {
  auto r = parse_scenario(base(), "s.json", ".");
  INFO(r.diagnostics.format(true));
  REQUIRE(r.scenario.has_value());
  const Scenario& sc = *r.scenario;
  CHECK(sc.gpu_count() == 16);
  CHECK(sc.node_groups[0].nic_bandwidth().value == 2 * 50e9);
  CHECK(sc.node_groups[0].compute_nic_bandwidth().value == 8 * 50e9);
  CHECK(sc.storage[0].capacity().value == 4 * 7.68e12);
  CHECK(sc.storage[0].front_end.value == 2 * 25e9);
  CHECK(sc.jobs[0].batch_bytes().value == 8e6);
  CHECK(sc.simulation.duration.value == 7 * 86400.0);
  CHECK(sc.simulation.fidelity == "aggregate");
  CHECK(sc.resolved["simulation"]["duration"] == "7d");
  CHECK(sc.resolved["network"]["link_latency"] == "1us");
  CHECK(sc.resolved["workloads"][0]["prefetch_batches"] == 2);
  CHECK(sc.resolved["cluster"]["node_groups"][0]["gpu_price"] == "$30000.00");
  // The resolved document is itself a valid scenario that parses to the same thing.
  auto again = parse_scenario(sc.resolved, "s.json", ".");
  REQUIRE(again.scenario.has_value());
  CHECK(again.scenario->resolved == sc.resolved);
}

TEST_CASE("step time from FLOPs at a model FLOPs utilization", "[scenario]") {
  Json doc = base();
  doc["workloads"][0].erase("step_time");
  doc["workloads"][0]["mfu"] = 0.4;
  doc["workloads"][0]["checkpoint"].erase("size");
  doc["workloads"][0]["checkpoint"]["parameters"] = 8e9;
  doc["workloads"][0]["tokens_per_sample"] = 8192;
  auto r = parse_scenario(doc, "s.json", ".");
  INFO(r.diagnostics.format(true));
  REQUIRE(r.scenario.has_value());
  const double peak = r.scenario->node_groups[0].gpu.peak_bf16.value;
  // 6 FLOPs per parameter per token, 8 samples of 8192 tokens, on 16 GPUs at 40% of peak.
  CHECK(r.scenario->jobs[0].step_time.value == Approx(6 * 8e9 * 8192 * 8 / (16 * peak * 0.4)));
  doc["workloads"][0].erase("tokens_per_sample");
  doc["workloads"][0]["flops_per_step"] = 1e18;
  r = parse_scenario(doc, "s.json", ".");
  REQUIRE(r.scenario.has_value());
  CHECK(r.scenario->jobs[0].step_time.value == Approx(1e18 / (16 * peak * 0.4)));
  doc["workloads"][0]["step_time"] = "1s";
  CHECK(errors_of(doc).find("/workloads/0/mfu: give either step_time or mfu") != std::string::npos);
}

TEST_CASE("checkpoint interval in steps", "[scenario]") {
  Json doc = base();
  doc["workloads"][0]["checkpoint"].erase("interval");
  doc["workloads"][0]["checkpoint"]["interval_steps"] = 500;
  auto r = parse_scenario(doc, "s.json", ".");
  REQUIRE(r.scenario.has_value());
  CHECK(r.scenario->jobs[0].checkpoint.interval_steps == 500);
  CHECK(r.scenario->jobs[0].checkpoint.interval.value == 500.0); // 500 steps of 1 s
  doc["workloads"][0]["checkpoint"]["interval"] = "10min";
  CHECK(errors_of(doc).find("/workloads/0/checkpoint/interval_steps: give either interval or interval_steps") !=
        std::string::npos);
}

TEST_CASE("checkpoint size from parameters x bytes per parameter", "[scenario]") {
  Json doc = base();
  doc["workloads"][0]["checkpoint"].erase("size");
  doc["workloads"][0]["checkpoint"]["parameters"] = 70e9;
  auto r = parse_scenario(doc, "s.json", ".");
  REQUIRE(r.scenario.has_value());
  CHECK(r.scenario->jobs[0].checkpoint.size.value == 70e9 * 14); // fp16 weights + fp32 Adam states
}

TEST_CASE("a parameter count out of range is refused once, by the checkpoint's reader", "[scenario]") {
  // The all-reduce default (4 bytes per parameter) is derived before the checkpoint is read; a count beyond a
  // long long once made that conversion undefined (found by fuzz_scenario).
  Json doc = base();
  doc["workloads"][0]["checkpoint"].erase("size");
  for (double params : {7e52, -5.0, 0.5}) {
    doc["workloads"][0]["checkpoint"]["parameters"] = params;
    const std::string e = errors_of(doc);
    INFO(e);
    CHECK(e.find("s.json:/workloads/0/checkpoint/parameters: ") == 0);
    CHECK(e.find("allreduce") == std::string::npos);
  }
}

TEST_CASE("every problem is reported, each with its pointer", "[scenario]") {
  Json doc = base();
  doc["storage"]["hot"]["port_speed"] = 400;                // bare number
  doc["cluster"]["node_groups"][0]["nic_sped"] = "400Gbps"; // typo
  doc["workloads"][0]["dataset"]["storage"] = "hott";       // dangling reference
  doc["simulation"] = {{"duration", "7 days"}};             // bad unit
  const std::string e = errors_of(doc);
  CHECK(e ==
        "s.json:/cluster/node_groups/0/nic_sped: unknown key, did you mean \"nic_speed\"? (expected one of "
        "\"name\", \"count\", \"preset\", \"gpus_per_node\", \"gpu\", \"gpu_rent\", \"gpu_price\", \"node_price\", "
        "\"nics\", \"nic_speed\", \"compute_nics\", \"compute_nic_speed\", \"host_memory\", "
        "\"gpu_host_bandwidth\", \"node_power\", \"gpudirect_storage\", \"pcie_switches\", \"pcie_switch_uplink\", "
        "\"host_memory_bandwidth\", \"cpu_cores\", \"core_copy_bandwidth\", \"io_request_cpu_time\" or "
        "\"node_mtbf\")\n"
        "s.json:/storage/hot/port_speed: a bare number has no unit (expected a rate with a unit like "
        "\"400Gbps\", \"50GB/s\" or \"3.2GiB/s\", got 400)\n"
        "s.json:/workloads/0/dataset/storage: names \"hott\", which is not defined, did you mean \"hot\"? "
        "(expected one of the storage systems under /storage: \"hot\")\n"
        "s.json:/simulation/duration: unknown unit \"days\" (expected a duration with a unit like \"30min\", "
        "\"2h\", \"7d\", \"3y\" or \"8us\", got \"7 days\")\n");
}

TEST_CASE("cross-checks between sections", "[scenario]") {
  SECTION("dataset larger than its storage") {
    Json doc = base();
    doc["workloads"][0]["dataset"]["size"] = "1PB";
    CHECK(errors_of(doc) == "s.json:/workloads/0/dataset/size: dataset larger than storage \"hot\" (expected at "
                            "most 30.7 TB, got 1 PB)\n");
  }
  SECTION("more GPUs than the group has") {
    Json doc = base();
    doc["workloads"][0]["gpus"] = 24;
    CHECK(errors_of(doc) == "s.json:/workloads/0/gpus: more GPUs than node group \"g\" has (expected at most "
                            "16, got 24)\n");
  }
  SECTION("multilevel checkpoints need the job's own local NVMe") {
    Json doc = base();
    doc["workloads"][0]["checkpoint"]["mode"] = "multilevel";
    CHECK(errors_of(doc) == "s.json:/workloads/0/checkpoint/local_storage: missing required key (expected one of "
                            "the storage systems under /storage: \"hot\")\n");
    doc["workloads"][0]["checkpoint"]["local_storage"] = "hot";
    CHECK(errors_of(doc) == "s.json:/workloads/0/checkpoint/local_storage: \"hot\" is not node-local to the job's "
                            "group \"g\" (expected the local_nvme of the job's own nodes)\n");
    doc["workloads"][0]["checkpoint"]["mode"] = "sync";
    CHECK(errors_of(doc) == "s.json:/workloads/0/checkpoint/local_storage: only multilevel checkpoints write to "
                            "local storage first (expected mode \"multilevel\", got \"sync\")\n");
  }
  SECTION("an automatic checkpoint interval needs failures") {
    Json doc = base();
    doc["workloads"][0]["checkpoint"]["interval"] = "auto";
    CHECK(errors_of(doc) == "s.json:/workloads/0/checkpoint/interval: an automatic interval balances checkpoint cost "
                            "against failures, and node group \"g\" has none (expected node_mtbf on the group, or an "
                            "interval)\n");
    doc["cluster"]["node_groups"][0]["node_mtbf"] = "5000h";
    CHECK(parse_scenario(doc, "s.json", ".").scenario.has_value());
  }
  SECTION("jobs share nodes over time, never at once") {
    Json doc = base();
    doc["workloads"][0]["gpus"] = 16;
    doc["workloads"][0]["duration"] = "1d";
    Json second = doc["workloads"][0];
    second["name"] = "later";
    second["start"] = "1d"; // starts as the first ends: the same nodes
    doc["workloads"].push_back(second);
    CHECK(parse_scenario(doc, "s.json", ".").scenario.has_value());
    doc["workloads"][1]["start"] = "23h";
    CHECK(errors_of(doc) == "s.json:/workloads/1/gpus: more GPUs than node group \"g\" has free when the job starts, "
                            "other jobs holding the rest (expected at most 0, got 16)\n");
  }
  SECTION("more drives than bays") {
    Json doc = base();
    doc["storage"]["hot"]["drives_per_enclosure"] = 30;
    CHECK(errors_of(doc) == "s.json:/storage/hot/drives_per_enclosure: more drives than bays (expected at most 24, "
                            "got 30)\n");
  }
  SECTION("zero bandwidth") {
    Json doc = base();
    doc["drives"]["d"]["write_bandwidth"] = "0GB/s";
    CHECK(errors_of(doc) == "s.json:/drives/d/write_bandwidth: must be greater than zero (expected a rate with a "
                            "unit like \"400Gbps\", \"50GB/s\" or \"3.2GiB/s\", got \"0GB/s\")\n");
  }
}

TEST_CASE("set overrides are applied before validation", "[scenario]") {
  Json doc = base();
  Diagnostics d("s.json");
  CHECK(apply_override(doc, "/workloads/0/gpus=8", d));
  CHECK(apply_override(doc, "/simulation=\"x\"", d));       // replaces a whole object: validation catches it
  CHECK(apply_override(doc, "/workloads/0/name=llama", d)); // not JSON: kept as a string
  CHECK_FALSE(apply_override(doc, "/nope/deeper=1", d));
  CHECK_FALSE(apply_override(doc, "no-pointer", d));
  CHECK(doc["workloads"][0]["gpus"] == 8);
  CHECK(doc["workloads"][0]["name"] == "llama");
  CHECK(d.format(false) == "s.json:/nope/deeper: --set names a place whose parent does not exist (expected an "
                           "existing object or array)\ns.json: --set \"no-pointer\": expected /json/pointer=value\n");
  CHECK(errors_of(doc) == "s.json:/simulation: wrong type (expected an object, got \"x\")\n");
}

TEST_CASE("set overrides: text that is not UTF-8 and places past an array's end are refused", "[scenario]") {
  Json doc = base();
  Diagnostics d("s.json");
  // Accepted, it would make results.json impossible to write, after the whole run.
  CHECK_FALSE(apply_override(doc,
                             "/name=a\xff"
                             "b",
                             d));
  CHECK_FALSE(apply_override(doc, "/name=\xc3", d));  // a sequence cut short
  CHECK(apply_override(doc, "/name=caf\xc3\xa9", d)); // é is fine
  // An index past the end would fill the gap with nulls: one error each, or no memory at all for a huge one.
  const size_t n = doc["workloads"].size();
  CHECK_FALSE(apply_override(doc, "/workloads/999={}", d));
  CHECK_FALSE(apply_override(doc, "/workloads/99999999999999999999={}", d));
  CHECK_FALSE(apply_override(doc, "/workloads/01x={}", d));
  CHECK(doc["workloads"].size() == n);
  CHECK(apply_override(doc, "/workloads/" + std::to_string(n) + "={\"name\":\"next\"}", d)); // the next one appends
  CHECK(apply_override(doc, "/workloads/-={\"name\":\"last\"}", d));
  CHECK(doc["workloads"].size() == n + 2);
  CHECK(doc["workloads"].back()["name"] == "last");
  CHECK(d.items().size() == 5);
  CHECK(d.items()[0].message == "--set: not UTF-8 text (a scenario is JSON, which is UTF-8)");
  CHECK(d.items()[2].pointer == "/workloads/999");
}

TEST_CASE("set overrides: a pointer that is not UTF-8 is named with its bytes shown", "[scenario]") {
  Json doc = base();
  Diagnostics d("s.json");
  CHECK_FALSE(apply_override(doc, "/simulation/\xff=1", d));
  REQUIRE(d.items().size() == 1);
  CHECK(d.items()[0].pointer.empty()); // no diagnostic may carry the bytes themselves
  CHECK(d.items()[0].message.find("--set /simulation/\\xFF: the pointer is not UTF-8 text") == 0);
  // Valid sequences stay as they are; a cut-short one, an overlong form and a surrogate are shown byte by byte.
  CHECK(shown_as_utf8("caf\xc3\xa9") == "caf\xc3\xa9");
  CHECK(shown_as_utf8("a\xe2\x82") == "a\\xE2\\x82");
  CHECK(shown_as_utf8("\xc0\xaf") == "\\xC0\\xAF");
  CHECK(shown_as_utf8("\xed\xa0\x80") == "\\xED\\xA0\\x80");
  CHECK(shown_as_utf8("\xf0\x9f\x98\x80!") == "\xf0\x9f\x98\x80!");
  // Any bytes at all: what is shown is UTF-8 (a message and --json can carry it), and valid text is left as it is.
  std::mt19937 rng(55);
  for (int i = 0; i < 20000; ++i) {
    std::string bytes(rng() % 12, '\0');
    for (auto& b : bytes)
      b = static_cast<char>(rng() % 4 == 0 ? 0x80 + rng() % 0x80 : rng() % 256);
    const std::string shown = shown_as_utf8(bytes);
    CAPTURE(i);
    REQUIRE(is_utf8(shown));
    if (is_utf8(bytes))
      REQUIRE(shown == bytes);
  }
}

TEST_CASE("JSON text: duplicate keys, deep nesting and numbers beyond a double are errors with their place",
          "[scenario]") {
  Diagnostics d("s.json");
  CHECK_FALSE(parse_json_text(R"({"a": {"b": 1, "c": [{"x": 1, "x": 2}], "b": 3}})", d).has_value());
  REQUIRE(d.items().size() == 2);
  CHECK(d.items()[0].pointer == "/a/c/0/x");
  CHECK(d.items()[1].pointer == "/a/b");
  Diagnostics deep("s.json");
  const std::string nested = std::string(100000, '[') + std::string(100000, ']'); // would overflow a recursive walk
  CHECK_FALSE(parse_json_text(nested, deep).has_value());
  REQUIRE(deep.items().size() == 1);
  CHECK(deep.items()[0].message.find("nested deeper than 64 levels") == 0);
  Diagnostics big("s.json");
  CHECK_FALSE(parse_json_text(R"({"list": [1, 2, 1e400]})", big).has_value());
  REQUIRE(big.items().size() == 1);
  CHECK(big.items()[0].pointer == "/list/2");
  CHECK(big.items()[0].message == "number overflow parsing '1e400' (expected a number a double can hold)");
  Diagnostics fine("s.json");
  CHECK(parse_json_text(std::string(64, '[') + std::string(64, ']'), fine).has_value());
  CHECK(parse_json_text(R"({"a": {"x": 1}, "b": {"x": 2}})", fine).has_value()); // the same key in two objects
  CHECK_FALSE(fine.has_errors());
}

TEST_CASE("integers are read exactly, past 2^53 too", "[scenario]") {
  Json doc = base();
  doc["simulation"]["seed"] = uint64_t(9007199254740993ULL); // 2^53 + 1: a double would make it 2^53 and pass
  CHECK(errors_of(doc) == "s.json:/simulation/seed: out of range (expected an integer from 0 to 9007199254740992, "
                          "got 9007199254740993)\n");
  doc["simulation"]["seed"] = uint64_t(9007199254740992ULL);
  const auto ok = parse_scenario(doc, "s.json", ".");
  REQUIRE(ok.scenario.has_value());
  CHECK(ok.scenario->simulation.seed == 9007199254740992ULL);
  doc["simulation"]["seed"] = uint64_t(18446744073709551615ULL);
  CHECK_FALSE(errors_of(doc).empty());
}

TEST_CASE("syntax errors give line and column", "[scenario]") {
  Diagnostics d("s.json");
  CHECK_FALSE(parse_json_text("{\n  \"a\": 1,\n  \"b\" 2\n}", d).has_value());
  REQUIRE(d.items().size() == 1);
  CHECK(d.items()[0].message == "JSON syntax error at line 3, column 7: syntax error while parsing object separator - "
                                "unexpected number literal; expected ':'");
}

TEST_CASE("the shipped scenarios parse", "[scenario]") {
  auto r = load_scenario(std::string(AISIM_SOURCE_DIR) + "/scenarios/default.json");
  INFO(r.diagnostics.format(true));
  REQUIRE(r.scenario.has_value());
  CHECK(r.scenario->gpu_count() == 512);
  CHECK(r.scenario->storage[0].drive->write_bandwidth.value == 7e9); // from the drive file
  CHECK(r.scenario->resolved["drives"]["gen4-tlc"]["capacity"] == "7.68TB");
}

TEST_CASE("storage holds data at rest by class, within its capacity", "[scenario]") {
  Json doc = base();
  doc["storage"]["hot"]["holds"] = {{"archived_checkpoint", "10TB"}, {"training_dataset", "5TB"}};
  auto r = parse_scenario(doc, "s.json", ".");
  INFO(r.diagnostics.format(true));
  REQUIRE(r.scenario.has_value());
  const auto& holds = r.scenario->storage[0].holds;
  REQUIRE(holds.size() == 2);
  CHECK(holds[0].first == static_cast<int>(DataClass::training_dataset));
  CHECK(holds[0].second.value == 5e12);
  CHECK(holds[1].first == static_cast<int>(DataClass::archived_checkpoint));
  doc["storage"]["hot"]["holds"] = {{"archived_checkpoint", "40TB"}, {"archive", "1TB"}};
  const std::string e = errors_of(doc);
  CHECK_THAT(e, Catch::Contains("s.json:/storage/hot/holds/archive: unknown key"));
  CHECK_THAT(e, Catch::Contains("s.json:/storage/hot/holds: holds more than the system's capacity (expected at most "
                                "30.7 TB, got 40 TB)"));
}

TEST_CASE("a node group preset gives a published system's defaults; the group's own keys override them", "[scenario]") {
  const auto parse_group = [](const std::string& group) {
    const std::string text = R"({"schema_version": 1, "name": "t", "cluster": {"node_groups": [)" + group + R"(]},
      "drives": {"d": {"capacity": "7.68TB", "read_bandwidth": "2GB/s", "write_bandwidth": "1GB/s", "price": "$1"}},
      "storage": {"s": {"kind": "jbof", "enclosures": 1, "drives_per_enclosure": 4, "drive": "d"}},
      "workloads": [{"name": "w", "kind": "training", "gpus": 8, "step_time": "1s", "global_batch": 8,
                     "sample_size": "1MB", "dataset": {"size": "1TB", "storage": "s"},
                     "checkpoint": {"size": "1GB", "interval": "1h", "storage": "s"}}],
      "simulation": {"duration": "1h"}})";
    return parse_scenario(Json::parse(text), "s.json", ".");
  };
  const auto a100 = parse_group(R"({"name": "n", "count": 1, "preset": "dgx-a100", "cpu_cores": 96})");
  INFO(a100.diagnostics.format(true));
  REQUIRE(a100.scenario.has_value());
  const auto& g = a100.scenario->node_groups[0];
  CHECK(g.gpu.name == "A100-SXM-80GB");
  CHECK(g.nic_bandwidth().value == Approx(2 * 25e9));
  CHECK(g.gpu_host_bandwidth.value == Approx(25e9));
  CHECK(g.host_memory_bandwidth.value == Approx(409.6e9));
  CHECK(g.cpu_cores == 96); // the group's own key wins
  // Without a preset, gpu is required and the defaults are a DGX H100's.
  const auto bare = parse_group(R"({"name": "n", "count": 1})");
  CHECK_FALSE(bare.scenario.has_value());
  const auto h100 = parse_group(R"({"name": "n", "count": 1, "gpu": "H100-SXM"})");
  REQUIRE(h100.scenario.has_value());
  CHECK(h100.scenario->node_groups[0].host_memory_bandwidth.value == Approx(614.4e9));
  const auto unknown = parse_group(R"({"name": "n", "count": 1, "preset": "dgx-z"})");
  CHECK_FALSE(unknown.scenario.has_value());
}

TEST_CASE("an MLPerf Storage workload preset fills what DLIO emulates; the workload's own keys win", "[scenario]") {
  const auto parse_with = [](const std::string& gpu, const std::string& workload) {
    const std::string text = R"({"schema_version": 1, "name": "t", "cluster": {"node_groups": [
      {"name": "n", "count": 2, "gpus_per_node": 4, "gpu": ")" +
                             gpu + R"("}]},
      "drives": {"d": {"capacity": "7.68TB", "read_bandwidth": "2GB/s", "write_bandwidth": "1GB/s", "price": "$1"}},
      "storage": {"s": {"kind": "jbof", "enclosures": 1, "drives_per_enclosure": 4, "drive": "d"}},
      "workloads": [)" + workload +
                             R"(], "simulation": {"duration": "1h"}})";
    return parse_scenario(Json::parse(text), "s.json", ".");
  };
  const std::string cosmo = R"({"name": "w", "kind": "training", "gpus": 8, "preset": "mlperf-cosmoflow",
    "dataset": {"size": "10TB", "storage": "s"}, "checkpoint": {"size": "1GB", "interval": "30d", "storage": "s"}})";
  const auto h100 = parse_with("H100-SXM", cosmo);
  INFO(h100.diagnostics.format(true));
  REQUIRE(h100.scenario.has_value());
  const auto& j = h100.scenario->jobs[0];
  CHECK(j.step_time.value == Approx(0.00350));
  CHECK(j.global_batch == 8);
  CHECK(j.sample_size.value == Approx(2828486));
  CHECK(j.dataset.small_files());                 // one 2.8 MB sample per file: each file opened and closed
  CHECK(j.dataset.io.outstanding_per_node == 16); // 4 reader threads per accelerator x 4 per node
  const auto a100 = parse_with("A100-SXM-80GB", R"({"name": "w", "kind": "training", "gpus": 8,
    "preset": "mlperf-unet3d", "global_batch": 7, "dataset": {"size": "10TB", "storage": "s"},
    "checkpoint": {"size": "1GB", "interval": "30d", "storage": "s"}})");
  REQUIRE(a100.scenario.has_value());
  CHECK(a100.scenario->jobs[0].step_time.value == Approx(0.636));
  CHECK(a100.scenario->jobs[0].global_batch == 7); // given: wins over 7 x 8
  // B200s are not emulated by MLPerf Storage v1.0; unknown presets are refused.
  CHECK_FALSE(parse_with("B200", cosmo).scenario.has_value());
  const auto unknown = parse_with("H100-SXM", R"({"name": "w", "kind": "training", "gpus": 8, "preset": "mlperf-bert",
    "dataset": {"size": "10TB", "storage": "s"}, "checkpoint": {"size": "1GB", "interval": "30d", "storage": "s"}})");
  CHECK_FALSE(unknown.scenario.has_value());
  CHECK(unknown.diagnostics.format(true).find("/workloads/0/preset") != std::string::npos);
}

TEST_CASE("a host of emulated accelerators can hold more than a server's GPUs, to a bound", "[scenario]") {
  // MLPerf Storage's published single-drive resnet50 row ran 58 emulated H100s on one host; the search for it
  // probes past that.
  Json doc = base();
  doc["cluster"]["node_groups"][0]["gpus_per_node"] = 128;
  doc["workloads"][0]["gpus"] = 256;
  const auto ok = parse_scenario(doc, "s.json", ".");
  INFO(ok.diagnostics.format(true));
  REQUIRE(ok.scenario.has_value());
  CHECK(ok.scenario->gpu_count() == 256);
  doc["cluster"]["node_groups"][0]["gpus_per_node"] = 1025;
  doc["workloads"][0]["gpus"] = 2050;
  CHECK(errors_of(doc) == "s.json:/cluster/node_groups/0/gpus_per_node: out of range (expected an integer from 1 "
                          "to 1024, got 1025)\n");
}
