#include "models/common/units.hpp"

#include <array>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <utility>

namespace aisim::models {
namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t'))
    s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t'))
    s.remove_suffix(1);
  return s;
}

// Splits "3.84TB" into 3.84 and "TB". Returns false when no number leads the text.
bool split_number(std::string_view s, double& number, std::string_view& unit) {
  const char* first = s.data();
  const char* last = s.data() + s.size();
  auto [ptr, ec] = std::from_chars(first, last, number, std::chars_format::fixed);
  if (ec != std::errc() || !std::isfinite(number))
    return false;
  unit = trim(std::string_view(ptr, static_cast<size_t>(last - ptr)));
  return true;
}

// Multiplier of a prefix at the start of `unit`, consuming it; binary prefixes are tried first so "Ki" wins
// over "K". An empty prefix is 1.
bool take_prefix(std::string_view& unit, double& mult) {
  static constexpr std::array<std::pair<std::string_view, double>, 13> prefixes{{
      {"Ki", 1024.0},
      {"Mi", 1048576.0},
      {"Gi", 1073741824.0},
      {"Ti", 1099511627776.0},
      {"Pi", 1125899906842624.0},
      {"Ei", 1152921504606846976.0},
      {"k", 1e3},
      {"K", 1e3},
      {"M", 1e6},
      {"G", 1e9},
      {"T", 1e12},
      {"P", 1e15},
      {"E", 1e18},
  }};
  for (const auto& [p, m] : prefixes) {
    if (unit.size() > p.size() && unit.substr(0, p.size()) == p) {
      unit.remove_prefix(p.size());
      mult = m;
      return true;
    }
  }
  mult = 1.0;
  return true;
}

// "B" (byte) or "b"/"bit" (bit, an eighth of a byte).
bool take_data_unit(std::string_view& unit, double& per_byte) {
  if (unit.starts_with("bit")) {
    unit.remove_prefix(3);
    per_byte = 1.0 / 8.0;
    return true;
  }
  if (unit.starts_with("B")) {
    unit.remove_prefix(1);
    per_byte = 1.0;
    return true;
  }
  if (unit.starts_with("b")) {
    unit.remove_prefix(1);
    per_byte = 1.0 / 8.0;
    return true;
  }
  return false;
}

std::optional<double> parse_data(std::string_view unit, bool rate, std::string* error) {
  double mult = 1.0;
  double per_byte = 1.0;
  std::string_view rest = unit;
  take_prefix(rest, mult);
  if (!take_data_unit(rest, per_byte)) {
    *error = "unknown unit \"" + std::string(unit) + "\"";
    return std::nullopt;
  }
  if (rate) {
    if (rest == "/s" || rest == "ps")
      return mult * per_byte;
    *error = rest.empty() ? "a rate needs \"/s\" or \"ps\" after \"" + std::string(unit) + "\""
                          : "unknown unit \"" + std::string(unit) + "\"";
    return std::nullopt;
  }
  if (!rest.empty()) {
    *error = "unknown unit \"" + std::string(unit) + "\"";
    return std::nullopt;
  }
  return mult * per_byte;
}

std::optional<double> parse_time_unit(std::string_view unit, std::string* error) {
  static constexpr std::array<std::pair<std::string_view, double>, 13> units{{
      {"ns", 1e-9},
      {"us", 1e-6},
      {"\xC2\xB5s", 1e-6},
      {"ms", 1e-3},
      {"s", 1.0},
      {"min", 60.0},
      {"h", 3600.0},
      {"d", 86400.0},
      {"w", 604800.0},
      {"sec", 1.0},
      {"hour", 3600.0},
      {"day", 86400.0},
      {"y", 31536000.0},
  }};
  for (const auto& [u, m] : units)
    if (unit == u)
      return m;
  *error = "unknown unit \"" + std::string(unit) + "\"";
  return std::nullopt;
}

std::optional<double> parse_simple(std::string_view unit, std::string_view base, std::string* error) {
  double mult = 1.0;
  std::string_view rest = unit;
  take_prefix(rest, mult);
  if (rest == base)
    return mult;
  if (unit == base)
    return 1.0;
  *error = "unknown unit \"" + std::string(unit) + "\"";
  return std::nullopt;
}

// "IOPS", "op/s" or "ops/s" after an optional SI prefix, which may stand apart ("1.6M IOPS", "800k op/s").
std::optional<double> parse_ops(std::string_view unit, std::string* error) {
  for (std::string_view binary : {"Ki", "Mi", "Gi", "Ti", "Pi", "Ei"}) {
    if (unit.starts_with(binary)) {
      *error = "binary prefix \"" + std::string(binary) + "\" in an operation rate (SI prefixes only: k, M, G, ...)";
      return std::nullopt;
    }
  }
  double mult = 1.0;
  std::string_view rest = unit;
  take_prefix(rest, mult);
  rest = trim(rest);
  if (rest == "IOPS" || rest == "op/s" || rest == "ops/s")
    return mult;
  *error = "unknown unit \"" + std::string(unit) + "\"";
  return std::nullopt;
}

