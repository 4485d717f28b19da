#include "app/cli/sweep_command.hpp"

#include "app/cli/point_runs.hpp"

#include "app/executor/distributed.hpp"
#include "app/report/report.hpp"
#include "app/sweep/sensitivity.hpp"
#include "app/sweep/size_search.hpp"
#include "app/sweep/sweep_plan.hpp"
#include "app/sweep/sweep_table.hpp"
#include "sim/results/output_set.hpp"
#include "sim/results/replicas.hpp"
#include "sim/results/results.hpp"
#include "sim/results/version_info.hpp"

#include "models/common/units.hpp"
#include "models/scenario/included_file.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <set>
#include <unistd.h>

namespace aisim::app {
namespace {

namespace fs = std::filesystem;
using models::Json;

constexpr double kMaxPointsWithoutYes = 1'000'000;
constexpr const char* kHeadlineDigest = "sweep-headline-metrics";

// The bar on a terminal, or one JSON line per finished point.
class SweepProgress {
public:
  SweepProgress(ProgressMode mode, size_t total, size_t already, int jobs)
      : jsonl_(mode == ProgressMode::jsonl), bar_(mode == ProgressMode::automatic && isatty(STDERR_FILENO)),
        total_(total), done_(already), already_(already), jobs_(jobs), start_(std::chrono::steady_clock::now()) {}

  void point_done(size_t index, const SweepRow& row) {
    ++done_;
    failed_ += row.status != "ok";
    const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    const size_t ran = done_ - already_;
    const size_t left = total_ - done_;
    const double eta = ran > 0 ? elapsed / static_cast<double>(ran) * static_cast<double>(left) : 0;
    const size_t running = std::min(left, static_cast<size_t>(jobs_));
    if (jsonl_) {
      Json line{{"type", "point"},        {"point", index + 1}, {"status", row.status},
                {"outcome", row.outcome}, {"done", done_},      {"running", running},
                {"failed", failed_},      {"of", total_},       {"eta_s", std::round(eta * 10) / 10}};
      if (!row.error.empty())
        line["error"] = row.error;
      std::printf("%s\n", line.dump().c_str());
      std::fflush(stdout);
      return;
    }
    if (!bar_)
      return;
    const int width = 30;
    const int filled = static_cast<int>(static_cast<double>(done_) / static_cast<double>(total_) * width);
    std::fprintf(stderr, "\r[%.*s%*s] %zu/%zu points  %zu running  %zu failed  ETA %s   ", filled,
                 "##############################", width - filled, "", done_, total_, running, failed_,
                 models::format_duration(models::Seconds(eta)).c_str());
    std::fflush(stderr);
    drawn_ = true;
  }

