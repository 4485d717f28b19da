// Fuzz target: a quantity as a scenario or a command-line flag writes it ("400Gbps", "3.84TB", "$1.2k/h",
// "10min"). The first byte picks the dimension, the rest is the text.
// Properties: no crash; a refusal says why; an accepted value is finite (it feeds the engine's arithmetic); and
// what aisim prints for a size, a rate, a duration or dollars reads back as the same quantity to the 3 significant
// digits it prints (a planner copies printed figures into scenarios).
#include "tests/fuzz/fuzz_input.hpp"

#include "models/common/units.hpp"

#include <cmath>

namespace {

using aisim::models::Dimension;
constexpr Dimension kDimensions[] = {Dimension::bytes,
                                     Dimension::seconds,
                                     Dimension::bytes_per_second,
                                     Dimension::watts,
                                     Dimension::dollars,
                                     Dimension::dollars_per_hour,
                                     Dimension::dollars_per_kwh,
                                     Dimension::flops,
                                     Dimension::ops_per_second,
                                     Dimension::dollars_per_byte,
                                     Dimension::dollars_per_byte_month,
                                     Dimension::dollars_per_kw_month};

// The printed text of `v`, for the dimensions aisim prints with units; empty for the others.
std::string printed(Dimension d, double v) {
  using namespace aisim::models;
  switch (d) {
  case Dimension::bytes:
    return format_bytes(Bytes(v));
  case Dimension::bytes_per_second:
    return format_rate(BytesPerSecond(v));
  case Dimension::seconds:
    return format_duration(Seconds(v));
  case Dimension::dollars:
    return format_dollars(Dollars(v));
  default:
    return {};
  }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace aisim;
  if (size == 0)
    return 0;
  const Dimension d = kDimensions[data[0] % std::size(kDimensions)];
  const std::string_view text(reinterpret_cast<const char*>(data) + 1, size - 1);
  std::string error;
  const auto v = models::parse_quantity(text, d, &error);
  if (!v) {
    fuzz::require(!error.empty(), "a quantity refused without a reason");
    return 0;
  }
  fuzz::require(std::isfinite(*v), "a quantity accepted as infinite or not a number");
  (void)models::describe(d);
  // Printed figures are in plain notation between these magnitudes; beyond, printf's exponent form is not
  // scenario syntax (and no planner's size, rate or period is 1e-5 or 1e21 of its unit).
  const double a = std::fabs(*v);
  const bool plain = a == 0 || (a >= 1e-3 && a < 9.99e20 && (d != Dimension::seconds || a < 999 * 31536000.0));
  const std::string shown = plain ? printed(d, *v) : std::string();
  if (shown.empty())
    return 0;
  std::string back_error;
  const auto back = models::parse_quantity(shown, d, &back_error);
  if (!back)
    std::fprintf(stderr, "printed \"%s\" for %.17g: %s\n", shown.c_str(), *v, back_error.c_str());
  fuzz::require(back.has_value(), "a printed quantity does not read back");
  // Dollars print to the cent. Past 2^43 ($8.8 trillion) a double's spacing exceeds a hundredth of a cent, so the
  // printed cents read back as the nearest double, up to one spacing beyond the half cent of rounding: the text is
  // right and no reader can do better.
  const double spacing = std::nextafter(a, INFINITY) - a;
  const double tolerance = d == Dimension::dollars ? 0.005 + spacing : 0.005 * a + 1e-300;
  if (std::fabs(*back - *v) > tolerance)
    std::fprintf(stderr, "printed \"%s\" for %.17g reads back as %.17g\n", shown.c_str(), *v, *back);
  fuzz::require(std::fabs(*back - *v) <= tolerance, "a printed quantity reads back as another value");
  return 0;
}
