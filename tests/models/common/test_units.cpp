#include "models/common/units.hpp"

#include <catch2/catch.hpp>

using namespace aisim::models;

namespace {
double q(const char* text, Dimension d) {
  std::string err;
  auto v = parse_quantity(text, d, &err);
  INFO(text << ": " << err);
  REQUIRE(v.has_value());
  return *v;
}
std::string error_of(const char* text, Dimension d) {
  std::string err;
  auto v = parse_quantity(text, d, &err);
  REQUIRE_FALSE(v.has_value());
  return err;
}
} // namespace

TEST_CASE("sizes keep SI and binary prefixes and bits apart", "[units]") {
  CHECK(q("3.84TB", Dimension::bytes) == 3.84e12);
  CHECK(q("7.68TiB", Dimension::bytes) == 7.68 * 1099511627776.0);
  CHECK(q("512MiB", Dimension::bytes) == 512.0 * 1048576.0);
  CHECK(q("4KiB", Dimension::bytes) == 4096.0);
  CHECK(q("1kB", Dimension::bytes) == 1000.0);
  CHECK(q("8Gb", Dimension::bytes) == 1e9);
  CHECK(q("100 B", Dimension::bytes) == 100.0);
  CHECK(q("1EB", Dimension::bytes) == 1e18);
}

TEST_CASE("rates accept bits and bytes per second", "[units]") {
  CHECK(q("400Gbps", Dimension::bytes_per_second) == 50e9);
  CHECK(q("50GB/s", Dimension::bytes_per_second) == 50e9);
  CHECK(q("3.2GiB/s", Dimension::bytes_per_second) == 3.2 * 1073741824.0);
  CHECK(q("25Gb/s", Dimension::bytes_per_second) == 25e9 / 8);
  CHECK(q("800Mbit/s", Dimension::bytes_per_second) == 100e6);
  CHECK(q("7GBps", Dimension::bytes_per_second) == 7e9);
}

TEST_CASE("durations", "[units]") {
  CHECK(q("30min", Dimension::seconds) == 1800.0);
  CHECK(q("2h", Dimension::seconds) == 7200.0);
  CHECK(q("3d", Dimension::seconds) == 259200.0);
  CHECK(q("8us", Dimension::seconds) == Approx(8e-6));
  CHECK(q("250ns", Dimension::seconds) == Approx(250e-9));
  CHECK(q("1.5s", Dimension::seconds) == 1.5);
  CHECK(q("3y", Dimension::seconds) == 3 * 365 * 86400.0);
}

TEST_CASE("money, prices, power and compute", "[units]") {
  CHECK(q("$2.50", Dimension::dollars) == 2.5);
  CHECK(q("$30k", Dimension::dollars) == 30000.0);
  CHECK(q("$1.2M", Dimension::dollars) == 1.2e6);
  CHECK(q("$2.50/h", Dimension::dollars_per_hour) == 2.5);
  CHECK(q("$0.12/kWh", Dimension::dollars_per_kwh) == 0.12);
  CHECK(q("700W", Dimension::watts) == 700.0);
  CHECK(q("1.2kW", Dimension::watts) == 1200.0);
  CHECK(q("989TFLOPS", Dimension::flops) == 989e12);
  CHECK(q("989 TFLOP/s", Dimension::flops) == 989e12);
}

TEST_CASE("operation rates take SI prefixes, IOPS or op/s", "[units]") {
  CHECK(q("1.6MIOPS", Dimension::ops_per_second) == 1.6e6);
  CHECK(q("1.6M IOPS", Dimension::ops_per_second) == 1.6e6);
  CHECK(q("940kIOPS", Dimension::ops_per_second) == 940e3);
  CHECK(q("940KIOPS", Dimension::ops_per_second) == 940e3);
  CHECK(q("1200000IOPS", Dimension::ops_per_second) == 1.2e6);
  CHECK(q("800k op/s", Dimension::ops_per_second) == 800e3);
  CHECK(q("2.5Gops/s", Dimension::ops_per_second) == 2.5e9);
  CHECK(q("38 kIOPS", Dimension::ops_per_second) == 38e3);
  CHECK(error_of("1.6M", Dimension::ops_per_second) == "unknown unit \"M\"");
  CHECK(error_of("1600000", Dimension::ops_per_second) == "a bare number has no unit");
  CHECK(error_of("1MiIOPS", Dimension::ops_per_second) ==
        "binary prefix \"Mi\" in an operation rate (SI prefixes only: k, M, G, ...)");
  CHECK(error_of("1.6M iops", Dimension::ops_per_second) == "unknown unit \"M iops\"");
  CHECK(error_of("7GB/s", Dimension::ops_per_second) == "unknown unit \"GB/s\"");
  CHECK(describe(Dimension::ops_per_second) == "a rate of operations like \"1.6MIOPS\", \"940kIOPS\" or \"800k op/s\"");
  // IOPS x block size is a bandwidth, and back.
  CHECK((OpsPerSecond(1.6e6) * Bytes(4096)).value == 1.6e6 * 4096);
  CHECK((BytesPerSecond(7e9) / Bytes(4096)).value == 7e9 / 4096);
}

