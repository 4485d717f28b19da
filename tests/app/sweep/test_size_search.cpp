#include "app/sweep/size_search.hpp"

#include <catch2/catch.hpp>

#include <cmath>

using namespace aisim::app;

namespace {

// A run whose metric is f(index) and whose cost grows with the index.
struct Fake {
  std::function<double(size_t)> f;
  size_t calls = 0;
  std::vector<SizeRun> operator()(const std::vector<size_t>& idx) {
    std::vector<SizeRun> out;
    for (const size_t i : idx) {
      ++calls;
      out.push_back({i, {{"m", f(i)}, {"total_with_lost_gpu_usd", 100.0 + static_cast<double>(i)}}});
    }
    return out;
  }
};

SizeTarget at_least(double v) { return {"m", true, v}; }

} // namespace

TEST_CASE("size: bisection finds the cheapest value meeting a target in about log2 runs", "[size]") {
  // Checkpoint time over n enclosures: 980 GB at 100 GB/s each; the target 2 s needs 5 (index 4 of 1..64).
  Fake fake{[](size_t i) { return -980.0 / (100.0 * static_cast<double>(i + 1)); }};
  auto run = [&](const std::vector<size_t>& idx) { return fake(idx); };
  const auto a = size_search(64, at_least(-2.0), SizeGoal::cheapest, 1, run);
  REQUIRE(a.found);
  CHECK(a.index == 4);
  CHECK(a.method == "bisection");
  CHECK(fake.calls <= 9); // 2 ends + log2(64) probes
  // Two workers: fewer rounds, the same answer.
  Fake two{fake.f};
  size_t rounds = 0;
  const auto b = size_search(64, at_least(-2.0), SizeGoal::cheapest, 2, [&](const std::vector<size_t>& idx) {
    ++rounds;
    return two(idx);
  });
  CHECK(b.index == 4);
  CHECK(rounds <= 5);
  // The knee of 1/n: the first value within a tenth of the change of the best is found exactly.
  std::vector<SizeRun> runs = a.runs;
  const auto k = find_knee(runs, "m", true, 1, run);
  REQUIRE(k);
  std::vector<SizeRun> every = fake([] {
    std::vector<size_t> all(64);
    for (size_t i = 0; i < 64; ++i)
      all[i] = i;
    return all;
  }());
  CHECK(*k == *knee(every, "m", true));
}

TEST_CASE("size: the largest value meeting a target; none meeting; a metric that is not monotone", "[size]") {
  // Utilization of n accelerators on storage that feeds 37 of them: the most keeping >= 0.9 is 41 (index 40).
  Fake util{[](size_t i) { return std::min(1.0, 37.0 / static_cast<double>(i + 1)); }};
  auto run = [&](const std::vector<size_t>& idx) { return util(idx); };
  const auto a = size_search(200, at_least(0.9), SizeGoal::largest, 1, run);
  REQUIRE(a.found);
  CHECK(a.index == 40);
  CHECK(a.method == "bisection");
  CHECK_FALSE(knee(a.runs, "m", true)); // more accelerators never help: no knee

  const auto none = size_search(200, at_least(1.5), SizeGoal::largest, 1, run);
  CHECK_FALSE(none.found);
  CHECK(none.index == 0); // the best reached, at the fewest accelerators
  CHECK_FALSE(none.message.empty());

  // A metric that rises and falls over the runs bisection makes (a peak at 7, which it probes): bisection gives way
  // to running every value, and says why. (A bump between probes is not seen: the check is on the runs made.)
  Fake bumpy{[](size_t i) { return i == 7 ? 1.0 : static_cast<double>(i) / 16; }};
  auto run_bumpy = [&](const std::vector<size_t>& idx) { return bumpy(idx); };
  const auto c = size_search(16, at_least(0.5), SizeGoal::cheapest, 1, run_bumpy);
  CHECK(c.method == "search");
  CHECK_FALSE(c.why_search.empty());
  REQUIRE(c.found);
  CHECK(c.index == 7);
  CHECK(c.runs.size() == 16);

  // A failed run stops the search with a message.
  Fake broken{[](size_t) { return 1.0; }};
  const auto d = size_search(8, at_least(0.5), SizeGoal::cheapest, 1, [&](const std::vector<size_t>& idx) {
    auto r = broken(idx);
    for (auto& x : r)
      if (x.index == 7)
        x.metrics.clear();
    return r;
  });
  CHECK_FALSE(d.found);
  CHECK(d.message.find("failed") != std::string::npos);

  std::string error;
  const auto t = parse_target("gpu_utilization_fraction >= 95%", &error);
  REQUIRE(t);
  CHECK(t->metric == "gpu_utilization_fraction");
  CHECK(t->value == Approx(0.95));
  CHECK(parse_target("checkpoint_write_p99_s<=30", &error)->at_least == false);
  CHECK_FALSE(parse_target("gpu_utilization_fraction=0.9", &error));
  CHECK_FALSE(parse_target(">=0.9", &error));
  CHECK_FALSE(parse_target("m>=fast", &error));
}

TEST_CASE("size: a run that fails during the search of every value, or while placing the knee", "[size]") {
  // Found by tests/fuzz (size). The middle value misses where both ends meet: the metric rises and falls, so every
  // value is run, and value 6 (index 5) fails. It might have been the answer, so there is none, and it is named.
  const auto f = [](size_t i) { return i == 4 ? 0.5 : 0.99; };
  const auto with_failure = [&](size_t failing) {
    return [=](const std::vector<size_t>& idx) {
      std::vector<SizeRun> out;
      for (const size_t i : idx)
        out.push_back(i == failing
                          ? SizeRun{i, {}}
                          : SizeRun{i, {{"m", f(i)}, {"total_with_lost_gpu_usd", 100.0 + static_cast<double>(i)}}});
      return out;
    };
  };
  const auto a = size_search(9, at_least(0.9), SizeGoal::largest, 1, with_failure(5));
  CHECK(a.method == "search");
  CHECK_FALSE(a.found);
  CHECK(a.message == "the run of value 6 failed; no answer can be given");
  // The knee's bisection picks the values between the last one far from the best and the first near it; a failed
  // one has no metric and would be picked again forever: no knee instead.
  const auto rising = [](size_t i) { return 1.0 - 1.0 / static_cast<double>(i + 1); };
  size_t calls = 0;
  const auto knee_run = [&](const std::vector<size_t>& idx) {
    std::vector<SizeRun> out;
    for (const size_t i : idx) {
      ++calls;
      out.push_back(i == 4 ? SizeRun{i, {}} : SizeRun{i, {{"m", rising(i)}, {"total_with_lost_gpu_usd", 100.0}}});
    }
    return out;
  };
  std::vector<SizeRun> runs{{0, {{"m", rising(0)}}}, {8, {{"m", rising(8)}}}, {63, {{"m", rising(63)}}}};
  CHECK_FALSE(find_knee(runs, "m", true, 1, knee_run));
  CHECK(calls <= 3);
}
