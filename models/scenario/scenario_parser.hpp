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
};

// Reads `path`, applies each "/json/pointer=value" override in order, then validates.
LoadedScenario load_scenario(const std::string& path, const std::vector<std::string>& overrides = {});

// Validates an already-read document. Relative drive files are looked up from `base_dir`.
LoadedScenario parse_scenario(Json doc, const std::string& file, const std::string& base_dir);

// Applies one "/json/pointer=value" override; the value is read as JSON where it parses, else as a string.
// The parent of the pointer must exist. Problems go to `diag`.
bool apply_override(Json& doc, const std::string& assignment, Diagnostics& diag);

// Parses JSON text, reporting a syntax error with its line and column.
std::optional<Json> parse_json_text(const std::string& text, Diagnostics& diag);

} // namespace aisim::models
