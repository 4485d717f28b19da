// The probe's I/O engine on liburing (>= 2.3), built the way fio's io_uring engine reaches a drive's peak: the
// target registered as a fixed file, one registered buffer region used with READ_FIXED/WRITE_FIXED, completions
// reaped in batches and submissions batched as configured (fio's default, one I/O per call, unless asked),
// ring flags tried from the most to the least capable, polled completion when the device has poll queues. One
// ring per thread; the probe runs one thread.
//
// Latency is fio's clat: from just after the submitting io_uring_enter returns to the reap that sees the
// completion, one timestamp per reap batch, as fio takes it.
#pragma once

#include "app/probe/probe_error.hpp"

#include "models/calibration/latency_histogram.hpp"
#include "models/common/json_reader.hpp"
#include "models/hardware/drive_model.hpp"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace aisim::app::probe {

// What a probe point measures is described in the models' terms (models/hardware, models/calibration).
using models::IoOp;
using models::IoPattern;
using models::Json;
using models::LatencyHistogram;

// One measurement point: what is issued and how deep the queue is.
struct PointSpec {
  IoOp op = IoOp::read;
  IoPattern pattern = IoPattern::random;
  uint64_t bs_bytes = 4096;
  unsigned queue_depth = 1;
  bool operator==(const PointSpec&) const = default;
};

// A point and how long to run it.
struct IoSpec : PointSpec {
  double warmup_s = 0;   // issued and completed but not counted
  double runtime_s = 1;  // the measured window
  double interval_s = 0; // > 0: also record bytes completed per interval (the write-cache run)
};

struct IoRunResult {
  uint64_t ios = 0;
  uint64_t bytes = 0;
  double elapsed_s = 0;
  LatencyHistogram clat;
  std::vector<double> interval_bytes;
  double iops() const { return elapsed_s > 0 ? static_cast<double>(ios) / elapsed_s : 0.0; }
  double bw_Bps() const { return elapsed_s > 0 ? static_cast<double>(bytes) / elapsed_s : 0.0; }
};

struct EngineOptions {
  unsigned max_queue_depth = 256;
  uint64_t buffer_bytes = 8u << 20; // the registered region: the largest queue depth x block size used
  uint32_t memory_alignment = 4096;
  bool try_polling = false; // the device reports io_poll: try IORING_SETUP_IOPOLL first
  // I/Os prepared per io_uring_enter. 1 is fio's default (iodepth_batch_submit=1): every freed slot goes back to
  // the drive at once. On the development machine's virtio disk, holding a reaped batch back and submitting it
  // in one call gave 10-15% fewer IOPS at QD32 than fio; one call per I/O matched it. Reaping is always batched:
  // every completion available, up to the queue depth, per wait (fio's iodepth_batch_complete_max).
  unsigned submit_batch = 1;
};

class UringEngine {
public:
  // Sets up the ring (throws ProbeError unavailable with the reason when io_uring cannot be used), registers the
  // file and the buffers (falling back to plain reads and writes if registration is refused).
  UringEngine(int fd, uint64_t target_bytes, const EngineOptions& opt);
  ~UringEngine();
  UringEngine(const UringEngine&) = delete;
  UringEngine& operator=(const UringEngine&) = delete;

  // One point: keeps queue_depth I/Os in flight for warmup_s + runtime_s. Throws ProbeError io_failure.
  IoRunResult run(const IoSpec& spec);

  // How the ring was set up, for the raw measurements: flags, fixed file and buffers, completion mode.
  Json describe() const;
  bool is_polled() const { return polled_; }

private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
  bool polled_ = false;
  void setup_ring(bool polled);
  IoRunResult run_once(const IoSpec& spec);
};

// Why io_uring_queue_init failed, in words: EPERM (kernel.io_uring_disabled, seccomp), ENOSYS, ENOMEM.
std::string explain_ring_error(int err);

} // namespace aisim::app::probe
