// For parser tests: the errors a scenario document that must not parse produces, as `aisim` prints them.
#pragma once

#include "models/scenario/scenario_parser.hpp"

#include <catch2/catch.hpp>

#include <string>

inline std::string errors_of(aisim::models::Json doc) {
  auto r = aisim::models::parse_scenario(std::move(doc), "s.json", ".");
  CHECK_FALSE(r.scenario.has_value());
  return r.diagnostics.format(false);
}
