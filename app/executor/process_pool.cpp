#include "app/executor/process_pool.hpp"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <iostream>
#include <map>
#include <optional>
#include <poll.h>
#include <spawn.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

extern char** environ;

namespace aisim::app {
namespace {

volatile std::sig_atomic_t g_stop = 0;
void on_stop_signal(int) { g_stop = 1; }

// SIGINT and SIGTERM set the stop flag while the pool runs, without SA_RESTART so a blocked waitpid or poll returns.
class StopSignals {
public:
  StopSignals() {
    g_stop = 0;
    struct sigaction sa {};
    sa.sa_handler = on_stop_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, &old_int_);
    sigaction(SIGTERM, &sa, &old_term_);
    // A worker that died leaves a pipe with no reader; writing to it must fail, not kill the pool.
    struct sigaction ignore {};
    ignore.sa_handler = SIG_IGN;
    sigemptyset(&ignore.sa_mask);
    sigaction(SIGPIPE, &ignore, &old_pipe_);
  }
  ~StopSignals() {
    sigaction(SIGINT, &old_int_, nullptr);
    sigaction(SIGTERM, &old_term_, nullptr);
    sigaction(SIGPIPE, &old_pipe_, nullptr);
  }
  StopSignals(const StopSignals&) = delete;
  StopSignals& operator=(const StopSignals&) = delete;

private:
  struct sigaction old_int_ {};
  struct sigaction old_term_ {};
  struct sigaction old_pipe_ {};
};

// A C argv over `args` (which must outlive it), null-terminated, as exec and main take it.
std::vector<char*> c_argv(std::vector<std::string>& args) {
  std::vector<char*> argv;
  for (auto& a : args)
    argv.push_back(a.data());
  argv.push_back(nullptr);
  return argv;
}

namespace fs = std::filesystem;

std::map<std::string, Digest>& digests() {
  static std::map<std::string, Digest> registered;
  return registered;
}

InProcessEntry g_entry = nullptr;
std::string g_entry_executable;

bool runs_in_process(const ChildSpec& spec) {
  return g_entry && !spec.argv.empty() && spec.argv[0] == g_entry_executable;
}

// All of `size` bytes through `io` (read or write), across short transfers and interrupts; false at an error or
// the end of the pipe.
template <class Io, class Byte> bool transfer_whole(Io io, int fd, Byte* p, size_t size) {
  while (size > 0) {
    const ssize_t n = io(fd, p, size);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      return false;
    p += n;
    size -= static_cast<size_t>(n);
  }
  return true;
}

bool read_whole(int fd, void* data, size_t size) { return transfer_whole(::read, fd, static_cast<char*>(data), size); }

bool write_whole(int fd, const void* data, size_t size) {
  return transfer_whole(::write, fd, static_cast<const char*>(data), size);
}

// A worker: a fork of the pool's process that runs the entry for one spec after another, as the pool sends their
// indices, and answers each with its exit code. Runs after the first reuse the worker's heap instead of faulting in
// a fresh one, and no fork per run copies the parent's page tables. Page faults are what a small run mostly cost
// (about 700 a run, 11 us each on a paravirtualized machine, and they do not scale over cores): 1,000 one-day runs
// took 19.3 s with one child per run and 15.1 s with two at once; with workers (and the digest below), 4.2 s and 2.2 s
// (tests/bench/run-bench.sh). A run that crashes or calls exit() ends the worker; its status is then the run's, and
// the pool starts another worker for the rest.
[[noreturn]] void worker_main(const std::vector<ChildSpec>& specs, int commands, int answers) {
  std::ios cout_format(nullptr);
  std::ios cerr_format(nullptr);
  cout_format.copyfmt(std::cout);
  cerr_format.copyfmt(std::cerr);
  uint64_t index = 0;
  while (read_whole(commands, &index, sizeof index) && index < specs.size()) {
    const ChildSpec& spec = specs[index];
    // Each run starts as an exec'd one would: default signal handling, fresh stream formats, output to its log.
    std::signal(SIGINT, SIG_DFL);
    std::signal(SIGTERM, SIG_DFL);
    std::signal(SIGPIPE, SIG_DFL);
    std::cout.clear();
    std::cerr.clear();
    std::cout.copyfmt(cout_format);
    std::cerr.copyfmt(cerr_format);
    int rc = 127;
    const int fd = spec.log_path.empty() ? -2 : open(spec.log_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd != -1) {
      if (fd >= 0) {
        dup2(fd, STDOUT_FILENO);
        dup2(fd, STDERR_FILENO);
        close(fd);
      }
      std::vector<std::string> args = spec.argv;
      auto argv = c_argv(args);
      rc = g_entry(static_cast<int>(args.size()), argv.data());
      std::cout.flush();
      std::cerr.flush();
      std::fflush(nullptr);
    }
    std::string digest;
    if (rc == 0 && !spec.digest.empty())
      if (const auto it = digests().find(spec.digest); it != digests().end())
        digest = it->second(spec.out_dir.empty() ? fs::path(spec.log_path).parent_path().string() : spec.out_dir);
    const auto size = static_cast<uint32_t>(digest.size());
    if (!write_whole(answers, &rc, sizeof rc) || !write_whole(answers, &size, sizeof size) ||
        !write_whole(answers, digest.data(), digest.size()))
      break;
  }
  _exit(0);
}

pid_t spawn(const ChildSpec& spec) {
  std::vector<std::string> args = spec.argv;
  auto argv = c_argv(args);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  if (!spec.log_path.empty()) {
    posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, spec.log_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC,
                                     0644);
    posix_spawn_file_actions_adddup2(&actions, STDOUT_FILENO, STDERR_FILENO);
  }
  // The child's own signal dispositions are the defaults, whatever the pool installed.
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  sigset_t defaults;
  sigemptyset(&defaults);
  sigaddset(&defaults, SIGINT);
  sigaddset(&defaults, SIGTERM);
  posix_spawnattr_setsigdefault(&attr, &defaults);
  // Each child leads a process group of its own, so that stopping it stops what it started too (a shell's
  // commands; a run's helpers), not just the child (run_children's interrupt signals the group).
  posix_spawnattr_setpgroup(&attr, 0);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP);
  pid_t pid = 0;
  const int rc = posix_spawn(&pid, args[0].c_str(), &actions, &attr, argv.data(), environ);
  posix_spawnattr_destroy(&attr);
  posix_spawn_file_actions_destroy(&actions);
  return rc == 0 ? pid : -1;
}

} // namespace

