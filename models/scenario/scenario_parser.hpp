// Reading a scenario file: JSON syntax, --set overrides, the schema (models/scenario/README.md points to the key
// reference in scenarios/README.md), defaults and cross-references. Every problem is collected.
#pragma once

#include "models/common/diagnostics.hpp"
#include "models/scenario/scenario.hpp"

#include <optional>
#include <string>
#include <vector>

namespace aisim::models {

struct LoadedScenario {
  std::optional<Scenario> scenario; // empty when there were errors
  Diagnostics diagnostics;
  std::string file_sha256; // load_scenario: the SHA-256 of the very bytes it read (results.json's provenance)
};

// Reads `path`, applies each "/json/pointer=value" override in order, then validates.
LoadedScenario load_scenario(const std::string& path, const std::vector<std::string>& overrides = {});

// Validates an already-read document. Relative drive files are looked up from `base_dir`.
LoadedScenario parse_scenario(Json doc, const std::string& file, const std::string& base_dir);

// Applies one "/json/pointer=value" override; the value is read as JSON where it parses, else as a string (which
// must be UTF-8 text). The parent of the pointer must exist; in an array, the place is an existing index, the
// next one or "-" (appends). Problems go to `diag`.
bool apply_override(Json& doc, const std::string& assignment, Diagnostics& diag);

// Parses JSON text, reporting a syntax error with its line and column, a number too large for a double, nesting
// deeper than kMaxJsonDepth and a key written twice in one object (JSON keeps the last silently) as errors, each
// at `pointer_prefix` + its place in the text.
std::optional<Json> parse_json_text(const std::string& text, Diagnostics& diag, const std::string& pointer_prefix = "");
inline constexpr int kMaxJsonDepth = 64;
// The longest simulated period: 1000 years (a planner's horizon is years; the engine's clock is a double).
inline constexpr double kMaxSimulatedSeconds = 1000 * 365.25 * 86400;

} // namespace aisim::models