  void finish() {
    if (drawn_)
      std::fprintf(stderr, "\r%*s\r", 90, "");
  }

private:
  bool jsonl_, bar_;
  size_t total_, done_, already_, failed_ = 0;
  int jobs_;
  std::chrono::steady_clock::time_point start_;
  bool drawn_ = false;
};

// The part of sweep.json that --resume requires to be the same.
Json run_identity(const SweepCommand& cmd, const SweepPlan& plan) {
  return Json{{"scenario", cmd.scenario},
              {"sets", cmd.sets},
              {"seed", cmd.seed >= 0 ? Json(cmd.seed) : Json(nullptr)},
              {"replicas", cmd.replicas},
              {"plan", plan_json(plan)}};
}

Json sweep_document(const SweepCommand& cmd, const SweepPlan& plan, const std::vector<SweepRow>& rows,
                    const std::vector<std::string>& objectives, double wall_s, const std::string& state) {
  Json doc{{"schema_version", 1}, {"kind", "sweep"}, {"state", state}};
  doc["run"] = run_identity(cmd, plan);
  doc["description"] = plan.description;
  doc["provenance"] = {{"aisim_version", sim::kAisimVersion}, {"git_commit", sim::kGitCommit}};
  Json metrics = Json::array();
  for (const auto& m : sweep_metrics(cmd.replicas > 0))
    metrics.push_back({{"column", m.column},
                       {"label", m.label},
                       {"better", m.better == Better::higher  ? "higher"
                                  : m.better == Better::lower ? "lower"
                                                              : "neither"}});
  doc["metrics"] = std::move(metrics);
  doc["pareto_objectives"] = objectives;
  Json points = Json::array();
  for (size_t i = 0; i < plan.points.size(); ++i) {
    const auto& r = rows[i];
    Json values = Json::object();
    for (size_t k = 0; k < plan.axes.size(); ++k)
      values[plan.axes[k].pointer] = plan.axes[k].values[plan.points[i].choice[k]];
    Json p{{"point", i + 1},
           {"folder", r.folder},
           {"values", std::move(values)},
           {"status", r.status},
           {"outcome", r.outcome}};
    p["error"] = r.error.empty() ? Json(nullptr) : Json(r.error);
    Json m = Json::object();
    for (const auto& [k, v] : r.metrics)
      m[k] = v;
    p["metrics"] = std::move(m);
    p["pareto"] = r.pareto;
    p["wall_s"] = r.wall_s;
    points.push_back(std::move(p));
  }
  doc["points"] = std::move(points);
  doc["wall_s"] = wall_s;
  return doc;
}

// Rows in columns, each right-aligned to its widest cell; the first left-aligned when `first_left`, and each row's
// last cell left as it is when `last_free` (a status or message of any length).
std::string text_table(const std::vector<std::vector<std::string>>& table, bool first_left, bool last_free) {
  const auto free = [&](const auto& line, size_t c) { return last_free && c + 1 == line.size(); };
  std::vector<size_t> width;
  for (const auto& line : table)
    for (size_t c = 0; c < line.size(); ++c)
      if (!free(line, c)) {
        width.resize(std::max(width.size(), c + 1), 0);
        width[c] = std::max(width[c], line[c].size());
      }
  std::string o;
  for (const auto& line : table) {
    std::string l = " ";
    for (size_t c = 0; c < line.size(); ++c) {
      const std::string pad(free(line, c) ? 0 : width[c] - line[c].size(), ' ');
      l += " " + (c == 0 && first_left ? line[c] + pad : pad + line[c]);
    }
    o += l + "\n";
  }
  return o;
}

std::string summary(const SweepCommand& cmd, const SweepPlan& plan, const std::vector<SweepRow>& rows,
                    const std::vector<std::string>& objectives, const fs::path& out, double wall_s, int jobs,
                    size_t ran, size_t already) {
  size_t ok = 0, failed = 0, not_run = 0;
  for (const auto& r : rows)
    (r.status == "ok" ? ok : r.status == "failed" ? failed : not_run) += 1;
  std::string o = "sweep of " + cmd.scenario + ": " + plan.description + "\n";
  o += std::to_string(ok) + " finished, " + std::to_string(failed) + " failed" +
       (not_run ? ", " + std::to_string(not_run) + " not run" : "") + " (" + std::to_string(ran) + " run in this call" +
       (already > 0 ? ", " + std::to_string(already) + " finished before" : "") + ") in " +
       models::format_duration(models::Seconds(wall_s)) + " on " + describe_runners(jobs) + "\n\n";
  const auto files = "sweep.csv: " + (out / "sweep.csv").string() + "\nsweep.json: " + (out / "sweep.json").string() +
                     "\nsweep.html: " + (out / "sweep.html").string() + "\n";
  if (cmd.sensitivity) // its ranking is the answer; every run's values and metrics are in the files
    return o + files;
  // The points worth reading: all of a small sweep, the front of a large one.
  const bool all = rows.size() <= 20;
  o += all ? "points (* on the Pareto front of " : "the Pareto front of ";
  o += objectives.size() > 2 ? "utilization, cost and expected loss" : "utilization and cost";
  o += all ? "):\n" : ":\n";
  std::vector<std::string> header{"point"};
  for (const auto& a : plan.axes)
    header.push_back(axis_header(a));
  header.insert(header.end(), {"GPU util", "spend+lost GPU", "ckpt p99", "status"});
  std::vector<std::vector<std::string>> table{header};
  size_t shown = 0;
  for (size_t i = 0; i < rows.size(); ++i) {
    const auto& r = rows[i];
    if (!all && !r.pareto)
      continue;
    if (++shown > 40) {
      table.push_back({"...", "", "", "", ""});
      break;
    }
    std::vector<std::string> line{std::to_string(i + 1) + (r.pareto ? "*" : "")};
    for (size_t k = 0; k < plan.axes.size(); ++k)
      line.push_back(axis_label(plan.axes[k], plan.points[i].choice[k]));
    for (const char* c : {"gpu_utilization_fraction", "total_with_lost_gpu_usd", "checkpoint_write_p99_s"}) {
      const auto it = r.metrics.find(c);
      line.push_back(it == r.metrics.end() ? "-" : format_metric(c, it->second));
    }
    line.push_back(r.status == "ok" ? "ok" : r.outcome + (r.error.empty() ? "" : ": " + r.error));
    table.push_back(std::move(line));
  }
  return o + text_table(table, false, true) + "\n" + files;
}

// Where more of a one-parameter sweep's parameter stops helping, per metric with a direction (aisim size's knee):
// {"gpu_utilization_fraction": {"point": 5, "value": 6}}; metrics without a knee are left out.
Json knees(const SweepPlan& plan, const std::vector<SweepRow>& rows, bool replicas) {
  Json out = Json::object();
  for (const auto& m : sweep_metrics(replicas)) {
    if (m.better == Better::neither)
      continue;
    std::vector<SizeRun> runs;
    for (size_t i = 0; i < rows.size(); ++i)
      if (rows[i].status == "ok" && rows[i].metrics.count(m.column))
        runs.push_back({plan.points[i].choice[0], rows[i].metrics});
    std::sort(runs.begin(), runs.end(), [](const auto& a, const auto& b) { return a.index < b.index; });
    const auto at = knee(runs, m.column, m.better == Better::higher);
    if (!at)
      continue;
    for (size_t i = 0; i < rows.size(); ++i)
      if (plan.points[i].choice[0] == *at) {
        out[m.column] = {{"point", i + 1}, {"value", plan.axes[0].values[*at]}};
        break;
      }
  }
  return out;
}

// The sensitivity's plan: the scenario's uncertain inputs, each checked to have a value to vary around.
std::optional<CheckedPlan> plan_sensitivity_of(const SweepCommand& cmd, std::vector<UncertainInput>& inputs) {
  std::string error;
  if (cmd.sample != "grid") {
    std::cerr << "aisim: --sample: a sensitivity runs each input at its low and high, not a sample\n";
    return std::nullopt;
  }
  const auto& metrics = sweep_metrics(cmd.replicas > 0);
  if (std::none_of(metrics.begin(), metrics.end(), [&](const auto& m) { return m.column == cmd.metric; })) {
    std::string names;
    for (const auto& m : metrics)
      names += (names.empty() ? "" : ", ") + m.column;
    std::cerr << "aisim: --metric " << cmd.metric << ": not a sweep metric (expected one of " << names << ")\n";
    return std::nullopt;
  }
  const auto range = parse_relative_range(cmd.range, &error);
  if (!range) {
    std::cerr << "aisim: " << error << "\n";
    return std::nullopt;
  }
  const auto doc = scenario_document(cmd.scenario, cmd.sets);
  if (!doc)
    return std::nullopt;
  inputs = uncertain_inputs(*doc, *range);
  bool ok = true;
  for (const auto& in : inputs)
    if (in.nominal.is_null()) {
      std::cerr << "aisim: " << cmd.scenario << ":/uncertainty/" << models::pointer_token(in.pointer)
                << ": the scenario writes no value at " << in.pointer
                << " to vary around; write it in the scenario (its nominal value) or remove the entry\n";
      ok = false;
    }
  if (!ok)
    return std::nullopt;
  if (inputs.empty()) {
    std::cerr << "aisim: --sensitivity: " << cmd.scenario
              << " writes no bandwidth, operation rate, price or failure rate, and has no `uncertainty` entries; "
                 "add its uncertain inputs under \"uncertainty\" with their low and high\n";
    return std::nullopt;
  }
  return load_and_check(cmd.scenario, cmd.sets, [&] { return plan_sensitivity(inputs); });
}

// The ranking for the terminal: each input's values and the metric at them, largest swing first.
std::string sensitivity_summary(const Sensitivity& s) {
  std::string o = "what moves " + s.metric + " most (nominal " +
                  (s.nominal ? format_metric(s.metric, *s.nominal) : std::string("-")) + "), one input at a time:\n";
  std::vector<std::vector<std::string>> table{{"input", "kind", "low", "high", "at low", "at high", "swing"}};
  size_t shown = 0;
  for (const auto& r : s.rows) {
    if (++shown > 15) {
      table.push_back({"... (" + std::to_string(s.rows.size() - 15) + " more in sweep.json)", "", "", "", "", "", ""});
      break;
    }
    const auto f = [&](const std::optional<double>& v) { return v ? format_metric(s.metric, *v) : std::string("-"); };
    const std::string kind = r.kind == "given" || r.source != "scenario" ? r.kind : r.kind + " (given)";
    table.push_back({r.pointer, kind, r.low_label, r.high_label, f(r.at_low), f(r.at_high),
                     r.at_low && r.at_high ? format_metric(s.metric, r.swing) : "-"});
  }
  return o + text_table(table, true, false) + "\n";
}

// The plan step: the points to run, from --sensitivity or from --vary and --sample; nullopt (after saying why)
// on bad input.
std::optional<CheckedPlan> plan_of(const SweepCommand& cmd, std::vector<UncertainInput>& inputs) {
  if (cmd.sensitivity)
    return plan_sensitivity_of(cmd, inputs);
  if (cmd.vary.empty()) {
    std::cerr << "aisim: sweep: give the values to sweep with --vary POINTER=VALUES, or --sensitivity\n";
    return std::nullopt;
  }
  auto parsed = parse_axes(cmd.vary);
  if (!parsed)
    return std::nullopt;
  std::vector<SweepAxis> axes = std::move(*parsed);
  for (const auto& axis : axes)
    if (axis.pointer == "/simulation/seed" && (cmd.seed >= 0 || cmd.replicas > 0)) {
      std::cerr << "aisim: --vary " << axis.spec << ": " << (cmd.seed >= 0 ? "--seed" : "--replicas")
                << " sets every run's seed, so the varied seed would not be used; vary it without "
                << (cmd.seed >= 0 ? "--seed" : "--replicas") << "\n";
      return std::nullopt;
    }
  std::string error;
  auto sample = parse_sample(cmd.sample, &error);
  if (!sample) {
    std::cerr << "aisim: " << error << "\n";
    return std::nullopt;
  }
  sample->seed = cmd.sample_seed;
  const double count = points_to_run(axes, *sample);
  if (count > kMaxPointsWithoutYes && !cmd.yes) {
    std::cerr << "aisim: --vary: the sweep has " << models::format_count(count)
              << " points, more than 1,000,000; pass --yes to run them all, or --sample random:N or latin:N\n";
    return std::nullopt;
  }
  return load_and_plan(cmd.scenario, cmd.sets, std::move(axes), *sample);
}

// Whether the sweep may write into `out`: a new sweep into a folder without one, or --resume of the same sweep
// (same scenario, sets, seed, replicas and plan); says why not.
bool may_write_sweep(const SweepCommand& cmd, const fs::path& out, const Json& identity) {
  const fs::path doc_path = out / "sweep.json";
  if (cmd.resume) {
    std::string why;
    const auto text = models::read_text_file(doc_path.string(), &why);
    Json stored;
    if (text)
      stored = Json::parse(*text, nullptr, false);
    if (!text || stored.is_discarded() || !stored.contains("run")) {
      std::cerr << "aisim: --resume: " << out.string() << " holds no sweep to resume (no readable sweep.json)\n";
      return false;
    }
    if (stored["run"] != identity) {
      std::cerr << "aisim: --resume: the sweep in " << out.string()
                << " was started with another scenario, --set, --seed, --replicas, --vary or --sample; run it with "
                   "the same arguments, or use another --out\n";
      return false;
    }
  } else if (fs::exists(doc_path)) {
    std::cerr << "aisim: " << out.string()
              << " already holds a sweep (sweep.json); --resume finishes it, or choose another --out\n";
    return false;
  }
  return true;
}

// One row per point, each with its folder made empty; with --resume, the points that finished before keep their
// folders and metrics (`already` counts them).
std::vector<SweepRow> point_rows(const SweepCommand& cmd, size_t n, const fs::path& out, size_t& already) {
  std::vector<SweepRow> rows(n);
  std::error_code ec;
  for (size_t i = 0; i < n; ++i) {
    rows[i].folder = point_folder(i);
    rows[i].status = "not_run";
    rows[i].outcome = "not run";
    const fs::path dir = out / rows[i].folder;
    if (cmd.resume) {
      const Json r = sim::read_results(dir.string());
      if (!r.is_discarded() && !r.is_null()) {
        rows[i].status = "ok";
        rows[i].outcome = "finished";
        rows[i].metrics = headline_metrics(r);
        ++already;
        continue;
      }
    }
    fs::remove_all(dir, ec); // a stale or half-made point must not pass for this run's
    fs::create_directories(dir, ec);
  }
  return rows;
}

// The runs a sweep starts: one per point left to run, or --replicas per point (each in its own folder with its
// own seed), and which point and replica each run is.
struct SweepRuns {
  std::vector<ChildSpec> specs;
  std::vector<std::pair<size_t, size_t>> owner; // spec -> (point, replica)
  std::vector<std::vector<sim::ReplicaRun>> replica_runs;
  size_t per_point = 1;
};

SweepRuns sweep_runs(const SweepCommand& cmd, const CheckedPlan& checked, const std::vector<SweepRow>& rows,
                     const fs::path& out) {
  const SweepPlan& plan = checked.plan;
  const std::string exe = self_executable(cmd.self);
  const unsigned long long base_seed =
      cmd.seed >= 0 ? static_cast<unsigned long long>(cmd.seed) : checked.scenario_seed;
  SweepRuns runs;
  runs.per_point = cmd.replicas > 0 ? static_cast<size_t>(cmd.replicas) : 1;
  runs.replica_runs.resize(rows.size());
  std::error_code ec;
  for (size_t i = 0; i < rows.size(); ++i) {
    if (rows[i].status == "ok") // finished before this call (--resume)
      continue;
    std::vector<std::string> sets = cmd.sets;
    for (size_t k = 0; k < plan.axes.size(); ++k)
      sets.push_back(assignment(plan.axes[k], plan.points[i].choice[k]));
    if (cmd.replicas > 0)
      runs.replica_runs[i].resize(runs.per_point);
    for (size_t r = 0; r < runs.per_point; ++r) {
      fs::path dir = out / rows[i].folder;
      long long seed = cmd.seed;
      if (cmd.replicas > 0) {
        char name[32];
        std::snprintf(name, sizeof name, "replica-%04zu", r + 1);
        dir /= name;
        fs::create_directories(dir, ec);
        auto& rr = runs.replica_runs[i][r];
        rr.seed = base_seed + r;
        rr.folder = dir.string();
        seed = static_cast<long long>(rr.seed);
      }
      runs.specs.push_back(point_run(exe, cmd.scenario, sets, seed, dir));
      // A single run's headline metrics, worked out in the worker that ran it (a replica set needs whole results).
      if (cmd.replicas == 0)
        runs.specs.back().digest = kHeadlineDigest;
      runs.owner.emplace_back(i, r);
    }
  }
  return runs;
}

// Takes each run as it ends and, when a point's last run has ended, fills its row (a replica set's results.json
// written first) and tells the progress.
class PointCollector {
public:
  PointCollector(const SweepCommand& cmd, const fs::path& out, SweepRuns& runs, std::vector<SweepRow>& rows,
                 SweepProgress& progress)
      : cmd_(cmd), out_(out), runs_(runs), rows_(rows), progress_(progress), left_(rows.size(), runs.per_point),
        first_error_(rows.size()), wall_(rows.size(), 0.0), outcome_(rows.size()), stopped_(rows.size(), false) {}

