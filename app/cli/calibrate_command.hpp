// `aisim calibrate`: measure a drive (or a file on it) with the io_uring probe and fit an aisim.drive/v1 model
// that scenarios name directly; or redo the fit from saved raw measurements (--refit). Outputs go through a
// temporary file and a rename. Exit 0 on success, 2 on bad input or a refused target (nothing written), 1 when
// the machine cannot run the probe (io_uring unavailable), an I/O fails, or on an internal error.
#pragma once

#include <string>
#include <vector>

namespace aisim::app {

struct CalibrateCommand {
  std::string target; // a file or block device; empty with --refit
  std::string out;    // the drive model; raw and fit report beside it
  std::string refit;  // RAW.json to fit again instead of measuring
  bool quick = false;
  std::string size; // "4GiB": create a file target of this size
  bool write = false;
  bool allow_destructive = false;
  std::vector<std::string> points; // "read:random:4KiB:32": measure these only, write raw measurements to --out
  std::string runtime;             // per-point measured time ("10s")
};

int calibrate_command(const CalibrateCommand& cmd);

// The files written beside `out`: drive.json -> drive.raw.json and drive.fit.json.
std::string raw_path_for(const std::string& out);
std::string fit_path_for(const std::string& out);

} // namespace aisim::app
