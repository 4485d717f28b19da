#include "models/scenario/included_file.hpp"

#include "models/scenario/scenario_parser.hpp"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace aisim::models {

std::optional<std::string> read_text_file(const std::string& path, std::string* why) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) {
    *why = "a folder, not a file";
    return std::nullopt;
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    *why = "cannot open the file (" + std::string(std::strerror(errno)) + ")";
    return std::nullopt;
  }
  // Read in pieces up to the limit, so that /dev/zero or a stray disk image is refused instead of read until
  // memory runs out.
  std::string text;
  char chunk[1 << 16];
  while (in.read(chunk, sizeof chunk) || in.gcount() > 0) {
    text.append(chunk, static_cast<size_t>(in.gcount()));
    if (text.size() > kMaxInputFileBytes) {
      *why = "larger than " + std::to_string(kMaxInputFileBytes >> 20) +
             " MiB (no scenario, model or results file is that large; is this the right file?)";
      return std::nullopt;
    }
  }
  if (in.bad()) {
    *why = "cannot read the file (" + std::string(std::strerror(errno)) + ")";
    return std::nullopt;
  }
  return text;
}

std::optional<Json> load_included_json(const std::string& rel, const std::string& base_dir, const std::string& format,
                                       const std::string& ptr, Diagnostics& diag) {
  const std::string path = (std::filesystem::path(base_dir) / rel).string();
  std::string why;
  auto text = read_text_file(path, &why);
  if (!text) {
    diag.error(ptr, why + " (expected a readable " + format + " file, got \"" + path + "\")");
    return std::nullopt;
  }
  Diagnostics inner(path);
  auto doc = parse_json_text(*text, inner);
  // A "format" that is not a string is refused like a wrong one (Json::value would throw on its type).
  const auto format_of = [](const Json& d) { return d.contains("format") ? d["format"] : Json(); };
  if (doc && (!doc->is_object() || format_of(*doc) != Json(format)))
    inner.error("/format", "not an " + format + " file (expected \"" + format + "\", got " +
                               json_excerpt(doc->is_object() ? format_of(*doc) : *doc) + ")");
  for (const auto& d : inner.items())
    diag.error(ptr, "in " + path + " at " + (d.pointer.empty() ? "/" : d.pointer) + ": " + d.message);
  if (inner.has_errors())
    return std::nullopt;
  return doc;
}

} // namespace aisim::models
