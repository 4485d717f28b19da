// The fabric's max-flow built with Boost's own checks on (this target compiles fabric.cpp without NDEBUG, as a
// debug build does): push-relabel asserts that its answer conserves flow exactly at every switch, which a solver on
// double capacities breaks by rounding (a debug build aborted three validation cases there). Every shipped and
// validation scenario's network is built here, max flows and all.
#include "models/cluster/cluster_network.hpp"
#include "models/scenario/scenario_parser.hpp"

#include <catch2/catch.hpp>

#include <filesystem>

using namespace aisim::models;
namespace fs = std::filesystem;

TEST_CASE("fabric max flows pass Boost's flow check on every shipped and validation scenario", "[fabric]") {
  std::vector<fs::path> files;
  for (const char* dir : {"scenarios", "scenarios/bench"})
    for (const auto& e : fs::directory_iterator(fs::path(AISIM_SOURCE_DIR) / dir))
      if (e.path().extension() == ".json")
        files.push_back(e.path());
  for (const auto& e : fs::directory_iterator(fs::path(AISIM_SOURCE_DIR) / "validation"))
    if (fs::exists(e.path() / "scenario.json"))
      files.push_back(e.path() / "scenario.json");
  REQUIRE(files.size() > 40);
  size_t built = 0;
  for (const auto& f : files) {
    INFO(f.string());
    const auto loaded = load_scenario(f.string(), {});
    if (!loaded.scenario)
      continue; // a case that needs its own --set; its network is built by the validation run
    const ClusterNetwork net = build_cluster_network(*loaded.scenario); // aborts here if a flow check fails
    CHECK(storage_flow_bounds(*loaded.scenario, net).size() == loaded.scenario->storage.size());
    ++built;
  }
  CHECK(built > 40);
}
