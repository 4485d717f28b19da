#include "app/probe/uring_engine.hpp"

#include <liburing.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <fstream>

namespace aisim::app::probe {
namespace {

uint64_t now_ns() {
  timespec ts{};
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<uint64_t>(ts.tv_sec) * 1'000'000'000ull + static_cast<uint64_t>(ts.tv_nsec);
}

ProbeError io_error(const std::string& what) { return ProbeError(ProbeErrorKind::io_failure, what); }

std::string read_sysctl(const char* path) {
  std::ifstream in(path);
  std::string v;
  in >> v;
  return v;
}

struct FlagSet {
  unsigned flags;
  const char* names;
};

// Most capable first, as fio does. DEFER_TASKRUN (6.1) runs completion work only when this thread enters the
// kernel to reap, SINGLE_ISSUER (6.0) lets the kernel skip locking, COOP_TASKRUN (5.19) avoids interrupting the
// thread with task work. Older kernels reject flags they do not know with EINVAL, hence the fallback.
constexpr FlagSet kFlagSets[] = {
    {IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN | IORING_SETUP_COOP_TASKRUN,
     "SINGLE_ISSUER|DEFER_TASKRUN|COOP_TASKRUN"},
    {IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_COOP_TASKRUN, "SINGLE_ISSUER|COOP_TASKRUN"},
    {IORING_SETUP_COOP_TASKRUN, "COOP_TASKRUN"},
    {0, ""},
};

struct AlignedFree {
  void operator()(void* p) const { std::free(p); }
};

} // namespace

std::string explain_ring_error(int err) {
  const std::string prefix = "io_uring is unavailable: ";
  switch (err) {
  case EPERM: {
    const std::string disabled = read_sysctl("/proc/sys/kernel/io_uring_disabled");
    if (disabled == "2")
      return prefix + "it is disabled on this machine (sysctl kernel.io_uring_disabled = 2). An administrator can "
                      "allow it with `sysctl kernel.io_uring_disabled=0`.";
    if (disabled == "1")
      return prefix + "it is restricted (sysctl kernel.io_uring_disabled = 1): only processes with CAP_SYS_ADMIN or "
                      "in the group named by kernel.io_uring_group may create rings. Run the probe as root, join "
                      "that group, or set kernel.io_uring_disabled=0.";
    return prefix + "io_uring_setup was denied (EPERM) although kernel.io_uring_disabled allows it; most likely a "
                    "seccomp filter blocks it (container runtimes' default profiles do). Run the probe on the host, "
                    "or allow io_uring_setup, io_uring_enter and io_uring_register in the seccomp profile.";
  }
  case ENOSYS:
    return prefix + "the kernel has no io_uring (ENOSYS): it is older than 5.1, built without CONFIG_IO_URING, or a "
                    "seccomp filter answers ENOSYS for it.";
  case ENOMEM:
    return prefix + "not enough locked memory for the ring (ENOMEM): kernels before 5.12 charge rings to "
                    "RLIMIT_MEMLOCK; raise it (ulimit -l) or run as root.";
  case EMFILE:
  case ENFILE:
    return prefix + "too many open files (" + std::string(std::strerror(err)) + ").";
  default:
    return prefix + "io_uring_setup failed: " + std::string(std::strerror(err)) + ".";
  }
}

struct UringEngine::Impl {
  io_uring ring{};
  bool ring_up = false;
  unsigned flags = 0;
  std::string flag_names;
  bool fixed_file = false;
  bool fixed_buffers = false;
  int fd = -1;
  uint64_t target_bytes = 0;
  EngineOptions opt;
  std::unique_ptr<void, AlignedFree> buf;
  std::vector<std::string> notes;
  uint64_t rng = 0x853c49e6748fea9bULL;
  uint64_t write_stamp = 0;

  uint64_t next_random() {
    // xorshift64*: fast enough to stay out of the way at millions of IOPS.
    rng ^= rng >> 12;
    rng ^= rng << 25;
    rng ^= rng >> 27;
    return rng * 0x2545F4914F6CDD1DULL;
  }

