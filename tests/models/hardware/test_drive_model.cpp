#include "models/hardware/drive_model.hpp"

#include <catch2/catch.hpp>

#include <cmath>
#include <fstream>
#include <sstream>

using namespace aisim::models;

namespace {

constexpr double KiB = 1024.0;

struct Parsed {
  std::optional<DriveModel> model;
  std::string errors; // Diagnostics::format(false)
  Json resolved;      // the document after defaults were filled in
};

Parsed parse(Json doc) {
  Diagnostics diag("d.json");
  ObjectReader r(doc, "/drives/d", diag);
  auto m = parse_drive_model(r, "d");
  return {m, diag.format(false), doc};
}

// Only the keys that were required before the performance model existed.
Json minimal() {
  return Json::parse(R"({"capacity": "7.68TB", "read_bandwidth": "7GB/s", "write_bandwidth": "5GB/s",
                         "price": "$1000"})");
}

DriveModel parsed(Json doc) {
  auto p = parse(std::move(doc));
  INFO(p.errors);
  REQUIRE(p.model.has_value());
  return *p.model;
}

std::string errors_of(Json doc) {
  auto p = parse(std::move(doc));
  CHECK_FALSE(p.model.has_value());
  return p.errors;
}

} // namespace

TEST_CASE("Little's law: QD1 is 1/L1, a deep queue is the ceiling, the knee joins them", "[drive]") {
  Json doc = minimal();
  doc["read"]["random"] = {{"latency", "80us"}, {"transfer_rate", "4GB/s"}, {"max_iops", "1MIOPS"}};
  const DriveModel d = parsed(doc);
  const Bytes bs(4 * KiB);
  const double l1_s = 80e-6 + 4096.0 / 4e9;
  CHECK(d.qd1_service_time(IoOp::read, IoPattern::random, bs).value == Approx(l1_s));
  CHECK(d.iops(IoOp::read, IoPattern::random, bs, 1) == Approx(1 / l1_s));
  CHECK(d.iops(IoOp::read, IoPattern::random, bs, 10) == Approx(10 / l1_s));
  CHECK(d.iops(IoOp::read, IoPattern::random, bs, 10'000) == Approx(1e6));
  // At the knee both limits are equal; half of it is half the ceiling, twice it no more than the ceiling.
  const double knee = d.knee_queue_depth(IoOp::read, IoPattern::random, bs);
  CHECK(knee == Approx(1e6 * l1_s));
  CHECK(d.iops(IoOp::read, IoPattern::random, bs, knee) == Approx(1e6));
  CHECK(d.iops(IoOp::read, IoPattern::random, bs, knee / 2) == Approx(0.5e6));
  CHECK(d.iops(IoOp::read, IoPattern::random, bs, knee * 2) == Approx(1e6));
  CHECK(d.throughput(IoOp::read, IoPattern::random, bs, 1).value == Approx(4096 / l1_s));
  // Aggregated streams average fractional depths; no I/O outstanding moves nothing.
  CHECK(d.iops(IoOp::read, IoPattern::random, bs, 0.5) == Approx(0.5 / l1_s));
  CHECK(d.iops(IoOp::read, IoPattern::random, bs, 0) == 0.0);
  CHECK(d.iops(IoOp::read, IoPattern::random, bs, -3) == 0.0);
  CHECK(d.throughput(IoOp::read, IoPattern::random, bs, 0).value == 0.0);
}

TEST_CASE("the smooth knee keeps QD1 and the ceiling, bends in between, and sharpens into the min", "[drive]") {
  Json doc = minimal();
  doc["read"]["random"] = {{"latency", "80us"}, {"transfer_rate", "4GB/s"}, {"max_iops", "1MIOPS"}};
  const DriveModel sharp = parsed(doc);
  doc["read"]["random"]["knee_sharpness"] = 2;
  const DriveModel smooth = parsed(doc);
  REQUIRE(smooth.read_random.knee_sharpness == 2.0);
  const Bytes bs(4 * KiB);
  const double l1_s = sharp.qd1_service_time(IoOp::read, IoPattern::random, bs).value; // 80us + 4096 B / 4 GB/s
  CHECK(l1_s == Approx(80e-6 + 4096.0 / 4e9));
  const double xmax = sharp.max_iops(IoOp::read, IoPattern::random, bs);         // 1M
  const double knee = sharp.knee_queue_depth(IoOp::read, IoPattern::random, bs); // ~81

  // Without the key the curve is exactly min(N / L1, Xmax), bit for bit as before the key existed.
  for (double n : {0.3, 1.0, 2.0, 10.0, knee, 100.0, 1e4})
    CHECK(sharp.iops(IoOp::read, IoPattern::random, bs, n) == std::min(n / l1_s, xmax));
  CHECK(knee_curve_iops(7.0, l1_s, xmax, std::nullopt) == std::min(7.0 / l1_s, xmax));

  // One I/O alone still takes L1, and at most one outstanding is the straight line: the knee bends only deeper.
  CHECK(smooth.iops(IoOp::read, IoPattern::random, bs, 1) == Approx(1 / l1_s).epsilon(1e-12));
  CHECK(smooth.iops(IoOp::read, IoPattern::random, bs, 0.4) == Approx(0.4 / l1_s).epsilon(1e-12));
  CHECK(smooth.iops(IoOp::read, IoPattern::random, bs, 0) == 0.0);
  // (X / Xmax)^-2 = (N / N0)^-2 + 1 with N0 = N* (1 - (1/N*)^2)^(1/2): at the corner about 71% of the ceiling.
  const double n0 = knee * std::sqrt(1 - 1 / (knee * knee));
  for (double n : {2.0, 10.0, knee, 300.0}) {
    INFO("N = " << n);
    const double expected = xmax / std::sqrt(1 + (n0 / n) * (n0 / n));
    CHECK(smooth.iops(IoOp::read, IoPattern::random, bs, n) == Approx(expected).epsilon(1e-9));
    CHECK(smooth.iops(IoOp::read, IoPattern::random, bs, n) < sharp.iops(IoOp::read, IoPattern::random, bs, n));
  }
  CHECK(smooth.iops(IoOp::read, IoPattern::random, bs, 1e7) == Approx(xmax).epsilon(1e-6));
  // Monotone in depth; the other profiles keep their sharp knee.
  double last = 0;
  for (double n = 1; n < 5000; n *= 1.3) {
    const double x = smooth.iops(IoOp::read, IoPattern::random, bs, n);
    CHECK(x > last);
    last = x;
  }
  CHECK(smooth.iops(IoOp::read, IoPattern::sequential, bs, 3) == sharp.iops(IoOp::read, IoPattern::sequential, bs, 3));

  // The depth at 90% of the ceiling: 0.9 N* for the sharp knee, deeper for the smooth one, and on the curve.
  CHECK(sharp.saturation_queue_depth(IoOp::read, IoPattern::random, bs, 0.9) == Approx(0.9 * knee));
  const double n90 = smooth.saturation_queue_depth(IoOp::read, IoPattern::random, bs, 0.9);
  CHECK(n90 > knee);
  CHECK(smooth.iops(IoOp::read, IoPattern::random, bs, n90) == Approx(0.9 * xmax).epsilon(1e-9));

  // A large k is the sharp knee at whole depths, away from the corner itself; no power overflows.
  for (double n : {1.0, 2.0, 40.0, 120.0, 1e5})
    CHECK(knee_curve_iops(n, l1_s, xmax, 100.0) == Approx(std::min(n / l1_s, xmax)).epsilon(1e-6));
  CHECK(knee_curve_iops(knee, l1_s, xmax, 100.0) == Approx(xmax * std::pow(0.5, 0.01)).epsilon(1e-3));
  // A QD1 rate at the ceiling already leaves nothing to bend: flat from one I/O on.
  CHECK(knee_curve_iops(5, 1 / 2e6, xmax, 2.0) == xmax);
  CHECK(knee_curve_iops(0.25, 1 / 2e6, xmax, 2.0) == Approx(0.5e6));
  // A tiny k bends so early that depths above one sit at the ceiling, but nothing becomes infinite or NaN.
  CHECK(std::isfinite(knee_curve_iops(4, l1_s, xmax, 1e-3)));
  CHECK(knee_curve_iops(4, l1_s, xmax, 1e-3) <= xmax);
}

TEST_CASE("small blocks hit the IOPS ceiling, large ones the bandwidth", "[drive]") {
  Json doc = minimal();
  doc["read"]["random"]["max_iops"] = "1.6MIOPS";
  const DriveModel d = parsed(doc);
  // 7 GB/s / 1.6 MIOPS = 4375 B: below it the IOPS ceiling binds, above it the bandwidth.
  CHECK(d.max_iops(IoOp::read, IoPattern::random, Bytes(4 * KiB)) == Approx(1.6e6));
  CHECK(d.throughput(IoOp::read, IoPattern::random, Bytes(4 * KiB), 1e6).value == Approx(1.6e6 * 4096));
  CHECK(d.max_iops(IoOp::read, IoPattern::random, Bytes(128 * KiB)) == Approx(7e9 / (128 * KiB)));
  CHECK(d.throughput(IoOp::read, IoPattern::random, Bytes(128 * KiB), 1e6).value == Approx(7e9));
  CHECK(d.max_iops(IoOp::read, IoPattern::random, Bytes(4375)) == Approx(1.6e6));
  // An empty I/O moves no bytes, so only the operation ceiling binds.
  CHECK(d.max_iops(IoOp::read, IoPattern::random, Bytes(0)) == Approx(1.6e6));
}

TEST_CASE("the write cache takes a burst, then the post-cache rate", "[drive]") {
  Json doc = minimal();
  doc["write_cache"] = {{"size", "16GB"}, {"burst_bandwidth", "7GB/s"}, {"post_cache_bandwidth", "3GB/s"}};
  const DriveModel d = parsed(doc);
  CHECK(d.sequential_write_time(Bytes(8e9)).value == Approx(8.0 / 7));
  CHECK(d.sequential_write_time(Bytes(16e9)).value == Approx(16.0 / 7));
  CHECK(d.sequential_write_time(Bytes(46e9)).value == Approx(16.0 / 7 + 30.0 / 3));
  CHECK(d.sequential_write_time(Bytes(0)).value == 0.0);

  SECTION("without a cache every byte goes at write_bandwidth") {
    const DriveModel plain = parsed(minimal());
    CHECK(plain.sequential_write_time(Bytes(46e9)).value == Approx(46.0 / 5));
  }
  SECTION("a cache given only a size bursts at write_bandwidth and keeps it") {
    Json only_size = minimal();
    only_size["write_cache"] = {{"size", "16GB"}};
    const DriveModel c = parsed(only_size);
    CHECK(c.write_cache.burst_bandwidth.value == 5e9);
    CHECK(c.write_cache.post_cache_bandwidth.value == 5e9);
    CHECK(c.sequential_write_time(Bytes(46e9)).value == Approx(46.0 / 5));
  }
}

TEST_CASE("the steady-state factor lowers random-write IOPS only", "[drive]") {
  Json doc = minimal();
  doc["write"]["random"]["max_iops"] = "1MIOPS";
  doc["read"]["random"]["max_iops"] = "1MIOPS";
  doc["steady_state_write_factor"] = 0.6;
  const DriveModel d = parsed(doc);
  const Bytes bs(4 * KiB);
  CHECK(d.max_iops(IoOp::write, IoPattern::random, bs, DriveState::fresh) == Approx(1e6));
  CHECK(d.max_iops(IoOp::write, IoPattern::random, bs) == Approx(0.6e6));
  CHECK(d.iops(IoOp::write, IoPattern::random, bs, 1e6) == Approx(0.6e6));
  CHECK(d.max_iops(IoOp::read, IoPattern::random, bs) == Approx(1e6));
  CHECK(d.max_iops(IoOp::write, IoPattern::sequential, bs) == Approx(5e9 / 4096));
}

TEST_CASE("a drive given only capacity, bandwidth and price gets documented defaults", "[drive]") {
  auto p = parse(minimal());
  INFO(p.errors);
  REQUIRE(p.model.has_value());
  const DriveModel& d = *p.model;
  CHECK(d.read_random.latency.value == Approx(80e-6));
  CHECK(d.read_sequential.latency.value == Approx(20e-6));
  CHECK(d.write_random.latency.value == Approx(15e-6));
  CHECK(d.write_sequential.latency.value == Approx(15e-6));
  CHECK(d.read_random.transfer_rate.value == 7e9);
  CHECK(d.write_sequential.transfer_rate.value == 5e9);
  CHECK(d.read_random.max_iops.value == 7e9 / 4096);
  CHECK(d.write_random.max_iops.value == 5e9 / 4096);
  CHECK(d.write_cache.size.value == 0.0);
  CHECK(d.steady_state_write_factor == 1.0);
  CHECK(d.afr == 0.0044);
  CHECK_FALSE(d.latency_percentiles.p50.has_value());
  CHECK_FALSE(d.latency_percentiles.p99_9.has_value());
  // The default IOPS ceiling makes 4 KiB I/O bandwidth-limited.
  CHECK(d.throughput(IoOp::read, IoPattern::random, Bytes(4 * KiB), 1e6).value == Approx(7e9));
  // The resolved document shows every default, exactly.
  const Json& r = p.resolved;
  CHECK(r["read"]["random"]["latency"] == "80us");
  CHECK(r["read"]["random"]["transfer_rate"] == "7GB/s");
  CHECK(r["read"]["random"]["max_iops"] == "1.708984375MIOPS");
  CHECK(r["read"]["sequential"]["latency"] == "20us");
  CHECK(r["write"]["random"]["latency"] == "15us");
  CHECK(r["write"]["sequential"]["transfer_rate"] == "5GB/s");
  CHECK(r["write"]["sequential"]["max_iops"] == "1.220703125MIOPS");
  CHECK(r["write_cache"]["size"] == "0B");
  CHECK(r["write_cache"]["burst_bandwidth"] == "5GB/s");
  CHECK(r["write_cache"]["post_cache_bandwidth"] == "5GB/s");
  CHECK(r["steady_state_write_factor"] == 1.0);
  CHECK(r["afr"] == 0.0044);
  CHECK_FALSE(r.contains("latency_percentiles"));
  // No knee_sharpness means the sharp knee, and none is written: no number stands for it.
  CHECK_FALSE(d.read_random.knee_sharpness.has_value());
  CHECK_FALSE(d.write_sequential.knee_sharpness.has_value());
  CHECK_FALSE(r["read"]["random"].contains("knee_sharpness"));
  // Parsing the resolved document again gives the same model.
  const DriveModel again = parsed(p.resolved);
  CHECK(again.read_random.max_iops.value == d.read_random.max_iops.value);
  CHECK(again.write_cache.burst_bandwidth.value == d.write_cache.burst_bandwidth.value);
}

TEST_CASE("derived defaults stay exact for awkward bandwidths", "[drive]") {
  Json doc = minimal();
  doc["read_bandwidth"] = "3.2GiB/s";
  auto p = parse(doc);
  REQUIRE(p.model.has_value());
  CHECK(p.model->read_random.transfer_rate.value == 3.2 * 1073741824.0);
  CHECK(p.model->read_random.max_iops.value == 3.2 * 1073741824.0 / 4096);
  const DriveModel again = parsed(p.resolved);
  CHECK(again.read_random.transfer_rate.value == p.model->read_random.transfer_rate.value);
  CHECK(again.read_random.max_iops.value == p.model->read_random.max_iops.value);
}

TEST_CASE("latency percentiles are stored when given", "[drive]") {
  Json doc = minimal();
  doc["latency_percentiles"] = {{"p50", "75us"}, {"p99", "180us"}, {"p99.9", "400us"}};
  const DriveModel d = parsed(doc);
  REQUIRE(d.latency_percentiles.p50.has_value());
  CHECK(d.latency_percentiles.p50->value == Approx(75e-6));
  CHECK(d.latency_percentiles.p99->value == Approx(180e-6));
  CHECK(d.latency_percentiles.p99_9->value == Approx(400e-6));

  SECTION("each one is optional") {
    Json some = minimal();
    some["latency_percentiles"] = {{"p99", "180us"}};
    const DriveModel s = parsed(some);
    CHECK_FALSE(s.latency_percentiles.p50.has_value());
    CHECK(s.latency_percentiles.p99->value == Approx(180e-6));
  }
}

TEST_CASE("drive model errors point at the key and say why", "[drive]") {
  Json doc = minimal();
  SECTION("a bare number has no unit") {
    doc["read"]["random"]["max_iops"] = 1600000;
    CHECK(errors_of(doc) == "d.json:/drives/d/read/random/max_iops: a bare number has no unit (expected a rate of "
                            "operations like \"1.6MIOPS\", \"940kIOPS\" or \"800k op/s\", got 1600000)\n");
  }
  SECTION("IOPS take SI prefixes only") {
    doc["write"]["random"]["max_iops"] = "1MiIOPS";
    CHECK(
        errors_of(doc) ==
        "d.json:/drives/d/write/random/max_iops: binary prefix \"Mi\" in an operation rate (SI prefixes only: k, M, "
        "G, ...) (expected a rate of operations like \"1.6MIOPS\", \"940kIOPS\" or \"800k op/s\", got \"1MiIOPS\")\n");
  }
  SECTION("unknown keys get a did-you-mean at every level") {
    doc["read"]["random"]["latncy"] = "80us";
    doc["write"]["sequentail"] = Json::object();
    doc["wrte_cache"] = Json::object();
    // As elsewhere in the scenario, unknown keys fail the document, not the model read from the known ones.
    CHECK(parse(doc).errors ==
          "d.json:/drives/d/read/random/latncy: unknown key, did you mean \"latency\"? (expected one of \"latency\", "
          "\"transfer_rate\", \"max_iops\" or \"knee_sharpness\")\n"
          "d.json:/drives/d/write/sequentail: unknown key, did you mean \"sequential\"? (expected one of \"random\" or "
          "\"sequential\")\n"
          "d.json:/drives/d/wrte_cache: unknown key, did you mean \"write_cache\"? (expected one of \"format\", "
          "\"file\", \"name\", \"source\", \"capacity\", \"read_bandwidth\", \"write_bandwidth\", \"power_active\", "
          "\"power_idle\", \"price\", \"media\", \"read\", \"write\", \"write_cache\", \"steady_state_write_factor\", "
          "\"latency_percentiles\" or \"afr\")\n");
  }
  SECTION("post-cache bandwidth above the burst") {
    doc["write_cache"] = {{"size", "16GB"}, {"burst_bandwidth", "3GB/s"}, {"post_cache_bandwidth", "7GB/s"}};
    CHECK(errors_of(doc) == "d.json:/drives/d/write_cache/post_cache_bandwidth: post-cache bandwidth above the burst "
                            "bandwidth (expected at most burst_bandwidth 3 GB/s, got 7 GB/s)\n");
  }
  SECTION("a write cache larger than the drive") {
    doc["write_cache"] = {{"size", "8TB"}};
    CHECK(errors_of(doc) == "d.json:/drives/d/write_cache/size: write cache larger than the drive (expected at most "
                            "capacity 7.68 TB, got 8 TB)\n");
  }
  SECTION("an IOPS ceiling far above the bandwidth is fine") {
    doc["read"]["random"]["max_iops"] = "100MIOPS";
    const DriveModel d = parsed(doc);
    CHECK(d.max_iops(IoOp::read, IoPattern::random, Bytes(4 * KiB)) == Approx(7e9 / 4096));
  }
  SECTION("the steady-state factor is above zero and at most one") {
    doc["steady_state_write_factor"] = 0;
    CHECK(errors_of(doc) == "d.json:/drives/d/steady_state_write_factor: must be greater than zero (expected a "
                            "number above 0 and at most 1, got 0)\n");
    doc["steady_state_write_factor"] = 1.5;
    CHECK(errors_of(doc) == "d.json:/drives/d/steady_state_write_factor: out of range (expected a number from 0 to 1, "
                            "got 1.5)\n");
  }
  SECTION("knee_sharpness is a number above zero and at most 100") {
    doc["read"]["random"]["knee_sharpness"] = 0;
    CHECK(errors_of(doc) == "d.json:/drives/d/read/random/knee_sharpness: must be greater than zero (expected a "
                            "number above 0 and at most 100, got 0)\n");
    doc["read"]["random"]["knee_sharpness"] = -2;
    CHECK(errors_of(doc) == "d.json:/drives/d/read/random/knee_sharpness: out of range (expected a number from 0 to "
                            "100, got -2)\n");
    doc["read"]["random"]["knee_sharpness"] = 250;
    CHECK(errors_of(doc) == "d.json:/drives/d/read/random/knee_sharpness: out of range (expected a number from 0 to "
                            "100, got 250)\n");
    doc["read"]["random"]["knee_sharpness"] = "2";
    CHECK(errors_of(doc) == "d.json:/drives/d/read/random/knee_sharpness: wrong type (expected a number from 0 to "
                            "100, got \"2\")\n");
  }
  SECTION("percentiles in order") {
    doc["latency_percentiles"] = {{"p50", "75us"}, {"p99", "50us"}};
    CHECK(errors_of(doc) ==
          "d.json:/drives/d/latency_percentiles/p99: below p50 (expected at least 75 us, got 50 us)\n");
  }
  SECTION("afr is a fraction per year") {
    doc["afr"] = "0.44%";
    CHECK(errors_of(doc) == "d.json:/drives/d/afr: wrong type (expected a number from 0 to 1, got \"0.44%\")\n");
  }
  SECTION("a failed bandwidth reports once, not again through the defaults derived from it") {
    doc["read_bandwidth"] = "0GB/s";
    CHECK(errors_of(doc) == "d.json:/drives/d/read_bandwidth: must be greater than zero (expected a rate with a unit "
                            "like \"400Gbps\", \"50GB/s\" or \"3.2GiB/s\", got \"0GB/s\")\n");
  }
  SECTION("a latency must be positive") {
    doc["write"]["sequential"]["latency"] = "0us";
    CHECK(errors_of(doc) ==
          "d.json:/drives/d/write/sequential/latency: must be greater than zero (expected a duration with a unit like "
          "\"30min\", \"2h\", \"7d\", \"3y\" or \"8us\", got \"0us\")\n");
  }
}

namespace {

// What a datasheet row promises; the model must reproduce it at the conditions datasheets measure under.
struct DatasheetRow {
  const char* file;
  double seq_read_Bps;
  double seq_write_Bps;
  double rand_read_iops;
  double rand_write_iops;
};

DriveModel load_drive_file(const std::string& file) {
  const std::string path = std::string(AISIM_SOURCE_DIR) + "/scenarios/drives/" + file;
  std::ifstream in(path);
  INFO(path);
  REQUIRE(in.good());
  std::stringstream ss;
  ss << in.rdbuf();
  Json doc = Json::parse(ss.str());
  CHECK(doc["format"] == "aisim.drive/v1");
  Diagnostics diag(path);
  ObjectReader r(doc, "", diag);
  auto d = parse_drive_model(r, file);
  INFO(diag.format(true));
  REQUIRE(d.has_value());
  CHECK(diag.items().empty());
  return *d;
}

} // namespace

TEST_CASE("shipped drive files reproduce their datasheet rows", "[drive][validation]") {
  // Sequential: 128 KiB at QD 32; random: 4 KiB at QD 256 (the usual datasheet conditions). Within 5%.
  const DatasheetRow rows[] = {
      {"micron-9400-pro-7.68tb.json", 7.0e9, 7.0e9, 1'600'000, 940'000},     // drives.csv
      {"micron-9550-max-12.8tb.json", 14.0e9, 10.0e9, 3'300'000, 1'200'000}, // drives.csv
      {"solidigm-d5-p5336-61.44tb.json", 7.0e9, 3.3e9, 1'005'000, 38'000},   // architecting.it
      // Gen5 7.68 TB, as Micron's 9550 launch compared them (ComputerBase, July 2024).
      {"micron-9550-pro-7.68tb.json", 14.0e9, 10.0e9, 3'300'000, 400'000},
      {"samsung-pm1743-7.68tb.json", 14.0e9, 6.0e9, 2'500'000, 300'000},
      {"kioxia-cm7-r-7.68tb.json", 14.0e9, 6.75e9, 2'450'000, 300'000},
      // Micron's launch figures (Tom's Hardware, May 2023).
      {"micron-6500-ion-30.72tb.json", 6.8e9, 5.0e9, 1'000'000, 200'000},
  };
  for (const auto& row : rows) {
    INFO(row.file);
    const DriveModel d = load_drive_file(row.file);
    const Bytes seq(128 * KiB), rnd(4 * KiB);
    CHECK(d.throughput(IoOp::read, IoPattern::sequential, seq, 32).value == Approx(row.seq_read_Bps).epsilon(0.05));
    CHECK(d.throughput(IoOp::write, IoPattern::sequential, seq, 32).value == Approx(row.seq_write_Bps).epsilon(0.05));
    CHECK(d.iops(IoOp::read, IoPattern::random, rnd, 256) == Approx(row.rand_read_iops).epsilon(0.05));
    CHECK(d.iops(IoOp::write, IoPattern::random, rnd, 256) == Approx(row.rand_write_iops).epsilon(0.05));
  }
}

TEST_CASE("the 9550 MAX's QD1 read latency matches its datasheet", "[drive][validation]") {
  const DriveModel d = load_drive_file("micron-9550-max-12.8tb.json");
  CHECK(d.qd1_service_time(IoOp::read, IoPattern::random, Bytes(4 * KiB)).value == Approx(60e-6).epsilon(0.01));
  CHECK(d.afr == Approx(8766.0 / 2e6));
}

TEST_CASE("a calibration's verdict: an untrusted model loads with a warning, a malformed one is refused", "[drive]") {
  Json doc = minimal();
  doc["calibration"] = {{"trusted", false}, {"repeatability", 0.35}, {"verdict", "too noisy to trust: ..."}};
  Diagnostics diag("d.json");
  ObjectReader r(doc, "/drives/d", diag);
  REQUIRE(parse_drive_model(r, "d"));
  REQUIRE(diag.items().size() == 1);
  CHECK(diag.items()[0].warning);
  CHECK(diag.format(true) == "d.json:/drives/d/calibration/trusted: warning: drive \"d\" comes from a calibration "
                             "that did not trust it (too noisy to trust: ...); results that depend on its figures "
                             "carry that uncertainty\n");

  doc["calibration"] = {{"trusted", true}, {"verdict", "trusted: 14 of 14 held-out points within 10%"}};
  CHECK(parse(doc).errors.empty());

  doc["calibration"] = {{"trusted", "yes"}, {"repeatability", -1}, {"verdict", "x"}};
  const std::string e = errors_of(doc);
  CHECK(e.find("/drives/d/calibration/trusted: wrong type") != std::string::npos);
  CHECK(e.find("/drives/d/calibration/repeatability") != std::string::npos);
  doc["calibration"] = {{"trusted", true}, {"verdict", "x"}, {"trustd", true}};
  // As elsewhere, an unknown key fails the document, not the model read from the known ones.
  CHECK(parse(doc).errors.find("/drives/d/calibration/trustd: unknown key") != std::string::npos);
}
