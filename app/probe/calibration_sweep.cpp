#include "app/probe/calibration_sweep.hpp"

#include "app/probe/uring_engine.hpp"

#include "models/common/units.hpp"

#include <algorithm>
#include <cstdlib>
#include <ctime>

namespace aisim::app::probe {
using models::Dimension;
using models::format_block_size;
using models::parse_quantity;
using models::WriteCacheRun;
namespace {

constexpr uint64_t KiB = 1024;
constexpr uint64_t MiB = 1024 * KiB;

void add_unique(std::vector<PointSpec>& pts, const PointSpec& p) {
  for (const auto& q : pts)
    if (q == p)
      return;
  pts.push_back(p);
}

} // namespace

double SweepPlan::warmup_for_repeat(unsigned r) const {
  // The first visit settles the drive at the point; a later one only refills the queue and lets the previous
  // point's I/O drain, so a quarter of the warm-up does.
  return r == 0 ? warmup_s : warmup_s / 4;
}

double SweepPlan::estimated_s() const {
  double per_point = 0;
  for (unsigned r = 0; r < repeats; ++r)
    per_point += warmup_for_repeat(r) + runtime_s;
  return static_cast<double>(points.size()) * per_point + (cache_run ? cache_run_s : 0.0);
}

Json SweepPlan::to_json() const {
  Json j{{"quick", quick},         {"write", write},     {"warmup_s", warmup_s},
         {"runtime_s", runtime_s}, {"repeats", repeats}, {"points", points.size()}};
  if (cache_run)
    j["write_cache_run"] = {{"bs_bytes", cache_bs_bytes},
                            {"qd", cache_queue_depth},
                            {"runtime_s", cache_run_s},
                            {"interval_s", cache_interval_s}};
  return j;
}

SweepPlan plan_sweep(bool quick, bool write, uint64_t min_bs) {
  SweepPlan plan;
  plan.quick = quick;
  plan.write = write;
  // --quick keeps each curve's shape with few, short points: it must finish in well under a minute even with
  // --write, so a point is a 0.1 s warm-up and two 0.25 s repeats. A full sweep holds each point long enough for
  // a drive's internal state (read-ahead, SLC cache, garbage collection) to settle.
  const std::vector<uint64_t> sizes = quick ? std::vector<uint64_t>{4 * KiB, 32 * KiB, 128 * KiB, 1 * MiB}
                                            : std::vector<uint64_t>{4 * KiB,   8 * KiB,   16 * KiB,  32 * KiB, 64 * KiB,
                                                                    128 * KiB, 256 * KiB, 512 * KiB, 1 * MiB};
  const std::vector<unsigned> random_depths =
      quick ? std::vector<unsigned>{1, 4, 16, 64, 256} : std::vector<unsigned>{1, 2, 4, 8, 16, 32, 64, 128, 256};
  const std::vector<unsigned> seq_depths =
      quick ? std::vector<unsigned>{1, 4, 16, 64} : std::vector<unsigned>{1, 2, 4, 8, 16, 32, 64};
  if (quick) {
    plan.warmup_s = 0.1;
    plan.runtime_s = 0.25;
    plan.repeats = 2;
    // Too short to run a real SLC cache full (those hold tens of GB); it shows the path works and catches a
    // small DRAM cache. Measure without --quick to find a real cliff.
    plan.cache_run_s = 3;
    plan.cache_interval_s = 0.2;
  }
  std::vector<IoOp> ops{IoOp::read};
  if (write)
    ops.push_back(IoOp::write);
  for (IoOp op : ops) {
    for (IoPattern pattern : {IoPattern::random, IoPattern::sequential})
      for (uint64_t bs : sizes)
        if (bs >= min_bs)
          add_unique(plan.points, {op, pattern, bs, 1});
    for (unsigned qd : random_depths)
      add_unique(plan.points, {op, IoPattern::random, std::max<uint64_t>(4 * KiB, min_bs), qd});
    for (unsigned qd : seq_depths)
      add_unique(plan.points, {op, IoPattern::sequential, std::max<uint64_t>(128 * KiB, min_bs), qd});
  }
  plan.cache_run = write;
  return plan;
}

SweepPlan plan_points(const std::vector<PointSpec>& points, double warmup_s, double runtime_s) {
  SweepPlan plan;
  plan.points = points;
  plan.warmup_s = warmup_s;
  plan.runtime_s = runtime_s;
  plan.repeats = 1;
  for (const auto& p : points)
    plan.write = plan.write || p.op == IoOp::write;
  return plan;
}

std::optional<PointSpec> parse_point_spec(const std::string& text, std::string* why) {
  std::vector<std::string> parts;
  size_t start = 0;
  while (true) {
    const size_t colon = text.find(':', start);
    parts.push_back(text.substr(start, colon == std::string::npos ? std::string::npos : colon - start));
    if (colon == std::string::npos)
      break;
    start = colon + 1;
  }
  auto fail = [&](const std::string& m) {
    *why = "--point " + text + ": " + m + " (expected OP:PATTERN:BS:QD, e.g. read:random:4KiB:32)";
    return std::optional<PointSpec>();
  };
  if (parts.size() != 4)
    return fail("wrong number of fields");
  PointSpec p;
  if (parts[0] == "read")
    p.op = IoOp::read;
  else if (parts[0] == "write")
    p.op = IoOp::write;
  else
    return fail("unknown operation \"" + parts[0] + "\" (read or write)");
  if (parts[1] == "random" || parts[1] == "rand")
    p.pattern = IoPattern::random;
  else if (parts[1] == "sequential" || parts[1] == "seq")
    p.pattern = IoPattern::sequential;
  else
    return fail("unknown pattern \"" + parts[1] + "\" (random or sequential)");
  std::string err;
  auto bs = parse_quantity(parts[2], Dimension::bytes, &err);
  if (!bs || !(*bs >= 512) || *bs > 64.0 * MiB || static_cast<double>(static_cast<uint64_t>(*bs)) != *bs)
    return fail("block size \"" + parts[2] + "\" is not a whole number of bytes from 512B to 64MiB" +
                (err.empty() ? "" : " (" + err + ")"));
  p.bs_bytes = static_cast<uint64_t>(*bs);
  char* end = nullptr;
  const long qd = std::strtol(parts[3].c_str(), &end, 10);
  if (parts[3].empty() || *end != '\0' || qd < 1 || qd > 4096)
    return fail("queue depth \"" + parts[3] + "\" is not a whole number from 1 to 4096");
  p.queue_depth = static_cast<unsigned>(qd);
  return p;
}

std::string utc_now_iso8601() {
  const std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

CalibrationData run_sweep(ProbeTarget& target, const SweepPlan& plan, const SweepCallbacks& cb,
                          const std::string& aisim_version) {
  CalibrationData data;
  data.aisim_version = aisim_version;
  data.measured_at = utc_now_iso8601();
  data.target_path = target.get_path();
  data.target_kind = target.get_kind() == TargetKind::file ? "file" : "block_device";
  data.target_size_bytes = target.get_size();
  data.capacity_bytes = target.get_capacity();
  data.device_name = target.get_device().name;
  data.device_model = target.get_device().model;
  data.quick = plan.quick;
  data.wrote = plan.write;
  data.target = target.to_json();
  data.device = target.get_device().to_json();
  data.plan = plan.to_json();

  EngineOptions eo;
  eo.max_queue_depth = 1;
  eo.buffer_bytes = 0;
  for (const auto& p : plan.points) {
    if (p.op == IoOp::write && !target.is_writable())
      throw std::logic_error("a write point on a target opened read-only");
    if (p.bs_bytes % target.get_offset_alignment() != 0)
      throw ProbeError(ProbeErrorKind::bad_input, "block size " + format_block_size(p.bs_bytes) +
                                                      " is not a multiple of the target's direct-I/O "
                                                      "alignment (" +
                                                      std::to_string(target.get_offset_alignment()) + " bytes)");
    if (p.bs_bytes > target.get_size())
      throw ProbeError(ProbeErrorKind::bad_input,
                       "block size " + format_block_size(p.bs_bytes) + " is larger than the target");
    eo.max_queue_depth = std::max(eo.max_queue_depth, p.queue_depth);
    eo.buffer_bytes = std::max<uint64_t>(eo.buffer_bytes, p.bs_bytes * p.queue_depth);
  }
  if (plan.cache_run) {
    eo.max_queue_depth = std::max(eo.max_queue_depth, plan.cache_queue_depth);
    eo.buffer_bytes = std::max<uint64_t>(eo.buffer_bytes, plan.cache_bs_bytes * plan.cache_queue_depth);
  }
  eo.buffer_bytes = std::max<uint64_t>(eo.buffer_bytes, 4096);
  eo.memory_alignment = target.get_memory_alignment();
  eo.try_polling = target.get_device().io_poll;
  UringEngine engine(target.get_fd(), target.get_size(), eo);
  data.engine = engine.describe();

  // Repeats are interleaved: round r measures every point once before round r + 1 starts, so a drift of the
  // device or the machine (another tenant, garbage collection, a thermal throttle) shows as spread within each
  // point rather than as a difference between points, which the fit would take for the drive's shape.
  const double total_s = std::max(plan.estimated_s(), 1e-9);
  double done_s = 0;
  std::vector<MeasuredPoint> measured(plan.points.size());
  std::vector<uint64_t> ios(plan.points.size(), 0), bytes(plan.points.size(), 0);
  std::vector<double> elapsed(plan.points.size(), 0);
  for (unsigned r = 0; r < plan.repeats; ++r) {
    for (size_t i = 0; i < plan.points.size(); ++i) {
      const PointSpec& spec = plan.points[i];
      MeasuredPoint& mp = measured[i];
      mp.op = spec.op;
      mp.pattern = spec.pattern;
      mp.bs_bytes = spec.bs_bytes;
      mp.queue_depth = spec.queue_depth;
      if (cb.progress)
        cb.progress(done_s / total_s, mp.label() + (plan.repeats > 1 ? " (" + std::to_string(r + 1) + "/" +
                                                                           std::to_string(plan.repeats) + ")"
                                                                     : std::string()));
      const double warmup_s = plan.warmup_for_repeat(r);
      const IoSpec io{spec, warmup_s, plan.runtime_s, 0};
      const IoRunResult res = engine.run(io);
      mp.repeats.push_back({res.iops(), res.bw_Bps(), res.clat.mean_ns()});
      mp.clat.merge(res.clat);
      ios[i] += res.ios;
      bytes[i] += res.bytes;
      elapsed[i] += res.elapsed_s;
      done_s += warmup_s + plan.runtime_s;
      if (r + 1 == plan.repeats) {
        mp.iops = elapsed[i] > 0 ? static_cast<double>(ios[i]) / elapsed[i] : 0;
        mp.bw_Bps = elapsed[i] > 0 ? static_cast<double>(bytes[i]) / elapsed[i] : 0;
        if (cb.point_done)
          cb.point_done(mp);
      }
    }
  }
  data.points = std::move(measured);
  if (plan.cache_run) {
    if (cb.progress)
      cb.progress(done_s / total_s, "long sequential write (write-cache cliff)");
    const IoSpec io{{IoOp::write, IoPattern::sequential, plan.cache_bs_bytes, plan.cache_queue_depth},
                    0,
                    plan.cache_run_s,
                    plan.cache_interval_s};
    const IoRunResult res = engine.run(io);
    data.write_cache_run =
        WriteCacheRun{plan.cache_bs_bytes, plan.cache_queue_depth, plan.cache_interval_s, res.interval_bytes};
  }
  if (cb.progress)
    cb.progress(1.0, "done");
  return data;
}

} // namespace aisim::app::probe