std::string ChildResult::describe() const {
  if (!started)
    return "not started";
  if (signal != 0)
    return std::string(finished ? "killed by signal " : "stopped with signal ") + std::to_string(signal) + " (" +
           strsignal(signal) + ")";
  return "exited " + std::to_string(exit_code);
}

namespace {

using Clock = std::chrono::steady_clock;

// The status of an ended child or worker into its run's result.
void record_status(ChildResult& r, int status, Clock::time_point started, bool ours_stopped) {
  r.wall_s = std::chrono::duration<double>(Clock::now() - started).count();
  r.finished = !ours_stopped;
  if (WIFEXITED(status))
    r.exit_code = WEXITSTATUS(status);
  else if (WIFSIGNALED(status))
    r.signal = WTERMSIG(status);
}

pid_t wait_for(pid_t pid, int& status) {
  for (;;) {
    const pid_t got = waitpid(pid, &status, 0);
    if (got >= 0 || errno != EINTR)
      return got;
  }
}

// The runs a pool starts: in order, or as the caller's dealer deals them.
class Feed {
public:
  Feed(size_t runs, const Dealer& dealer) : runs_(runs), dealer_(dealer) {}
  // The next run to start, if there is one now.
  std::optional<size_t> take() {
    if (has_returned_) {
      has_returned_ = false;
      return returned_;
    }
    if (ended_)
      return std::nullopt;
    if (!dealer_) {
      if (next_ < runs_)
        return next_++;
      ended_ = true;
      return std::nullopt;
    }
    const Deal deal = dealer_();
    if (deal.kind == Deal::start && deal.index < runs_)
      return deal.index;
    ended_ = deal.kind != Deal::later; // a dealt index out of range is a caller's bug: deal no more
    return std::nullopt;
  }
  // A run taken that could not start (its worker was gone): it is the next one taken.
  void give_back(size_t i) {
    returned_ = i;
    has_returned_ = true;
  }
  // No run will come any more.
  bool ended() const { return ended_ && !has_returned_; }

private:
  size_t runs_;
  const Dealer& dealer_;
  size_t next_ = 0;
  bool ended_ = false;
  size_t returned_ = 0; // (not an optional: GCC 12 then warns of a maybe-uninitialized read under -Werror)
  bool has_returned_ = false;
};

// Nothing to wait for but the next deal: the caller's messages, without spinning.
void wait_for_deal(const std::function<void()>& idle) {
  if (idle)
    idle();
  std::this_thread::sleep_for(std::chrono::milliseconds(1));
}

// Runs of another program: one exec'd child per run.
void run_children(const std::vector<ChildSpec>& specs, int jobs, PoolOutcome& out,
                  const std::function<void(size_t, const ChildResult&)>& on_done, const std::function<void()>& idle,
                  Feed& feed) {
  std::map<pid_t, std::pair<size_t, Clock::time_point>> running;
  const auto reap = [&](pid_t pid, int status, bool ours_stopped) {
    const auto it = running.find(pid);
    if (it == running.end())
      return;
    const size_t index = it->second.first;
    record_status(out.children[index], status, it->second.second, ours_stopped);
    running.erase(it);
    if (on_done)
      on_done(index, out.children[index]);
  };
  while (!feed.ended() || !running.empty()) {
    while (!g_stop && static_cast<int>(running.size()) < jobs) {
      const auto taken = feed.take();
      if (!taken)
        break;
      const size_t i = *taken;
      const pid_t pid = spawn(specs[i]);
      if (pid < 0) {
        if (on_done)
          on_done(i, out.children[i]);
        continue;
      }
      out.children[i].started = true;
      running[pid] = {i, Clock::now()};
    }
    if (g_stop)
      break;
    if (running.empty()) {
      if (!feed.ended())
        wait_for_deal(idle);
      continue;
    }
    int status = 0;
    const pid_t pid = waitpid(-1, &status, idle ? WNOHANG : 0);
    if (pid > 0) {
      reap(pid, status, false);
    } else if (pid == 0) {
      idle();
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
    } else if (errno == ECHILD) {
      break;
    }
  }
  if (g_stop) {
    out.interrupted = true;
    for (const auto& [pid, info] : running)
      kill(-pid, SIGTERM); // its whole process group (spawn())
    while (!running.empty()) {
      int status = 0;
      const pid_t pid = waitpid(-1, &status, 0);
      if (pid > 0)
        reap(pid, status, true);
      else if (errno != EINTR)
        break;
    }
  }
}

struct Worker {
  pid_t pid = -1;
  int commands = -1; // the pool writes run indices here
  int answers = -1;  // and reads exit codes here
  long index = -1;   // the run it is on, -1 when idle
  int runs = 0;      // runs it has finished
  Clock::time_point started;
};

// A new worker, with its two pipes; the other workers' pipe ends are closed in it, so that each worker sees the end
// of its commands when the pool closes them.
bool start_worker(const std::vector<ChildSpec>& specs, std::vector<Worker>& workers) {
  int commands[2];
  int answers[2];
  if (pipe2(commands, O_CLOEXEC) != 0)
    return false;
  if (pipe2(answers, O_CLOEXEC) != 0) {
    close(commands[0]);
    close(commands[1]);
    return false;
  }
  std::fflush(nullptr); // else buffered output of the parent's would be written again by the worker
  std::cout.flush();
  std::cerr.flush();
  const pid_t pid = fork();
  if (pid == 0) {
    for (const auto& w : workers) {
      close(w.commands);
      close(w.answers);
    }
    close(commands[1]);
    close(answers[0]);
    worker_main(specs, commands[0], answers[1]);
  }
  close(commands[0]);
  close(answers[1]);
  if (pid < 0) {
    close(commands[1]);
    close(answers[0]);
    return false;
  }
  Worker w;
  w.pid = pid;
  w.commands = commands[1];
  w.answers = answers[0];
  workers.push_back(w);
  return true;
}

// Runs of this program: up to `jobs` workers, each running one run after another (worker_main). One object per
// call of run_in_workers: the workers, the runs they are on, and the runs ended but not yet reported.
class WorkerPool {
public:
  WorkerPool(const std::vector<ChildSpec>& specs, int jobs, PoolOutcome& out,
             const std::function<void(size_t, const ChildResult&)>& on_done, const std::function<void()>& idle,
             Feed& feed)
      : specs_(specs), jobs_(jobs), out_(out), on_done_(on_done), idle_(idle), feed_(feed) {}

