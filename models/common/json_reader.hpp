// Walks one JSON object of a scenario against the keys the code asks for: reads typed values, fills in
// defaults (so the resolved scenario written to results.json shows them), and reports every problem to a
// Diagnostics with its JSON pointer. Keys never asked for are reported as unknown, with a suggestion.
#pragma once

#include "models/common/diagnostics.hpp"
#include "models/common/units.hpp"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace aisim::models {

using Json = nlohmann::ordered_json;

enum class Bound { any, non_negative, positive };

// A JSON pointer token: "~" and "/" escaped as RFC 6901 says.
std::string pointer_token(std::string_view key);
// Short rendering of a JSON value for "got ..." in messages.
std::string json_excerpt(const Json& v);
// Whether `text` is UTF-8, as JSON's writer requires of every string (a value typed on the command line may not be:
// checked when it is read, not when results.json fails to be written after the run).
bool is_utf8(const std::string& text);
// `text` with each byte that is not part of valid UTF-8 written as \xHH, for a message that names what was given.
std::string shown_as_utf8(const std::string& text);

class ObjectReader {
public:
  // `node` must outlive the reader; when it is not an object an error is reported and every read misses.
  ObjectReader(Json& node, std::string pointer, Diagnostics& diag);

  const std::string& get_pointer() const { return pointer_; }
  std::string child_pointer(std::string_view key) const { return pointer_ + "/" + pointer_token(key); }
  bool has(const std::string& key) const { return ok_ && node_->contains(key); }
  bool ok() const { return ok_; }
  // Where problems go; for checks across several keys that the typed readers cannot express.
  Diagnostics& get_diagnostics() const { return *diag_; }

  // A quantity with a unit, in SI base units (bytes, seconds, bytes/s, W, $, $/h, $/kWh, FLOP/s).
  // `default_text` is written into the document when the key is absent; nullptr makes the key required.
  std::optional<double> quantity(const std::string& key, Dimension d, const char* default_text,
                                 Bound bound = Bound::positive);
  // A quantity with no default: absent leaves `out` empty and writes nothing into the document (the key stays out
  // of the resolved scenario). Returns false only when the key is present and invalid (reported).
  bool optional_quantity(const std::string& key, Dimension d, std::optional<double>& out,
                         Bound bound = Bound::positive);
  std::optional<int64_t> integer(const std::string& key, std::optional<int64_t> default_value, int64_t min,
                                 int64_t max);
  // A dimensionless number (a ratio, an efficiency).
  std::optional<double> number(const std::string& key, std::optional<double> default_value, double min, double max);
  // One of a fixed set of words.
  std::optional<std::string> choice(const std::string& key, const char* default_value,
                                    const std::vector<std::string>& allowed);
  std::optional<std::string> text(const std::string& key, const char* default_value);
  std::optional<bool> boolean(const std::string& key, std::optional<bool> default_value);
  // A name that must be one of `known` (another section's names); `what` names the section for the message.
  std::optional<std::string> reference(const std::string& key, const std::vector<std::string>& known,
                                       const std::string& what);
  // A nested object; an absent optional one is created empty so its defaults are filled in.
  std::optional<ObjectReader> object(const std::string& key, bool required);
  // A nested array; nullptr (with an error when required) if absent or not an array.
  Json* array(const std::string& key, bool required);
  // Marks a key as known without reading it (a caller handles it itself).
  void accept(const std::string& key) { known_.push_back(key); }

  // Reports keys that were never asked for. Call once, after every read.
  void finish();

private:
  const Json* fetch(const std::string& key, bool required, const std::string& expected);
  // A string, or the default written back when absent; the base of text, choice and reference.
  std::optional<std::string> string_value(const std::string& key, const char* default_value,
                                          const std::string& expected);

  Json* node_;
  std::string pointer_;
  Diagnostics* diag_;
  bool ok_;
  std::vector<std::string> known_;
};

} // namespace aisim::models
