#include "sim/report/report.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <stdexcept>

namespace aisim::sim {

namespace report_assets {
extern const char kChartJs[];
extern const char kPageJs[];
extern const char kPageCss[];
} // namespace report_assets

using models::Json;

namespace {

std::vector<std::string> split(const std::string& line) {
  std::vector<std::string> out;
  std::string cell;
  std::istringstream in(line);
  while (std::getline(in, cell, ','))
    out.push_back(cell);
  if (!line.empty() && line.back() == ',')
    out.emplace_back();
  return out;
}

// Inside <script>, "</" would end the element early: JSON and scripts escape it (both read "<\/" as "</").
std::string script_safe(std::string text) {
  for (size_t at = 0; (at = text.find("</", at)) != std::string::npos; at += 3)
    text.replace(at, 2, "<\\/");
  return text;
}

std::string html_escape(const std::string& s) {
  std::string o;
  for (char c : s) {
    switch (c) {
    case '&':
      o += "&amp;";
      break;
    case '<':
      o += "&lt;";
      break;
    case '>':
      o += "&gt;";
      break;
    case '"':
      o += "&quot;";
      break;
    default:
      o += c;
    }
  }
  return o;
}

std::string page(const std::string& title, const Json& data) {
  std::string html = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n";
  // No network: the policy forbids every load but the page's own inline script, style and images drawn in place.
  html += "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; script-src 'unsafe-inline'; "
          "style-src 'unsafe-inline'; img-src data:\">\n";
  html += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n";
  html += "<title>" + html_escape(title) + "</title>\n<style>\n" + std::string(report_assets::kPageCss) +
          "</style>\n</head>\n<body>\n<main id=\"report\"><p>This page draws itself with JavaScript.</p></main>\n";
  html += "<script id=\"aisim-data\" type=\"application/json\">" + script_safe(data.dump()) + "</script>\n";
  html += "<script>\n" + script_safe(report_assets::kChartJs) + "\n</script>\n";
  html += "<script>\n" + script_safe(report_assets::kPageJs) + "\n</script>\n</body>\n</html>\n";
  return html;
}

std::string title_of(const Json& results) {
  const auto name = results.contains("scenario") && results["scenario"].contains("name")
                        ? results["scenario"]["name"].get<std::string>()
                        : std::string("run");
  return "aisim report: " + name;
}

} // namespace

Json timeseries_for_page(const std::string& csv, std::size_t max_points) {
  std::istringstream in(csv);
  std::string line;
  if (!std::getline(in, line) || line.rfind("time_s,", 0) != 0)
    throw std::runtime_error("line 1: expected a header starting with time_s");
  const auto columns = split(line);
  std::vector<std::vector<double>> rows;
  size_t number = 1;
  while (std::getline(in, line)) {
    ++number;
    if (line.empty())
      continue;
    const auto cells = split(line);
    if (cells.size() != columns.size())
      throw std::runtime_error("line " + std::to_string(number) + ": expected " + std::to_string(columns.size()) +
                               " values, got " + std::to_string(cells.size()));
    std::vector<double> row;
    for (const auto& c : cells) {
      size_t used = 0;
      double v = 0;
      try {
        v = std::stod(c, &used);
      } catch (const std::exception&) {
        used = 0;
      }
      if (used != c.size() || !std::isfinite(v))
        throw std::runtime_error("line " + std::to_string(number) + ": expected a number, got \"" + c + "\"");
      row.push_back(v);
    }
    rows.push_back(std::move(row));
  }
  // Consecutive bins averaged into one point: rates, fractions and occupancies are all means over time.
  const size_t per = max_points > 0 ? std::max<size_t>(1, (rows.size() + max_points - 1) / max_points) : 1;
  Json cols = Json::object();
  for (size_t c = 0; c < columns.size(); ++c) {
    Json values = Json::array();
    for (size_t r = 0; r < rows.size(); r += per) {
      const size_t end = std::min(rows.size(), r + per);
      double sum = 0;
      for (size_t k = r; k < end; ++k)
        sum += rows[k][c];
      values.push_back(c == 0 ? rows[r][c] : sum / static_cast<double>(end - r));
    }
    cols[columns[c]] = std::move(values);
  }
  return {{"columns", cols}, {"bins_per_point", per}, {"rows", rows.size()}};
}

std::string render_report(const Json& results, const Json& timeseries) {
  return page(title_of(results), {{"mode", "run"}, {"results", results}, {"timeseries", timeseries}});
}

std::string render_comparison(const Json& comparison, const std::vector<std::pair<std::string, Json>>& runs) {
  Json list = Json::array();
  for (const auto& [label, results] : runs)
    list.push_back(
        {{"label", label},
         {"name", results.contains("/scenario/name"_json_pointer) ? results["scenario"]["name"] : Json()},
         {"description",
          results.contains("/scenario/description"_json_pointer) ? results["scenario"]["description"] : Json()}});
  return page("aisim comparison", {{"mode", "compare"}, {"runs", list}, {"comparison", comparison}});
}

} // namespace aisim::sim
