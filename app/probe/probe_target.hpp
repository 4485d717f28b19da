// What the probe measures: a file (created at a given size and filled with incompressible data, or an existing
// one that is fully allocated) or a block device, opened with O_DIRECT, and the device underneath, identified
// from sysfs. Every refusal happens here, before any I/O: page-cache-only file systems (tmpfs, ramfs), missing or
// sparse files, writes to a block device without --allow-destructive, and mounted or busy devices.
#pragma once

#include "app/probe/probe_error.hpp"

#include "models/common/json_reader.hpp"

#include <cstdint>
#include <functional>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace aisim::app::probe {

// The probe speaks the models' JSON.
using models::Json;

enum class TargetKind { file, block_device };

// The block device under a target, from /sys/dev/block/MAJ:MIN (partitions resolved to their disk, device-mapper
// and md stacks followed down to their first member).
struct DeviceInfo {
  bool identified = false;
  std::string name;  // "nvme0n1", "vda"; the disk, not the partition
  std::string model; // sysfs device/model, or the bus's vendor and device ids; "" when unknown
  std::string vendor;
  std::string firmware;
  std::string transport;          // "nvme", "virtio", "scsi", ... from the driver's name
  std::vector<std::string> stack; // "dm-0" -> "nvme0n1": the devices between the target and the drive
  uint64_t size_bytes = 0;
  uint32_t logical_block_size = 0;
  uint32_t physical_block_size = 0;
  bool rotational = false;
  bool io_poll = false;           // queue/io_poll: the device can complete polled I/O
  std::optional<int> poll_queues; // nvme's poll_queues module parameter
  std::string scheduler;

  Json to_json() const;
};

struct TargetOptions {
  std::string path;
  std::optional<uint64_t> size_bytes; // create a file of this size when `path` does not exist
  bool write = false;                 // open for writing and measure writes
  bool allow_destructive = false;     // required for writes to a block device
};

class ProbeTarget {
public:
  // Checks, creates (and fills) if asked, and opens the target. `fill_progress` gets the fraction of a new file
  // written. Throws ProbeError.
  static ProbeTarget open(const TargetOptions& opt, const std::function<void(double)>& fill_progress = {});

  ProbeTarget(const ProbeTarget&) = delete;
  ProbeTarget& operator=(const ProbeTarget&) = delete;
  ProbeTarget(ProbeTarget&& o) noexcept;
  ProbeTarget& operator=(ProbeTarget&&) = delete;
  ~ProbeTarget();

  int get_fd() const { return fd_; }
  const std::string& get_path() const { return path_; }
  TargetKind get_kind() const { return kind_; }
  uint64_t get_size() const { return size_; }
  bool is_writable() const { return writable_; }
  bool was_created() const { return created_; }
  uint32_t get_offset_alignment() const { return offset_align_; }
  uint32_t get_memory_alignment() const { return mem_align_; }
  std::string get_fs_type() const { return fs_type_; }
  const DeviceInfo& get_device() const { return device_; }
  // The drive's capacity as far as it is known: the device's size, else the target's.
  uint64_t get_capacity() const { return device_.size_bytes ? device_.size_bytes : size_; }
  Json to_json() const;

private:
  ProbeTarget() = default;
  int fd_ = -1;
  std::string path_;
  TargetKind kind_ = TargetKind::file;
  uint64_t size_ = 0;
  bool writable_ = false;
  bool created_ = false;
  uint32_t offset_align_ = 4096;
  uint32_t mem_align_ = 4096;
  std::string fs_type_;
  std::string alignment_source_;
  DeviceInfo device_;
};

// The smallest file the probe creates or accepts: big enough that 1 MiB sequential reads do not wrap at once.
inline constexpr uint64_t kMinTargetBytes = 16ull << 20;

// Mount points in a /proc/self/mountinfo text whose device (field 3, "major:minor") is one of `devices`.
std::vector<std::string> mounts_of(const std::string& mountinfo,
                                   const std::set<std::pair<unsigned, unsigned>>& devices);

// For a block device node: the reasons it may not be written (mounted, held by dm/md, swap, opened exclusively
// by someone else); empty when it is free. Opens the device read-only with O_EXCL, never for writing.
std::vector<std::string> block_device_busy_reasons(const std::string& path);

// The name of a file system type from statfs's f_type ("ext4", "tmpfs", ...), or its number in hex.
std::string fs_type_name(long f_type);

// Identifies the block device with the given numbers from sysfs; `identified` stays false when there is none.
DeviceInfo identify_device(unsigned major, unsigned minor);

} // namespace aisim::app::probe
