#include "models/scenario/included_file.hpp"

#include "models/scenario/scenario_parser.hpp"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace aisim::models {

std::optional<std::string> read_text_file(const std::string& path, std::string* why) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    *why = "cannot open the file (" + std::string(std::strerror(errno)) + ")";
    return std::nullopt;
  }
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
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
  if (doc && (!doc->is_object() || doc->value("format", "") != format))
    inner.error("/format", "not an " + format + " file (expected \"" + format + "\", got " +
                               json_excerpt(doc->is_object() ? doc->value("format", Json()) : *doc) + ")");
  for (const auto& d : inner.items())
    diag.error(ptr, "in " + path + " at " + (d.pointer.empty() ? "/" : d.pointer) + ": " + d.message);
  if (inner.has_errors())
    return std::nullopt;
  return doc;
}

} // namespace aisim::models
