#include "app/probe/probe_target.hpp"

#include "models/common/units.hpp"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>

#include <fcntl.h>
#include <linux/fs.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/sysmacros.h>
#include <unistd.h>

namespace aisim::app::probe {
using models::Bytes;
using models::format_bytes;
namespace fs = std::filesystem;
namespace {

// statfs f_type values (linux/magic.h) of the file systems the probe names or refuses.
constexpr long kTmpfsMagic = 0x01021994;
constexpr long kRamfsMagic = static_cast<long>(0x858458f6);
constexpr long kHugetlbfsMagic = static_cast<long>(0x958458f6);
constexpr long kProcMagic = 0x9fa0;
constexpr long kSysfsMagic = 0x62656572;
constexpr uint64_t kFillChunk = 1 << 20;

ProbeError refuse(const std::string& what) { return ProbeError(ProbeErrorKind::bad_input, what); }

std::string errno_text(int err) { return std::strerror(err); }

std::string read_text(const fs::path& p) {
  std::ifstream in(p);
  if (!in)
    return {};
  std::stringstream ss;
  ss << in.rdbuf();
  std::string s = ss.str();
  while (!s.empty() && (s.back() == '\n' || s.back() == ' ' || s.back() == '\t'))
    s.pop_back();
  size_t start = s.find_first_not_of(" \t");
  return start == std::string::npos ? std::string() : s.substr(start);
}

uint64_t read_number(const fs::path& p) {
  const std::string s = read_text(p);
  return s.empty() ? 0 : std::strtoull(s.c_str(), nullptr, 0);
}

// A sysfs block directory resolved to its disk: a partition's parent.
fs::path disk_dir_of(const fs::path& dir) {
  std::error_code ec;
  if (fs::exists(dir / "partition", ec))
    return dir.parent_path();
  return dir;
}

fs::path sysfs_dir(unsigned major, unsigned minor) {
  std::error_code ec;
  const fs::path link = "/sys/dev/block/" + std::to_string(major) + ":" + std::to_string(minor);
  fs::path real = fs::canonical(link, ec);
  return ec ? fs::path() : real;
}

// Why a file system cannot hold a probe target, or "" when it can.
std::string refusal_for_fs(long f_type) {
  switch (f_type) {
  case kTmpfsMagic:
  case kRamfsMagic:
    return "its data lives only in memory (the page cache): there is no drive underneath to measure, and O_DIRECT "
           "cannot bypass a cache that is the storage itself";
  case kHugetlbfsMagic:
    return "hugetlbfs holds memory, not files on a drive";
  case kProcMagic:
  case kSysfsMagic:
    return "it is a kernel interface, not storage";
  default:
    return {};
  }
}

void check_fs(const std::string& path, const std::string& shown) {
  struct statfs sfs {};
  if (statfs(path.c_str(), &sfs) != 0)
    throw refuse(shown + ": cannot inspect its file system: " + errno_text(errno));
  const std::string why = refusal_for_fs(static_cast<long>(sfs.f_type));
  if (!why.empty())
    throw refuse(shown + " is on " + fs_type_name(static_cast<long>(sfs.f_type)) + ", refused: " + why +
                 ". Put the target on the drive you want to measure.");
}

int open_direct(const std::string& path, int flags, bool write) {
  const int fd = ::open(path.c_str(), flags | O_DIRECT | O_CLOEXEC, 0644);
  if (fd >= 0)
    return fd;
  const int err = errno;
  const std::string what = write ? "for writing" : "for reading";
  if (err == EINVAL)
    throw ProbeError(ProbeErrorKind::unavailable,
                     path + ": the file system does not support O_DIRECT (direct I/O), which the probe needs to reach "
                            "the drive instead of the page cache");
  if (err == EACCES || err == EPERM)
    throw refuse(path + ": cannot open it " + what + ": " + errno_text(err) + " (run as a user who may " +
                 (write ? "write" : "read") + " it, e.g. root)");
  if (err == EBUSY)
    throw refuse(path + ": the device is in use (mounted, or opened exclusively by another program); refusing to "
                        "write to it");
  throw refuse(path + ": cannot open it " + what + ": " + errno_text(err));
}

// Incompressible, non-repeating bytes: xorshift64* words, a new stream position for every chunk, so no two
// blocks of the file are equal (no compression, no deduplication on the drive).
void fill_random(unsigned char* buf, size_t n, uint64_t& state) {
  for (size_t i = 0; i + 8 <= n; i += 8) {
    state ^= state >> 12;
    state ^= state << 25;
    state ^= state >> 27;
    const uint64_t v = state * 0x2545F4914F6CDD1DULL;
    std::memcpy(buf + i, &v, 8);
  }
}

struct AlignedFree {
  void operator()(void* p) const { std::free(p); }
};

// Writes `size` bytes of random data through O_DIRECT; unlinks the file on failure.
void fill_file(int fd, const std::string& path, uint64_t size, const std::function<void(double)>& progress) {
  void* raw = nullptr;
  if (posix_memalign(&raw, 4096, kFillChunk) != 0)
    throw std::bad_alloc();
  std::unique_ptr<void, AlignedFree> buf(raw);
  uint64_t state = 0x9E3779B97F4A7C15ULL ^ static_cast<uint64_t>(::getpid());
  for (uint64_t off = 0; off < size; off += kFillChunk) {
    fill_random(static_cast<unsigned char*>(raw), kFillChunk, state);
    uint64_t done = 0;
    while (done < kFillChunk) {
      const ssize_t n = ::pwrite(fd, static_cast<char*>(raw) + done, kFillChunk - done, static_cast<off_t>(off + done));
      if (n <= 0) {
        const int err = n < 0 ? errno : ENOSPC;
        ::close(fd);
        ::unlink(path.c_str());
        if (err == ENOSPC || err == EDQUOT)
          throw refuse(path + ": not enough free space to create a " + format_bytes(Bytes(static_cast<double>(size))) +
                       " test file (" + errno_text(err) + "); give a smaller --size");
        throw ProbeError(ProbeErrorKind::io_failure, path + ": writing the test file failed at byte " +
                                                         std::to_string(off + done) + ": " + errno_text(err));
      }
      done += static_cast<uint64_t>(n);
    }
    if (progress)
      progress(static_cast<double>(off + kFillChunk) / static_cast<double>(size));
  }
  if (::fdatasync(fd) != 0) {
    const int err = errno;
    ::close(fd);
    ::unlink(path.c_str());
    throw ProbeError(ProbeErrorKind::io_failure, path + ": flushing the test file failed: " + errno_text(err));
  }
}

std::string unescape_mount_path(const std::string& s) {
  // mountinfo writes space, tab, newline and backslash as \040, \011, \012, \134.
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '\\' && i + 3 < s.size()) {
      const std::string oct = s.substr(i + 1, 3);
      if (oct.size() == 3 && oct.find_first_not_of("01234567") == std::string::npos) {
        out.push_back(static_cast<char>(std::stoi(oct, nullptr, 8)));
        i += 3;
        continue;
      }
    }
    out.push_back(s[i]);
  }
  return out;
}

