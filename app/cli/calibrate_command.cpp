#include "app/cli/calibrate_command.hpp"

#include "sim/results/output_set.hpp"
#include "sim/results/version_info.hpp"

#include "app/probe/calibration_sweep.hpp"
#include "app/probe/probe_error.hpp"
#include "app/probe/probe_target.hpp"
#include "models/calibration/calibration_data.hpp"
#include "models/calibration/drive_fit.hpp"
#include "models/common/diagnostics.hpp"
#include "models/common/units.hpp"
#include "models/hardware/drive_model.hpp"
#include "models/scenario/scenario_parser.hpp"

#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <unistd.h>
#include <variant>

namespace aisim::app {
namespace {

namespace fs = std::filesystem;
namespace probe = app::probe;
using models::Json;

// A bar on stderr when it is a terminal, redrawn at most ten times a second; cleared before other output.
class ProbeProgress {
public:
  ProbeProgress() : tty_(isatty(STDERR_FILENO) != 0) {}
  void update(double fraction, const std::string& what) {
    if (!tty_)
      return;
    const auto now = std::chrono::steady_clock::now();
    if (drawn_ && now - last_ < std::chrono::milliseconds(100) && fraction < 1.0)
      return;
    last_ = now;
    drawn_ = true;
    const int width = 30;
    const int filled = static_cast<int>(std::clamp(fraction, 0.0, 1.0) * width);
    std::fprintf(stderr, "\r\033[K[%.*s%*s] %5.1f%%  %s", filled, "##############################", width - filled, "",
                 fraction * 100.0, what.c_str());
    std::fflush(stderr);
  }
  void clear() {
    if (drawn_)
      std::fprintf(stderr, "\r\033[K");
    drawn_ = false;
  }

private:
  bool tty_;
  bool drawn_ = false;
  std::chrono::steady_clock::time_point last_;
};

std::string us(double ns) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1fus", ns / 1000.0);
  return buf;
}

std::string point_line(const models::MeasuredPoint& p) {
  char buf[256];
  std::snprintf(buf, sizeof buf, "  %-28s %10.0f IOPS %11s  clat mean %9s p50 %9s p99 %9s p99.9 %9s  spread %4.1f%%",
                p.label().c_str(), p.iops, models::format_rate(models::BytesPerSecond(p.bw_Bps)).c_str(),
                us(p.clat.mean_ns()).c_str(), us(static_cast<double>(p.clat.percentile_ns(50))).c_str(),
                us(static_cast<double>(p.clat.percentile_ns(99))).c_str(),
                us(static_cast<double>(p.clat.percentile_ns(99.9))).c_str(), p.spread() * 100.0);
  return buf;
}

int bad_input(const std::string& message) {
  std::cerr << "aisim: calibrate: " << message << "\n";
  return 2;
}

// Checks that the document we are about to write is a drive model a scenario accepts; a failure is our bug.
void check_drive_document(const Json& drive) {
  Json copy = drive;
  models::Diagnostics diag("calibrated drive");
  models::ObjectReader r(copy, "", diag);
  auto model = models::parse_drive_model(r, "calibrated");
  if (!model || diag.has_errors())
    throw std::runtime_error("the fitted drive model does not parse:\n" + diag.format(false));
}

// Whether the outputs can be written, checked before measuring so a long run does not fail at its end: the
// nearest existing folder on the way to `out` must be writable.
std::string out_problem(const std::string& out) {
  std::error_code ec;
  fs::path dir = fs::absolute(out, ec).parent_path();
  while (!fs::exists(dir, ec) && dir != dir.root_path())
    dir = dir.parent_path();
  if (!fs::is_directory(dir, ec))
    return "--out " + out + ": " + dir.string() + " is not a folder";
  if (::access(dir.c_str(), W_OK) != 0)
    return "--out " + out + ": cannot write in " + dir.string() + " (" + std::strerror(errno) + ")";
  if (fs::is_directory(out, ec))
    return "--out " + out + " is a folder (expected a file name such as drive.json)";
  return {};
}

void ensure_parent(const std::string& path) {
  const fs::path parent = fs::path(path).parent_path();
  if (!parent.empty())
    fs::create_directories(parent);
}

// The fitted model as the terminal shows it: capacity and bandwidths, each profile, the write cache, QD1 latency.
void print_drive(const Json& d, const Json& report, bool wrote) {
  std::printf("\ndrive model: %s\n", d["name"].get<std::string>().c_str());
  std::printf("  capacity %s, read %s", d["capacity"].get<std::string>().c_str(),
              d["read_bandwidth"].get<std::string>().c_str());
  if (wrote)
    std::printf(", write %s", d["write_bandwidth"].get<std::string>().c_str());
  std::printf("\n");
  for (const char* op : {"read", "write"}) {
    if (!d.contains(op))
      continue;
    for (const auto& [pattern, prof] : d[op].items()) {
      std::string extra;
      if (prof.contains("max_iops"))
        extra = "max_iops " + prof["max_iops"].get<std::string>();
      if (prof.contains("knee_sharpness")) {
        char k[32];
        std::snprintf(k, sizeof k, "%g", prof["knee_sharpness"].get<double>());
        extra += std::string(extra.empty() ? "" : "  ") + "knee_sharpness " + k;
      }
      std::printf("  %-5s %-10s latency %-12s transfer_rate %-14s %s\n", op, pattern.c_str(),
                  prof["latency"].get<std::string>().c_str(), prof["transfer_rate"].get<std::string>().c_str(),
                  extra.c_str());
    }
  }
  if (const Json& wc = report["write_cache"]; wc.is_object()) {
    if (wc["cliff_found"].get<bool>())
      std::printf("  write cache: %s at %s, then %s\n",
                  models::format_bytes(models::Bytes(wc["cache_bytes"].get<double>())).c_str(),
                  models::format_rate(models::BytesPerSecond(wc["burst_Bps"].get<double>())).c_str(),
                  models::format_rate(models::BytesPerSecond(wc["post_cache_Bps"].get<double>())).c_str());
    else
      std::printf("  write cache: no cliff within %s written sequentially at %s\n",
                  models::format_bytes(models::Bytes(wc["written_bytes"].get<double>())).c_str(),
                  models::format_rate(models::BytesPerSecond(wc["burst_Bps"].get<double>())).c_str());
  }
  if (d.contains("latency_percentiles"))
    std::printf("  4KiB random read QD1: p50 %s, p99 %s, p99.9 %s\n",
                d["latency_percentiles"]["p50"].get<std::string>().c_str(),
                d["latency_percentiles"]["p99"].get<std::string>().c_str(),
                d["latency_percentiles"]["p99.9"].get<std::string>().c_str());
}

// How well the fit predicts: the L1 lines' R^2, the held-out errors, the repeats, the accuracy check and verdict.
void print_fit_quality(const models::DriveFitResult& fit) {
  const Json& q = fit.report["fit_quality"];
  if (q["l1_r2_min"].is_number())
    std::printf("  fit: L1 R^2 >= %.4f;", q["l1_r2_min"].get<double>());
  std::printf(" held-out points (each left out of the fit in turn): %s", q["held_out_points"].dump().c_str());
  if (!q["held_out_max_abs_error"].is_null())
    std::printf(", worst error %.1f%%, mean %.1f%% (sharp knee: %.1f%%, %.1f%%)",
                q["held_out_max_abs_error"].get<double>() * 100.0, q["held_out_mean_abs_error"].get<double>() * 100.0,
                q["sharp_knee_held_out_max_abs_error"].get<double>() * 100.0,
                q["sharp_knee_held_out_mean_abs_error"].get<double>() * 100.0);
  if (q["repeatability"].is_number())
    std::printf("; repeats differ by a median %.1f%%, up to %.1f%%\n", q["repeatability"].get<double>() * 100.0,
                q["repeat_spread_max"].get<double>() * 100.0);
  else
    std::printf("; each point measured once\n");
  const Json& acc = fit.report["accuracy_check"];
  std::printf("  accuracy check (10%%, or a point's own repeat band): %s; held-out points within 10%%: %s, within "
              "their repeat band only: %s, outside both: %s\n",
              acc["held_out_points"].get<size_t>() == 0 ? "not run"
              : acc["passed"].get<bool>()               ? "passed"
                                                        : "FAILED",
              acc["within_target"].dump().c_str(), acc["within_repeat_band"].dump().c_str(),
              acc["outside"].dump().c_str());
  std::printf("  verdict: %s\n", fit.verdict.c_str());
  for (const auto& w : fit.warnings)
    if (w != fit.verdict)
      std::printf("  warning: %s\n", w.c_str());
}

// Fits and writes drive.json and drive.fit.json (and the raw measurements, unless they came from a file).
int fit_and_write(const models::CalibrationData& data, const std::string& out, const std::string& raw_path,
                  bool write_raw) {
  // Measurements are kept before fitting: a run can take minutes, and a fit can be redone from them.
  if (write_raw) {
    ensure_parent(raw_path);
    sim::write_file_atomically(raw_path, to_json(data).dump(2) + "\n");
  }
  std::vector<std::string> errors;
  auto fit = models::fit_drive_model(data, errors);
  if (!fit) {
    for (const auto& e : errors)
      std::cerr << "aisim: calibrate: cannot fit a drive model: " << e << "\n";
    if (write_raw)
      std::cerr << "aisim: calibrate: the measurements are kept in " << raw_path << "\n";
    return write_raw ? 1 : 2;
  }
  check_drive_document(fit->drive);
  fit->report["raw"] = fs::path(raw_path).filename().string();
  ensure_parent(out);
  sim::write_file_atomically(fit_path_for(out), fit->report.dump(2) + "\n");
  sim::write_file_atomically(out, fit->drive.dump(2) + "\n");

  print_drive(fit->drive, fit->report, data.wrote);
  print_fit_quality(*fit);
  std::printf("\ndrive model: %s\nfit report:  %s\n", out.c_str(), fit_path_for(out).c_str());
  std::printf("raw data:    %s (refit with: aisim calibrate --refit %s --out %s)\n", raw_path.c_str(), raw_path.c_str(),
              out.c_str());
  std::error_code ec;
  const fs::path abs = fs::absolute(out, ec);
  std::printf("use it in a scenario (the path may also be relative to the scenario file):\n"
              "  \"drives\": {\"measured\": {\"file\": \"%s\", \"price\": \"$...\"}}\n",
              (ec ? out : abs.lexically_normal().string()).c_str());
  return 0;
}

int refit(const CalibrateCommand& cmd) {
  std::ifstream in(cmd.refit, std::ios::binary);
  if (!in)
    return bad_input(cmd.refit + ": cannot open it (" + std::string(std::strerror(errno)) + ")");
  std::stringstream ss;
  ss << in.rdbuf();
  models::Diagnostics diag(cmd.refit);
  auto doc = models::parse_json_text(ss.str(), diag);
  if (!doc) {
    std::cerr << diag.format(false);
    return 2;
  }
  std::vector<std::string> errors;
  auto data = models::calibration_data_from_json(*doc, errors);
  if (!data) {
    for (const auto& e : errors)
      std::cerr << cmd.refit << ":" << e << "\n";
    std::cerr << "aisim: calibrate: " << cmd.refit << " is not a usable raw measurements file; nothing was written\n";
    return 2;
  }
  return fit_and_write(*data, cmd.out, cmd.refit, false);
}

// What a measuring run asks for: the target and how to open it, the time per point, the points (none: the sweep).
struct MeasureRequest {
  probe::TargetOptions target;
  std::optional<double> runtime_s;
  std::vector<probe::PointSpec> points;
};

// The measuring flags checked; the message of the first that is wrong, or the request.
std::variant<MeasureRequest, std::string> check_measure_flags(const CalibrateCommand& cmd) {
  MeasureRequest req;
  probe::TargetOptions& topt = req.target;
  std::optional<double>& runtime_s = req.runtime_s;
  std::vector<probe::PointSpec>& points = req.points;
  topt.path = cmd.target;
  topt.write = cmd.write;
  topt.allow_destructive = cmd.allow_destructive;
  if (!cmd.size.empty()) {
    std::string err;
    auto v = models::parse_quantity(cmd.size, models::Dimension::bytes, &err);
    if (!v || !(*v > 0) || std::floor(*v) != *v)
      return std::string("--size " + cmd.size + ": " + (err.empty() ? "not a positive whole number of bytes" : err) +
                         " (expected " + models::describe(models::Dimension::bytes) + ")");
    topt.size_bytes = static_cast<uint64_t>(*v);
  }
  if (!cmd.runtime.empty()) {
    std::string err;
    auto v = models::parse_quantity(cmd.runtime, models::Dimension::seconds, &err);
    if (!v || !(*v > 0) || *v > 3600)
      return std::string("--runtime " + cmd.runtime + ": " + (err.empty() ? "out of range" : err) +
                         " (expected a duration from above 0 to 1h, like \"10s\")");
    runtime_s = *v;
  }
  for (const auto& text : cmd.points) {
    std::string why;
    auto p = probe::parse_point_spec(text, &why);
    if (!p)
      return std::string(why);
    if (p->op == models::IoOp::write && !cmd.write)
      return std::string("--point " + text + " writes: add --write");
    points.push_back(*p);
  }
  if (!points.empty() && cmd.quick)
    return std::string("--quick is for the standard sweep; --point measures only the points given");

  return req;
}

} // namespace

