#include "app/report/report.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <stdexcept>
#include <string_view>

namespace aisim::app {

namespace report_assets {
extern const char kChartJs[];
extern const char kPageJs[];
extern const char kPageCss[];
} // namespace report_assets

using models::Json;

namespace {

std::vector<std::string_view> split(std::string_view line) {
  std::vector<std::string_view> out;
  for (size_t at = 0;;) {
    const size_t comma = line.find(',', at);
    out.push_back(line.substr(at, comma == std::string_view::npos ? std::string_view::npos : comma - at));
    if (comma == std::string_view::npos)
      return out;
    at = comma + 1;
  }
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
  // A hand-edited results.json or timeseries.csv may hold bytes that are not UTF-8 (JSON text cannot): they are
  // drawn as U+FFFD instead of stopping the page (found by tests/fuzz).
  const std::string json = data.dump(-1, ' ', false, Json::error_handler_t::replace);
  html += "<script id=\"aisim-data\" type=\"application/json\">" + script_safe(json) + "</script>\n";
  // The scripts are the same on every page (Chart.js alone is 200 KB): escaped once per process.
  static const std::string scripts = "<script>\n" + script_safe(report_assets::kChartJs) + "\n</script>\n<script>\n" +
                                     script_safe(report_assets::kPageJs) + "\n</script>\n</body>\n</html>\n";
  html += scripts;
  return html;
}

std::string title_of(const Json& results) {
  const auto name = results.contains("scenario") && results["scenario"].is_object() &&
                            results["scenario"].contains("name") && results["scenario"]["name"].is_string()
                        ? results["scenario"]["name"].get<std::string>()
                        : std::string("run");
  return "aisim report: " + name;
}

} // namespace

Json timeseries_for_page(const std::string& csv, std::size_t max_points) {
  // Lines as views into the text: a long run's CSV is read once, never copied.
  std::vector<std::string_view> lines;
  for (size_t at = 0; at < csv.size();) {
    size_t end = csv.find('\n', at);
    if (end == std::string::npos)
      end = csv.size();
    lines.emplace_back(csv.data() + at, end - at);
    at = end + 1;
  }
  if (lines.empty() || lines[0].rfind("time_s,", 0) != 0)
    throw std::runtime_error("line 1: expected a header starting with time_s");
  std::vector<std::string> columns;
  for (auto cell : split(lines[0]))
    columns.emplace_back(cell);
  size_t rows = 0;
  for (size_t k = 1; k < lines.size(); ++k)
    rows += lines[k].empty() ? 0 : 1;
  // Consecutive bins averaged into one point (rates, fractions and occupancies are all means over time), summed
  // as the lines are read: memory follows the points drawn, not the bins of a long run.
  const size_t per = max_points > 0 ? std::max<size_t>(1, (rows + max_points - 1) / max_points) : 1;
  std::vector<std::vector<double>> points(columns.size());
  std::vector<double> sum(columns.size(), 0.0);
  size_t in_point = 0;
  const auto close_point = [&] {
    for (size_t c = 1; c < columns.size(); ++c)
      points[c].push_back(sum[c] / static_cast<double>(in_point));
    std::fill(sum.begin(), sum.end(), 0.0);
    in_point = 0;
  };
  for (size_t k = 1; k < lines.size(); ++k) {
    if (lines[k].empty())
      continue;
    const auto cells = split(lines[k]);
    const std::string where = "line " + std::to_string(k + 1) + ": ";
    if (cells.size() != columns.size())
      throw std::runtime_error(where + "expected " + std::to_string(columns.size()) + " values, got " +
                               std::to_string(cells.size()));
    for (size_t c = 0; c < cells.size(); ++c) {
      double v = 0;
      const auto [end, ec] = std::from_chars(cells[c].data(), cells[c].data() + cells[c].size(), v);
      if (ec != std::errc() || end != cells[c].data() + cells[c].size() || !std::isfinite(v))
        throw std::runtime_error(where + "expected a number, got \"" + std::string(cells[c]) + "\"");
      if (c == 0 && in_point == 0)
        points[0].push_back(v); // a point starts where its first bin starts
      sum[c] += v;
    }
    if (++in_point == per)
      close_point();
  }
  if (in_point > 0)
    close_point();
  Json cols = Json::object();
  for (size_t c = 0; c < columns.size(); ++c)
    cols[columns[c]] = std::move(points[c]);
  return {{"columns", cols}, {"bins_per_point", per}, {"rows", rows}};
}

std::string render_report(const Json& results, const Json& timeseries) {
  return page(title_of(results), {{"mode", "run"}, {"results", results}, {"timeseries", timeseries}});
}

std::string render_replicas(const Json& aggregate, const Json& rows) {
  const std::string name =
      aggregate.contains("/scenario/name"_json_pointer) ? aggregate["scenario"]["name"].get<std::string>() : "run";
  return page("aisim replicas: " + name, {{"mode", "replicas"}, {"results", aggregate}, {"rows", rows}});
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

std::string render_sweep(const Json& sweep) {
  constexpr size_t kMaxPoints = 20000;
  const auto& points = sweep.at("points");
  const std::string title = "aisim sweep: " + sweep.value("/run/scenario"_json_pointer, std::string());
  if (points.size() <= kMaxPoints)
    return page(title, {{"mode", "sweep"}, {"sweep", sweep}, {"total", points.size()}, {"thinned", false}});
  // Past what a browser draws comfortably: the front, and an even spread of the rest.
  Json thin = sweep;
  Json kept = Json::array();
  const size_t every = (points.size() + kMaxPoints - 1) / kMaxPoints;
  for (size_t i = 0; i < points.size(); ++i)
    if (i % every == 0 || points[i].value("pareto", false))
      kept.push_back(points[i]);
  thin["points"] = std::move(kept);
  return page(title, {{"mode", "sweep"}, {"sweep", thin}, {"total", points.size()}, {"thinned", true}});
}

} // namespace aisim::app
