// The probe's pure parts: sweep plans, --point parsing, mountinfo parsing, io_uring error texts.
#include "app/probe/calibration_sweep.hpp"
#include "app/probe/probe_target.hpp"
#include "app/probe/uring_engine.hpp"

#include <catch2/catch.hpp>

#include <cerrno>

using namespace aisim::models;
using namespace aisim::app::probe;

namespace {

bool has(const SweepPlan& plan, IoOp op, IoPattern pattern, uint64_t bs, unsigned qd) {
  for (const auto& p : plan.points)
    if (p.op == op && p.pattern == pattern && p.bs_bytes == bs && p.queue_depth == qd)
      return true;
  return false;
}

} // namespace

TEST_CASE("the sweep covers the issue's curves, and --quick stays well under a minute", "[probe]") {
  const SweepPlan full = plan_sweep(false, false, 4096);
  CHECK(has(full, IoOp::read, IoPattern::random, 4096, 1));
  CHECK(has(full, IoOp::read, IoPattern::random, 1 << 20, 1));
  CHECK(has(full, IoOp::read, IoPattern::sequential, 4096, 1));
  CHECK(has(full, IoOp::read, IoPattern::random, 4096, 256));
  CHECK(has(full, IoOp::read, IoPattern::sequential, 128 * 1024, 64));
  CHECK_FALSE(has(full, IoOp::write, IoPattern::random, 4096, 1));
  CHECK_FALSE(full.cache_run);
  CHECK(full.repeats >= 2);

  const SweepPlan quick_rw = plan_sweep(true, true, 4096);
  CHECK(has(quick_rw, IoOp::write, IoPattern::random, 4096, 256));
  CHECK(has(quick_rw, IoOp::write, IoPattern::sequential, 1 << 20, 1));
  CHECK(quick_rw.cache_run);
  CHECK(quick_rw.repeats >= 2);
  CHECK(quick_rw.warmup_s > 0);
  // Planned measuring time, reads and writes together; the rest (file creation, draining) is small.
  CHECK(quick_rw.estimated_s() < 30.0);
  // A point is never measured twice (QD1 4 KiB random is in two curves).
  for (size_t i = 0; i < quick_rw.points.size(); ++i)
    for (size_t j = i + 1; j < quick_rw.points.size(); ++j)
      CHECK_FALSE((quick_rw.points[i].op == quick_rw.points[j].op &&
                   quick_rw.points[i].pattern == quick_rw.points[j].pattern &&
                   quick_rw.points[i].bs_bytes == quick_rw.points[j].bs_bytes &&
                   quick_rw.points[i].queue_depth == quick_rw.points[j].queue_depth));

  // A 4Kn device with an 8 KiB direct-I/O alignment drops the 4 KiB points and moves the IOPS curve up.
  const SweepPlan aligned = plan_sweep(true, false, 8192);
  CHECK_FALSE(has(aligned, IoOp::read, IoPattern::random, 4096, 1));
  CHECK(has(aligned, IoOp::read, IoPattern::random, 8192, 256));
}

TEST_CASE("point specs for --point: OP:PATTERN:BS:QD", "[probe]") {
  std::string why;
  auto p = parse_point_spec("read:random:4KiB:32", &why);
  REQUIRE(p);
  CHECK(p->op == IoOp::read);
  CHECK(p->pattern == IoPattern::random);
  CHECK(p->bs_bytes == 4096);
  CHECK(p->queue_depth == 32);
  p = parse_point_spec("write:seq:1MiB:8", &why);
  REQUIRE(p);
  CHECK(p->pattern == IoPattern::sequential);
  CHECK(p->bs_bytes == 1048576);
  CHECK_FALSE(parse_point_spec("read:random:4KiB", &why));
  CHECK(why.find("wrong number of fields") != std::string::npos);
  CHECK_FALSE(parse_point_spec("trim:random:4KiB:1", &why));
  CHECK(why.find("unknown operation") != std::string::npos);
  CHECK_FALSE(parse_point_spec("read:random:4096:1", &why)); // a bare number is not a size
  CHECK_FALSE(parse_point_spec("read:random:4KiB:0", &why));
  CHECK(why.find("queue depth") != std::string::npos);
}

TEST_CASE("mountinfo: mounts of a device and its partitions", "[probe]") {
  const std::string mountinfo = "22 27 0:21 / /proc rw,relatime - proc proc rw\n"
                                "27 1 254:0 / / rw,relatime - ext4 /dev/vda rw\n"
                                "40 27 259:1 / /mnt/my\\040data rw,relatime - xfs /dev/nvme0n1p1 rw\n"
                                "41 27 259:2 / /srv rw,relatime - xfs /dev/nvme0n1p2 rw\n";
  CHECK(mounts_of(mountinfo, {{254, 0}}) == std::vector<std::string>{"/"});
  CHECK(mounts_of(mountinfo, {{259, 0}, {259, 1}}) == std::vector<std::string>{"/mnt/my data"});
  CHECK(mounts_of(mountinfo, {{8, 0}}).empty());
}

TEST_CASE("io_uring setup errors are explained", "[probe]") {
  CHECK(explain_ring_error(EPERM).find("io_uring") != std::string::npos);
  CHECK(explain_ring_error(ENOSYS).find("CONFIG_IO_URING") != std::string::npos);
  CHECK(explain_ring_error(ENOMEM).find("ulimit -l") != std::string::npos);
  CHECK(fs_type_name(0x01021994) == "tmpfs");
  CHECK(fs_type_name(0xEF53) == "ext4");
}