  void run() {
    while (!feed_.ended() || busy_ > 0) {
      deal();
      report_ended();
      reap_leaving(false);
      if (g_stop)
        break;
      if (busy_ == 0) {
        if (!feed_.ended())
          wait_for_deal(idle_);
        continue;
      }
      collect_answers();
    }
    if (g_stop) {
      out_.interrupted = true;
      for (const auto& w : workers_)
        kill(w.pid, SIGTERM);
    }
    // Idle workers end when their commands close (all let go before any is waited for, so that they exit
    // together); busy ones only when stopped.
    while (!workers_.empty())
      bury(workers_.size() - 1, true);
    reap_leaving(true);
    report_ended();
  }

private:
  // Runs that ended are handed to on_done once the idle workers have their next runs, so that the caller's work on
  // a result (reading it, writing tables) overlaps the workers' instead of keeping them waiting.
  void finish(size_t index) { ended_.push_back(index); }
  void report_ended() {
    for (const size_t index : ended_)
      if (on_done_)
        on_done_(index, out_.children[index]);
    ended_.clear();
  }

  // Workers let go between runs, not waited for yet: a worker's exit takes tens of milliseconds (its heap
  // unmapped, 36 ms after 64 one-day runs on a paravirtualized machine), which the pool need not spend waiting with
  // a slot empty (0.5 s of a 4 s sweep on one worker).
  void reap_leaving(bool block) {
    std::erase_if(leaving_, [&](pid_t pid) {
      int status = 0;
      if (!block) {
        const pid_t got = waitpid(pid, &status, WNOHANG);
        return got != 0; // gone, or not ours to wait for any more
      }
      wait_for(pid, status);
      return true;
    });
  }

