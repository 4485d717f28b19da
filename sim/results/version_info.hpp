// Build provenance, filled in at build time by version_info.cpp.in.
#pragma once

namespace aisim::sim {

extern const char* const kAisimVersion;
extern const char* const kGitCommit;

} // namespace aisim::sim
