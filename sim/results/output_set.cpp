#include "sim/results/output_set.hpp"

#include "models/common/json_reader.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <regex>
#include <set>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

namespace aisim::sim {

namespace fs = std::filesystem;

namespace {

std::string system_reason(int err) { return std::strerror(err); }

[[noreturn]] void fail(const fs::path& path, const std::string& what) {
  throw OutputError(path.string() + ": " + what);
}

// Before anything ran: bad input, exit 2.
[[noreturn]] void refuse(const fs::path& path, const std::string& what) {
  throw OutputRefused(path.string() + ": " + what);
}

bool is_replica_name(const std::string& name) {
  static const std::regex replica(R"(replica-\d{4,})");
  return std::regex_match(name, replica);
}

// The entries a set wrote, from its manifest. A folder written before manifests existed: the names aisim's runs
// write.
std::set<std::string> previous_set(const fs::path& folder) {
  std::set<std::string> names;
  std::ifstream in(folder / kOutputManifest);
  if (in) {
    const auto doc = models::Json::parse(in, nullptr, false);
    if (doc.is_array())
      for (const auto& n : doc)
        if (n.is_string())
          names.insert(n.get<std::string>());
    return names;
  }
  // (files as files and replicas as folders holding results.json: a folder named results.json is the user's)
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(folder, ec)) {
    const std::string name = e.path().filename().string();
    if (((name == "results.json" || name == "timeseries.csv" || name == "report.html") &&
         fs::is_regular_file(e.symlink_status())) ||
        (is_replica_name(name) && fs::is_directory(e.symlink_status()) && fs::exists(e.path() / "results.json", ec)))
      names.insert(name);
  }
  return names;
}

// Whether the entry `name` in `folder` may be replaced: one the previous set wrote, of the kind aisim writes there
// (a replica's folder, else a file). Anything else there is the user's.
bool replaceable(const fs::path& folder, const std::string& name, const std::set<std::string>& previous) {
  std::error_code ec;
  const auto st = fs::symlink_status(folder / name, ec);
  if (ec || !fs::exists(st))
    return true; // nothing in the way
  if (!previous.count(name))
    return false;
  return is_replica_name(name) ? fs::is_directory(st) : fs::is_regular_file(st);
}

std::string kind_of(const fs::path& p) {
  std::error_code ec;
  const auto st = fs::symlink_status(p, ec);
  return fs::is_symlink(st) ? "a link" : fs::is_directory(st) ? "a folder" : "a file";
}

// The first of `names` in `folder` that is not the previous set's to replace, as "PATH: in the way: a folder aisim
// did not write"; empty when none is.
std::string in_the_way(const fs::path& folder, const std::set<std::string>& previous,
                       const std::vector<std::string>& names) {
  for (const auto& name : names)
    if (!replaceable(folder, name, previous))
      return (folder / name).string() + ": in the way: " + kind_of(folder / name) + " aisim did not write";
  return {};
}

// A staging folder a killed run left (its own output folder's, or a replica's inside a set).
bool is_staging(const std::string& name) {
  return name.size() > 15 && name[0] == '.' && name.ends_with(".aisim-staging");
}

// `from` appears at `to` without being moved: files as hard links (a log still being written stays one file),
// folders rebuilt entry by entry; a file that cannot be linked is copied.
void carry(const fs::path& from, const fs::path& to) {
  std::error_code ec;
  const auto st = fs::symlink_status(from, ec);
  if (ec)
    return;
  if (fs::is_symlink(st)) {
    fs::copy_symlink(from, to, ec);
  } else if (fs::is_directory(st)) {
    fs::create_directory(to, ec);
    for (const auto& e : fs::directory_iterator(from, ec))
      carry(e.path(), to / e.path().filename());
  } else if (::link(from.c_str(), to.c_str()) != 0) {
    fs::copy_file(from, to, ec);
  }
  if (ec)
    fail(to, "cannot keep " + from.string() + " in the new set (" + ec.message() + ")");
}

bool is_temporary(const std::string& name) { return name.size() > 5 && name[0] == '.' && name.ends_with(".tmp"); }

} // namespace

