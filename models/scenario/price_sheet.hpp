// Price sheets: dated, sourced prices (scenarios/costs/*.json, format "aisim.prices/v1") that a scenario names in
// costs.price_sheet. Every price the scenario leaves out comes from the sheet; one that neither gives, for a
// component the scenario has, is an error naming the component, never a silent default. The scenario's own values
// win over the sheet, the sheet over a drive file's price estimate.
#pragma once

#include "models/common/json_reader.hpp"

#include <optional>
#include <string>

namespace aisim::models {

inline constexpr const char* kPriceSheetFormat = "aisim.prices/v1";

struct PriceSheet {
  std::string file; // as the scenario names it
  std::string name;
  std::string date;
  Json prices;                  // the sheet's "prices" object, checked
  Json applied = Json::array(); // {"at": pointer, "value": ..., "source": ...} for every figure taken from it
};

// Loads the sheet that /costs/price_sheet names (a path relative to base_dir). None when the scenario names none,
// when it holds an already applied sheet's record (a resolved scenario), or when the sheet has errors (reported
// at /costs/price_sheet, with the place in the sheet).
std::optional<PriceSheet> load_price_sheet(const Json& doc, const std::string& base_dir, Diagnostics& diag);

// Fills the prices the document leaves out of its node groups, storage systems, network and costs from the sheet
// and reports each component whose price neither gives.
void apply_price_sheet(Json& doc, PriceSheet& sheet, Diagnostics& diag);

// A drive entry (its file already merged in) without a price of its own: its capacity times the sheet's price per
// TB for its media. `had_price`: the scenario's entry itself gave a price.
void price_drive(Json& drive, bool had_price, const std::string& ptr, PriceSheet& sheet, Diagnostics& diag);

// Replaces /costs/price_sheet with the record of what was applied (file, name, date, figures), so the resolved
// scenario stands on its own.
void record_price_sheet(Json& doc, const PriceSheet& sheet);

} // namespace aisim::models
