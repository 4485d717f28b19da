// A run's output folder, committed as one: the run writes its files (results.json, timeseries.csv, report.html, a
// trace, a replica set's runs) into a fresh staging folder beside the output folder, and `commit` swaps the staging
// folder in with one rename. A run killed at any moment (kill -9 included) leaves the previous complete set or, the
// first time, an empty folder; never a mix of old and new files. While a set is open its folder is locked, so a
// second run into the same folder is refused at once, before it simulates anything.
#pragma once

#include <filesystem>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace aisim::sim {

// Why a set could not be opened or committed: names the folder and the system's reason.
class OutputError : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

// An output place refused before anything ran (busy, not a folder, not writable, too small, something of the
// user's in the way): bad input, exit 2, nothing written.
class OutputRefused : public OutputError {
public:
  using OutputError::OutputError;
};

// A folder held by one aisim command at a time (flock on the folder itself, released when the process ends,
// kill -9 included): a second run, sweep or sizing into it is refused at once with an OutputError naming it.
// Creates the folder when missing.
class FolderLock {
public:
  explicit FolderLock(const std::filesystem::path& folder);
  ~FolderLock();
  FolderLock(const FolderLock&) = delete;
  FolderLock& operator=(const FolderLock&) = delete;

private:
  int fd_ = -1;
};

class OutputSet {
public:
  // Creates `folder` if missing, locks it against other aisim runs and opens an empty staging folder beside it
  // (removing one a killed run left). Refuses (OutputRefused) a folder another run holds, one that is the current
  // directory or holds it (the swap would pull it from under the shell), one this user may not replace (not
  // writable, another user's, or in a sticky folder such as /tmp that only its owner may rename in), and any entry
  // named as one of `will_write` that aisim did not write (a folder of the user's named results.json): what the
  // folder's manifest lists, or in a folder from before manifests the files aisim's runs write.
  explicit OutputSet(const std::string& folder, const std::vector<std::string>& will_write = {});
  // Uncommitted: the staging folder is removed and the folder keeps what it held.
  ~OutputSet();
  OutputSet(const OutputSet&) = delete;
  OutputSet& operator=(const OutputSet&) = delete;

  const std::filesystem::path& folder() const { return folder_; }
  // Where the set's files are written: `staged("results.json")`.
  std::filesystem::path staged(const std::string& name) const { return staging_ / name; }
  const std::filesystem::path& staging() const { return staging_; }

  // Writes one file of the set (write_file_atomically into the staging folder); an OutputError names the file as
  // it would have been in the folder.
  void write(const std::string& name, const std::string& content) const;

  // OutputError when the staging folder's disk has fewer than `bytes` free: found before a run, not after it.
  void require_space(double bytes) const;

  // Makes the staged files the folder's. What the folder held that the previous set did not write (a log the
  // caller opened there, a planner's notes) is kept; the previous set's files that this one does not write (a
  // report from a run without --no-report, replicas beyond this set's count) go with it; staging folders that
  // killed runs left inside the set (a replica's) do not enter it. OutputError if the swap fails or an entry aisim
  // did not write has appeared in the way meanwhile; the folder then keeps what it held and the new files stay in
  // the staging folder the message names.
  void commit();

private:
  std::filesystem::path folder_;  // absolute, symbolic links resolved
  std::filesystem::path staging_; // beside it: .NAME.aisim-staging
  std::optional<FolderLock> lock_;
  bool created_ = false; // the folder did not exist: an uncommitted set removes it again if it is still empty
  bool committed_ = false;
  bool keep_staging_ = false; // a failed commit named it as where the new files are
};

// Writes `content` to `path` whole or not at all: through a temporary file of this process's beside it (created
// anew, never through a link planted at its name) and a rename. OutputError naming the path and the system's reason
// (a full disk, a read-only folder, a file-size limit) when it cannot; the temporary file is then removed.
void write_file_atomically(const std::string& path, const std::string& content);

// The name of the manifest a committed set leaves in its folder: the entries the set wrote.
inline constexpr const char* kOutputManifest = ".aisim-outputs.json";

} // namespace aisim::sim