std::pair<unsigned, unsigned> parse_dev(const std::string& s) {
  const auto colon = s.find(':');
  if (colon == std::string::npos)
    return {~0u, ~0u};
  return {static_cast<unsigned>(std::strtoul(s.substr(0, colon).c_str(), nullptr, 10)),
          static_cast<unsigned>(std::strtoul(s.substr(colon + 1).c_str(), nullptr, 10))};
}

} // namespace

std::string fs_type_name(long f_type) {
  switch (f_type) {
  case kTmpfsMagic:
    return "tmpfs";
  case kRamfsMagic:
    return "ramfs";
  case kHugetlbfsMagic:
    return "hugetlbfs";
  case kProcMagic:
    return "proc";
  case kSysfsMagic:
    return "sysfs";
  case 0xEF53:
    return "ext4";
  case 0x58465342:
    return "xfs";
  case static_cast<long>(0x9123683E):
    return "btrfs";
  case static_cast<long>(0xF2F52010):
    return "f2fs";
  case 0x794c7630:
    return "overlayfs";
  case 0x6969:
    return "nfs";
  case 0x65735546:
    return "fuse";
  case 0x2fc12fc1:
    return "zfs";
  default: {
    char buf[32];
    std::snprintf(buf, sizeof buf, "0x%lx", static_cast<unsigned long>(f_type));
    return buf;
  }
  }
}

std::vector<std::string> mounts_of(const std::string& mountinfo,
                                   const std::set<std::pair<unsigned, unsigned>>& devices) {
  std::vector<std::string> out;
  std::istringstream in(mountinfo);
  std::string line;
  while (std::getline(in, line)) {
    // Fields: mount ID, parent ID, major:minor, root, mount point, ...
    std::istringstream ls(line);
    std::string id, parent, dev, root, point;
    if (!(ls >> id >> parent >> dev >> root >> point))
      continue;
    if (devices.count(parse_dev(dev)))
      out.push_back(unescape_mount_path(point));
  }
  return out;
}

