#include "models/scenario/price_sheet.hpp"
#include "models/scenario/scenario_parser.hpp"

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <unistd.h>

using namespace aisim::models;
namespace fs = std::filesystem;

namespace {

// A folder holding a scenario's price sheet, removed when the test ends.
struct SheetDir {
  fs::path dir;
  explicit SheetDir(const Json& sheet) {
    dir = fs::temp_directory_path() /
          ("aisim-sheet-" + std::to_string(::getpid()) + "-" + std::to_string(reinterpret_cast<uintptr_t>(this)));
    fs::create_directories(dir / "costs");
    std::ofstream(dir / "costs" / "sheet.json") << sheet.dump(2);
  }
  ~SheetDir() { fs::remove_all(dir); }
};

Json sheet() {
  return Json::parse(R"({
    "format": "aisim.prices/v1", "name": "test quotes", "date": "2026-11", "currency": "USD",
    "prices": {
      "gpu_price": {"H100-SXM": {"value": "$20k", "source": "quote A"}},
      "node_group": {"node_price": {"value": "$50k", "source": "quote B"}},
      "drive_price_per_tb": {"nvme_tlc": {"value": "$100/TB", "source": "quote C"}},
      "jbof": {"enclosure_price": {"value": "$10k", "source": "quote D"}},
      "object": {"storage_price": {"value": "$4/TB-month", "source": "provider list"},
                 "retrieval_price": {"value": "$0.01/GB", "source": "provider list"},
                 "egress_price": {"value": "$0/GB", "source": "private link, no egress"}},
      "network": {"switch_price": {"value": "$20k", "source": "quote E"},
                  "port_price": {"value": "$500", "source": "quote E"}},
      "costs": {"energy_price": {"value": "$0.08/kWh", "source": "utility contract"},
                "maintenance": {"value": 0.15, "source": "support quote"}}
    }
  })");
}

Json scenario() {
  return Json::parse(R"({
    "schema_version": 1,
    "cluster": {"node_groups": [{"name": "g", "count": 2, "gpu": "H100-SXM"}]},
    "drives": {"d": {"capacity": "8TB", "read_bandwidth": "7GB/s", "write_bandwidth": "7GB/s", "media": "nvme_tlc"}},
    "storage": {"hot": {"kind": "jbof", "enclosures": 1, "drives_per_enclosure": 4, "drive": "d",
                        "enclosure_price": "$12k"},
                "cold": {"kind": "object", "capacity": "1PB"}},
    "workloads": [{"name": "j", "kind": "training", "gpus": 16, "step_time": "1s", "global_batch": 8,
                   "sample_size": "1MB", "dataset": {"size": "1TB", "storage": "hot"},
                   "checkpoint": {"size": "100GB", "interval": "10min", "storage": "hot"}}],
    "costs": {"price_sheet": "costs/sheet.json"}
  })");
}

} // namespace

TEST_CASE("price sheet: fills what the scenario leaves out, keeps what it gives, records each figure", "[scenario]") {
  SheetDir d(sheet());
  auto r = parse_scenario(scenario(), "s.json", d.dir.string());
  INFO(r.diagnostics.format(true));
  REQUIRE(r.scenario.has_value());
  const Scenario& sc = *r.scenario;
  CHECK(sc.node_groups[0].gpu_price.value == 20000);
  CHECK(sc.node_groups[0].node_price.value == 50000);
  CHECK(sc.drives[0].price.value == Approx(800));            // 8 TB at $100/TB
  CHECK(sc.storage[0].chassis_price.value == 12000);         // the scenario's own value wins
  CHECK(sc.storage[1].storage_price.value == Approx(4e-12)); // $4 per TB-month
  CHECK(sc.network.switch_price.value == 20000);
  CHECK(sc.costs.energy_price.value == Approx(0.08));
  CHECK(sc.costs.maintenance_per_year == Approx(0.15));
  CHECK(sc.costs.price_sheet == "test quotes, dated 2026-11");
  // Each figure taken, where it went and its source; the scenario's own enclosure price is not among them.
  const Json& rec = sc.resolved["costs"]["price_sheet"];
  CHECK(rec["file"] == "costs/sheet.json");
  std::map<std::string, std::string> applied;
  for (const auto& a : rec["applied"])
    applied[a["at"].get<std::string>()] = a["source"].get<std::string>();
  CHECK(applied.at("/cluster/node_groups/0/gpu_price") == "quote A");
  CHECK(applied.at("/drives/d/price") == "quote C ($100/TB x 8TB)");
  CHECK(applied.at("/storage/cold/egress_price") == "private link, no egress");
  CHECK(applied.count("/storage/hot/enclosure_price") == 0);
  CHECK(sc.costs.price_sheet_figures == static_cast<int>(applied.size()));
  // The resolved scenario stands on its own: parsed again from anywhere, it gives the same prices.
  auto again = parse_scenario(sc.resolved, "resolved.json", "/nonexistent");
  INFO(again.diagnostics.format(true));
  REQUIRE(again.scenario.has_value());
  CHECK(again.scenario->drives[0].price.value == Approx(800));
  CHECK(again.scenario->costs.price_sheet == sc.costs.price_sheet);
  CHECK(again.scenario->resolved == sc.resolved);
}

