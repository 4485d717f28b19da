#include "models/hardware/stripe_groups.hpp"

#include "models/hardware/storage_system.hpp"

#include <algorithm>

namespace aisim::models {

namespace {

// Protection spreads over servers (enclosures, file servers) rather than over one server's drives.
bool across_servers(const StorageSystem& sys) { return sys.kind == "jbof" || sys.kind == "pfs"; }

} // namespace

int stripe_group_count(const StorageSystem& sys) {
  const int width = sys.protection.width();
  if (sys.protection.parity == 0 || width <= 0)
    return 0;
  if (across_servers(sys))
    return std::max(1, sys.servers / width) * sys.drives_per_server;
  return std::max(1, sys.servers * sys.drives_per_server / width);
}

int stripe_group_of(const StorageSystem& sys, int drive) {
  const int width = sys.protection.width();
  if (across_servers(sys)) {
    const int blocks = std::max(1, sys.servers / width);
    const int server = drive / sys.drives_per_server, bay = drive % sys.drives_per_server;
    return std::min(server / width, blocks - 1) * sys.drives_per_server + bay;
  }
  return std::min(drive / width, stripe_group_count(sys) - 1);
}

std::vector<int> stripe_group_drives(const StorageSystem& sys, int group) {
  const int width = sys.protection.width();
  std::vector<int> out;
  if (across_servers(sys)) {
    const int blocks = std::max(1, sys.servers / width);
    const int block = group / sys.drives_per_server, bay = group % sys.drives_per_server;
    const int last = block == blocks - 1 ? sys.servers : (block + 1) * width;
    for (int server = block * width; server < last; ++server)
      out.push_back(server * sys.drives_per_server + bay);
    return out;
  }
  const int drives = sys.servers * sys.drives_per_server;
  const int last = group == stripe_group_count(sys) - 1 ? drives : (group + 1) * width;
  for (int d = group * width; d < last; ++d)
    out.push_back(d);
  return out;
}

} // namespace aisim::models
