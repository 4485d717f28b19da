// Fuzz target: a drive model file (aisim.drive/v1), as a scenario's {"file": ...} entry or `aisim calibrate`'s
// output is read: the text is written to a file and read back through the scenario's include path.
// Properties: no crash, hang or leak; a refused file names an error with a message; an accepted model answers
// every question the engine asks of it (each direction and pattern, block sizes 512 B to 16 MiB, queue depths 0.5
// to 1024) with finite, non-negative figures, IOPS never above the ceiling and never falling as the queue deepens.
#include "tests/fuzz/fuzz_input.hpp"

#include "models/hardware/drive_model.hpp"
#include "models/scenario/included_file.hpp"

#include <cmath>

namespace {

void check_model(const aisim::models::DriveModel& m) {
  using namespace aisim::models;
  using aisim::fuzz::require;
  for (IoOp op : {IoOp::read, IoOp::write})
    for (IoPattern pat : {IoPattern::random, IoPattern::sequential})
      for (double bs : {512.0, 4096.0, 131072.0, 1048576.0, 16777216.0}) {
        const double ceiling = m.max_iops(op, pat, Bytes(bs));
        require(std::isfinite(ceiling) && ceiling > 0, "a drive's IOPS ceiling is not a positive number");
        require(std::isfinite(m.qd1_service_time(op, pat, Bytes(bs)).value) &&
                    m.qd1_service_time(op, pat, Bytes(bs)).value > 0,
                "a drive's queue-depth-1 service time is not a positive number");
        double last = 0;
        for (double qd : {0.5, 1.0, 2.0, 4.0, 32.0, 256.0, 1024.0}) {
          const double x = m.iops(op, pat, Bytes(bs), qd);
          require(std::isfinite(x) && x >= 0, "a drive's IOPS is not a finite non-negative number");
          require(x <= ceiling * (1 + 1e-9), "a drive's IOPS exceeds its ceiling");
          require(x >= last * (1 - 1e-9), "a drive's IOPS falls as the queue deepens");
          require(std::isfinite(m.throughput(op, pat, Bytes(bs), qd).value), "a drive's throughput is not finite");
          last = x;
        }
        const double knee = m.knee_queue_depth(op, pat, Bytes(bs));
        require(std::isfinite(knee) && knee > 0, "a drive's knee queue depth is not a positive number");
        const double sat = m.saturation_queue_depth(op, pat, Bytes(bs), 0.9);
        require(std::isfinite(sat) && sat > 0, "a drive's 90% saturation depth is not a positive number");
      }
  const double t = m.sequential_write_time(m.capacity).value;
  require(std::isfinite(t) && t >= 0, "a drive's time to fill is not a finite non-negative number");
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace aisim;
  const auto& dir = fuzz::scratch_dir("drive");
  fuzz::write_file(dir / "drive.json", std::string_view(reinterpret_cast<const char*>(data), size));
  models::Diagnostics diag("fuzz.json");
  auto doc = models::load_included_json("drive.json", dir.string(), "aisim.drive/v1", "/drives/x/file", diag);
  if (!doc) {
    fuzz::require(diag.has_errors(), "a drive file refused without an error");
    return 0;
  }
  doc->erase("format");
  models::ObjectReader r(*doc, "/drives/x", diag);
  const auto model = r.ok() ? models::parse_drive_model(r, "x") : std::nullopt;
  for (const auto& d : diag.items())
    fuzz::require(!d.message.empty(), "a diagnostic without a message");
  // As in a scenario, any error refuses the file (a model may come back with unknown keys reported beside it).
  if (!model || diag.has_errors()) {
    fuzz::require(diag.has_errors(), "a drive refused without an error");
    return 0;
  }
  check_model(*model);
  return 0;
}
