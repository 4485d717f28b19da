// Storage systems a scenario names under "storage". Today: NVMe JBOF enclosures (drives behind PCIe lanes and an
// internal PCIe switch, reached over NVMe-oF front-end ports), with no data services of their own.
#pragma once

#include "diagnostics.hpp"
#include "drive_model.hpp"
#include "json_reader.hpp"
#include "units.hpp"

#include <optional>
#include <string>
#include <vector>

namespace aisim::models {

// Usable bandwidth of one PCIe lane per direction after line encoding (128b/130b for Gen3-5, FLIT for Gen6).
BytesPerSecond pcie_lane_bandwidth(const std::string& generation);

struct StorageSystem {
  std::string name;
  std::string kind; // "jbof"
  int enclosures = 0;
  int drives_per_enclosure = 0;
  DriveModel drive;
  int drive_pcie_lanes = 4;
  std::string pcie_generation;
  std::optional<BytesPerSecond> switch_uplink; // the enclosure's PCIe switch to its NVMe-oF controllers
  int ports_per_enclosure = 0;
  BytesPerSecond port_speed;
  Dollars enclosure_price;
  Watts enclosure_power;

  int drive_count() const { return enclosures * drives_per_enclosure; }
  Bytes capacity() const { return drive.capacity * drive_count(); }
  BytesPerSecond port_bandwidth() const { return port_speed * ports_per_enclosure; }
  // A drive's bandwidth as its bay's PCIe lanes let it deliver.
  BytesPerSecond drive_read_bandwidth() const;
  BytesPerSecond drive_write_bandwidth() const;
  // What one enclosure's drives can move through its PCIe switch (not counting the front-end ports).
  BytesPerSecond enclosure_read_bandwidth() const;
  BytesPerSecond enclosure_write_bandwidth() const;
};

// Reads one system under /storage/NAME. `drives` are the parsed drive models, `drive_names` every name defined
// under /drives (valid or not, so a reference to a broken drive is not reported twice).
std::optional<StorageSystem> parse_storage_system(ObjectReader& r, const std::string& name,
                                                  const std::vector<DriveModel>& drives,
                                                  const std::vector<std::string>& drive_names, Diagnostics& diag);

} // namespace aisim::models
