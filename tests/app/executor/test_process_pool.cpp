#include "app/executor/process_pool.hpp"

#include <catch2/catch.hpp>

#include <csignal>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <set>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

using namespace aisim::app;
namespace fs = std::filesystem;

namespace {
ChildSpec sh(const std::string& script, const std::string& log = "") { return {{"/bin/sh", "-c", script}, log, ""}; }

// Once run 0 is done, the parent gets SIGTERM, as from `kill` or a scheduler; the thread that sends it goes in `t`.
std::function<void(size_t, const ChildResult&)> sigterm_after_first(std::thread& t) {
  return [&t](size_t i, const ChildResult&) {
    if (i == 0)
      t = std::thread([] {
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
        ::kill(::getpid(), SIGTERM);
      });
  };
}
} // namespace

TEST_CASE("process pool: every child runs; a crash or a failure is reported, never fatal to the others", "[executor]") {
  const fs::path log = fs::temp_directory_path() / ("aisim-pool-" + std::to_string(::getpid()) + ".log");
  std::vector<size_t> order;
  const auto out = run_pool({sh("exit 0"),
                             sh("kill -9 $$"),
                             sh("echo hello; exit 3", log.string()),
                             sh("exit 0"),
                             {{"/nonexistent/aisim"}, "", ""}},
                            2, [&](size_t i, const ChildResult&) { order.push_back(i); });
  REQUIRE(out.children.size() == 5);
  CHECK_FALSE(out.interrupted);
  CHECK(out.children[0].ok());
  CHECK(out.children[1].finished);
  CHECK(out.children[1].signal == SIGKILL);
  CHECK(out.children[1].describe() == "killed by signal 9 (Killed)");
  CHECK(out.children[2].exit_code == 3);
  CHECK(out.children[2].describe() == "exited 3");
  CHECK(out.children[3].ok());
  // An executable that cannot be started is reported, not run.
  CHECK_FALSE(out.children[4].ok());
  CHECK(std::set<size_t>(order.begin(), order.end()) == std::set<size_t>{0, 1, 2, 3, 4});
  std::ifstream in(log);
  std::string line;
  std::getline(in, line);
  CHECK(line == "hello");
  fs::remove(log);
}

