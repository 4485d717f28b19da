#include "sim/sweep/threshold_search.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <set>

using namespace aisim::sim;

namespace {

// Utilization of n accelerators reading from storage that supplies `supply` accelerators' worth of data.
double storage_bound(int64_t n, double supply) { return std::min(1.0, supply / static_cast<double>(n)); }

} // namespace

TEST_CASE("bisection finds the largest count that keeps the threshold", "[threshold_search]") {
  int calls = 0;
  const auto r = search_largest_passing({1, 4096, 1, 0.9}, [&](int64_t n) {
    ++calls;
    return storage_bound(n, 32.7); // 32.7 / 36 = 0.908, 32.7 / 37 = 0.884
  });
  REQUIRE(r.outcome == SearchOutcome::found);
  CHECK(r.value == 36);
  CHECK(r.message.empty());
  CHECK(calls == static_cast<int>(r.probes.size()));
  CHECK(calls <= 14); // both ends, then log2(4095) halvings
  // The answer and the next value up were both run.
  std::set<int64_t> probed;
  for (const auto& p : r.probes)
    probed.insert(p.value);
  CHECK(probed.count(36) == 1);
  CHECK(probed.count(37) == 1);
}

TEST_CASE("the threshold itself passes", "[threshold_search]") {
  const auto r = search_largest_passing({1, 100, 1, 0.5}, [](int64_t n) { return n <= 40 ? 0.5 : 0.49; });
  REQUIRE(r.outcome == SearchOutcome::found);
  CHECK(r.value == 40);
}

TEST_CASE("the search keeps to its step", "[threshold_search]") {
  const auto r = search_largest_passing({4, 400, 4, 0.9}, [](int64_t n) {
    CHECK(n % 4 == 0);
    return storage_bound(n, 100.0); // passes up to 111
  });
  REQUIRE(r.outcome == SearchOutcome::found);
  CHECK(r.value == 108);
}

TEST_CASE("every value passing up to max is reported, not guessed", "[threshold_search]") {
  const auto r = search_largest_passing({1, 64, 1, 0.9}, [](int64_t) { return 1.0; });
  CHECK(r.outcome == SearchOutcome::above_max);
  CHECK(r.value == 64);
  CHECK(r.probes.size() == 2);
  CHECK(r.message.find("raise max") != std::string::npos);
}

TEST_CASE("a threshold missed already at min is reported", "[threshold_search]") {
  const auto r = search_largest_passing({8, 64, 1, 0.9}, [](int64_t n) { return storage_bound(n, 4.0); });
  CHECK(r.outcome == SearchOutcome::below_min);
  CHECK(r.value == 8);
  CHECK(r.probes.size() == 1);
  CHECK(r.message == "even 8 gives 0.5, below 0.9");
}

TEST_CASE("a metric that rises with the knob is refused", "[threshold_search]") {
  SECTION("between the ends") {
    // Passes at both ends: only the ends are run, and the rise shows between them.
    const auto r = search_largest_passing({1, 100, 1, 0.5}, [](int64_t n) { return n < 50 ? 0.6 : 0.7; });
    CHECK(r.outcome == SearchOutcome::not_monotonic);
    CHECK(r.value == 100);
    CHECK(r.message == "the metric rises from 0.6 at 1 to 0.7 at 100; bisection needs it not to rise as the value "
                       "grows");
  }
  SECTION("among passing probes inside the range") {
    // Probes 1 (0.92), 100 (0.1), then 50 (0.95): a rise, though every passing probe still lies below every
    // failing one.
    const auto r = search_largest_passing({1, 100, 1, 0.9}, [](int64_t n) {
      if (n <= 25)
        return 0.92;
      if (n <= 60)
        return 0.95;
      return 0.1;
    });
    CHECK(r.outcome == SearchOutcome::not_monotonic);
    CHECK(r.value == 50);
    CHECK(r.message.find("rises from 0.92 at 1 to 0.95 at 50") != std::string::npos);
  }
  SECTION("among failing probes inside the range") {
    // Probes 1 (1), 100 (0.5), 50 (0.3): fails at 50 and rises again towards 100.
    const auto r = search_largest_passing({1, 100, 1, 0.9}, [](int64_t n) {
      if (n <= 10)
        return 1.0;
      return n < 80 ? 0.3 : 0.5;
    });
    CHECK(r.outcome == SearchOutcome::not_monotonic);
    CHECK(r.value == 100);
  }
  SECTION("a bump between probes goes unseen: only probed values are compared") {
    const auto r = search_largest_passing({1, 100, 1, 0.9}, [](int64_t n) {
      if (n <= 10)
        return 1.0;
      if (n <= 30)
        return 0.95;
      if (n < 60)
        return 0.4;
      if (n < 90)
        return 0.5; // never probed: 1, 100, 50, 25, 37, 31, 28, 29, 30
      return 0.1;
    });
    CHECK(r.outcome == SearchOutcome::found);
    CHECK(r.value == 30);
  }
  SECTION("a rise within the slack is tolerated") {
    SearchSpec spec{1, 100, 1, 0.9};
    spec.rise_slack = 1e-6;
    const auto r = search_largest_passing(spec, [](int64_t n) {
      const double u = storage_bound(n, 45.5);
      return n % 2 ? u : u * (1 + 1e-7); // jitter of a tenth of the slack
    });
    REQUIRE(r.outcome == SearchOutcome::found);
    CHECK(r.value == 50);
  }
}

TEST_CASE("a failed run stops the search and names its value", "[threshold_search]") {
  const auto r = search_largest_passing({1, 100, 1, 0.9}, [](int64_t n) -> std::optional<double> {
    if (n == 50)
      return std::nullopt;
    return storage_bound(n, 30.0);
  });
  CHECK(r.outcome == SearchOutcome::probe_failed);
  CHECK(r.value == 50);
  CHECK(r.message == "the run at 50 gave no metric");
  CHECK_FALSE(r.probes.back().metric.has_value());
}

TEST_CASE("a metric that is not a number fails the probe", "[threshold_search]") {
  const auto r = search_largest_passing({1, 100, 1, 0.9}, [](int64_t) { return std::nan(""); });
  CHECK(r.outcome == SearchOutcome::probe_failed);
  CHECK(r.value == 1);
  CHECK(r.message == "the metric at 1 is not a finite number");
}

TEST_CASE("min equal to max passing cannot bound the answer", "[threshold_search]") {
  const auto r = search_largest_passing({5, 5, 1, 0.9}, [](int64_t) { return 1.0; });
  CHECK(r.outcome == SearchOutcome::above_max);
  CHECK(r.probes.size() == 1);
}

TEST_CASE("bad search ranges are described", "[threshold_search]") {
  CHECK(check_search_spec({1, 100, 1, 0.9}).empty());
  CHECK(check_search_spec({10, 1, 1, 0.9}) == std::vector<std::string>{"min (10) is above max (1)"});
  CHECK(check_search_spec({1, 100, 4, 0.9}) ==
        std::vector<std::string>{"max - min (99) is not a multiple of step (4)"});
  CHECK(check_search_spec({1, 100, 0, 0.9}) == std::vector<std::string>{"step must be at least 1 (got 0)"});
}