  size_t ran() const { return ran_; }

  void operator()(size_t s, const ChildResult& c) {
    const auto [i, r] = runs_.owner[s];
    const bool ok = record_run(i, r, c);
    if (--left_[i] > 0)
      return;
    auto& row = rows_[i];
    row.wall_s = wall_[i];
    if (stopped_[i]) { // --resume runs it again, whole
      row.outcome = "stopped (interrupted)";
      return;
    }
    ++ran_;
    bool point_ok = ok;
    if (cmd_.replicas > 0) {
      // A replica set is usable when some replica finished; the ones that did not are named in its results.json.
      const auto& set = runs_.replica_runs[i];
      point_ok = std::any_of(set.begin(), set.end(), [](const auto& x) { return x.ok; });
      if (point_ok) {
        const Json agg = sim::aggregate_replicas(set, false);
        sim::write_file_atomically((out_ / row.folder / "results.json").string(), agg.dump(2) + "\n");
        row.metrics = headline_metrics(agg);
      }
    }
    row.status = point_ok ? "ok" : "failed";
    row.outcome = point_ok ? "finished" : outcome_[i];
    row.error = point_ok ? "" : first_error_[i];
    progress_.point_done(i, row);
  }

private:
  // One run of point i (replica r): its metrics, from the worker's digest or its results.json, or why it failed.
  bool record_run(size_t i, size_t r, const ChildResult& c) {
    stopped_[i] = stopped_[i] || (c.started && !c.finished);
    const fs::path dir = cmd_.replicas > 0 ? fs::path(runs_.replica_runs[i][r].folder) : out_ / rows_[i].folder;
    wall_[i] += c.wall_s;
    Json result;
    std::optional<std::map<std::string, double>> digested;
    if (c.ok() && !c.digest.empty()) {
      const Json d = Json::parse(c.digest, nullptr, false);
      if (d.is_object())
        digested = d.get<std::map<std::string, double>>();
    }
    if (c.ok() && !digested)
      result = sim::read_results(dir.string());
    const bool ok = c.ok() && (digested || (!result.is_discarded() && !result.is_null()));
    if (!ok && first_error_[i].empty()) {
      outcome_[i] = c.ok() ? "exited 0 without a readable results.json" : c.describe();
      first_error_[i] = log_error(dir / "run.log");
    }
    if (cmd_.replicas > 0) {
      auto& rr = runs_.replica_runs[i][r];
      rr.ok = ok;
      rr.outcome = ok ? "finished" : c.describe();
      if (ok)
        rr.results = std::move(result);
    } else if (ok) {
      rows_[i].metrics = digested ? std::move(*digested) : headline_metrics(result);
    }
    return ok;
  }

