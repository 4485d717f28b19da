// What every fuzz target shares: the libFuzzer entry point's signature, a check that stops the run with a message
// when a property a user relies on is broken (a crash is not the only bug worth finding), and the split of one
// input into its parts.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>
#include <vector>

#include <unistd.h>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

namespace aisim::fuzz {

// Aborts (libFuzzer saves the input as a crash) when `ok` is false: the property is broken for this input.
inline void require(bool ok, const char* what) {
  if (!ok) {
    std::fprintf(stderr, "aisim fuzz: property broken: %s\n", what);
    std::abort();
  }
}

// An input as text, and the leading lines that start with `prefix` split off: "--set /a=1\n{...}" gives
// {"/a=1"} and "{...}". The rest is everything after the last such line.
struct SplitInput {
  std::vector<std::string> lines;
  std::string rest;
};
inline SplitInput split_leading_lines(std::string_view text, std::string_view prefix) {
  SplitInput out;
  while (text.substr(0, prefix.size()) == prefix) {
    const auto nl = text.find('\n');
    out.lines.emplace_back(text.substr(prefix.size(), nl == std::string_view::npos ? text.npos : nl - prefix.size()));
    text = nl == std::string_view::npos ? std::string_view() : text.substr(nl + 1);
  }
  out.rest = std::string(text);
  return out;
}

// The text after the first line equal to `marker`, and the text before it; no marker: all of it before.
inline std::pair<std::string, std::string> split_at_marker(std::string_view text, std::string_view marker) {
  const std::string m = "\n" + std::string(marker) + "\n";
  const auto at = text.find(m);
  if (at == std::string_view::npos)
    return {std::string(text), std::string()};
  return {std::string(text.substr(0, at)), std::string(text.substr(at + m.size()))};
}

// A folder of this process's own under the temporary directory, for targets whose input is read from files;
// one per process, since libFuzzer's -jobs runs several at once. Removed when the process exits.
inline const std::filesystem::path& scratch_dir(const char* target) {
  struct Folder {
    std::filesystem::path path;
    explicit Folder(const char* name)
        : path(std::filesystem::temp_directory_path() /
               ("aisim-fuzz-" + std::string(name) + "-" + std::to_string(getpid()))) {
      std::filesystem::create_directories(path);
    }
    Folder(const Folder&) = delete;
    ~Folder() {
      std::error_code ec;
      std::filesystem::remove_all(path, ec);
    }
  };
  static const Folder dir(target);
  return dir.path;
}

inline void write_file(const std::filesystem::path& p, std::string_view text) {
  std::ofstream out(p, std::ios::binary | std::ios::trunc);
  out.write(text.data(), static_cast<std::streamsize>(text.size()));
}

} // namespace aisim::fuzz
