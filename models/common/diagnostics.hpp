// Scenario problems, collected rather than thrown one at a time, so a planner sees every mistake in one run.
// Each prints as `FILE:/json/pointer: what is wrong (expected ..., got ...)`.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace aisim::models {

struct Diagnostic {
  std::string pointer; // JSON pointer into the scenario document ("" for the whole file)
  std::string message;
  bool warning = false;
};

class Diagnostics {
public:
  explicit Diagnostics(std::string file = {}) : file_(std::move(file)) {}

  void add(Diagnostic d) { items_.push_back(std::move(d)); }
  void error(std::string pointer, std::string message) { items_.push_back({std::move(pointer), std::move(message)}); }
  void warn(std::string pointer, std::string message) {
    items_.push_back({std::move(pointer), std::move(message), true});
  }
  bool has_errors() const;
  const std::vector<Diagnostic>& items() const { return items_; }
  const std::string& get_file() const { return file_; }
  // One line per item, errors first in document order, each "FILE:/ptr: message".
  std::string format(bool warnings) const;

private:
  std::string file_;
  std::vector<Diagnostic> items_;
};

// Edit distance, used to suggest the key or name the user probably meant.
size_t edit_distance(std::string_view a, std::string_view b);
// The closest candidate within a small distance, or "" when nothing is close.
std::string closest_match(std::string_view word, const std::vector<std::string>& candidates);
// A human list: "a", "b" or "c".
std::string quoted_list(const std::vector<std::string>& words);
// Checks that a name used as a key or "name" is usable in results and messages.
void check_name(const std::string& name, const std::string& ptr, Diagnostics& diag);

} // namespace aisim::models
