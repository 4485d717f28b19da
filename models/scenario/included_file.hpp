// Files a scenario includes by path: drive models ("drives/x.json") and price sheets ("costs/x.json").
#pragma once

#include "models/common/json_reader.hpp"

#include <optional>
#include <string>

namespace aisim::models {

// Reads the whole file; on failure returns nullopt and sets *why.
std::optional<std::string> read_text_file(const std::string& path, std::string* why);
// The largest input file read whole (a scenario, a drive model, calibration data, results.json).
inline constexpr size_t kMaxInputFileBytes = size_t(256) << 20;

// Loads the JSON file `rel` (relative to base_dir) whose "format" must be `format`. Every problem is reported at
// `ptr` with the file's path and the place in it ("in drives/x.json at /price: ..."); nullopt then.
std::optional<Json> load_included_json(const std::string& rel, const std::string& base_dir, const std::string& format,
                                       const std::string& ptr, Diagnostics& diag);

} // namespace aisim::models
