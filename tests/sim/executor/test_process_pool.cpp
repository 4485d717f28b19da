#include "sim/executor/process_pool.hpp"

#include <catch2/catch.hpp>

#include <csignal>
#include <filesystem>
#include <fstream>
#include <set>
#include <thread>
#include <unistd.h>

using namespace aisim::sim;
namespace fs = std::filesystem;

namespace {
ChildSpec sh(const std::string& script, const std::string& log = "") { return {{"/bin/sh", "-c", script}, log, ""}; }
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

TEST_CASE("process pool: an interrupt stops the running children, starts no more, keeps what finished", "[executor]") {
  std::thread interrupter;
  const auto out =
      run_pool({sh("exit 0"), sh("sleep 30"), sh("sleep 30"), sh("exit 0")}, 2, [&](size_t i, const ChildResult&) {
        // Once the first child is done, the parent gets SIGTERM, as from `kill` or a scheduler.
        if (i == 0)
          interrupter = std::thread([] {
            std::this_thread::sleep_for(std::chrono::milliseconds(100));
            ::kill(::getpid(), SIGTERM);
          });
      });
  interrupter.join();
  CHECK(out.interrupted);
  CHECK(out.children[0].ok());
  CHECK(out.children[1].started);
  CHECK_FALSE(out.children[1].finished); // stopped by the pool, not by itself
  CHECK(out.children[1].signal == SIGTERM);
  CHECK_FALSE(out.children[3].started);
  CHECK(out.children[3].describe() == "not started");
}
