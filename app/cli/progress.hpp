// Progress of a run: a bar on a terminal (for runs longer than about a second), one JSON line per update for
// programs that drive aisim (--progress=jsonl), or nothing.
#pragma once

#include <chrono>
#include <string>

namespace aisim::app {

enum class ProgressMode { automatic, none, jsonl };

class Progress {
public:
  explicit Progress(ProgressMode mode);
  void update(double simulated_s, double fraction);
  void finish();

private:
  ProgressMode mode_;
  bool tty_;
  bool drawn_ = false;
  std::chrono::steady_clock::time_point start_;
  std::chrono::steady_clock::time_point last_;
};

} // namespace aisim::app
