// Fuzz target: a sweep's folder as `aisim report` reads it (sweep.json alone: a user may edit it by hand, or hand
// over one cut short or written by another version). An input is sweep.json's text, written to a folder without a
// results.json, so that the folder is read as a sweep.
// Properties: no crash, hang or leak; a folder refused says why; an accepted one renders its page.
#include "tests/fuzz/fuzz_input.hpp"

#include "app/cli/report_command.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace aisim;
  const auto& dir = fuzz::scratch_dir("sweep");
  fuzz::write_file(dir / "sweep.json", std::string_view(reinterpret_cast<const char*>(data), size));
  const auto page = app::render_folder_page(dir.string());
  fuzz::require(page.why.empty() != page.html.empty(), "a sweep folder neither rendered nor refused with a reason");
  fuzz::require(page.html.empty() || page.file_name == "sweep.html", "a sweep folder rendered as another page");
  return 0;
}
