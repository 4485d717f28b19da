#include "sim/results/output_set.hpp"

#include <catch2/catch.hpp>

#include <fstream>
#include <sys/stat.h>
#include <unistd.h>

using namespace aisim::sim;
namespace fs = std::filesystem;

namespace {
std::string slurp(const fs::path& p) {
  std::ifstream in(p);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}
void put(const fs::path& p, const std::string& text) {
  fs::create_directories(p.parent_path());
  std::ofstream(p) << text;
}
ino_t inode(const fs::path& p) {
  struct stat st {};
  ::stat(p.c_str(), &st);
  return st.st_ino;
}
struct Scratch {
  fs::path dir = fs::temp_directory_path() / ("aisim-output-set-" + std::to_string(::getpid()));
  Scratch() {
    fs::remove_all(dir);
    fs::create_directories(dir);
  }
  ~Scratch() { fs::remove_all(dir); }
};
} // namespace

TEST_CASE("output set: the staged files become the folder's in one swap; a planner's files stay", "[output]") {
  const Scratch s;
  const fs::path out = s.dir / "run";
  {
    OutputSet first(out.string());
    CHECK(fs::is_directory(out)); // created, empty, until the commit
    CHECK(fs::is_empty(out));
    put(first.staged("results.json"), "A");
    put(first.staged("report.html"), "A page");
    put(first.staged("replica-0002") / "results.json", "A2");
    first.commit();
  }
  CHECK(slurp(out / "results.json") == "A");
  CHECK(slurp(out / kOutputManifest) == "[\"replica-0002\",\"report.html\",\"results.json\"]\n");
  put(out / "notes.txt", "mine");
  put(out / "run.log", "log so far");
  {
    OutputSet second(out.string());
    put(second.staged("results.json"), "B");
    // Not committed yet: the folder still holds set A whole.
    CHECK(slurp(out / "results.json") == "A");
    CHECK(fs::exists(out / "report.html"));
    const ino_t log = inode(out / "run.log");
    second.commit();
    CHECK(inode(out / "run.log") == log); // the same file, so a log still being written goes on in the new set
  }
  CHECK(slurp(out / "results.json") == "B");
  CHECK(slurp(out / "notes.txt") == "mine");
  CHECK(slurp(out / "run.log") == "log so far");
  // Set A's files that set B did not write went with set A: no report or replica of another run beside B.
  CHECK_FALSE(fs::exists(out / "report.html"));
  CHECK_FALSE(fs::exists(out / "replica-0002"));
  CHECK_FALSE(fs::exists(s.dir / ".run.aisim-staging"));
}

TEST_CASE("output set: uncommitted, the folder keeps its set; a busy folder is refused", "[output]") {
  const Scratch s;
  const fs::path out = s.dir / "run";
  {
    OutputSet a(out.string());
    put(a.staged("results.json"), "A");
    a.commit();
  }
  {
    OutputSet b(out.string());
    put(b.staged("results.json"), "B");
    try {
      OutputSet c(out.string());
      FAIL("a second set on a folder being written was allowed");
    } catch (const OutputError& e) {
      CHECK(std::string(e.what()).find("another aisim run is writing this folder") != std::string::npos);
      CHECK(std::string(e.what()).find(out.string()) != std::string::npos);
    }
  } // b ends without a commit, as a run that fails after simulating
  CHECK(slurp(out / "results.json") == "A");
  CHECK_FALSE(fs::exists(s.dir / ".run.aisim-staging"));
  // What a killed run leaves beside the folder is cleared by the next one.
  put(s.dir / ".run.aisim-staging" / "results.json", "half");
  {
    OutputSet d(out.string());
    CHECK(fs::is_empty(d.staging()));
    put(d.staged("results.json"), "D");
    d.commit();
  }
  CHECK(slurp(out / "results.json") == "D");
}

TEST_CASE("output set: a folder written before manifests keeps only what aisim did not write", "[output]") {
  const Scratch s;
  const fs::path out = s.dir / "old";
  put(out / "results.json", "old");
  put(out / "timeseries.csv", "old");
  put(out / "report.html", "old");
  put(out / "replica-0001" / "results.json", "old");
  put(out / "mine.txt", "mine");
  {
    OutputSet set(out.string());
    put(set.staged("results.json"), "new");
    set.commit();
  }
  CHECK(slurp(out / "results.json") == "new");
  CHECK(slurp(out / "mine.txt") == "mine");
  for (const char* gone : {"timeseries.csv", "report.html", "replica-0001"})
    CHECK_FALSE(fs::exists(out / gone));
}

TEST_CASE("output set: folders that cannot hold a set are refused with the reason", "[output]") {
  const Scratch s;
  put(s.dir / "file", "x");
  CHECK_THROWS_WITH(OutputSet((s.dir / "file").string()), Catch::Contains("exists and is not a folder"));
  const fs::path here = fs::current_path();
  fs::create_directories(s.dir / "cwd" / "inside");
  fs::current_path(s.dir / "cwd" / "inside");
  CHECK_THROWS_WITH(OutputSet("."), Catch::Contains("the current folder or holds it"));
  CHECK_THROWS_WITH(OutputSet(".."), Catch::Contains("the current folder or holds it"));
  fs::current_path(here);
  CHECK_THROWS_WITH(OutputSet("/"), Catch::Contains("root folder"));
  if (::geteuid() != 0) { // root writes anywhere
    fs::create_directories(s.dir / "locked");
    fs::permissions(s.dir / "locked", fs::perms::owner_read | fs::perms::owner_exec);
    CHECK_THROWS_WITH(OutputSet((s.dir / "locked" / "run").string()), Catch::Contains("Permission denied"));
    fs::permissions(s.dir / "locked", fs::perms::owner_all);
  }
}

TEST_CASE("atomic write: whole or not at all, never through a link at its temporary name", "[output]") {
  const Scratch s;
  const fs::path target = s.dir / "results.json";
  put(s.dir / "victim", "untouched");
  fs::create_symlink(s.dir / "victim", s.dir / (".results.json." + std::to_string(::getpid()) + ".tmp"));
  write_file_atomically(target.string(), "new");
  CHECK(slurp(target) == "new");
  CHECK(slurp(s.dir / "victim") == "untouched");
  CHECK(fs::is_regular_file(fs::symlink_status(target)));
  // A folder that is not there: the error names the file and the system's reason; nothing is left.
  CHECK_THROWS_WITH(write_file_atomically((s.dir / "missing" / "x.json").string(), "x"),
                    Catch::Contains("missing/x.json: cannot write (No such file or directory)"));
  // A write over a folder of that name fails whole: the temporary file goes.
  fs::create_directories(s.dir / "dir.json" / "inside");
  CHECK_THROWS_AS(write_file_atomically((s.dir / "dir.json").string(), "x"), OutputError);
  for (const auto& e : fs::directory_iterator(s.dir))
    CHECK_FALSE(e.path().filename().string().ends_with(".tmp"));
}
