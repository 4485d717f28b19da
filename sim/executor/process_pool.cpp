#include "sim/executor/process_pool.hpp"

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <map>
#include <spawn.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

extern char** environ;

namespace aisim::sim {
namespace {

volatile std::sig_atomic_t g_stop = 0;
void on_stop_signal(int) { g_stop = 1; }

// SIGINT and SIGTERM set the stop flag while the pool runs, without SA_RESTART so a blocked waitpid returns.
class StopSignals {
public:
  StopSignals() {
    g_stop = 0;
    struct sigaction sa {};
    sa.sa_handler = on_stop_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, &old_int_);
    sigaction(SIGTERM, &sa, &old_term_);
  }
  ~StopSignals() {
    sigaction(SIGINT, &old_int_, nullptr);
    sigaction(SIGTERM, &old_term_, nullptr);
  }
  StopSignals(const StopSignals&) = delete;
  StopSignals& operator=(const StopSignals&) = delete;

private:
  struct sigaction old_int_ {};
  struct sigaction old_term_ {};
};

// A C argv over `args` (which must outlive it), null-terminated, as exec and main take it.
std::vector<char*> c_argv(std::vector<std::string>& args) {
  std::vector<char*> argv;
  for (auto& a : args)
    argv.push_back(a.data());
  argv.push_back(nullptr);
  return argv;
}

InProcessEntry g_entry = nullptr;
std::string g_entry_executable;

// A fork that runs the entry as the exec'd program would: default signal handling, output to the log, and an exit
// that runs no handler of the parent's.
pid_t fork_entry(const ChildSpec& spec) {
  std::fflush(nullptr); // else buffered output of the parent's would be written again by every child
  const pid_t pid = fork();
  if (pid != 0)
    return pid; // the parent, or -1
  std::signal(SIGINT, SIG_DFL);
  std::signal(SIGTERM, SIG_DFL);
  if (!spec.log_path.empty()) {
    const int fd = open(spec.log_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0)
      _exit(127);
    dup2(fd, STDOUT_FILENO);
    dup2(fd, STDERR_FILENO);
    close(fd);
  }
  std::vector<std::string> args = spec.argv;
  auto argv = c_argv(args);
  const int rc = g_entry(static_cast<int>(args.size()), argv.data());
  std::fflush(nullptr);
  _exit(rc);
}

pid_t spawn(const ChildSpec& spec) {
  if (g_entry && !spec.argv.empty() && spec.argv[0] == g_entry_executable)
    return fork_entry(spec);
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
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGDEF);
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

PoolOutcome run_pool(const std::vector<ChildSpec>& specs, int jobs,
                     const std::function<void(size_t, const ChildResult&)>& on_done,
                     const std::function<void()>& idle) {
  PoolOutcome out;
  out.children.resize(specs.size());
  const StopSignals signals;
  using Clock = std::chrono::steady_clock;
  std::map<pid_t, std::pair<size_t, Clock::time_point>> running;
  size_t next = 0;
  const auto reap = [&](pid_t pid, int status, bool ours_stopped) {
    const auto it = running.find(pid);
    if (it == running.end())
      return;
    auto& r = out.children[it->second.first];
    r.wall_s = std::chrono::duration<double>(Clock::now() - it->second.second).count();
    r.finished = !ours_stopped;
    if (WIFEXITED(status))
      r.exit_code = WEXITSTATUS(status);
    else if (WIFSIGNALED(status))
      r.signal = WTERMSIG(status);
    const size_t index = it->second.first;
    running.erase(it);
    if (on_done)
      on_done(index, r);
  };
  while (next < specs.size() || !running.empty()) {
    while (!g_stop && next < specs.size() && static_cast<int>(running.size()) < std::max(1, jobs)) {
      const size_t i = next++;
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
      if (idle)
        idle();
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
      kill(pid, SIGTERM);
    while (!running.empty()) {
      int status = 0;
      const pid_t pid = waitpid(-1, &status, 0);
      if (pid > 0)
        reap(pid, status, true);
      else if (errno != EINTR)
        break;
    }
  }
  return out;
}

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

} // namespace aisim::sim
