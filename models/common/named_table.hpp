#pragma once
// Built-in tables of named rows (GPU models, node presets, MLPerf workloads): the row a scenario names, and the
// names a reader offers as its choices, so that a new row is found and offered without more code.
#include <iterator>
#include <string>
#include <string_view>
#include <vector>

namespace aisim::models {

// The row called `name`, or nullptr.
template <class Rows> auto find_named(const Rows& rows, std::string_view name) -> decltype(&*std::begin(rows)) {
  for (const auto& row : rows)
    if (row.name == name)
      return &row;
  return nullptr;
}

// Every row's name, in the table's order (error messages list them so).
template <class Rows> std::vector<std::string> names_of(const Rows& rows) {
  std::vector<std::string> names;
  for (const auto& row : rows)
    names.push_back(row.name);
  return names;
}

} // namespace aisim::models
