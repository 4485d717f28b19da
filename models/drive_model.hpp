// A drive model: what one NVMe drive can do, from a datasheet or a calibration run. The same fields are read
// from a scenario's inline drive entry and from an aisim.drive/v1 file.
#pragma once

#include "json_reader.hpp"
#include "units.hpp"

#include <optional>
#include <string>

namespace aisim::models {

struct DriveModel {
  std::string name;
  std::string source;
  Bytes capacity;
  BytesPerSecond read_bandwidth;  // sequential, large blocks, deep queue
  BytesPerSecond write_bandwidth; // sequential, large blocks, deep queue
  Watts active_power;
  Watts idle_power;
  Dollars price;
};

// Reads a drive's keys from an object (the "format" and "file" keys are the caller's). Reports every problem.
std::optional<DriveModel> parse_drive_model(ObjectReader& r, const std::string& name);

} // namespace aisim::models
