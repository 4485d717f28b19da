#include "models/scenario/price_sheet.hpp"

#include "models/scenario/included_file.hpp"

#include <vector>

namespace aisim::models {
namespace {

// A price a sheet can hold: where it applies ("section"), its key there, and how its value reads. `required`: a
// component of that section must get it from the scenario or the sheet.
struct PriceKey {
  const char* section;
  const char* key;
  std::optional<Dimension> dimension; // none: a plain number (a share, a ratio)
  bool required;
};

const std::vector<PriceKey>& price_keys() {
  static const std::vector<PriceKey> keys{
      {"node_group", "node_price", Dimension::dollars, true},
      {"jbof", "enclosure_price", Dimension::dollars, true},
      {"array", "array_price", Dimension::dollars, true},
      {"pfs", "server_price", Dimension::dollars, true},
      {"object", "storage_price", Dimension::dollars_per_byte_month, true},
      {"object", "retrieval_price", Dimension::dollars_per_byte, true},
      {"object", "egress_price", Dimension::dollars_per_byte, true},
      {"object_owned", "purchase_price", Dimension::dollars_per_byte, true},
      {"network", "switch_price", Dimension::dollars, true},
      {"network", "port_price", Dimension::dollars, true},
      {"costs", "energy_price", Dimension::dollars_per_kwh, true},
      {"costs", "maintenance", std::nullopt, true},
      {"costs", "facility_price", Dimension::dollars_per_kw_month, false},
      {"costs", "gpu_hour_price", Dimension::dollars_per_hour, false},
      {"costs", "pue", std::nullopt, false},
      {"costs", "service_life", Dimension::seconds, false},
  };
  return keys;
}

// Sections keyed by a name rather than by a scenario key: a GPU model's price, a drive media's price per TB.
constexpr const char* kGpuSection = "gpu_price";
constexpr const char* kDriveSection = "drive_price_per_tb";

// Checks one {"value": ..., "source": "..."} entry of the sheet; problems go to `inner` at its pointer.
void check_entry(const Json& e, const std::string& ptr, std::optional<Dimension> dim, Diagnostics& inner) {
  if (!e.is_object() || !e.contains("value") || !e.contains("source")) {
    inner.error(ptr, "expected {\"value\": ..., \"source\": \"where the figure comes from\"}, got " + json_excerpt(e));
    return;
  }
  for (const auto& [k, v] : e.items())
    if (k != "value" && k != "source" && k != "note")
      inner.error(ptr + "/" + pointer_token(k), "unknown key (expected \"value\", \"source\" or \"note\")");
  if (!e["source"].is_string() || e["source"].get<std::string>().empty())
    inner.error(ptr + "/source", "every price says where it comes from (expected a non-empty text, got " +
                                     json_excerpt(e["source"]) + ")");
  const Json& v = e["value"];
  if (!dim) {
    if (!v.is_number() || v.get<double>() < 0)
      inner.error(ptr + "/value", "expected a number >= 0, got " + json_excerpt(v));
    return;
  }
  std::string why;
  const auto value = v.is_string() ? parse_quantity(v.get<std::string>(), *dim, &why) : std::nullopt;
  if (!value)
    inner.error(ptr + "/value", (v.is_string() ? why + " " : std::string()) + "(expected " + describe(*dim) + ", got " +
                                    json_excerpt(v) + ")");
  else if (*value < 0)
    inner.error(ptr + "/value", "must not be negative (expected " + describe(*dim) + ", got " + json_excerpt(v) + ")");
}

void check_prices(const Json& prices, Diagnostics& inner) {
  if (!prices.is_object()) {
    inner.error("/prices", "expected an object of sections, got " + json_excerpt(prices));
    return;
  }
  for (const auto& [section, entries] : prices.items()) {
    const std::string sp = "/prices/" + pointer_token(section);
    if (!entries.is_object()) {
      inner.error(sp, "expected an object, got " + json_excerpt(entries));
      continue;
    }
    if (section == kGpuSection || section == kDriveSection) {
      for (const auto& [name, e] : entries.items())
        check_entry(e, sp + "/" + pointer_token(name),
                    section == kGpuSection ? Dimension::dollars : Dimension::dollars_per_byte, inner);
      continue;
    }
    bool known_section = false;
    for (const auto& [key, e] : entries.items()) {
      const PriceKey* pk = nullptr;
      for (const auto& k : price_keys())
        if (section == k.section) {
          known_section = true;
          if (key == k.key)
            pk = &k;
        }
      if (!known_section)
        break;
      if (!pk) {
        std::vector<std::string> allowed;
        for (const auto& k : price_keys())
          if (section == k.section)
            allowed.push_back(k.key);
        inner.error(sp + "/" + pointer_token(key), "unknown price (expected " + quoted_list(allowed) + ")");
        continue;
      }
      check_entry(e, sp + "/" + pointer_token(key), pk->dimension, inner);
    }
    if (!known_section && !entries.empty())
      inner.error(sp, "unknown section (expected \"gpu_price\", \"node_group\", \"drive_price_per_tb\", \"jbof\", "
                      "\"array\", \"pfs\", \"object\", \"object_owned\", \"network\" or \"costs\")");
  }
}

const Json* sheet_entry(const PriceSheet& sheet, const std::string& section, const std::string& key) {
  if (!sheet.prices.contains(section) || !sheet.prices[section].contains(key))
    return nullptr;
  return &sheet.prices[section][key];
}

// Fills `key` of the scenario object at `ptr` from the sheet when the scenario leaves it out.
void fill(Json& obj, const std::string& ptr, const std::string& what, const std::string& section,
          const std::string& sheet_key, const std::string& key, bool required, PriceSheet& sheet, Diagnostics& diag) {
  if (!obj.is_object() || obj.contains(key))
    return;
  if (const Json* e = sheet_entry(sheet, section, sheet_key)) {
    obj[key] = (*e)["value"];
    sheet.applied.push_back({{"at", ptr + "/" + key}, {"value", (*e)["value"]}, {"source", (*e)["source"]}});
  } else if (required) {
    diag.error(ptr + "/" + key, what + " has no " + key + ": neither the scenario nor the price sheet \"" + sheet.file +
                                    "\" gives one (expected " + key + " here or /prices/" + section + "/" + sheet_key +
                                    " in the sheet)");
  }
}

} // namespace

std::optional<PriceSheet> load_price_sheet(const Json& doc, const std::string& base_dir, Diagnostics& diag) {
  if (!doc.is_object() || !doc.contains("costs") || !doc["costs"].is_object() || !doc["costs"].contains("price_sheet"))
    return std::nullopt;
  const Json& ref = doc["costs"]["price_sheet"];
  if (ref.is_object() && ref.contains("applied"))
    return std::nullopt; // a resolved scenario: its prices are already in place
  const std::string ptr = "/costs/price_sheet";
  if (!ref.is_string()) {
    diag.error(ptr, "wrong type (expected a path to an " + std::string(kPriceSheetFormat) +
                        " file such as "
                        "\"costs/seed-2025.json\", got " +
                        json_excerpt(ref) + ")");
    return std::nullopt;
  }
  auto text = load_included_json(ref.get<std::string>(), base_dir, kPriceSheetFormat, ptr, diag);
  if (!text)
    return std::nullopt;
  const Json& j = *text;
  Diagnostics inner(ref.get<std::string>());
  for (const char* k : {"name", "date", "currency"})
    if (!j.contains(k) || !j[k].is_string() || j[k].get<std::string>().empty())
      inner.error(std::string("/") + k, "missing or empty (expected a text: a sheet is named, dated and in one "
                                        "currency)");
  for (const auto& [k, v] : j.items())
    if (k != "format" && k != "name" && k != "date" && k != "currency" && k != "description" && k != "prices")
      inner.error("/" + pointer_token(k), "unknown key (expected \"format\", \"name\", \"date\", \"currency\", "
                                          "\"description\" or \"prices\")");
  if (j.contains("currency") && j["currency"] != "USD")
    inner.error("/currency", "aisim counts in US dollars (expected \"USD\", got " + json_excerpt(j["currency"]) + ")");
  if (!j.contains("prices"))
    inner.error("/prices", "missing (expected the sheet's prices)");
  else
    check_prices(j["prices"], inner);
  for (const auto& d : inner.items())
    diag.error(ptr, "in " + ref.get<std::string>() + " at " + d.pointer + ": " + d.message);
  if (inner.has_errors())
    return std::nullopt;
  PriceSheet sheet;
  sheet.file = ref.get<std::string>();
  sheet.name = j["name"].get<std::string>();
  sheet.date = j["date"].get<std::string>();
  sheet.prices = j["prices"];
  return sheet;
}

void apply_price_sheet(Json& doc, PriceSheet& sheet, Diagnostics& diag) {
  const auto apply_section = [&](Json& obj, const std::string& ptr, const std::string& what,
                                 const std::string& section) {
    for (const auto& k : price_keys())
      if (section == k.section)
        fill(obj, ptr, what, section, k.key, k.key, k.required, sheet, diag);
  };
  if (doc.contains("cluster") && doc["cluster"].is_object() && doc["cluster"].contains("node_groups") &&
      doc["cluster"]["node_groups"].is_array()) {
    auto& groups = doc["cluster"]["node_groups"];
    for (size_t i = 0; i < groups.size(); ++i) {
      Json& g = groups[i];
      if (!g.is_object() || g.contains("gpu_rent"))
        continue; // a rented group buys nothing
      const std::string ptr = "/cluster/node_groups/" + std::to_string(i);
      const std::string what = "node group \"" + g.value("name", std::to_string(i)) + "\"";
      apply_section(g, ptr, what, "node_group");
      if (g.contains("gpu") && g["gpu"].is_string())
        fill(g, ptr, what + " (" + g["gpu"].get<std::string>() + ")", kGpuSection, g["gpu"].get<std::string>(),
             "gpu_price", true, sheet, diag);
    }
  }
  if (doc.contains("storage") && doc["storage"].is_object())
    for (auto& [name, s] : doc["storage"].items()) {
      if (!s.is_object() || !s.contains("kind") || !s["kind"].is_string())
        continue;
      const std::string kind = s["kind"].get<std::string>();
      const std::string ptr = "/storage/" + pointer_token(name);
      const std::string what = kind + " \"" + name + "\"";
      if (kind == "object" && s.value("ownership", "rented") == "owned")
        apply_section(s, ptr, what, "object_owned");
      else
        apply_section(s, ptr, what, kind); // local_nvme has no section: its drives are its price
    }
  if (!doc.contains("network"))
    doc["network"] = Json::object();
  apply_section(doc["network"], "/network", "the storage network", "network");
  apply_section(doc["costs"], "/costs", "the cost model", "costs");
}

void price_drive(Json& drive, bool had_price, const std::string& ptr, PriceSheet& sheet, Diagnostics& diag) {
  if (had_price)
    return;
  const std::string media = drive.value("media", "unspecified");
  const Json* e = sheet_entry(sheet, kDriveSection, media);
  if (!e) {
    diag.error(ptr + "/price", "drive has no price: neither the scenario nor the price sheet \"" + sheet.file +
                                   "\" gives one for its media \"" + media + "\" (expected price here, or media " +
                                   "and /prices/" + kDriveSection + "/" + media + " in the sheet)");
    drive["price"] = "$0"; // only so the drive's reader does not report the same gap again: the scenario fails
    return;
  }
  std::string why;
  const auto per_byte = parse_quantity((*e)["value"].get<std::string>(), Dimension::dollars_per_byte, &why);
  const auto cap = drive.contains("capacity") && drive["capacity"].is_string()
                       ? parse_quantity(drive["capacity"].get<std::string>(), Dimension::bytes, &why)
                       : std::nullopt;
  if (!per_byte || !cap)
    return; // the capacity's own problem is reported when the drive is read
  const std::string price = format_dollars(Dollars(*per_byte * *cap));
  drive["price"] = price;
  sheet.applied.push_back({{"at", ptr + "/price"},
                           {"value", price},
                           {"source", (*e)["source"].get<std::string>() + " (" + (*e)["value"].get<std::string>() +
                                          " x " + drive["capacity"].get<std::string>() + ")"}});
}

void record_price_sheet(Json& doc, const PriceSheet& sheet) {
  doc["costs"]["price_sheet"] = {
      {"file", sheet.file}, {"name", sheet.name}, {"date", sheet.date}, {"applied", sheet.applied}};
}

} // namespace aisim::models