std::optional<double> parse_money(std::string_view s, std::string_view tail, std::string* error);

// "$0.01/GB" or, with per_month, "$20/TB-month": an amount per size, returned per byte.
std::optional<double> parse_money_per_size(std::string_view s, bool per_month, std::string* error) {
  const auto slash = s.find('/');
  if (slash == std::string_view::npos) {
    *error = per_month ? "expected \"/TB-month\" or the like after the amount"
                       : "expected \"/GB\" or the like after the amount";
    return std::nullopt;
  }
  auto amount = parse_money(s.substr(0, slash), "", error);
  if (!amount)
    return std::nullopt;
  std::string_view per = trim(s.substr(slash + 1));
  if (per_month) {
    if (!per.ends_with("-month")) {
      *error = "expected a \"-month\" price, like \"$20/TB-month\"";
      return std::nullopt;
    }
    per.remove_suffix(6);
  }
  // "/TB" means per terabyte: a size unit without a number.
  auto bytes = parse_data(per, false, error);
  if (!bytes)
    return std::nullopt;
  return *amount / *bytes;
}

// "$2.50", "$1.2M", "$30k", with an optional "/h" or "/kWh" tail checked by the caller.
std::optional<double> parse_money(std::string_view s, std::string_view tail, std::string* error) {
  if (!s.starts_with("$")) {
    *error = "money starts with \"$\"";
    return std::nullopt;
  }
  s.remove_prefix(1);
  double number = 0.0;
  std::string_view unit;
  if (!split_number(s, number, unit)) {
    *error = "no number after \"$\"";
    return std::nullopt;
  }
  double mult = 1.0;
  if (unit.starts_with("k") || unit.starts_with("K")) {
    mult = 1e3;
    unit.remove_prefix(1);
  } else if (unit.starts_with("M")) {
    mult = 1e6;
    unit.remove_prefix(1);
  }
  unit = trim(unit);
  if (unit != tail) {
    *error = tail.empty()
                 ? "unexpected \"" + std::string(unit) + "\" after the amount"
                 : "expected \"" + std::string(tail) + "\" after the amount, got \"" + std::string(unit) + "\"";
    return std::nullopt;
  }
  return number * mult;
}

// v to the 3 significant digits printed, so the prefix is chosen on what is shown: 999.99e6 B is "1 GB", not
// "1e+03 MB".
double three_digits(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.3g", v);
  return std::strtod(buf, nullptr);
}

std::string format_scaled(double raw, std::string_view unit) {
  const double shown = three_digits(raw), v = raw;
  static constexpr std::array<std::pair<double, std::string_view>, 6> steps{
      {{1e18, "E"}, {1e15, "P"}, {1e12, "T"}, {1e9, "G"}, {1e6, "M"}, {1e3, "k"}}};
  for (const auto& [m, p] : steps) {
    if (std::fabs(shown) >= m) {
      char buf[64];
      std::snprintf(buf, sizeof buf, "%.3g %s%s", v / m, std::string(p).c_str(), std::string(unit).c_str());
      return buf;
    }
  }
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.3g %s", v, std::string(unit).c_str());
  return buf;
}

} // namespace

std::string describe(Dimension d) {
  switch (d) {
  case Dimension::bytes:
    return "a size with a unit like \"3.84TB\", \"7.68TiB\" or \"512MiB\"";
  case Dimension::seconds:
    return "a duration with a unit like \"30min\", \"2h\", \"7d\", \"3y\" or \"8us\"";
  case Dimension::bytes_per_second:
    return "a rate with a unit like \"400Gbps\", \"50GB/s\" or \"3.2GiB/s\"";
  case Dimension::watts:
    return "a power like \"700W\" or \"1.2kW\"";
  case Dimension::dollars:
    return "an amount like \"$2.50\", \"$30k\" or \"$1.2M\"";
  case Dimension::dollars_per_hour:
    return "a price per hour like \"$2.50/h\"";
  case Dimension::dollars_per_kwh:
    return "an energy price like \"$0.12/kWh\"";
  case Dimension::dollars_per_byte:
    return "a price per size like \"$0.01/GB\"";
  case Dimension::dollars_per_byte_month:
    return "a storage price like \"$20/TB-month\"";
  case Dimension::dollars_per_kw_month:
    return "a facility price per kilowatt of IT load like \"$150/kW-month\"";
  case Dimension::flops:
    return "a compute rate like \"989TFLOPS\"";
  case Dimension::ops_per_second:
    return "a rate of operations like \"1.6MIOPS\", \"940kIOPS\" or \"800k op/s\"";
  }
  return "a quantity";
}