  // A worker that ended (crashed, killed, or its run called exit): its status is its run's. One between runs is
  // let go instead.
  void bury(size_t w, bool ours_stopped) {
    Worker worker = workers_[w];
    workers_.erase(workers_.begin() + static_cast<long>(w));
    close(worker.commands);
    close(worker.answers);
    if (worker.index < 0) {
      leaving_.push_back(worker.pid);
      return;
    }
    int status = 0;
    const pid_t got = wait_for(worker.pid, status);
    --busy_;
    auto& r = out_.children[static_cast<size_t>(worker.index)];
    if (got == worker.pid)
      record_status(r, status, worker.started, ours_stopped);
    finish(static_cast<size_t>(worker.index));
  }

  // Hands the next runs to idle workers (started as needed) up to `jobs` at once.
  void deal() {
    while (!g_stop && static_cast<int>(busy_) < jobs_) {
      const auto taken = feed_.take();
      if (!taken)
        break;
      const uint64_t i = *taken;
      auto idle_worker = std::find_if(workers_.begin(), workers_.end(), [](const Worker& w) { return w.index < 0; });
      if (idle_worker == workers_.end()) {
        if (!start_worker(specs_, workers_)) {
          finish(i); // not started
          continue;
        }
        idle_worker = workers_.end() - 1;
      }
      if (!write_whole(idle_worker->commands, &i, sizeof i)) { // the worker is gone; try another
        feed_.give_back(i);
        bury(static_cast<size_t>(idle_worker - workers_.begin()), false);
        continue;
      }
      idle_worker->index = static_cast<long>(i);
      idle_worker->started = Clock::now();
      out_.children[i].started = true;
      ++busy_;
    }
  }

