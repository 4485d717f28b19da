// The probe's target checks against this machine: refusals before any I/O, the busy check of the device that
// holds the root file system (read-only, with O_EXCL), a short io_uring run on a small file, a sweep with
// interleaved repeats.
#include "app/probe/calibration_sweep.hpp"
#include "app/probe/probe_target.hpp"
#include "app/probe/uring_engine.hpp"

#include <catch2/catch.hpp>

#include <cstdio>

#include <filesystem>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/sysmacros.h>
#include <unistd.h>

using namespace aisim::models;
using namespace aisim::app::probe;
namespace fs = std::filesystem;

namespace {

// A scratch folder on a real file system: the build tree (never /tmp, which may be tmpfs).
fs::path scratch() {
  const fs::path dir = fs::path(AISIM_TEST_SCRATCH) / "probe-target";
  fs::create_directories(dir);
  return dir;
}

std::string refusal(const TargetOptions& opt, ProbeErrorKind expected = ProbeErrorKind::bad_input) {
  try {
    ProbeTarget::open(opt);
  } catch (const ProbeError& e) {
    CHECK(e.get_kind() == expected);
    return e.what();
  }
  FAIL("the target was accepted: " << opt.path);
  return {};
}

} // namespace

TEST_CASE("refused targets: tmpfs, missing, sparse, wrong size", "[probe]") {
  struct statfs sfs {};
  if (statfs("/dev/shm", &sfs) == 0 && sfs.f_type == 0x01021994) {
    const std::string why = refusal({"/dev/shm/aisim-probe-test", uint64_t{64} << 20, false, false});
    CHECK(why.find("is on tmpfs, refused") != std::string::npos);
    CHECK_FALSE(fs::exists("/dev/shm/aisim-probe-test"));
  }
  const fs::path dir = scratch();
  CHECK(refusal({(dir / "missing.dat").string(), std::nullopt, false, false}).find("no such file") !=
        std::string::npos);
  CHECK(refusal({(dir / "no-folder" / "x.dat").string(), uint64_t{64} << 20, false, false}).find("does not exist") !=
        std::string::npos);

  const fs::path sparse = dir / "sparse.dat";
  fs::remove(sparse);
  {
    FILE* f = std::fopen(sparse.c_str(), "w");
    REQUIRE(f);
    std::fclose(f);
  }
  fs::resize_file(sparse, 64u << 20);
  CHECK(refusal({sparse.string(), std::nullopt, false, false}).find("is sparse") != std::string::npos);
  CHECK(refusal({sparse.string(), uint64_t{32} << 20, false, false}).find("not the --size") != std::string::npos);
  fs::remove(sparse);
  CHECK(refusal({(dir / "tiny.dat").string(), uint64_t{1} << 20, false, false}).find("too small") != std::string::npos);
}

TEST_CASE("the device under / is busy, and a write to a block device needs --allow-destructive", "[probe]") {
  struct stat st {};
  REQUIRE(stat("/", &st) == 0);
  const DeviceInfo dev = identify_device(major(st.st_dev), minor(st.st_dev));
  if (!dev.identified || !fs::exists("/dev/" + dev.name)) {
    // ctest reports the test skipped on this line (SKIP_REGULAR_EXPRESSION), not passed.
    std::printf("SKIP: the root file system is not on a block device here (overlay, container)\n");
  } else {
    const std::string node = "/dev/" + dev.name;
    const auto reasons = block_device_busy_reasons(node);
    REQUIRE_FALSE(reasons.empty());
    CHECK(refusal({node, std::nullopt, true, false}).find("--allow-destructive") != std::string::npos);
    CHECK(refusal({node, uint64_t{1} << 30, false, false}).find("--size is only for a file") != std::string::npos);
    CHECK(dev.logical_block_size >= 512);
    CHECK(dev.size_bytes > 0);
  }
}

