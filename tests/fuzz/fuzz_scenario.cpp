// Fuzz target: a scenario document as `aisim check` and `aisim run` read it, with --set overrides. An input is
// zero or more lines "--set /json/pointer=value" and then the document's text; drive and price files it names
// are looked up from scenarios/, as for a scenario saved there.
// Properties: no crash, hang or leak; a refused document names at least one error, each with a message; an
// accepted one has no error, and its resolved form (what results.json records and a rerun reads) is accepted
// again.
#include "tests/fuzz/fuzz_input.hpp"

#include "models/scenario/scenario_parser.hpp"

namespace {

const std::string kBaseDir = AISIM_SOURCE_DIR "/scenarios";

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace aisim;
  const auto input = fuzz::split_leading_lines(std::string_view(reinterpret_cast<const char*>(data), size), "--set ");
  models::Diagnostics diag("fuzz.json");
  auto doc = models::parse_json_text(input.rest, diag);
  if (!doc) {
    fuzz::require(diag.has_errors(), "unparsable JSON without an error");
    return 0;
  }
  for (const auto& o : input.lines)
    models::apply_override(*doc, o, diag);
  auto parsed = models::parse_scenario(std::move(*doc), "fuzz.json", kBaseDir);
  const auto& pd = parsed.diagnostics;
  for (const auto& d : pd.items())
    fuzz::require(!d.message.empty(), "a diagnostic without a message");
  (void)pd.format(true);
  if (!parsed.scenario) {
    fuzz::require(pd.has_errors(), "a scenario refused without an error");
    return 0;
  }
  fuzz::require(!pd.has_errors(), "a scenario accepted with errors");
  if (diag.has_errors())
    return 0; // an override was refused: `aisim` reports it and stops, whatever the document says
  auto again = models::parse_scenario(parsed.scenario->resolved, "fuzz-resolved.json", kBaseDir);
  if (!again.scenario)
    std::fprintf(stderr, "%s", again.diagnostics.format(false).c_str());
  fuzz::require(again.scenario.has_value(), "a scenario's resolved form is refused when read again");
  return 0;
}