OutputSet::OutputSet(const std::string& folder, const std::vector<std::string>& will_write) {
  std::error_code ec;
  folder_ = fs::weakly_canonical(fs::absolute(folder, ec), ec);
  if (ec || folder_.empty())
    refuse(folder, "not a usable folder name (" + ec.message() + ")");
  if (folder_ == folder_.root_path())
    refuse(folder, "the output folder cannot be the root folder");
  const fs::path cwd = fs::current_path(ec);
  if (!ec) {
    const auto rel = cwd.lexically_relative(folder_);
    if (!rel.empty() && *rel.begin() != "..")
      refuse(folder, "this is the current folder or holds it; aisim replaces its output folder as a whole when a run "
                     "ends (so that a killed run never leaves old and new files mixed): choose another --out");
  }
  if (fs::exists(folder_, ec) && !fs::is_directory(folder_, ec))
    refuse(folder, "exists and is not a folder");
  created_ = !fs::exists(folder_, ec);
  // The swap replaces the folder by a new one of this user's: only a folder this user owns and may write is one to
  // replace (another user's would change hands; in a sticky folder such as /tmp the rename would fail only after
  // the whole run, and in a world-writable one a read-only folder would be replaced unseen).
  struct stat st {};
  if (!created_ && ::stat(folder_.c_str(), &st) == 0) {
    if (st.st_uid != ::geteuid())
      refuse(folder, "owned by another user (uid " + std::to_string(st.st_uid) +
                         "); aisim replaces its output folder as a whole when a run ends: choose a folder of your own");
    if (::access(folder_.c_str(), W_OK) != 0)
      refuse(folder, "cannot write the output folder (" + system_reason(errno) + ")");
  }
  lock_.emplace(folder_); // creates it
  if (const auto blocked = in_the_way(folder_, previous_set(folder_), will_write); !blocked.empty())
    throw OutputRefused(blocked + "; move it or choose another --out (nothing was run or written)");
  staging_ = folder_.parent_path() / ("." + folder_.filename().string() + ".aisim-staging");
  fs::remove_all(staging_, ec); // left by a run that was killed (its lock went with it)
  if (!fs::create_directory(staging_, ec) || ec) {
    const std::string why = ec ? ec.message() : std::string("it exists");
    if (created_)
      fs::remove(folder_, ec);
    refuse(staging_, "cannot create the staging folder beside the output folder (" + why + ")");
  }
  if (!created_) // the new folder keeps the old one's permissions (a group's shared folder stays shared)
    ::chmod(staging_.c_str(), st.st_mode & 07777);
}

void OutputSet::require_space(double bytes) const {
  struct statvfs disk {};
  if (::statvfs(staging_.c_str(), &disk) != 0)
    return; // not knowable here; a write that fails still says why
  const double free_bytes = static_cast<double>(disk.f_bavail) * static_cast<double>(disk.f_frsize);
  if (free_bytes >= bytes)
    return;
  char need[64];
  char have[64];
  std::snprintf(need, sizeof need, "%.1f MB", bytes / 1e6);
  std::snprintf(have, sizeof have, "%.1f MB", free_bytes / 1e6);
  refuse(folder_,
         std::string("the run's files need about ") + need + " and its disk has " + have +
             " free; free some space, choose another --out, or set a coarser /simulation/timeseries_resolution");
}

void OutputSet::write(const std::string& name, const std::string& content) const {
  try {
    write_file_atomically(staged(name).string(), content);
  } catch (const OutputError& e) {
    const std::string what = e.what();
    fail(folder_ / name, what.substr(what.find(": ") + 2) + "; the folder keeps what it held");
  }
}

OutputSet::~OutputSet() {
  if (!committed_ && !keep_staging_) {
    std::error_code ec;
    fs::remove_all(staging_, ec);
    if (created_ && fs::is_empty(folder_, ec))
      fs::remove(folder_, ec);
  }
}

FolderLock::FolderLock(const fs::path& folder) {
  std::error_code ec;
  fs::create_directories(folder, ec);
  if (ec)
    refuse(folder, "cannot create the output folder (" + ec.message() + ")");
  // A run that commits swaps another folder in, so a lock taken on the folder it let go of would guard nothing:
  // the lock holds only if the name still leads to the folder locked.
  for (int attempt = 0;; ++attempt) {
    const int fd = ::open(folder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0)
      refuse(folder, "cannot open the output folder (" + system_reason(errno) + ")");
    if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
      const int err = errno;
      ::close(fd);
      if (err == EWOULDBLOCK)
        refuse(folder, "another aisim run is writing this folder; wait for it to end or choose another --out");
      refuse(folder, "cannot lock the output folder (" + system_reason(err) + ")");
    }
    struct stat locked {};
    struct stat named {};
    if (::fstat(fd, &locked) == 0 && ::stat(folder.c_str(), &named) == 0 && locked.st_dev == named.st_dev &&
        locked.st_ino == named.st_ino) {
      fd_ = fd;
      return;
    }
    ::close(fd);
    if (attempt == 10)
      refuse(folder, "the output folder keeps being replaced by another run");
  }
}

