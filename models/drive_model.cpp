#include "drive_model.hpp"

namespace aisim::models {

std::optional<DriveModel> parse_drive_model(ObjectReader& r, const std::string& name) {
  DriveModel d;
  d.name = name;
  r.accept("format");
  r.accept("file");
  auto label = r.text("name", name.c_str());
  auto source = r.text("source", "unspecified");
  auto cap = r.quantity("capacity", Dimension::bytes, nullptr);
  auto rbw = r.quantity("read_bandwidth", Dimension::bytes_per_second, nullptr);
  auto wbw = r.quantity("write_bandwidth", Dimension::bytes_per_second, nullptr);
  auto pa = r.quantity("power_active", Dimension::watts, "20W");
  auto pi = r.quantity("power_idle", Dimension::watts, "5W");
  auto price = r.quantity("price", Dimension::dollars, nullptr, Bound::non_negative);
  r.finish();
  if (!label || !source || !cap || !rbw || !wbw || !pa || !pi || !price)
    return std::nullopt;
  d.name = *label;
  d.source = *source;
  d.capacity = Bytes(*cap);
  d.read_bandwidth = BytesPerSecond(*rbw);
  d.write_bandwidth = BytesPerSecond(*wbw);
  d.active_power = Watts(*pa);
  d.idle_power = Watts(*pi);
  d.price = Dollars(*price);
  return d;
}

} // namespace aisim::models
