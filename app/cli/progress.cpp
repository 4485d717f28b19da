#include "app/cli/progress.hpp"

#include <cstdio>
#include <unistd.h>

namespace aisim::app {

Progress::Progress(ProgressMode mode)
    : mode_(mode), tty_(isatty(STDERR_FILENO) != 0), start_(std::chrono::steady_clock::now()), last_(start_) {}

void Progress::update(double simulated_s, double fraction) {
  const auto now = std::chrono::steady_clock::now();
  if (mode_ == ProgressMode::jsonl) {
    std::printf("{\"type\":\"progress\",\"simulated_s\":%.6f,\"fraction\":%.4f}\n", simulated_s, fraction);
    std::fflush(stdout);
    return;
  }
  if (mode_ != ProgressMode::automatic || !tty_)
    return;
  // Short runs finish before a bar would help; start drawing after a second, then at most 10 times a second.
  if (now - start_ < std::chrono::seconds(1) || (drawn_ && now - last_ < std::chrono::milliseconds(100)))
    return;
  last_ = now;
  drawn_ = true;
  const int width = 40;
  const int filled = static_cast<int>(fraction * width);
  std::fprintf(stderr, "\r[%.*s%*s] %5.1f%%  simulated %.1f h", filled, "########################################",
               width - filled, "", fraction * 100.0, simulated_s / 3600.0);
  std::fflush(stderr);
}

void Progress::finish() {
  if (drawn_)
    std::fprintf(stderr, "\r%*s\r", 80, "");
  drawn_ = false;
}

} // namespace aisim::app