std::string raw_path_for(const std::string& out) {
  const fs::path p(out);
  const std::string stem = p.extension() == ".json" ? p.stem().string() : p.filename().string();
  return (p.parent_path() / (stem + ".raw.json")).string();
}

std::string fit_path_for(const std::string& out) {
  const fs::path p(out);
  const std::string stem = p.extension() == ".json" ? p.stem().string() : p.filename().string();
  return (p.parent_path() / (stem + ".fit.json")).string();
}

int calibrate_command(const CalibrateCommand& cmd) {
  if (cmd.out.empty())
    return bad_input("--out is required (the drive model file to write)");
  if (const std::string why = out_problem(cmd.out); !why.empty())
    return bad_input(why);
  if (!cmd.refit.empty()) {
    if (!cmd.target.empty() || cmd.quick || !cmd.size.empty() || cmd.write || cmd.allow_destructive ||
        !cmd.points.empty() || !cmd.runtime.empty())
      return bad_input("--refit fits saved measurements again; it takes only --out (no TARGET or measuring options)");
    return refit(cmd);
  }
  if (cmd.target.empty())
    return bad_input("no TARGET given (expected a file or block device to measure, or --refit RAW.json)");
  if (cmd.allow_destructive && !cmd.write)
    return bad_input("--allow-destructive only makes sense with --write");

  auto checked = check_measure_flags(cmd);
  if (const auto* why = std::get_if<std::string>(&checked))
    return bad_input(*why);
  const auto& [topt, runtime_s, points] = std::get<MeasureRequest>(checked);
  ProbeProgress bar;
  try {
    probe::ProbeTarget target = probe::ProbeTarget::open(
        topt, [&](double f) { bar.update(f, "creating " + cmd.target + " (incompressible data)"); });
    bar.clear();
    const auto& dev = target.get_device();
    std::printf("aisim calibrate: %s (%s, %s%s) on %s%s%s\n", target.get_path().c_str(),
                target.get_kind() == probe::TargetKind::file ? "file" : "block device",
                models::format_bytes(models::Bytes(static_cast<double>(target.get_size()))).c_str(),
                target.was_created() ? ", just created" : "",
                dev.identified ? dev.name.c_str() : "an unidentified device",
                dev.model.empty() ? "" : (" (" + dev.model + ")").c_str(),
                target.is_writable() && cmd.write ? ", measuring reads and writes" : ", read-only");
    probe::SweepPlan plan;
    if (!points.empty()) {
      const double rt = runtime_s.value_or(5.0);
      plan = probe::plan_points(points, std::min(1.0, rt), rt);
    } else {
      plan = probe::plan_sweep(cmd.quick, cmd.write, std::max<uint64_t>(4096, target.get_offset_alignment()));
      if (runtime_s)
        plan.runtime_s = *runtime_s;
    }
    probe::SweepCallbacks cb;
    cb.progress = [&](double f, const std::string& what) { bar.update(f, what); };
    cb.point_done = [&](const models::MeasuredPoint& p) {
      bar.clear();
      std::printf("%s\n", point_line(p).c_str());
      std::fflush(stdout);
    };
    models::CalibrationData data = probe::run_sweep(target, plan, cb, sim::kAisimVersion);
    bar.clear();
    if (target.was_created())
      std::printf("test file %s kept (delete it when done, or measure it again without --size)\n",
                  target.get_path().c_str());
    if (!points.empty()) {
      ensure_parent(cmd.out);
      sim::write_file_atomically(cmd.out, to_json(data).dump(2) + "\n");
      std::printf("raw measurements: %s\n", cmd.out.c_str());
      return 0;
    }
    return fit_and_write(data, cmd.out, raw_path_for(cmd.out), true);
  } catch (const probe::ProbeError& e) {
    bar.clear();
    std::cerr << "aisim: calibrate: " << e.what() << "\n";
    return e.get_kind() == probe::ProbeErrorKind::bad_input ? 2 : 1;
  }
}

} // namespace aisim::app