TEST_CASE("prices per size and per size-month", "[units]") {
  CHECK(q("$0.01/GB", Dimension::dollars_per_byte) == Approx(0.01 / 1e9));
  CHECK(q("$20/TB-month", Dimension::dollars_per_byte_month) == Approx(20 / 1e12));
  CHECK(q("$1/TiB-month", Dimension::dollars_per_byte_month) == Approx(1 / 1099511627776.0));
  CHECK(error_of("$20/TB", Dimension::dollars_per_byte_month) == "expected a \"-month\" price, like \"$20/TB-month\"");
  CHECK(error_of("$20", Dimension::dollars_per_byte) == "expected \"/GB\" or the like after the amount");
  CHECK(error_of("$20/parsec", Dimension::dollars_per_byte) == "unknown unit \"parsec\"");
}

TEST_CASE("invalid quantities say why", "[units]") {
  CHECK(error_of("400", Dimension::bytes_per_second) == "a bare number has no unit");
  CHECK(error_of("400Gb", Dimension::bytes_per_second) == "a rate needs \"/s\" or \"ps\" after \"Gb\"");
  CHECK(error_of("3.84XB", Dimension::bytes) == "unknown unit \"XB\"");
  CHECK(error_of("fast", Dimension::bytes_per_second) == "not a number followed by a unit");
  CHECK(error_of("", Dimension::seconds) == "empty value");
  CHECK(error_of("2 fortnights", Dimension::seconds) == "unknown unit \"fortnights\"");
  CHECK(error_of("2.50", Dimension::dollars) == "money starts with \"$\"");
  CHECK(error_of("$2.50", Dimension::dollars_per_hour) == "expected \"/h\" after the amount, got \"\"");
  CHECK(error_of("7GB/s", Dimension::bytes) == "unknown unit \"GB/s\"");
}

TEST_CASE("strong types combine only in meaningful ways", "[units]") {
  const Bytes size(980e9);
  const BytesPerSecond bw(400e9);
  CHECK((size / bw).value == Approx(2.45));
  CHECK((bw * Seconds(2)).value == 800e9);
  CHECK((DollarsPerHour(2.5) * Seconds(7200)).value == 5.0);
  CHECK(energy_cost(Watts(1000), Seconds(3600), DollarsPerKWh(0.12)).value == Approx(0.12));
  CHECK(format_bytes(Bytes(3.84e12)) == "3.84 TB");
  CHECK(format_rate(BytesPerSecond(50e9)) == "50 GB/s");
  // The prefix follows the digits shown: never "1e+03 MB/s".
  CHECK(format_rate(BytesPerSecond(999.99e6)) == "1 GB/s");
  CHECK(format_bytes(Bytes(999.6)) == "1 kB");
  CHECK(format_duration(Seconds(59.999)) == "1 min");
  CHECK(format_duration(Seconds(0.99999)) == "1 s");
  CHECK(format_duration(Seconds(1800)) == "30 min");
  // A negative duration (a delta) takes the unit of its size (found by tests/fuzz: "-5e+06 us").
  CHECK(format_duration(Seconds(-5)) == "-5 s");
  CHECK(format_duration(Seconds(-7200)) == "-2 h");
}

TEST_CASE("money for people: thousands separators, cents only below $100", "[units]") {
  CHECK(format_money(Dollars(21676463.53)) == "$21,676,464");
  CHECK(format_money(Dollars(999.6)) == "$1,000");
  CHECK(format_money(Dollars(100)) == "$100");
  CHECK(format_money(Dollars(1.6132)) == "$1.61");
  CHECK(format_money(Dollars(-1234)) == "-$1,234");
  CHECK(format_money(Dollars(0)) == "$0");
  CHECK(format_money(Dollars(123456)) == "$123,456");
  CHECK(format_money(Dollars(0.000269)) == "$0.000269");
  CHECK(format_money(Dollars(0.5)) == "$0.50");
}

TEST_CASE("counts for people: thousands separators, fixed decimals", "[units]") {
  CHECK(format_count(826269.46, 1) == "826,269.5");
  CHECK(format_count(999.96, 1) == "1,000.0");
  CHECK(format_count(12) == "12");
  CHECK(format_count(-1234567) == "-1,234,567");
  CHECK(format_count(-0.01, 1) == "0.0");
  // A price per kW-month reads as a facility price; one per kWh does not.
  std::string err;
  CHECK(parse_quantity("$150/kW-month", Dimension::dollars_per_kw_month, &err) == Approx(150));
  CHECK_FALSE(parse_quantity("$150/kWh", Dimension::dollars_per_kw_month, &err).has_value());
}
