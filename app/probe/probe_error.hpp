// The calibration probe's errors. A refusal (a tmpfs target, a mounted device, a missing file) is the user's to
// fix and maps to exit status 2; an unusable machine (io_uring disabled) or a failed I/O maps to 1.
#pragma once

#include <stdexcept>
#include <string>

namespace aisim::app::probe {

enum class ProbeErrorKind {
  bad_input,   // the target or the options are refused
  unavailable, // the kernel or the environment cannot run the probe (io_uring disabled, no O_DIRECT)
  io_failure   // an I/O failed while measuring
};

class ProbeError : public std::runtime_error {
public:
  ProbeError(ProbeErrorKind kind, const std::string& what) : std::runtime_error(what), kind_(kind) {}
  ProbeErrorKind get_kind() const { return kind_; }

private:
  ProbeErrorKind kind_;
};

} // namespace aisim::app::probe