  // Waits for busy workers' answers (exit code and digest of the run they were on) and records them.
  void collect_answers() {
    std::vector<pollfd> fds;
    std::vector<size_t> of;
    for (size_t w = 0; w < workers_.size(); ++w)
      if (workers_[w].index >= 0) {
        fds.push_back({workers_[w].answers, POLLIN, 0});
        of.push_back(w);
      }
    const int ready = poll(fds.data(), fds.size(), idle_ ? 2 : -1);
    if (idle_)
      idle_();
    if (ready <= 0)
      return; // a timeout, or a signal (the stop flag is checked by the caller)
    // From the last, so that burying a worker leaves the indices still to visit valid.
    for (size_t k = fds.size(); k-- > 0;) {
      if (fds[k].revents == 0)
        continue;
      Worker& worker = workers_[of[k]];
      int rc = 0;
      uint32_t size = 0;
      std::string digest;
      if (!read_whole(worker.answers, &rc, sizeof rc) || !read_whole(worker.answers, &size, sizeof size) ||
          (digest.resize(size), !read_whole(worker.answers, digest.data(), size))) {
        bury(of[k], false);
        continue;
      }
      const auto index = static_cast<size_t>(worker.index);
      auto& r = out_.children[index];
      r.digest = std::move(digest);
      r.wall_s = std::chrono::duration<double>(Clock::now() - worker.started).count();
      r.finished = true;
      r.exit_code = rc;
      worker.index = -1;
      --busy_;
      if (++worker.runs >= kRunsPerWorker)
        bury(of[k], false);
      finish(index);
    }
  }

  const std::vector<ChildSpec>& specs_;
  const int jobs_;
  PoolOutcome& out_;
  const std::function<void(size_t, const ChildResult&)>& on_done_;
  const std::function<void()>& idle_;
  Feed& feed_;
  std::vector<Worker> workers_;
  size_t busy_ = 0;
  std::vector<size_t> ended_;
  std::vector<pid_t> leaving_;
};

void run_in_workers(const std::vector<ChildSpec>& specs, int jobs, PoolOutcome& out,
                    const std::function<void(size_t, const ChildResult&)>& on_done, const std::function<void()>& idle,
                    Feed& feed) {
  WorkerPool(specs, jobs, out, on_done, idle, feed).run();
}

} // namespace

PoolOutcome run_pool(const std::vector<ChildSpec>& specs, int jobs,
                     const std::function<void(size_t, const ChildResult&)>& on_done, const std::function<void()>& idle,
                     const Dealer& dealer) {
  PoolOutcome out;
  out.children.resize(specs.size());
  const StopSignals signals;
  jobs = std::max(1, jobs);
  Feed feed(specs.size(), dealer);
  if (!specs.empty() && std::all_of(specs.begin(), specs.end(), runs_in_process))
    run_in_workers(specs, jobs, out, on_done, idle, feed);
  else
    run_children(specs, jobs, out, on_done, idle, feed);
  return out;
}

void register_digest(const std::string& name, Digest digest) { digests()[name] = std::move(digest); }

void set_in_process_entry(InProcessEntry entry, const std::string& executable) {
  g_entry = entry;
  g_entry_executable = executable;
}

int default_jobs() { return static_cast<int>(std::max(1u, std::thread::hardware_concurrency())); }

std::string self_executable(const std::string& fallback) {
  std::error_code ec;
  auto p = std::filesystem::read_symlink("/proc/self/exe", ec);
  return ec ? fallback : p.string();
}

} // namespace aisim::app