DeviceInfo identify_device(unsigned major, unsigned minor) {
  DeviceInfo d;
  const fs::path top = sysfs_dir(major, minor);
  if (top.empty())
    return d;
  fs::path dir = disk_dir_of(top);
  const fs::path queue_dir = dir / "queue";
  // Follow device-mapper and md stacks down to a physical member; its model is the drive's.
  for (int depth = 0; depth < 8; ++depth) {
    std::error_code ec;
    fs::path first_slave;
    for (const auto& e : fs::directory_iterator(dir / "slaves", ec)) {
      first_slave = e.path();
      break;
    }
    if (first_slave.empty())
      break;
    d.stack.push_back(dir.filename().string());
    const fs::path next = fs::canonical(first_slave, ec);
    if (ec)
      break;
    dir = disk_dir_of(next);
  }
  d.identified = true;
  d.name = dir.filename().string();
  if (!d.stack.empty())
    d.stack.push_back(d.name);
  const fs::path dev = dir / "device";
  d.model = read_text(dev / "model");
  d.vendor = read_text(dev / "vendor");
  d.firmware = read_text(dev / "firmware_rev");
  std::error_code ec;
  if (d.name.rfind("nvme", 0) == 0) {
    const std::string transport = read_text(dev / "transport");
    d.transport = transport.empty() ? "nvme" : "nvme/" + transport;
    const std::string pq = read_text("/sys/module/nvme/parameters/poll_queues");
    if (!pq.empty())
      d.poll_queues = std::atoi(pq.c_str());
  } else {
    const fs::path driver = fs::read_symlink(dev / "driver", ec);
    if (!ec)
      d.transport = driver.filename().string();
  }
  if (d.model.empty()) {
    // virtio and other buses have no model string: name the device by its bus ids.
    const std::string dev_id = read_text(dev / "device");
    if (!d.vendor.empty() && !dev_id.empty())
      d.model = (d.transport.empty() ? std::string() : d.transport + " ") + d.vendor + ":" + dev_id;
  }
  d.size_bytes = read_number(dir / "size") * 512; // sysfs counts 512-byte sectors whatever the block size
  d.logical_block_size = static_cast<uint32_t>(read_number(queue_dir / "logical_block_size"));
  d.physical_block_size = static_cast<uint32_t>(read_number(queue_dir / "physical_block_size"));
  d.rotational = read_text(queue_dir / "rotational") == "1";
  d.io_poll = read_text(queue_dir / "io_poll") == "1";
  const std::string sched = read_text(queue_dir / "scheduler");
  const auto lb = sched.find('['), rb = sched.find(']');
  d.scheduler =
      lb != std::string::npos && rb != std::string::npos && rb > lb ? sched.substr(lb + 1, rb - lb - 1) : sched;
  return d;
}

Json DeviceInfo::to_json() const {
  Json j{{"identified", identified},
         {"name", name},
         {"model", model},
         {"vendor", vendor},
         {"firmware", firmware},
         {"transport", transport},
         {"stack", stack},
         {"size_bytes", size_bytes},
         {"logical_block_size_bytes", logical_block_size},
         {"physical_block_size_bytes", physical_block_size},
         {"rotational", rotational},
         {"io_poll", io_poll},
         {"poll_queues", poll_queues ? Json(*poll_queues) : Json(nullptr)},
         {"scheduler", scheduler}};
  return j;
}

std::vector<std::string> block_device_busy_reasons(const std::string& path) {
  std::vector<std::string> reasons;
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0 || !S_ISBLK(st.st_mode))
    return reasons;
  std::set<std::pair<unsigned, unsigned>> devs{{major(st.st_rdev), minor(st.st_rdev)}};
  const fs::path dir = sysfs_dir(major(st.st_rdev), minor(st.st_rdev));
  std::vector<fs::path> dirs;
  if (!dir.empty()) {
    dirs.push_back(dir);
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(dir, ec)) {
      if (fs::exists(e.path() / "partition", ec)) {
        dirs.push_back(e.path());
        devs.insert(parse_dev(read_text(e.path() / "dev")));
      }
    }
  }
  for (const auto& m : mounts_of(read_text("/proc/self/mountinfo"), devs))
    reasons.push_back("mounted at " + m);
  for (const auto& d : dirs) {
    std::error_code ec;
    for (const auto& h : fs::directory_iterator(d / "holders", ec))
      reasons.push_back(d.filename().string() + " is held by " + h.path().filename().string() +
                        " (device mapper, LVM, dm-crypt or md RAID)");
  }
  std::istringstream swaps(read_text("/proc/swaps"));
  std::string line;
  std::getline(swaps, line); // header
  while (std::getline(swaps, line)) {
    std::istringstream ls(line);
    std::string dev_path;
    struct stat sst {};
    if (ls >> dev_path && ::stat(dev_path.c_str(), &sst) == 0 && S_ISBLK(sst.st_mode) &&
        devs.count({major(sst.st_rdev), minor(sst.st_rdev)}))
      reasons.push_back("used as swap (" + dev_path + ")");
  }
  // The kernel's own answer: an exclusive open fails with EBUSY while anything holds the device. Read-only, so
  // asking cannot harm it.
  const int fd = ::open(path.c_str(), O_RDONLY | O_EXCL | O_CLOEXEC);
  if (fd >= 0)
    ::close(fd);
  else if (errno == EBUSY && reasons.empty())
    reasons.push_back("opened exclusively by another program (EBUSY)");
  return reasons;
}

