#include "sim/platform/builder.hpp"

#include "models/cluster/drive_load.hpp"

#include <algorithm>

namespace aisim::sim {

namespace sg4 = simgrid::s4u;

// Transfers stripe evenly, so one disk with the summed bandwidth behaves as the drives it stands for. With n
// transfers active, each adding the workload's queue depth, a drive delivers throughput(n x depth) (Little's
// law), never more than its PCIe-limited bandwidth.
std::vector<sg4::Disk*> create_drive_disks(sg4::Host* host, const std::string& name, const models::Scenario& sc,
                                           int storage, int drives, bool full) {
  const auto& sys = sc.storage[storage];
  const models::DriveModel drive = *sys.drive;
  std::vector<sg4::Disk*> out;
  // At fidelity full, a disk per drive where drives can fail (a failed drive slows only its own share, and its
  // rebuild writes to it alone); elsewhere the drives are symmetric and one disk is exact.
  const int disks = full && sc.storage_can_fail(storage) ? drives : 1;
  const double per_disk = static_cast<double>(drives) / disks;
  for (int d = 0; d < disks; ++d) {
    auto* disk = host->create_disk(name + "-nvme" + std::to_string(d), sys.drive_read_bandwidth().value * per_disk,
                                   sys.drive_write_bandwidth().value * per_disk);
    for (auto [op, sg_op] : {std::pair{models::IoOp::read, sg4::Disk::Operation::READ},
                             std::pair{models::IoOp::write, sg4::Disk::Operation::WRITE}}) {
      const models::DriveLoad load = models::drive_load(sc, storage, op);
      const double nominal = (op == models::IoOp::read ? disk->get_read_bandwidth() : disk->get_write_bandwidth());
      // A drive failure lowers the disk's bandwidth to what its surviving drives deliver (storage_failures.cpp);
      // the queue-depth curve shrinks with it, as those drives take the same queues.
      disk->set_sharing_policy(sg_op, sg4::Disk::SharingPolicy::NONLINEAR,
                               [drive, load, op = op, per_disk, nominal](double capacity, int n) {
                                 if (n <= 0)
                                   return capacity;
                                 const double per_drive =
                                     drive.throughput(op, load.pattern, load.io_size, n * load.queue_depth).value;
                                 return std::min(capacity, per_drive * per_disk * (capacity / nominal));
                               });
    }
    out.push_back(disk->seal());
  }
  return out;
}

} // namespace aisim::sim