TEST_CASE("price sheet: a component whose price neither the scenario nor the sheet gives is an error", "[scenario]") {
  Json s = sheet();
  s["prices"].erase("jbof");
  s["prices"]["object"].erase("egress_price");
  s["prices"].erase("drive_price_per_tb");
  SheetDir d(s);
  Json sc = scenario();
  sc["storage"]["hot"].erase("enclosure_price");
  auto r = parse_scenario(sc, "s.json", d.dir.string());
  REQUIRE_FALSE(r.scenario.has_value());
  const std::string e = r.diagnostics.format(false);
  CHECK_THAT(e, Catch::Contains("s.json:/storage/hot/enclosure_price: jbof \"hot\" has no enclosure_price: neither "
                                "the scenario nor the price sheet \"costs/sheet.json\" gives one (expected "
                                "enclosure_price here or /prices/jbof/enclosure_price in the sheet)"));
  CHECK_THAT(e, Catch::Contains("s.json:/storage/cold/egress_price: object \"cold\" has no egress_price"));
  CHECK_THAT(e, Catch::Contains("s.json:/drives/d/price: drive has no price: neither the scenario nor the price "
                                "sheet \"costs/sheet.json\" gives one for its media \"nvme_tlc\""));
}

TEST_CASE("price sheet: a sheet's own mistakes are reported with their place in it", "[scenario]") {
  Json s = sheet();
  s["prices"]["jbof"]["enclosure_price"] = {{"value", "$-1k"}, {"source", "x"}};
  s["prices"]["node_group"]["node_price"].erase("source");
  s["prices"]["network"]["switch_prize"] = {{"value", "$1"}, {"source", "x"}};
  s["prices"]["gpus"] = Json::object({{"x", 1}});
  s.erase("date");
  SheetDir d(s);
  auto r = parse_scenario(scenario(), "s.json", d.dir.string());
  REQUIRE_FALSE(r.scenario.has_value());
  const std::string e = r.diagnostics.format(false);
  INFO(e);
  CHECK_THAT(e, Catch::Contains("s.json:/costs/price_sheet: in costs/sheet.json at /date: missing or empty"));
  CHECK_THAT(e, Catch::Contains("at /prices/jbof/enclosure_price/value: must not be negative"));
  CHECK_THAT(e, Catch::Contains("at /prices/node_group/node_price: expected {\"value\": ..., \"source\""));
  CHECK_THAT(e, Catch::Contains("at /prices/network/switch_prize: unknown price (expected \"switch_price\" or "
                                "\"port_price\")"));
  CHECK_THAT(e, Catch::Contains("at /prices/gpus: unknown section"));
}

TEST_CASE("price sheet: a missing file or a file of another format is refused", "[scenario]") {
  Json sc = scenario();
  sc["costs"]["price_sheet"] = "costs/none.json";
  auto r = parse_scenario(sc, "s.json", fs::temp_directory_path().string());
  REQUIRE_FALSE(r.scenario.has_value());
  CHECK_THAT(r.diagnostics.format(false),
             Catch::Contains("s.json:/costs/price_sheet: cannot open the file (No such file or directory) (expected "
                             "a readable aisim.prices/v1 file"));
  Json other = sheet();
  other["format"] = "aisim.drive/v1";
  SheetDir d(other);
  auto r2 = parse_scenario(scenario(), "s.json", d.dir.string());
  CHECK_THAT(r2.diagnostics.format(false), Catch::Contains("not an aisim.prices/v1 file"));
  // A format that is not even a string (found by fuzz_drive: it used to escape as a JSON type error).
  other["format"] = 22222222;
  SheetDir d3(other);
  auto r3 = parse_scenario(scenario(), "s.json", d3.dir.string());
  CHECK_THAT(r3.diagnostics.format(false),
             Catch::Contains("at /format: not an aisim.prices/v1 file (expected \"aisim.prices/v1\", got 22222222)"));
}

TEST_CASE("price sheet: every shipped sheet loads, and every figure in it has a source", "[scenario]") {
  for (const auto& entry : fs::directory_iterator(fs::path(AISIM_SOURCE_DIR) / "scenarios" / "costs")) {
    if (entry.path().extension() != ".json")
      continue;
    INFO(entry.path().string());
    Json doc = Json::parse(R"({"costs": {}})");
    doc["costs"]["price_sheet"] = entry.path().filename().string();
    Diagnostics diag("s.json");
    auto loaded = load_price_sheet(doc, entry.path().parent_path().string(), diag);
    INFO(diag.format(false));
    REQUIRE(loaded.has_value());
    CHECK_FALSE(loaded->name.empty());
    CHECK_FALSE(loaded->date.empty());
    CHECK(loaded->prices.size() > 0);
  }
}