FolderLock::~FolderLock() {
  if (fd_ >= 0)
    ::close(fd_);
}

void OutputSet::commit() {
  std::error_code ec;
  std::set<std::string> written;
  for (const auto& e : fs::directory_iterator(staging_, ec)) {
    const std::string name = e.path().filename().string();
    if (is_staging(name)) // a child run's, killed before it committed (an interrupted replica)
      fs::remove_all(e.path(), ec);
    else
      written.insert(name);
  }
  if (ec)
    fail(staging_, "cannot list the staged files (" + ec.message() + ")");
  const auto previous = previous_set(folder_);
  if (const auto blocked = in_the_way(folder_, previous, {written.begin(), written.end()}); !blocked.empty()) {
    keep_staging_ = true;
    throw OutputError(blocked +
                      " (it appeared during the run); the folder keeps what it held and the new files are "
                      "in " +
                      staging_.string());
  }
  for (const auto& e : fs::directory_iterator(folder_, ec)) {
    const std::string name = e.path().filename().string();
    if (written.count(name) || previous.count(name) || name == kOutputManifest || is_temporary(name))
      continue;
    carry(e.path(), staging_ / name);
  }
  write_file_atomically((staging_ / kOutputManifest).string(),
                        models::Json(std::vector<std::string>(written.begin(), written.end())).dump() + "\n");
  // One rename makes the new set the folder's and the old one the staging folder's, which is then removed.
  if (::renameat2(AT_FDCWD, staging_.c_str(), AT_FDCWD, folder_.c_str(), RENAME_EXCHANGE) != 0) {
    const int err = errno;
    if (err != EINVAL && err != ENOSYS && err != EOPNOTSUPP) {
      keep_staging_ = true; // where the message says the new results are
      fail(folder_,
           "cannot put the new results in place (" + system_reason(err) + "); they are in " + staging_.string());
    }
    // A file system without an exchanging rename (NFS): the old set steps aside first, so for a moment the
    // folder is absent, never mixed.
    const fs::path old = folder_.parent_path() / ("." + folder_.filename().string() + ".aisim-old");
    fs::remove_all(old, ec);
    if (::rename(folder_.c_str(), old.c_str()) != 0)
      fail(folder_, "cannot put the new results in place (" + system_reason(errno) + ")");
    if (::rename(staging_.c_str(), folder_.c_str()) != 0) {
      const int moved = errno;
      ::rename(old.c_str(), folder_.c_str());
      fail(folder_, "cannot put the new results in place (" + system_reason(moved) + ")");
    }
    committed_ = true;
    fs::remove_all(old, ec);
    return;
  }
  committed_ = true;
  fs::remove_all(staging_, ec);
}

void write_file_atomically(const std::string& path, const std::string& content) {
  const fs::path p(path);
  const fs::path tmp = p.parent_path() / ("." + p.filename().string() + "." + std::to_string(::getpid()) + ".tmp");
  ::unlink(tmp.c_str()); // O_EXCL below: whatever is at the name (a link planted there) is not written through
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd < 0)
    fail(p, "cannot write (" + system_reason(errno) + ")");
  const char* at = content.data();
  size_t left = content.size();
  int err = 0;
  while (left > 0) {
    const ssize_t n = ::write(fd, at, left);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0) {
      err = n < 0 ? errno : EIO;
      break;
    }
    at += n;
    left -= static_cast<size_t>(n);
  }
  if (::close(fd) != 0 && err == 0)
    err = errno;
  if (err == 0 && ::rename(tmp.c_str(), p.c_str()) != 0)
    err = errno;
  if (err != 0) {
    ::unlink(tmp.c_str());
    fail(p, "cannot write (" + system_reason(err) + ")");
  }
}

} // namespace aisim::sim