TEST_CASE("process pool: never more than `jobs` children at once", "[executor]") {
  // Each child holds a slot file while it runs; a child that finds more holders than allowed records it.
  const fs::path dir = fs::temp_directory_path() / ("aisim-pool-jobs-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const std::string script = "touch " + dir.string() + "/$$; n=$(ls " + dir.string() +
                             " | grep -v over | wc -l); [ $n -gt 2 ] && touch " + dir.string() +
                             "/over; sleep 0.05; rm " + dir.string() + "/$$";
  std::vector<ChildSpec> specs(8, sh(script));
  const auto out = run_pool(specs, 2);
  for (const auto& c : out.children)
    CHECK(c.ok());
  CHECK_FALSE(fs::exists(dir / "over"));
  fs::remove_all(dir);
}

namespace {
// Whether process `pid` still runs (a zombie waiting for its reaper does not).
bool running_process(pid_t pid) {
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string line;
  if (!std::getline(stat, line))
    return false;
  const auto close = line.rfind(')');
  return close != std::string::npos && close + 2 < line.size() && line[close + 2] != 'Z';
}
} // namespace

TEST_CASE("process pool: an interrupt stops the running children and what they started, starts no more, keeps what "
          "finished",
          "[executor]") {
  // The second child is a shell that runs `sleep` as a child of its own (the ':' after it keeps any shell from
  // exec'ing it) and writes its pid: stopping only the shell left the sleep running for 30 s.
  const fs::path pid_file = fs::temp_directory_path() / ("aisim-pool-sleep-" + std::to_string(::getpid()));
  fs::remove(pid_file);
  // SIGTERM once the sleep's pid is written (the shell may start late on a loaded machine).
  std::thread interrupter([&pid_file] {
    while (!fs::exists(pid_file) || fs::file_size(pid_file) == 0)
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    ::kill(::getpid(), SIGTERM);
  });
  const auto out = run_pool(
      {sh("exit 0"), sh("sleep 300 & echo $! > " + pid_file.string() + "; wait; :"), sh("sleep 300; :"), sh("exit 0")},
      2);
  interrupter.join();
  CHECK(out.interrupted);
  CHECK(out.children[0].ok());
  CHECK(out.children[1].started);
  CHECK_FALSE(out.children[1].finished); // stopped by the pool, not by itself
  CHECK(out.children[1].signal == SIGTERM);
  CHECK_FALSE(out.children[3].started);
  CHECK(out.children[3].describe() == "not started");
  // Nothing it started is left: the sleep is gone within moments (the loop gives it 30 s to go; left running, it
  // would last 300).
  std::ifstream in(pid_file);
  pid_t sleeper = 0;
  REQUIRE(in >> sleeper);
  bool gone = false;
  for (int i = 0; i < 3000 && !gone; ++i) {
    gone = !running_process(sleeper);
    if (!gone)
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  CHECK(gone);
  fs::remove(pid_file);
}

namespace {
// Runs of "this program" in the worker tests: what each does is its first argument.
int test_entry(int argc, char** argv) {
  const std::string what = argc > 1 ? argv[1] : "";
  if (what == "code")
    return std::stoi(argv[2]);
  if (what == "crash")
    ::raise(SIGKILL);
  if (what == "exit")
    ::_exit(7); // a run that ends its process, as exit() on an error path would
  if (what == "hex") {
    std::cout << std::hex << 255 << "\n"; // a run that leaves its stream formatted
    return 0;
  }
  if (what == "sleep")
    std::this_thread::sleep_for(std::chrono::seconds(30));
  std::cout << ::getpid() << " " << 255 << "\n"; // "pid": which process ran it, and the stream's format
  return 0;
}

constexpr const char* kSelf = "/test/aisim-self";

ChildSpec self(std::vector<std::string> args, const std::string& log = "") {
  args.insert(args.begin(), kSelf);
  return {args, log, ""};
}

std::string read_log(const fs::path& p) {
  std::ifstream in(p);
  std::string line;
  std::getline(in, line);
  return line;
}

struct SelfEntry {
  SelfEntry() { set_in_process_entry(test_entry, kSelf); }
  ~SelfEntry() { set_in_process_entry(nullptr, ""); }
};
} // namespace

TEST_CASE("process pool: runs of this program go to workers that run one after another", "[executor]") {
  const SelfEntry entry;
  const fs::path dir = fs::temp_directory_path() / ("aisim-pool-workers-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  std::vector<ChildSpec> specs;
  for (int i = 0; i < 8; ++i)
    specs.push_back(self({"pid"}, (dir / ("run" + std::to_string(i) + ".log")).string()));
  specs[2] = self({"code", "3"});
  specs[3] = self({"crash"});
  specs[4] = self({"hex"}, (dir / "run4.log").string());
  specs[5] = self({"exit"});
  const auto out = run_pool(specs, 2);
  CHECK(out.children[2].exit_code == 3);
  CHECK(out.children[3].finished);
  CHECK(out.children[3].signal == SIGKILL); // the crash ended its worker, and is reported as the run's
  CHECK(out.children[5].exit_code == 7);
  std::set<std::string> pids;
  for (int i : {0, 1, 4, 6, 7}) {
    INFO("run " << i);
    CHECK(out.children[static_cast<size_t>(i)].ok()); // the runs after a crash still ran, in a new worker
    if (i == 4) {
      CHECK(read_log(dir / "run4.log") == "ff");
      continue;
    }
    const std::string line = read_log(dir / ("run" + std::to_string(i) + ".log"));
    CHECK(line.substr(line.find(' ') + 1) == "255"); // each run starts with the stream's default format
    CHECK(line.substr(0, line.find(' ')) != std::to_string(::getpid()));
    pids.insert(line.substr(0, line.find(' ')));
  }
  // A digest runs in the worker after a run that exited 0, and comes back with its result; not after a failure.
  register_digest("test-pid",
                  [](const std::string& dir) { return dir + " worked out in " + std::to_string(::getpid()); });
  std::vector<ChildSpec> digested{self({"code", "0"}), self({"code", "4"})};
  for (auto& d : digested) {
    d.out_dir = "/some/run";
    d.digest = "test-pid";
  }
  const auto dg = run_pool(digested, 1);
  CHECK(dg.children[0].digest.rfind("/some/run worked out in ", 0) == 0);
  CHECK(dg.children[0].digest != "/some/run worked out in " + std::to_string(::getpid()));
  CHECK(dg.children[1].exit_code == 4);
  CHECK(dg.children[1].digest.empty());
  // Without crashes, two workers run them all.
  pids.clear();
  std::vector<ChildSpec> batch;
  for (int i = 0; i < 6; ++i)
    batch.push_back(self({"pid"}, (dir / ("again" + std::to_string(i) + ".log")).string()));
  const auto again = run_pool(batch, 2);
  for (int i = 0; i < 6; ++i) {
    const std::string line = read_log(dir / ("again" + std::to_string(i) + ".log"));
    pids.insert(line.substr(0, line.find(' ')));
  }
  for (const auto& c : again.children)
    CHECK(c.ok());
  CHECK(pids.size() <= 2);
  // A worker retires after kRunsPerWorker runs, and another takes the rest.
  pids.clear();
  batch.assign(kRunsPerWorker + 3, self({"pid"}));
  for (size_t i = 0; i < batch.size(); ++i)
    batch[i].log_path = (dir / ("long" + std::to_string(i) + ".log")).string();
  const auto long_batch = run_pool(batch, 1);
  for (size_t i = 0; i < batch.size(); ++i) {
    CHECK(long_batch.children[i].ok());
    const std::string line = read_log(batch[i].log_path);
    pids.insert(line.substr(0, line.find(' ')));
  }
  CHECK(pids.size() == 2);
  fs::remove_all(dir);
}

TEST_CASE("process pool: an interrupt stops busy workers and keeps what finished", "[executor]") {
  const SelfEntry entry;
  std::thread interrupter;
  const auto out = run_pool({self({"code", "0"}), self({"sleep"}), self({"sleep"}), self({"code", "0"})}, 2,
                            sigterm_after_first(interrupter));
  interrupter.join();
  CHECK(out.interrupted);
  CHECK(out.children[0].ok());
  CHECK(out.children[1].started);
  CHECK_FALSE(out.children[1].finished);
  CHECK(out.children[1].signal == SIGTERM);
  CHECK(out.children[2].started); // the first worker took it once run 0 was done
  CHECK_FALSE(out.children[3].started);
}

TEST_CASE("process pool: a dealer hands out the runs, in its order and when it has them", "[executor]") {
  const SelfEntry entry;
  // As an MPI rank deals: some answers are "none yet"; runs 1 and 3 are never dealt (another rank ran them).
  const std::vector<Deal> deals{{Deal::later, 0}, {Deal::start, 4}, {Deal::later, 0}, {Deal::later, 0},
                                {Deal::start, 0}, {Deal::start, 2}, {Deal::later, 0}, {Deal::none, 0}};
  for (const bool in_process : {true, false}) {
    INFO((in_process ? "workers" : "exec'd children"));
    size_t next = 0;
    int idles = 0;
    std::vector<size_t> order;
    const std::vector<ChildSpec> specs(5, in_process ? self({"code", "0"}) : sh("exit 0"));
    const auto out = run_pool(
        specs, 2, [&](size_t i, const ChildResult&) { order.push_back(i); }, [&] { ++idles; },
        [&] {
          return next < deals.size() ? deals[next++] : Deal{Deal::none, 0};
        });
    CHECK(next == deals.size()); // asked until it said none, and not after
    CHECK(idles > 0);            // waiting for a deal gave the caller its turn
    CHECK(std::set<size_t>(order.begin(), order.end()) == std::set<size_t>{0, 2, 4});
    for (const size_t i : {0, 2, 4})
      CHECK(out.children[i].ok());
    for (const size_t i : {1, 3})
      CHECK_FALSE(out.children[i].started);
    // Every worker or child was waited for, the ones let go between runs too: no zombies left behind.
    int status = 0;
    CHECK(::waitpid(-1, &status, WNOHANG) == -1);
  }
}
