// SHA-256 (FIPS 180-4) of a byte string, as lowercase hex: results.json records the scenario file's content hash so
// that a run can be traced to the exact file it read (`sha256sum FILE` prints the same digits).
#pragma once

#include <string>
#include <string_view>

namespace aisim::models {

std::string sha256_hex(std::string_view bytes);

} // namespace aisim::models
