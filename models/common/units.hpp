// Strong unit types and the parser for quantities written with units in scenario files ("400Gbps", "3.84TB").
// Code passes these types around; raw doubles appear only inside numeric kernels, with the unit in the name.
#pragma once

#include <compare>
#include <optional>
#include <string>
#include <string_view>

namespace aisim::models {

// A double tagged with its dimension. Arithmetic that keeps the dimension is allowed; crossing dimensions is
// done by the named operators below (bytes / seconds = bytes per second, ...), so a unit error is a compile error.
template <class Tag> struct Quantity {
  double value = 0.0;

  constexpr Quantity() = default;
  constexpr explicit Quantity(double v) : value(v) {}

  constexpr Quantity operator+(Quantity o) const { return Quantity(value + o.value); }
  constexpr Quantity operator-(Quantity o) const { return Quantity(value - o.value); }
  constexpr Quantity operator*(double k) const { return Quantity(value * k); }
  constexpr Quantity operator/(double k) const { return Quantity(value / k); }
  constexpr double operator/(Quantity o) const { return value / o.value; }
  constexpr Quantity& operator+=(Quantity o) {
    value += o.value;
    return *this;
  }
  constexpr Quantity& operator-=(Quantity o) {
    value -= o.value;
    return *this;
  }
  constexpr auto operator<=>(const Quantity&) const = default;
};
template <class Tag> constexpr Quantity<Tag> operator*(double k, Quantity<Tag> q) { return q * k; }

struct BytesTag {};
struct SecondsTag {};
struct BytesPerSecondTag {};
struct WattsTag {};
struct DollarsTag {};
struct DollarsPerHourTag {};
struct DollarsPerKWhTag {};
struct DollarsPerByteTag {};
struct DollarsPerByteMonthTag {};
struct DollarsPerKWMonthTag {};
struct FlopsPerSecondTag {};
struct OpsPerSecondTag {};

using Bytes = Quantity<BytesTag>;
using Seconds = Quantity<SecondsTag>;
using BytesPerSecond = Quantity<BytesPerSecondTag>;
using Watts = Quantity<WattsTag>;
using Dollars = Quantity<DollarsTag>;
using DollarsPerHour = Quantity<DollarsPerHourTag>;
using DollarsPerKWh = Quantity<DollarsPerKWhTag>;
using DollarsPerByte = Quantity<DollarsPerByteTag>;
using DollarsPerByteMonth = Quantity<DollarsPerByteMonthTag>; // a month is 1/12 of a 365-day year
// Facility space and cooling billed per kilowatt of IT load per month (colocation pricing).
using DollarsPerKWMonth = Quantity<DollarsPerKWMonthTag>;
using FlopsPerSecond = Quantity<FlopsPerSecondTag>;
// I/O operations (or any countable operations) per second: IOPS.
using OpsPerSecond = Quantity<OpsPerSecondTag>;

constexpr BytesPerSecond operator/(Bytes b, Seconds s) { return BytesPerSecond(b.value / s.value); }
constexpr Seconds operator/(Bytes b, BytesPerSecond r) { return Seconds(b.value / r.value); }
constexpr Bytes operator*(BytesPerSecond r, Seconds s) { return Bytes(r.value * s.value); }
constexpr Dollars operator*(DollarsPerHour p, Seconds s) { return Dollars(p.value * s.value / 3600.0); }
// Operations of a fixed size: IOPS x block size = bytes per second, and back.
constexpr BytesPerSecond operator*(OpsPerSecond x, Bytes b) { return BytesPerSecond(x.value * b.value); }
constexpr OpsPerSecond operator/(BytesPerSecond r, Bytes b) { return OpsPerSecond(r.value / b.value); }

// Energy price times power times time: W x s -> kWh.
constexpr Dollars energy_cost(Watts w, Seconds s, DollarsPerKWh price) {
  return Dollars(w.value * s.value / 3.6e6 * price.value);
}

// The kinds of quantity a scenario value can hold; each has its own accepted units.
enum class Dimension {
  bytes,
  seconds,
  bytes_per_second,
  watts,
  dollars,
  dollars_per_hour,
  dollars_per_kwh,
  flops,
  ops_per_second,
  dollars_per_byte,       // "$0.01/GB": a price per byte moved (object retrieval)
  dollars_per_byte_month, // "$20/TB-month": a price per byte stored per month (object capacity)
  dollars_per_kw_month    // "$150/kW-month": facility space per kilowatt of IT load per month
};

// What a quantity of a dimension looks like, for error messages: `a size like "3.84TB" or "7.68TiB"`.
std::string describe(Dimension d);

// Parses a quantity string in the given dimension. On failure returns nullopt and sets *error to the reason
// (without the expected-form text, which callers add with describe()).
// Rules: SI prefixes (k M G T P E) are powers of 1000, binary ones (Ki Mi Gi Ti Pi Ei) powers of 1024; "b" is a
// bit and "B" a byte; rates take "/s" or "ps"; money is "$" followed by a number with an optional k/M suffix.
// Operation rates are "IOPS", "op/s" or "ops/s" after an optional SI prefix ("1.6MIOPS", "800k op/s"); binary
// prefixes are refused there, since a count of operations has no power-of-two convention to follow.
std::optional<double> parse_quantity(std::string_view text, Dimension d, std::string* error);

template <class Q> std::optional<Q> parse_as(std::string_view text, Dimension d, std::string* error) {
  auto v = parse_quantity(text, d, error);
  if (!v)
    return std::nullopt;
  return Q(*v);
}

// Formats a value for people: "1.50 TB", "3.2 GB/s", "2.5 h". Decimal SI prefixes, 3 significant digits.
std::string format_bytes(Bytes b);
std::string format_rate(BytesPerSecond r);
std::string format_duration(Seconds s);
std::string format_dollars(Dollars d); // "$30000.00": exact, parses back as a quantity
// Money for people: thousands separators, whole dollars from $100 up ("$21,676,464", "-$1,234"), cents below
// ("$1.61"), three significant digits below a cent ("$0.000269"). Not for scenario text: the quantity parser
// reads no separators.
std::string format_money(Dollars d);
// A count or amount for people: thousands separators and `decimals` places ("826,269.5").
std::string format_count(double v, int decimals = 0);
// How a total adds up: "8 x 12.5 GB/s".
std::string format_times(double n, BytesPerSecond each);
// One number in a printf format of fixed layout: format_number("%5.1f %%", 12.345) is " 12.3 %".
std::string format_number(const char* printf_format, double v);

} // namespace aisim::models