std::optional<double> parse_quantity(std::string_view text, Dimension d, std::string* error) {
  std::string scratch;
  std::string& err = error ? *error : scratch;
  std::string_view s = trim(text);
  if (s.empty()) {
    err = "empty value";
    return std::nullopt;
  }
  switch (d) {
  case Dimension::dollars:
    return parse_money(s, "", &err);
  case Dimension::dollars_per_hour: {
    auto v = parse_money(s, "/h", &err);
    return v;
  }
  case Dimension::dollars_per_kwh:
    return parse_money(s, "/kWh", &err);
  case Dimension::dollars_per_byte:
    return parse_money_per_size(s, false, &err);
  case Dimension::dollars_per_byte_month:
    return parse_money_per_size(s, true, &err);
  case Dimension::dollars_per_kw_month:
    return parse_money(s, "/kW-month", &err);
  default:
    break;
  }
  double number = 0.0;
  std::string_view unit;
  if (!split_number(s, number, unit)) {
    err = "not a number followed by a unit";
    return std::nullopt;
  }
  if (unit.empty()) {
    err = "a bare number has no unit";
    return std::nullopt;
  }
  std::optional<double> mult;
  switch (d) {
  case Dimension::bytes:
    mult = parse_data(unit, false, &err);
    break;
  case Dimension::bytes_per_second:
    mult = parse_data(unit, true, &err);
    break;
  case Dimension::seconds:
    mult = parse_time_unit(unit, &err);
    break;
  case Dimension::watts:
    mult = parse_simple(unit, "W", &err);
    break;
  case Dimension::flops:
    mult = unit.ends_with("FLOP/s") ? parse_simple(unit.substr(0, unit.size() - 2), "FLOP", &err)
                                    : parse_simple(unit, "FLOPS", &err);
    break;
  case Dimension::ops_per_second:
    mult = parse_ops(unit, &err);
    break;
  default:
    break;
  }
  if (!mult)
    return std::nullopt;
  return number * *mult;
}

std::string format_bytes(Bytes b) { return format_scaled(b.value, "B"); }
std::string format_rate(BytesPerSecond r) { return format_scaled(r.value, "B/s"); }
std::string format_duration(Seconds s) {
  char buf[64];
  // The unit is chosen on the size shown (a negative delta too: -5 s, not -5e+06 us), the digits from v.
  const double v = s.value, shown = std::fabs(three_digits(v));
  if (shown >= 31536000.0)
    std::snprintf(buf, sizeof buf, "%.3g y", v / 31536000.0);
  else if (shown >= 86400.0)
    std::snprintf(buf, sizeof buf, "%.3g d", v / 86400.0);
  else if (shown >= 3600.0)
    std::snprintf(buf, sizeof buf, "%.3g h", v / 3600.0);
  else if (shown >= 60.0)
    std::snprintf(buf, sizeof buf, "%.3g min", v / 60.0);
  else if (shown >= 1.0 || v == 0.0)
    std::snprintf(buf, sizeof buf, "%.3g s", v);
  else if (shown >= 1e-3)
    std::snprintf(buf, sizeof buf, "%.3g ms", v * 1e3);
  else
    std::snprintf(buf, sizeof buf, "%.3g us", v * 1e6);
  return buf;
}
std::string format_money(Dollars d) {
  const double v = std::fabs(d.value);
  const char* sign = d.value < 0 && v >= 1e-9 ? "-" : "";
  char buf[64];
  if (v < 1e-9)
    return "$0";
  if (v < 100) {
    // Cents, or three significant digits below a cent: a cost per request is a fraction of one.
    const int decimals = v >= 0.01 ? 2 : 2 - static_cast<int>(std::floor(std::log10(v)));
    std::snprintf(buf, sizeof buf, "%s$%.*f", sign, decimals, v);
    return buf;
  }
  return std::string(sign) + "$" + format_count(v);
}

std::string format_times(double n, BytesPerSecond each) { return format_count(n) + " x " + format_rate(each); }

std::string format_number(const char* printf_format, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, printf_format, v);
  return buf;
}

std::string format_count(double v, int decimals) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, std::fabs(v));
  const std::string text = buf;
  const auto dot = text.find('.');
  const std::string digits = text.substr(0, dot), rest = dot == std::string::npos ? "" : text.substr(dot);
  std::string grouped = v < 0 && std::fabs(v) >= 0.5 * std::pow(10.0, -decimals) ? "-" : "";
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0)
      grouped += ',';
    grouped += digits[i];
  }
  return grouped + rest;
}

std::string format_dollars(Dollars d) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "$%.2f", d.value);
  return buf;
}

} // namespace aisim::models