  const SweepCommand& cmd_;
  const fs::path& out_;
  SweepRuns& runs_;
  std::vector<SweepRow>& rows_;
  SweepProgress& progress_;
  std::vector<size_t> left_;
  std::vector<std::string> first_error_;
  std::vector<double> wall_;
  std::vector<std::string> outcome_;
  std::vector<bool> stopped_; // a run of the point was ended by the interrupt, not by itself
  size_t ran_ = 0;
};

} // namespace

void register_sweep_digests() {
  register_digest(kHeadlineDigest, [](const std::string& dir) {
    const Json r = sim::read_results(dir);
    return r.is_discarded() || r.is_null() ? std::string() : Json(headline_metrics(r)).dump();
  });
}

int sweep_command(const SweepCommand& cmd) {
  const auto started = std::chrono::steady_clock::now();
  std::vector<UncertainInput> inputs;
  const std::optional<CheckedPlan> checked = plan_of(cmd, inputs);
  if (!checked)
    return 2;
  const SweepPlan& plan = checked->plan;

  const fs::path out = cmd.out_dir.empty() ? fs::path("results") / (fs::path(cmd.scenario).stem().string() + "-sweep")
                                           : fs::path(cmd.out_dir);
  const fs::path doc_path = out / "sweep.json";
  if (!may_write_sweep(cmd, out, run_identity(cmd, plan)))
    return 2;
  // Held until the sweep ends, so that a second sweep or run into the folder is refused instead of mixing in (an
  // OutputError reaches main, which reports it: exit 1).
  const sim::FolderLock lock(out);
  if (!cmd.resume && fs::exists(doc_path)) { // written since the check above, by a sweep that has since ended
    std::cerr << "aisim: " << out.string()
              << " already holds a sweep (sweep.json); --resume finishes it, or choose another --out\n";
    return 2;
  }
  std::error_code ec;
  fs::create_directories(out / "points", ec);
  if (ec) {
    std::cerr << "aisim: cannot create output folder " << out.string() << ": " << ec.message() << "\n";
    return 2;
  }

  // The run step. The plan goes down first, so a sweep killed at any moment can be resumed.
  const size_t n = plan.points.size();
  size_t already = 0;
  std::vector<SweepRow> rows = point_rows(cmd, n, out, already);
  sim::write_file_atomically(doc_path.string(),
                             sweep_document(cmd, plan, rows, pareto_objectives(rows), 0, "running").dump(2) + "\n");
  SweepRuns runs = sweep_runs(cmd, *checked, rows, out);
  const int jobs = cmd.jobs > 0 ? cmd.jobs : default_runs_at_once();
  SweepProgress progress(cmd.progress, n, already, jobs);
  PointCollector collect(cmd, out, runs, rows, progress);
  const auto pool = run_many(runs.specs, jobs, std::ref(collect));
  progress.finish();
  for (const auto& [i, r] : runs.owner)
    if (rows[i].status == "not_run" && pool.interrupted && rows[i].outcome == "not run")
      rows[i].outcome = "not run (interrupted)";

  // The report and write steps: the table and its Pareto front, sweep.csv, sweep.json, sweep.html, the summary.
  const auto objectives = pareto_objectives(rows);
  mark_pareto(rows, objectives);
  const double wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  sim::write_file_atomically((out / "sweep.csv").string(), sweep_csv(plan, rows, cmd.replicas > 0));
  Json doc = sweep_document(cmd, plan, rows, objectives, wall_s, pool.interrupted ? "interrupted" : "finished");
  if (!cmd.sensitivity && plan.axes.size() == 1)
    doc["knees"] = knees(plan, rows, cmd.replicas > 0);
  std::optional<Sensitivity> sensitivity;
  if (cmd.sensitivity) {
    sensitivity = rank_sensitivity(inputs, rows, cmd.metric);
    doc["sensitivity"] = sensitivity_json(*sensitivity);
  }
  sim::write_file_atomically(doc_path.string(), doc.dump(2) + "\n");
  // The page is rendered from the document just written, as `aisim report DIR` renders the folder's later.
  sim::write_file_atomically((out / "sweep.html").string(), render_sweep(doc));
  if (cmd.progress == ProgressMode::jsonl)
    std::printf("%s\n",
                Json{{"type", "done"}, {"sweep_csv", (out / "sweep.csv").string()}, {"sweep_json", doc_path.string()}}
                    .dump()
                    .c_str());
  else
    std::fputs(((sensitivity ? sensitivity_summary(*sensitivity) : std::string()) +
                summary(cmd, plan, rows, objectives, out, wall_s, jobs, collect.ran(), already))
                   .c_str(),
               stdout);
  if (pool.interrupted)
    return 130;
  const bool all_ok = std::all_of(rows.begin(), rows.end(), [](const auto& r) { return r.status == "ok"; });
  return all_ok ? 0 : 1;
}

} // namespace aisim::app