  void teardown() {
    if (ring_up)
      io_uring_queue_exit(&ring);
    ring_up = false;
    fixed_file = fixed_buffers = false;
  }
};

void UringEngine::setup_ring(bool polled) {
  Impl& s = *impl_;
  s.teardown();
  const unsigned base = polled ? IORING_SETUP_IOPOLL : 0u;
  int last_err = EINVAL;
  for (const auto& fs : kFlagSets) {
    io_uring_params p{};
    p.flags = base | fs.flags;
    const int ret = io_uring_queue_init_params(s.opt.max_queue_depth, &s.ring, &p);
    if (ret == 0) {
      s.ring_up = true;
      s.flags = p.flags;
      s.flag_names = std::string(polled ? "IOPOLL" : "") + (polled && fs.names[0] ? "|" : "") + fs.names;
      break;
    }
    last_err = -ret;
    if (last_err != EINVAL)
      throw ProbeError(ProbeErrorKind::unavailable, explain_ring_error(last_err));
  }
  if (!s.ring_up)
    throw ProbeError(ProbeErrorKind::unavailable, explain_ring_error(last_err));

  // Registered file: the kernel skips looking up and reference-counting the file on every I/O.
  const int rf = io_uring_register_files(&s.ring, &s.fd, 1);
  s.fixed_file = rf == 0;
  if (rf != 0)
    s.notes.push_back(std::string("file registration refused (") + std::strerror(-rf) + "); using the plain fd");
  // Registered buffers: pinned once, so READ_FIXED/WRITE_FIXED skip mapping user pages on every I/O.
  iovec iov{s.buf.get(), s.opt.buffer_bytes};
  const int rb = io_uring_register_buffers(&s.ring, &iov, 1);
  s.fixed_buffers = rb == 0;
  if (rb != 0)
    s.notes.push_back(std::string("buffer registration refused (") + std::strerror(-rb) +
                      "; the locked-memory limit, ulimit -l, may be too low); using plain reads and writes");
}

UringEngine::UringEngine(int fd, uint64_t target_bytes, const EngineOptions& opt) : impl_(std::make_unique<Impl>()) {
  Impl& s = *impl_;
  s.fd = fd;
  s.target_bytes = target_bytes;
  s.opt = opt;
  void* raw = nullptr;
  if (posix_memalign(&raw, std::max<size_t>(opt.memory_alignment, 4096), opt.buffer_bytes) != 0)
    throw std::bad_alloc();
  s.buf.reset(raw);
  // Incompressible write data; reads overwrite it.
  auto* words = static_cast<uint64_t*>(raw);
  for (size_t i = 0; i < opt.buffer_bytes / 8; ++i)
    words[i] = s.next_random();

  if (opt.try_polling) {
    // Polled completion needs the device's poll queues; a ring can be created without them, so try one read.
    try {
      setup_ring(true);
      const IoSpec probe_io{{IoOp::read, IoPattern::sequential, 4096, 1}, 0, 0, 0};
      run_once(probe_io);
      polled_ = true;
    } catch (const ProbeError& e) {
      if (e.get_kind() == ProbeErrorKind::unavailable)
        throw;
      s.notes.push_back(std::string("polled completion failed (") + e.what() + "); using interrupts");
    }
  }
  if (!polled_)
    setup_ring(false);
}

UringEngine::~UringEngine() { impl_->teardown(); }

Json UringEngine::describe() const {
  const Impl& s = *impl_;
  return Json{{"liburing", AISIM_LIBURING_VERSION},
              {"ring_flags", s.flag_names.empty() ? "none" : s.flag_names},
              {"ring_entries", s.opt.max_queue_depth},
              {"registered_file", s.fixed_file},
              {"fixed_buffers", s.fixed_buffers},
              {"submit_batch", s.opt.submit_batch},
              {"reap_batch", "every completion available, up to the queue depth"},
              {"completion", polled_ ? "polled" : "interrupt"},
              {"threads", 1},
              {"clat", "from just after submission to the reap that sees the completion, as fio's clat"},
              {"notes", s.notes}};
}

IoRunResult UringEngine::run(const IoSpec& spec) {
  const Impl& s = *impl_;
  if (spec.queue_depth == 0 || spec.queue_depth > s.opt.max_queue_depth ||
      spec.queue_depth * spec.bs_bytes > s.opt.buffer_bytes || spec.bs_bytes > s.target_bytes)
    throw std::logic_error("probe point " + std::to_string(spec.queue_depth) + " x " + std::to_string(spec.bs_bytes) +
                           " B does not fit the engine's ring or buffers");
  return run_once(spec);
}

IoRunResult UringEngine::run_once(const IoSpec& spec) {
  Impl& s = *impl_;
  const unsigned qd = spec.queue_depth;
  const uint64_t bs = spec.bs_bytes;
  const uint64_t blocks = s.target_bytes / bs;
  const bool write = spec.op == IoOp::write;
  std::vector<uint64_t> issue_ns(qd, 0), offsets(qd, 0);
  std::vector<unsigned> to_stamp;
  to_stamp.reserve(qd);
  uint64_t seq_cursor = 0;
  const int file = s.fixed_file ? 0 : s.fd;
  auto* base = static_cast<char*>(s.buf.get());
  const size_t submit_batch = std::max(1u, s.opt.submit_batch);

  auto prep = [&](unsigned slot) {
    io_uring_sqe* sqe = io_uring_get_sqe(&s.ring);
    if (!sqe)
      throw std::logic_error("submission queue full");
    uint64_t off;
    if (spec.pattern == IoPattern::random) {
      off = (s.next_random() % blocks) * bs;
    } else {
      off = seq_cursor;
      seq_cursor += bs;
      if (seq_cursor + bs > blocks * bs)
        seq_cursor = 0;
    }
    offsets[slot] = off;
    char* addr = base + static_cast<size_t>(slot) * bs;
    if (write) {
      // Like fio's scramble_buffers: make every written block differ, so a deduplicating drive cannot skip it.
      for (uint64_t k = 0; k < bs; k += 4096) {
        ++s.write_stamp;
        std::memcpy(addr + k, &s.write_stamp, sizeof s.write_stamp);
      }
    }
    const auto len = static_cast<unsigned>(bs);
    if (s.fixed_buffers) {
      if (write)
        io_uring_prep_write_fixed(sqe, file, addr, len, off, 0);
      else
        io_uring_prep_read_fixed(sqe, file, addr, len, off, 0);
    } else {
      if (write)
        io_uring_prep_write(sqe, file, addr, len, off);
      else
        io_uring_prep_read(sqe, file, addr, len, off);
    }
    if (s.fixed_file)
      sqe->flags |= IOSQE_FIXED_FILE;
    io_uring_sqe_set_data64(sqe, slot);
    to_stamp.push_back(slot);
  };
  auto submit = [&]() {
    size_t done = 0;
    while (done < to_stamp.size()) {
      // With GETEVENTS, as fio's commit does: under DEFER_TASKRUN this also posts completions that arrived since
      // the last reap, so they are not held back until the ring runs dry.
      const int n = io_uring_submit_and_get_events(&s.ring);
      if (n == -EINTR || n == -EAGAIN || n == -EBUSY)
        continue;
      if (n < 0)
        throw io_error(std::string("io_uring_submit failed: ") + std::strerror(-n));
      done += static_cast<size_t>(n);
      if (n == 0)
        break;
    }
    const uint64_t t = now_ns();
    for (unsigned slot : to_stamp)
      issue_ns[slot] = t;
    to_stamp.clear();
  };

  IoRunResult out;
  const uint64_t start = now_ns();
  const uint64_t warm_end = start + static_cast<uint64_t>(spec.warmup_s * 1e9);
  const uint64_t run_ns = static_cast<uint64_t>(spec.runtime_s * 1e9);
  const uint64_t interval_ns = static_cast<uint64_t>(spec.interval_s * 1e9);
  bool counting = spec.warmup_s <= 0;
  bool stopping = false;
  uint64_t t_w = start, t_e = start, next_interval = start + interval_ns;
  double interval_acc = 0;

  for (unsigned slot = 0; slot < qd; ++slot) {
    prep(slot);
    if (to_stamp.size() >= submit_batch)
      submit();
  }
  if (!to_stamp.empty())
    submit();
  unsigned inflight = qd;
  std::vector<io_uring_cqe*> cqes(qd);
  while (inflight > 0) {
    io_uring_cqe* first = nullptr;
    const int w = io_uring_wait_cqe(&s.ring, &first);
    if (w == -EINTR || w == -EAGAIN)
      continue;
    if (w < 0)
      throw io_error(std::string("waiting for completions failed: ") + std::strerror(-w));
    const uint64_t now = now_ns();
    const unsigned n = io_uring_peek_batch_cqe(&s.ring, cqes.data(), qd);
    // The batch that crosses the end of the warm-up completed before the window opened: not counted.
    const bool was_counting = counting && !stopping;
    if (!counting && now >= warm_end) {
      counting = true;
      t_w = now;
      next_interval = t_w + interval_ns;
    }
    const bool stop_now = was_counting && now >= t_w + run_ns;
    for (unsigned i = 0; i < n; ++i) {
      const auto slot = static_cast<unsigned>(io_uring_cqe_get_data64(cqes[i]));
      const int res = cqes[i]->res;
      if (res < 0) {
        io_uring_cq_advance(&s.ring, n);
        throw io_error(std::string(write ? "write" : "read") + " of " + std::to_string(bs) + " bytes at offset " +
                       std::to_string(offsets[slot]) + " failed: " + std::strerror(-res));
      }
      if (static_cast<uint64_t>(res) != bs) {
        io_uring_cq_advance(&s.ring, n);
        throw io_error(std::string("short ") + (write ? "write" : "read") + ": " + std::to_string(res) + " of " +
                       std::to_string(bs) + " bytes at offset " + std::to_string(offsets[slot]));
      }
      --inflight;
      if (was_counting) {
        out.clat.add(now - issue_ns[slot]);
        ++out.ios;
        out.bytes += bs;
        interval_acc += static_cast<double>(bs);
      }
      if (!stopping && !stop_now) {
        prep(slot);
        ++inflight;
        if (to_stamp.size() >= submit_batch)
          submit();
      }
    }
    io_uring_cq_advance(&s.ring, n);
    if (interval_ns && was_counting) {
      while (now >= next_interval) {
        out.interval_bytes.push_back(interval_acc);
        interval_acc = 0;
        next_interval += interval_ns;
      }
    }
    if (stop_now) {
      stopping = true;
      t_e = now;
    }
    if (!to_stamp.empty())
      submit();
  }
  out.elapsed_s = static_cast<double>(t_e - t_w) * 1e-9;
  return out;
}

} // namespace aisim::app::probe
