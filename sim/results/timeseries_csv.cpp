#include "sim/results/timeseries_csv.hpp"

#include "models/common/units.hpp"

#include <algorithm>
#include <array>
#include <cmath>

namespace aisim::sim {

using models::format_number;

namespace {
// time, 4 GPU-time shares, then per system read and write rates and a column per data class it holds.
double timeseries_columns(const models::Scenario& sc) {
  return 5.0 + static_cast<double>(sc.storage.size()) * (2.0 + models::kDataClasses);
}
constexpr double kValueBytes = 14; // "1234567.891011," at the widest
} // namespace

double timeseries_rows(const models::Scenario& sc) {
  return std::ceil(sc.simulation.duration.value / sc.simulation.timeseries_resolution.value);
}

double estimate_output_bytes(const models::Scenario& sc) {
  constexpr double kFixedBytes = 1 << 20; // results.json and the report's page, without its sampled series
  return timeseries_rows(sc) * timeseries_columns(sc) * kValueBytes + kFixedBytes;
}

double estimate_timeseries_memory_bytes(const models::Scenario& sc) {
  // A double per value in the bins and the text of every value (10 ms over a week of scenarios/default.json:
  // 6.05e7 rows of 13 values, 14.7 GB at its peak; this says 17.3 GB).
  return timeseries_rows(sc) * timeseries_columns(sc) * (sizeof(double) + kValueBytes);
}

namespace {

// Occupancy per system and data class at the end of each bin; a class gets a column on the systems it ever
// occupies.
struct Occupancy {
  std::vector<std::vector<std::array<double, models::kDataClasses>>> held; // [system][bin][class]
  std::vector<std::vector<int>> classes;                                   // [system]: the classes it held
};

Occupancy occupancy_by_bin(const RunOutput& run, size_t ns, size_t bins, double step) {
  Occupancy o;
  auto& [held, classes] = o;
  held.resize(ns);
  classes.resize(ns);
  for (size_t s = 0; s < ns; ++s) {
    const auto events = run.metrics.storage[s].usage_in_time_order();
    std::array<double, models::kDataClasses> now{};
    std::array<bool, models::kDataClasses> seen{};
    size_t e = 0;
    for (size_t i = 0; i < bins; ++i) {
      const double bin_end = std::min((i + 1) * step, run.simulated_s);
      for (; e < events.size() && events[e].time_s <= bin_end; ++e) {
        now[static_cast<size_t>(events[e].cls)] += events[e].bytes;
        seen[static_cast<size_t>(events[e].cls)] = true;
      }
      held[s].push_back(now);
    }
    for (int c = 0; c < models::kDataClasses; ++c)
      if (seen[c])
        classes[s].push_back(c);
  }
  return o;
}

} // namespace

std::string build_timeseries_csv(const models::Scenario& sc, const RunOutput& run) {
  const double step = sc.simulation.timeseries_resolution.value;
  const auto bins = static_cast<size_t>(std::ceil(run.simulated_s / step));
  const size_t ns = sc.storage.size();
  std::vector<double> compute(bins), data(bins), ckpt(bins), fail(bins);
  std::vector<std::vector<double>> rd(ns, std::vector<double>(bins)), wr(ns, std::vector<double>(bins));
  // Spreads `amount` uniformly over [a, b) into the bins it overlaps; what took no time goes to the bin it
  // happened in. What lies past the last bin is after the period (results.json's *_bytes_after_period).
  auto spread = [&](std::vector<double>& v, double a, double b, double amount) {
    if (b <= a) {
      if (a >= 0 && a < run.simulated_s)
        v[std::min(bins - 1, static_cast<size_t>(a / step))] += amount;
      return;
    }
    // The last bin ends with the period, which need not be a whole number of steps.
    for (auto i = static_cast<size_t>(a / step); i < bins && i * step < b; ++i) {
      const double lo = std::max(a, i * step), hi = std::min({b, (i + 1) * step, run.simulated_s});
      if (hi > lo)
        v[i] += amount * (hi - lo) / (b - a);
    }
  };
  for (size_t j = 0; j < sc.jobs.size(); ++j) {
    const double gpus = sc.jobs[j].gpus;
    for (const auto& seg : run.metrics.jobs[j].segments) {
      const double gpu_s = gpus * (seg.end_s - seg.start_s);
      spread(compute, seg.start_s, seg.end_s, gpu_s * seg.compute);
      spread(data, seg.start_s, seg.end_s, gpu_s * seg.data_stall);
      spread(ckpt, seg.start_s, seg.end_s, gpu_s * seg.checkpoint_stall);
      spread(fail, seg.start_s, seg.end_s, gpu_s * seg.failure);
    }
  }
  for (size_t s = 0; s < ns; ++s)
    for (const auto& t : run.metrics.storage[s].transfers)
      spread(t.direction == IoDirection::read ? rd[s] : wr[s], t.start_s, t.end_s, t.bytes);
  const auto [held, classes] = occupancy_by_bin(run, ns, bins, step);
  std::string out = "time_s,gpu_utilization,stall_data,stall_checkpoint,stall_failure,idle";
  for (size_t s = 0; s < ns; ++s) {
    const auto& name = sc.storage[s].name;
    out += "," + name + "_read_Bps," + name + "_write_Bps," + name + "_used_bytes";
    for (int c : classes[s])
      out += "," + name + "_" + models::data_class_name(static_cast<models::DataClass>(c)) + "_bytes";
  }
  out += "\n";
  const double gpus = sc.gpu_count();
  for (size_t i = 0; i < bins; ++i) {
    const double width = std::min(step, run.simulated_s - i * step);
    const double cap = gpus * width;
    const double u = compute[i] / cap, d = data[i] / cap, c = ckpt[i] / cap, f = fail[i] / cap;
    out += format_number("%.0f", i * step) + "," + format_number("%.6f", u) + "," + format_number("%.6f", d) + "," +
           format_number("%.6f", c) + "," + format_number("%.6f", f) + "," +
           format_number("%.6f", std::max(0.0, 1.0 - u - d - c - f));
    for (size_t s = 0; s < ns; ++s) {
      double total = 0;
      for (double b : held[s][i])
        total += b;
      // Whole bytes and bytes per second: plain numbers a spreadsheet reads, never scientific notation.
      out += "," + format_number("%.0f", rd[s][i] / width) + "," + format_number("%.0f", wr[s][i] / width) + "," +
             format_number("%.0f", total);
      for (int c : classes[s])
        out += "," + format_number("%.0f", held[s][i][c]);
    }
    out += "\n";
  }
  return out;
}

} // namespace aisim::sim
