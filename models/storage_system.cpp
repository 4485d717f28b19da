#include "storage_system.hpp"

#include <algorithm>
#include <limits>

namespace aisim::models {

BytesPerSecond pcie_lane_bandwidth(const std::string& generation) {
  // Transfer rate per lane x encoding efficiency / 8 bits: Gen3 8 GT/s, Gen4 16, Gen5 32 (128b/130b);
  // Gen6 64 GT/s with 242/256 FLIT efficiency (PCI-SIG base specifications).
  if (generation == "gen3")
    return BytesPerSecond(8e9 * 128 / 130 / 8);
  if (generation == "gen4")
    return BytesPerSecond(16e9 * 128 / 130 / 8);
  if (generation == "gen5")
    return BytesPerSecond(32e9 * 128 / 130 / 8);
  return BytesPerSecond(64e9 * 242 / 256 / 8);
}

BytesPerSecond StorageSystem::drive_read_bandwidth() const {
  return std::min(drive.read_bandwidth, pcie_lane_bandwidth(pcie_generation) * drive_pcie_lanes);
}

BytesPerSecond StorageSystem::drive_write_bandwidth() const {
  return std::min(drive.write_bandwidth, pcie_lane_bandwidth(pcie_generation) * drive_pcie_lanes);
}

BytesPerSecond StorageSystem::enclosure_read_bandwidth() const {
  const BytesPerSecond drives = drive_read_bandwidth() * drives_per_enclosure;
  return switch_uplink ? std::min(drives, *switch_uplink) : drives;
}

BytesPerSecond StorageSystem::enclosure_write_bandwidth() const {
  const BytesPerSecond drives = drive_write_bandwidth() * drives_per_enclosure;
  return switch_uplink ? std::min(drives, *switch_uplink) : drives;
}

std::optional<StorageSystem> parse_storage_system(ObjectReader& s, const std::string& name,
                                                  const std::vector<DriveModel>& drives,
                                                  const std::vector<std::string>& drive_names, Diagnostics& diag) {
  constexpr int64_t kMaxEnclosures = 10'000'000;
  StorageSystem sys;
  sys.name = name;
  auto kind = s.choice("kind", nullptr, {"jbof"});
  auto enc = s.integer("enclosures", std::nullopt, 1, kMaxEnclosures);
  auto dpe = s.integer("drives_per_enclosure", std::nullopt, 1, 1024);
  auto bays = s.integer("bays_per_enclosure", 24, 1, 1024);
  auto drive = s.reference("drive", drive_names, "drive models under /drives");
  auto lanes = s.integer("drive_pcie_lanes", 4, 1, 16);
  auto gen = s.choice("pcie_generation", "gen4", {"gen3", "gen4", "gen5", "gen6"});
  // Absent means the enclosure's PCIe switch never limits; it is then left out of the resolved scenario.
  std::optional<double> uplink;
  if (s.has("switch_uplink"))
    uplink = s.quantity("switch_uplink", Dimension::bytes_per_second, nullptr);
  else
    s.accept("switch_uplink");
  auto ports = s.integer("ports_per_enclosure", 2, 1, 64);
  auto pspeed = s.quantity("port_speed", Dimension::bytes_per_second, "200Gbps");
  auto eprice = s.quantity("enclosure_price", Dimension::dollars, "$25k", Bound::non_negative);
  auto epower = s.quantity("enclosure_power", Dimension::watts, "600W", Bound::non_negative);
  s.finish();
  if (dpe && bays && *dpe > *bays)
    diag.error(s.child_pointer("drives_per_enclosure"), "more drives than bays (expected at most " +
                                                            std::to_string(*bays) + ", got " + std::to_string(*dpe) +
                                                            ")");
  const int64_t width = lanes.value_or(0);
  const bool width_ok = width == 1 || width == 2 || width == 4 || width == 8 || width == 16;
  if (lanes && !width_ok)
    diag.error(s.child_pointer("drive_pcie_lanes"),
               "not a PCIe link width (expected 1, 2, 4, 8 or 16, got " + std::to_string(width) + ")");
  const bool uplink_ok = !s.has("switch_uplink") || uplink.has_value();
  const double uplink_Bps = uplink.value_or(0.0);
  if (!kind || !enc || !dpe || !drive || !width_ok || !gen || !uplink_ok || !ports || !pspeed || !eprice || !epower)
    return std::nullopt;
  const auto d = std::find_if(drives.begin(), drives.end(), [&](const DriveModel& m) { return m.name == *drive; });
  if (d == drives.end())
    return std::nullopt; // the drive itself had errors, already reported
  sys.kind = *kind;
  sys.enclosures = static_cast<int>(*enc);
  sys.drives_per_enclosure = static_cast<int>(*dpe);
  sys.drive = *d;
  sys.drive_pcie_lanes = static_cast<int>(width);
  sys.pcie_generation = *gen;
  if (uplink_Bps > 0)
    sys.switch_uplink = BytesPerSecond(uplink_Bps);
  sys.ports_per_enclosure = static_cast<int>(*ports);
  sys.port_speed = BytesPerSecond(*pspeed);
  sys.enclosure_price = Dollars(*eprice);
  sys.enclosure_power = Watts(*epower);
  return sys;
}

} // namespace aisim::models
