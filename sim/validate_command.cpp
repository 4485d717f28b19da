#include "validate_command.hpp"

#include "models/diagnostics.hpp"
#include "models/json_reader.hpp"
#include "models/scenario_parser.hpp"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

extern char** environ;

namespace aisim::sim {

namespace fs = std::filesystem;
using models::Json;

namespace {

struct Check {
  std::string metric; // JSON pointer into results.json
  double expected = 0;
  double tolerance = 0; // relative
  std::string unit;
};

struct Case {
  std::string name;
  fs::path scenario;
  std::vector<std::string> sets;
  std::vector<Check> checks;
};

std::string self_exe(const std::string& fallback) {
  std::error_code ec;
  auto p = fs::read_symlink("/proc/self/exe", ec);
  return ec ? fallback : p.string();
}

std::optional<Case> read_case(const fs::path& dir, models::Diagnostics& diag) {
  const auto file = dir / "case.json";
  std::ifstream in(file);
  std::stringstream ss;
  ss << in.rdbuf();
  models::Diagnostics local(file.string());
  auto doc = models::parse_json_text(ss.str(), local);
  Case c;
  c.name = dir.filename().string();
  if (doc) {
    models::ObjectReader r(*doc, "", local);
    auto scenario = r.text("scenario", "scenario.json");
    r.text("description", "");
    r.text("reference", nullptr);
    Json* sets = r.array("set", false);
    Json* checks = r.array("checks", true);
    if (scenario)
      c.scenario = dir / *scenario;
    if (sets)
      for (const auto& s : *sets)
        c.sets.push_back(s.is_string() ? s.get<std::string>() : s.dump());
    if (checks) {
      for (size_t i = 0; i < checks->size(); ++i) {
        models::ObjectReader cr((*checks)[i], "/checks/" + std::to_string(i), local);
        Check k;
        auto metric = cr.text("metric", nullptr);
        auto expected = cr.number("expected", std::nullopt, -1e300, 1e300);
        auto tol = cr.number("tolerance", std::nullopt, 0.0, 1.0);
        auto unit = cr.text("unit", "");
        cr.text("derivation", "");
        cr.finish();
        if (metric && expected && tol && unit)
          c.checks.push_back({*metric, *expected, *tol, *unit});
      }
    }
    r.finish();
  }
  for (const auto& d : local.items())
    diag.error(file.string() + ":" + d.pointer, d.message);
  if (local.has_errors())
    return std::nullopt;
  return c;
}

// Runs `aisim run` on the case in a child process (one SimGrid engine per process).
int run_case(const std::string& exe, const Case& c, const fs::path& out_dir) {
  std::vector<std::string> args{exe, "run", c.scenario.string(), "--out", out_dir.string(), "--progress", "none"};
  for (const auto& s : c.sets) {
    args.push_back("--set");
    args.push_back(s);
  }
  std::vector<char*> argv;
  for (auto& a : args)
    argv.push_back(a.data());
  argv.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  const std::string log = (out_dir / "run.log").string();
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_adddup2(&actions, STDOUT_FILENO, STDERR_FILENO);
  pid_t pid = 0;
  const int rc = posix_spawn(&pid, exe.c_str(), &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (rc != 0)
    return -1;
  int status = 0;
  waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

std::string fmt(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6g", v);
  return buf;
}

} // namespace

int validate_command(const ValidateCommand& cmd) {
  fs::path dir = cmd.dir;
  if (dir.empty())
    dir = fs::exists("validation") ? fs::path("validation") : fs::path(AISIM_SOURCE_DIR) / "validation";
  if (!fs::is_directory(dir)) {
    std::cerr << "aisim validate: no validation folder at " << dir.string() << "\n";
    return 2;
  }
  std::vector<fs::path> case_dirs;
  for (const auto& e : fs::directory_iterator(dir))
    if (e.is_directory() && fs::exists(e.path() / "case.json") &&
        (cmd.only_case.empty() || e.path().filename() == cmd.only_case))
      case_dirs.push_back(e.path());
  std::sort(case_dirs.begin(), case_dirs.end());
  if (case_dirs.empty()) {
    std::cerr << "aisim validate: " << (cmd.only_case.empty() ? "no cases" : "no case named \"" + cmd.only_case + "\"")
              << " under " << dir.string() << "\n";
    return 2;
  }

  models::Diagnostics diag;
  std::vector<Case> cases;
  for (const auto& d : case_dirs)
    if (auto c = read_case(d, diag))
      cases.push_back(*c);
  if (diag.has_errors()) {
    for (const auto& d : diag.items())
      std::cerr << d.pointer << ": " << d.message << "\n";
    return 2;
  }

  char tmpl[] = "/tmp/aisim-validate-XXXXXX";
  const char* tmp = mkdtemp(tmpl);
  if (!tmp) {
    std::cerr << "aisim validate: cannot create a temporary folder\n";
    return 1;
  }
  const std::string exe = self_exe(cmd.self);
  std::printf("%-28s %-44s %12s %12s %8s %6s  %s\n", "case", "metric", "expected", "got", "error", "tol", "verdict");
  int failed = 0, passed = 0;
  for (const auto& c : cases) {
    const fs::path out = fs::path(tmp) / c.name;
    fs::create_directories(out);
    const int rc = run_case(exe, c, out);
    Json results;
    if (rc == 0) {
      std::ifstream in(out / "results.json");
      results = Json::parse(in, nullptr, false);
    }
    for (const auto& k : c.checks) {
      std::string got = "-", err = "-", verdict = "FAIL";
      if (rc != 0) {
        verdict = "FAIL (run exited " + std::to_string(rc) + ", see " + (out / "run.log").string() + ")";
      } else {
        try {
          const double v = results.at(Json::json_pointer(k.metric)).get<double>();
          const double e = k.expected == 0 ? std::fabs(v) : std::fabs(v - k.expected) / std::fabs(k.expected);
          got = fmt(v);
          err = fmt(100.0 * e) + "%";
          verdict = e <= k.tolerance ? "pass" : "FAIL";
        } catch (const std::exception&) {
          verdict = "FAIL (no metric " + k.metric + " in results.json)";
        }
      }
      (verdict == "pass" ? passed : failed)++;
      std::printf("%-28s %-44s %12s %12s %8s %5.1f%%  %s\n", c.name.c_str(),
                  (k.metric + (k.unit.empty() ? "" : " [" + k.unit + "]")).c_str(), fmt(k.expected).c_str(),
                  got.c_str(), err.c_str(), 100.0 * k.tolerance, verdict.c_str());
    }
    if (rc == 0)
      fs::remove_all(out);
  }
  std::printf("\n%d passed, %d failed\n", passed, failed);
  if (failed == 0)
    fs::remove_all(tmp);
  return failed == 0 ? 0 : 1;
}

} // namespace aisim::sim
