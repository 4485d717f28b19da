// Checks what `aisim calibrate` wrote: the drive model parses as a scenario would read it, the raw measurements
// read back and hold fio-compatible figures for every point, the fit report has its quality figures.
// Usage: aisim_calibration_check DRIVE.json RAW.json FIT.json [--write]. Exit 0 when all is well, 1 otherwise.
#include "models/calibration/calibration_data.hpp"
#include "models/calibration/drive_fit.hpp"
#include "models/hardware/drive_model.hpp"
#include "models/scenario/scenario_parser.hpp"

#include <fstream>
#include <iostream>
#include <sstream>

using namespace aisim::models;

namespace {

int failures = 0;

void check(bool ok, const std::string& what) {
  if (!ok) {
    std::cerr << "FAIL: " << what << "\n";
    ++failures;
  }
}

Json load(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  Diagnostics diag(path);
  auto doc = parse_json_text(ss.str(), diag);
  if (!doc) {
    std::cerr << diag.format(false);
    std::exit(1);
  }
  return *doc;
}

} // namespace

int main(int argc, char** argv) {
  if (argc < 4) {
    std::cerr << "usage: aisim_calibration_check DRIVE.json RAW.json FIT.json [--write]\n";
    return 2;
  }
  const bool wrote = argc > 4 && std::string(argv[4]) == "--write";
  Json drive = load(argv[1]);
  const Json raw = load(argv[2]);
  const Json fit = load(argv[3]);

  check(drive.value("format", "") == "aisim.drive/v1", "drive format is aisim.drive/v1");
  check(drive.value("price", "") == "$0", "drive price is $0");
  check(drive.value("source", "").find("Measured by aisim calibrate") == 0, "drive source says it was measured");
  check(drive.contains("read") && drive["read"].contains("random") && drive["read"].contains("sequential"),
        "drive has fitted read profiles");
  check(drive.contains("latency_percentiles"), "drive has QD1 latency percentiles");
  check(drive.contains("write") == wrote, wrote ? "drive has write profiles" : "drive has no write profiles");
  {
    Diagnostics diag(argv[1]);
    ObjectReader r(drive, "", diag);
    auto m = parse_drive_model(r, "measured");
    check(m.has_value() && !diag.has_errors(), "drive parses as a drive model:\n" + diag.format(false));
    if (m) {
      check(m->capacity.value > 0, "capacity > 0");
      check(m->read_bandwidth.value > 0, "read bandwidth > 0");
      check(m->read_random.max_iops.value > 0, "random read max_iops > 0");
    }
  }

  std::vector<std::string> errors;
  auto data = calibration_data_from_json(raw, errors);
  for (const auto& e : errors)
    std::cerr << argv[2] << ":" << e << "\n";
  check(data.has_value(), "raw measurements read back");
  check(raw["plan"].value("quick", false), "raw plan says quick");
  check(raw["device"].contains("logical_block_size_bytes") && raw["device"].contains("rotational") &&
            raw["device"].contains("io_poll") && raw["device"].contains("model"),
        "raw device identification (model, logical block size, rotational, io_poll)");
  check(raw["engine"].value("registered_file", false) && raw["engine"].value("fixed_buffers", false),
        "engine used a registered file and fixed buffers");
  check(raw["target"].value("kind", "") == "file" && raw["target"].value("created", false), "target is a new file");
  check(raw["points"].is_array() && raw["points"].size() >= 15, "at least 15 points");
  for (const auto& p : raw["points"]) {
    const std::string label = p.value("op", "?") + " " + p.value("pattern", "?") + " " +
                              std::to_string(p.value("bs_bytes", 0)) + " QD" + std::to_string(p.value("qd", 0));
    check(p.value("iops", 0.0) > 0 && p.value("bw_bytes", 0.0) > 0, label + ": iops and bw_bytes > 0");
    const Json& clat = p["clat_ns"];
    check(clat.value("mean", 0.0) > 0, label + ": clat_ns.mean > 0");
    const Json& pct = clat["percentile"];
    check(pct.contains("50.000000") && pct.contains("99.000000") && pct.contains("99.900000"),
          label + ": clat_ns.percentile has 50, 99, 99.9");
    if (pct.contains("50.000000") && pct.contains("99.000000") && pct.contains("99.900000"))
      check(pct["50.000000"].get<uint64_t>() <= pct["99.000000"].get<uint64_t>() &&
                pct["99.000000"].get<uint64_t>() <= pct["99.900000"].get<uint64_t>(),
            label + ": percentiles in order");
    check(p["repeats"].is_array() && p["repeats"].size() >= 2, label + ": at least two repeats");
    check(p.contains("spread"), label + ": spread");
  }
  check(raw["write_cache_run"].is_null() != wrote, wrote ? "a write-cache run" : "no write-cache run");

  check(fit.value("format", "") == "aisim.drive-fit/v1", "fit report format");
  check(fit["fit_quality"]["l1_r2_min"].is_number(), "fit quality: L1 R^2");
  check(fit["fit_quality"]["held_out_points"].get<int>() > 0, "fit quality: held-out points");
  check(fit["fit_quality"]["held_out_max_abs_error"].is_number() &&
            fit["fit_quality"]["sharp_knee_held_out_max_abs_error"].is_number(),
        "fit quality: held-out errors of the fitted and of the sharp knee");
  // A knee per queue-depth curve (random and sequential reads at least), each with its sharpness or null.
  check(fit["knees"].is_object() && fit["knees"].size() >= 2, "a knee per queue-depth curve");
  for (const auto& [name, knee] : fit["knees"].items()) {
    check(knee.contains("knee_sharpness") && (knee["knee_sharpness"].is_null() || knee["knee_sharpness"].is_number()),
          "knee " + name + ": knee_sharpness is a number or null");
    check(knee.value("ceiling_iops", 0.0) > 0, "knee " + name + ": ceiling_iops > 0");
  }
  // Every point deeper than QD1 is held out, with the sharp knee's prediction beside the fitted one.
  for (const auto& p : fit["predictions"])
    if (p.value("role", "") == "held_out")
      check(p.contains("in_sample_error") && p.contains("sharp_knee_error"),
            p.value("point", "?") + ": held-out prediction with in-sample and sharp-knee errors");
  check(fit["predictions"].is_array() && !fit["predictions"].empty(), "predictions");
  // The accuracy check: each held-out point judged, the device's repeatability, a verdict the drive file carries.
  for (const auto& p : fit["predictions"])
    if (p.value("role", "") == "held_out")
      check(p.value("check", "") == "within 10%" || p.value("check", "") == "within its repeat band" ||
                p.value("check", "") == "outside",
            p.value("point", "?") + ": held-out prediction judged");
  const Json& acc = fit["accuracy_check"];
  check(acc.is_object() && acc["passed"].is_boolean() && acc["too_noisy"].is_boolean() &&
            acc["within_target"].get<int>() + acc["within_repeat_band"].get<int>() + acc["outside"].get<int>() ==
                fit["fit_quality"]["held_out_points"].get<int>(),
        "accuracy check: every held-out point counted once");
  check(fit["fit_quality"]["repeatability"].is_number(), "fit quality: repeatability (median repeat spread)");
  check(drive.contains("calibration") && drive["calibration"]["trusted"] == acc["trusted"] &&
            drive["calibration"]["verdict"] == acc["verdict"],
        "drive file carries the fit's verdict");
  check(fit["profiles"].is_array() && fit["profiles"].size() == (wrote ? 4u : 2u), "one L1 fit per profile");

  if (failures)
    std::cerr << failures << " check(s) failed\n";
  return failures ? 1 : 0;
}