ProbeTarget::ProbeTarget(ProbeTarget&& o) noexcept
    : fd_(std::exchange(o.fd_, -1)), path_(std::move(o.path_)), kind_(o.kind_), size_(o.size_), writable_(o.writable_),
      created_(o.created_), offset_align_(o.offset_align_), mem_align_(o.mem_align_), fs_type_(std::move(o.fs_type_)),
      alignment_source_(std::move(o.alignment_source_)), device_(std::move(o.device_)) {}

ProbeTarget::~ProbeTarget() {
  if (fd_ >= 0)
    ::close(fd_);
}

ProbeTarget ProbeTarget::open(const TargetOptions& opt, const std::function<void(double)>& fill_progress) {
  if (opt.path.empty())
    throw refuse("no target given (expected a file or a block device)");
  ProbeTarget t;
  // Recorded absolute, so the raw measurements say which file it was wherever they are read.
  std::error_code abs_ec;
  const fs::path abs = fs::absolute(opt.path, abs_ec);
  t.path_ = abs_ec ? opt.path : abs.lexically_normal().string();
  struct stat st {};
  if (::stat(opt.path.c_str(), &st) != 0) {
    const int err = errno;
    if (err != ENOENT)
      throw refuse(opt.path + ": " + errno_text(err));
    if (!opt.size_bytes)
      throw refuse(opt.path + ": no such file. To have the probe create a test file there, give its size, e.g. "
                              "--size 4GiB (larger than the drive's caches)");
    fs::path parent = fs::path(opt.path).parent_path();
    if (parent.empty())
      parent = ".";
    std::error_code ec;
    if (!fs::is_directory(parent, ec))
      throw refuse(opt.path + ": cannot create it: folder " + parent.string() + " does not exist");
    check_fs(parent.string(), opt.path);
    if (*opt.size_bytes < kMinTargetBytes)
      throw refuse("--size " + format_bytes(Bytes(static_cast<double>(*opt.size_bytes))) +
                   " is too small (expected at "
                   "least 16 MiB; a few GiB keep the drive's caches out of the figures)");
    // Whole 1 MiB chunks: every block size of the sweep divides the file.
    const uint64_t size = (*opt.size_bytes + kFillChunk - 1) / kFillChunk * kFillChunk;
    const int fd = ::open(opt.path.c_str(), O_CREAT | O_EXCL | O_RDWR | O_DIRECT | O_CLOEXEC, 0644);
    if (fd < 0) {
      const int err = errno;
      if (err == EINVAL) {
        ::unlink(opt.path.c_str());
        throw ProbeError(ProbeErrorKind::unavailable,
                         opt.path + ": the file system does not support O_DIRECT (direct I/O), which the probe needs "
                                    "to reach the drive instead of the page cache");
      }
      throw refuse(opt.path + ": cannot create it: " + errno_text(err));
    }
    fill_file(fd, opt.path, size, fill_progress);
    t.fd_ = fd;
    t.created_ = true;
    t.writable_ = true;
    t.size_ = size;
    if (::fstat(fd, &st) != 0)
      throw ProbeError(ProbeErrorKind::io_failure, opt.path + ": fstat: " + errno_text(errno));
  } else if (S_ISREG(st.st_mode)) {
    check_fs(opt.path, opt.path);
    const auto size = static_cast<uint64_t>(st.st_size);
    if (opt.size_bytes && *opt.size_bytes != size)
      throw refuse(opt.path + " exists with size " + std::to_string(size) + " bytes, not the --size " +
                   std::to_string(*opt.size_bytes) +
                   " bytes asked for; delete it to have it created anew, or leave "
                   "out --size to measure it as it is");
    if (size < kMinTargetBytes)
      throw refuse(opt.path + " is too small (" + format_bytes(Bytes(static_cast<double>(size))) +
                   "; expected at least 16 MiB)");
    // Holes read as zeros without reaching the drive.
    if (static_cast<uint64_t>(st.st_blocks) * 512 < size)
      throw refuse(opt.path + " is sparse (" + format_bytes(Bytes(static_cast<double>(st.st_blocks) * 512)) + " of " +
                   format_bytes(Bytes(static_cast<double>(size))) +
                   " allocated): reads of its holes never reach the "
                   "drive. Delete it and let the probe create a filled one with --size.");
    t.fd_ = open_direct(opt.path, opt.write ? O_RDWR : O_RDONLY, opt.write);
    t.writable_ = opt.write;
    t.size_ = size;
  } else if (S_ISBLK(st.st_mode)) {
    t.kind_ = TargetKind::block_device;
    if (opt.size_bytes)
      throw refuse(opt.path + " is a block device, measured over its whole size: --size is only for a file target");
    if (opt.write && !opt.allow_destructive)
      throw refuse(opt.path + " is a block device: --write would overwrite the data on it. Add --allow-destructive "
                              "if that is what you want (a mounted or busy device is refused even then), or leave "
                              "out --write to measure reads only.");
    if (opt.write) {
      const auto reasons = block_device_busy_reasons(opt.path);
      if (!reasons.empty()) {
        std::string all;
        for (const auto& r : reasons)
          all += (all.empty() ? "" : "; ") + r;
        throw refuse(opt.path + " is in use, refusing to write to it: " + all);
      }
      // O_EXCL holds the device against mounts for as long as the probe runs.
      t.fd_ = open_direct(opt.path, O_RDWR | O_EXCL, true);
    } else {
      t.fd_ = open_direct(opt.path, O_RDONLY, false);
    }
    t.writable_ = opt.write;
    uint64_t bytes = 0;
    if (::ioctl(t.fd_, BLKGETSIZE64, &bytes) != 0)
      throw ProbeError(ProbeErrorKind::io_failure, opt.path + ": BLKGETSIZE64: " + errno_text(errno));
    t.size_ = bytes;
    if (t.size_ < kMinTargetBytes)
      throw refuse(opt.path + " is too small (" + format_bytes(Bytes(static_cast<double>(bytes))) +
                   "; expected at least 16 MiB)");
  } else {
    throw refuse(opt.path + " is neither a regular file nor a block device");
  }

  // The device underneath: the file's file system's device, or the block device itself.
  const dev_t dev = t.kind_ == TargetKind::block_device ? st.st_rdev : st.st_dev;
  t.device_ = identify_device(major(dev), minor(dev));
  if (t.kind_ == TargetKind::file) {
    struct statfs sfs {};
    if (::fstatfs(t.fd_, &sfs) == 0)
      t.fs_type_ = fs_type_name(static_cast<long>(sfs.f_type));
  }

  // Alignment: what the kernel says direct I/O needs on this file (statx), else the logical block size.
  t.alignment_source_ = "assumed 4096 (no statx DIOALIGN, no logical block size)";
#ifdef STATX_DIOALIGN
  struct statx stx {};
  if (::statx(t.fd_, "", AT_EMPTY_PATH, STATX_DIOALIGN, &stx) == 0 && (stx.stx_mask & STATX_DIOALIGN)) {
    if (stx.stx_dio_offset_align == 0)
      throw ProbeError(ProbeErrorKind::unavailable, opt.path + ": statx says direct I/O is not supported on it");
    t.offset_align_ = stx.stx_dio_offset_align;
    t.mem_align_ = std::max<uint32_t>(stx.stx_dio_mem_align, 4096);
    t.alignment_source_ = "statx STATX_DIOALIGN";
  } else
#endif
  {
    int lbs = 0;
    if (t.kind_ == TargetKind::block_device && ::ioctl(t.fd_, BLKSSZGET, &lbs) == 0 && lbs > 0) {
      t.offset_align_ = static_cast<uint32_t>(lbs);
      t.alignment_source_ = "BLKSSZGET logical block size";
    } else if (t.device_.logical_block_size) {
      t.offset_align_ = t.device_.logical_block_size;
      t.alignment_source_ = "sysfs logical block size";
    }
  }
  return t;
}

Json ProbeTarget::to_json() const {
  return Json{{"path", path_},
              {"kind", kind_ == TargetKind::file ? "file" : "block_device"},
              {"size_bytes", size_},
              {"created", created_},
              {"writable", writable_},
              {"fs_type", fs_type_.empty() ? Json(nullptr) : Json(fs_type_)},
              {"offset_alignment_bytes", offset_align_},
              {"memory_alignment_bytes", mem_align_},
              {"alignment_source", alignment_source_}};
}

} // namespace aisim::app::probe