TEST_CASE("a small file: created full, aligned, identified, read and written through io_uring", "[probe]") {
  const fs::path file = scratch() / "engine.dat";
  fs::remove(file);
  double last_fraction = 0;
  {
    ProbeTarget t =
        ProbeTarget::open({file.string(), uint64_t{16} << 20, true, false}, [&](double f) { last_fraction = f; });
    CHECK(t.was_created());
    CHECK(last_fraction == Approx(1.0));
    CHECK(t.get_size() == (16u << 20));
    CHECK(t.get_offset_alignment() >= 512);
    struct stat st {};
    REQUIRE(stat(file.c_str(), &st) == 0);
    CHECK(static_cast<uint64_t>(st.st_blocks) * 512 >= t.get_size()); // fully allocated, not sparse
    CHECK(t.to_json()["fs_type"] != "tmpfs");

    EngineOptions eo;
    eo.max_queue_depth = 8;
    eo.buffer_bytes = 8 * 65536;
    UringEngine engine(t.get_fd(), t.get_size(), eo);
    const Json how = engine.describe();
    CHECK(how["registered_file"] == true);
    CHECK(how["fixed_buffers"] == true);
    for (IoOp op : {IoOp::read, IoOp::write}) {
      const IoRunResult r = engine.run({op, IoPattern::random, 4096, 8, 0.02, 0.1, 0});
      CHECK(r.ios > 0);
      CHECK(r.clat.count() == r.ios);
      CHECK(r.bytes == r.ios * 4096);
      CHECK(r.iops() > 0);
    }
    const IoRunResult seq = engine.run({IoOp::read, IoPattern::sequential, 65536, 4, 0, 0.2, 0.05});
    CHECK(seq.interval_bytes.size() >= 2);
  }
  // An existing, filled file is measured as it is.
  {
    ProbeTarget again = ProbeTarget::open({file.string(), std::nullopt, false, false});
    CHECK_FALSE(again.was_created());
    CHECK_FALSE(again.is_writable());
  }
  fs::remove(file);
}

TEST_CASE("the sweep interleaves repeats: every point once per round, each repeat kept", "[probe]") {
  const fs::path file = scratch() / "sweep.dat";
  fs::remove(file);
  {
    ProbeTarget t = ProbeTarget::open({file.string(), uint64_t{16} << 20, false, false});
    SweepPlan plan = plan_points({{IoOp::read, IoPattern::random, 4096, 1},
                                  {IoOp::read, IoPattern::random, 4096, 4},
                                  {IoOp::read, IoPattern::sequential, 65536, 2}},
                                 0.02, 0.05);
    plan.repeats = 3;
    std::vector<std::string> order;
    std::vector<std::string> done;
    SweepCallbacks cb;
    cb.progress = [&](double, const std::string& now) { order.push_back(now); };
    cb.point_done = [&](const MeasuredPoint& p) { done.push_back(p.label()); };
    const CalibrationData data = run_sweep(t, plan, cb, "test");
    // Round-major: the three points, then the three again, then again; each point is finished in the last round.
    REQUIRE(order.size() == 10); // nine runs and "done"
    CHECK(order[0] == "read random 4KiB QD1 (1/3)");
    CHECK(order[1] == "read random 4KiB QD4 (1/3)");
    CHECK(order[2] == "read sequential 64KiB QD2 (1/3)");
    CHECK(order[3] == "read random 4KiB QD1 (2/3)");
    CHECK(order[8] == "read sequential 64KiB QD2 (3/3)");
    CHECK(done ==
          std::vector<std::string>{"read random 4KiB QD1", "read random 4KiB QD4", "read sequential 64KiB QD2"});
    REQUIRE(data.points.size() == 3);
    for (const auto& p : data.points) {
      INFO(p.label());
      CHECK(p.repeats.size() == 3);
      CHECK(p.iops > 0);
      CHECK(p.clat.count() > 0);
      double lo = p.repeats[0].iops, hi = lo;
      for (const auto& r : p.repeats) {
        lo = std::min(lo, r.iops);
        hi = std::max(hi, r.iops);
      }
      CHECK(p.iops >= lo * 0.999); // the pooled figure lies among its repeats
      CHECK(p.iops <= hi * 1.001);
    }
    // Later rounds warm up for a quarter of the first's time, which the plan's estimate counts.
    CHECK(plan.warmup_for_repeat(0) == Approx(0.02));
    CHECK(plan.warmup_for_repeat(1) == Approx(0.005));
    CHECK(plan.estimated_s() == Approx(3 * (0.02 + 0.005 + 0.005 + 3 * 0.05)));
  }
  fs::remove(file);
}
