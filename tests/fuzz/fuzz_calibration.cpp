// Fuzz target: a calibration raw measurements file (aisim.calibration-raw/v1) as `aisim calibrate --refit` reads
// it, and the fit it feeds.
// Properties: no crash, hang or leak; a refused file says why; accepted measurements survive being written and
// read again; and when the fit gives a model, that aisim.drive/v1 document is one a scenario accepts, with
// no error (what calibrate writes, a scenario must be able to use).
#include "tests/fuzz/fuzz_input.hpp"

#include "models/calibration/calibration_data.hpp"
#include "models/calibration/drive_fit.hpp"
#include "models/hardware/drive_model.hpp"
#include "models/scenario/scenario_parser.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace aisim;
  models::Diagnostics diag("fuzz.raw.json");
  auto doc = models::parse_json_text(std::string(reinterpret_cast<const char*>(data), size), diag);
  if (!doc) {
    fuzz::require(diag.has_errors(), "unparsable JSON without an error");
    return 0;
  }
  std::vector<std::string> errors;
  const auto measured = models::calibration_data_from_json(*doc, errors);
  if (!measured) {
    fuzz::require(!errors.empty(), "calibration data refused without a reason");
    return 0;
  }
  std::vector<std::string> again_errors;
  fuzz::require(models::calibration_data_from_json(models::to_json(*measured), again_errors).has_value(),
                "calibration data written back is refused when read again");
  std::vector<std::string> fit_errors;
  const auto fit = models::fit_drive_model(*measured, fit_errors);
  if (!fit) {
    fuzz::require(!fit_errors.empty(), "a fit that gave no model without a reason");
    return 0;
  }
  fuzz::require(!fit->verdict.empty() && fit->drive["calibration"]["trusted"] == fit->trusted,
                "a fit without a verdict, or a drive file that does not carry it");
  models::Json drive = fit->drive;
  fuzz::require(drive.is_object() && drive.value("format", "") == "aisim.drive/v1",
                "a fitted model that is not an aisim.drive/v1 document");
  drive.erase("format");
  models::Diagnostics model_diag("fitted.json");
  models::ObjectReader r(drive, "", model_diag);
  const auto model = models::parse_drive_model(r, "fitted");
  if (!model || model_diag.has_errors())
    std::fprintf(stderr, "%s\n%s", fit->drive.dump(1).c_str(), model_diag.format(false).c_str());
  fuzz::require(model && !model_diag.has_errors(), "a fitted drive model is refused as a drive file");
  return 0;
}
