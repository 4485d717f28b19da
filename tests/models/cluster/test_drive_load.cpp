// What the drives of a storage system see (models/cluster/drive_load.hpp): request size and queue depth per drive,
// after a parallel file system splits requests at its stripe boundaries.
#include "models/cluster/drive_load.hpp"

#include "models/scenario/scenario_parser.hpp"

#include <catch2/catch.hpp>

#include <string>

using namespace aisim::models;

namespace {
constexpr double MiB = 1048576;

// Four nodes of eight GPUs reading 4 MiB requests and writing checkpoint shards of 4 MiB requests, two in flight
// per node, to `storage` (named "s").
Scenario parse(const std::string& storage, const std::string& checkpoint_size = "100GB") {
  const std::string text = R"({"schema_version": 1, "name": "t",
    "cluster": {"node_groups": [{"name": "n", "count": 4, "gpus_per_node": 8, "gpu": "H100-SXM", "nics": 1,
                                 "nic_speed": "100Gbps"}]},
    "drives": {"d": {"capacity": "7.68TB", "read_bandwidth": "2GB/s", "write_bandwidth": "1GB/s", "price": "$1000"}},
    "storage": {)" + storage +
                           R"(},
    "workloads": [{"name": "w", "kind": "training", "gpus": 32, "step_time": "1s", "global_batch": 32,
                   "sample_size": "1MB",
                   "dataset": {"size": "1TB", "storage": "s", "io_size": "4MiB", "outstanding_ios": 2},
                   "checkpoint": {"size": ")" +
                           checkpoint_size + R"(", "interval": "30min", "storage": "s", "io_size": "4MiB",
                                  "outstanding_ios": 2}}],
    "simulation": {"duration": "1h"}})";
  auto r = parse_scenario(Json::parse(text), "s.json", ".");
  INFO(r.diagnostics.format(true));
  REQUIRE(r.scenario.has_value());
  return *r.scenario;
}

std::string pfs(const std::string& stripe_size) {
  return R"("s": {"kind": "pfs", "servers": 8, "drives_per_server": 4, "drive": "d", "ports_per_server": 1,
                  "port_speed": "100Gbps", "stripe_count": 4, "stripe_size": ")" +
         stripe_size + R"(", "metadata_servers": 1, "metadata_ops_per_server": "10k op/s"})";
}
} // namespace

TEST_CASE("a parallel file system's drives see requests split at stripe boundaries", "[drive_load]") {
  // 1 MiB stripes: each 4 MiB request is four 1 MiB pieces on four servers, four times as many in flight.
  // 4 nodes x 2 requests x 4 pieces over 32 drives: one per drive.
  const auto small = parse(pfs("1MiB"));
  for (auto op : {IoOp::read, IoOp::write}) {
    const auto load = drive_load(small, 0, op);
    CHECK(load.io_size.value == Approx(MiB));
    CHECK(load.queue_depth == Approx(4 * 2 * 4 / 32.0));
  }
  // 4 MiB stripes: each request whole on one server.
  const auto large = parse(pfs("4MiB"));
  const auto load = drive_load(large, 0, IoOp::write);
  CHECK(load.io_size.value == Approx(4 * MiB));
  CHECK(load.queue_depth == Approx(4 * 2 / 32.0));
}

TEST_CASE("a checkpoint's requests are no larger than a rank's shard, on the servers its shards reach",
          "[drive_load]") {
  // 32 shards of 250 kB: each request is a whole shard, under one stripe, on one server each; 32 files reach
  // all 8 servers.
  const auto sc = parse(pfs("1MiB"), "8MB");
  const auto load = drive_load(sc, 0, IoOp::write);
  CHECK(load.io_size.value == Approx(8e6 / 32));
  CHECK(load.queue_depth == Approx(4 * 2 / 32.0));
}

TEST_CASE("other kinds keep requests whole", "[drive_load]") {
  const auto sc = parse(R"("s": {"kind": "jbof", "enclosures": 2, "drives_per_enclosure": 8, "drive": "d",
                                 "ports_per_enclosure": 1, "port_speed": "100Gbps"})");
  const auto load = drive_load(sc, 0, IoOp::read);
  CHECK(load.io_size.value == Approx(4 * MiB));
  CHECK(load.queue_depth == Approx(4 * 2 / 16.0));
}
