// Where protection puts the pieces of a stripe: which drives fail together as far as the data is concerned. A
// group holds the D + P pieces of its stripes; it survives as long as at most P of its drives are out, and a
// lost drive is rebuilt from D of the others. Drives are numbered server by server (drive d is bay d mod
// drives_per_server of server d / drives_per_server).
#pragma once

#include <vector>

namespace aisim::models {

struct StorageSystem;

// Groups of the system (0 without protection): an array stripes over consecutive drives behind its
// controllers; a jbof or pfs stripes across servers, one drive per server at the same bay of D + P consecutive
// servers. The last group takes the drives or servers left over (a wider group with the same parity).
int stripe_group_count(const StorageSystem& sys);
int stripe_group_of(const StorageSystem& sys, int drive);
std::vector<int> stripe_group_drives(const StorageSystem& sys, int group);

} // namespace aisim::models
