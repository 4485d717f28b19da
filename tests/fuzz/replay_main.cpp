// The fuzz targets as ordinary programs: each argument is a file, or a folder whose files (not its subfolders)
// are run through the target one by one, in name order. CTest replays the seed corpora and every input a fuzzing
// run once broke (tests/fuzz/regressions/) this way, in the release and the sanitizer builds, so a fixed crash
// stays fixed without clang or libFuzzer.
#include "tests/fuzz/fuzz_input.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>

namespace fs = std::filesystem;

int main(int argc, char** argv) {
  std::vector<fs::path> files;
  for (int i = 1; i < argc; ++i) {
    const fs::path p(argv[i]);
    std::error_code ec;
    if (fs::is_directory(p, ec)) {
      for (const auto& e : fs::directory_iterator(p))
        if (e.is_regular_file())
          files.push_back(e.path());
    } else if (fs::is_regular_file(p, ec)) {
      files.push_back(p);
    } else {
      std::cerr << "fuzz replay: " << p.string() << ": no such file or folder\n";
      return 2;
    }
  }
  std::sort(files.begin(), files.end());
  for (const auto& f : files) {
    std::cout << f.string() << std::endl; // named before it runs, so a crash's input is the last line printed
    std::ifstream in(f, std::ios::binary);
    const std::string data((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    LLVMFuzzerTestOneInput(reinterpret_cast<const uint8_t*>(data.data()), data.size());
  }
  std::cout << "replayed " << files.size() << " inputs\n";
  return files.empty() ? 1 : 0;
}
