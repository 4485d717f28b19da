#include "models/scenario/scenario_parser.hpp"

#include "models/common/sha256.hpp"

#include "models/hardware/drive_model.hpp"
#include "models/hardware/gpu_catalog.hpp"
#include "models/hardware/node_presets.hpp"
#include "models/hardware/storage_system_parser.hpp"
#include "models/scenario/included_file.hpp"
#include "models/scenario/policy_parser.hpp"
#include "models/scenario/price_sheet.hpp"
#include "models/scenario/workload_parser.hpp"

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>

namespace aisim::models {
namespace {

constexpr int64_t kMaxCount = 10'000'000;

// A drive entry is inline, or {"file": "drives/x.json", ...overrides}: the file's keys with the entry's own
// keys on top. The merged object replaces the entry, so the resolved scenario is self-contained. A price sheet
// prices a drive whose entry gives no price of its own.
std::optional<DriveModel> parse_drive(const std::string& name, Json& entry, const std::string& ptr,
                                      const std::string& base_dir, PriceSheet* sheet, Diagnostics& diag) {
  const bool had_price = entry.is_object() && entry.contains("price");
  if (entry.is_object() && entry.contains("file")) {
    if (!entry["file"].is_string()) {
      diag.error(ptr + "/file",
                 "wrong type (expected a path to an aisim.drive/v1 file, got " + json_excerpt(entry["file"]) + ")");
      return std::nullopt;
    }
    auto doc = load_included_json(entry["file"].get<std::string>(), base_dir, "aisim.drive/v1", ptr + "/file", diag);
    if (!doc)
      return std::nullopt;
    // RFC 7386 merge: the entry's keys override the file's, nested objects ("read": {"random": ...}) key by key.
    Json merged = *doc;
    merged.merge_patch(entry);
    entry = merged;
  }
  if (sheet && entry.is_object())
    price_drive(entry, had_price, ptr, *sheet, diag);
  ObjectReader r(entry, ptr, diag);
  if (!r.ok())
    return std::nullopt;
  return parse_drive_model(r, name);
}

// Data at rest on a system from the start: {"archived_checkpoint": "7PB", ...}, by data class.
bool parse_holds(Json& entry, const std::string& ptr, StorageSystem& sys, Diagnostics& diag) {
  if (!entry.is_object() || !entry.contains("holds"))
    return true;
  ObjectReader h(entry["holds"], ptr, diag);
  if (!h.ok())
    return false;
  bool ok = true;
  double total = 0;
  for (int c = 0; c < kDataClasses; ++c) {
    const char* cls = data_class_name(static_cast<DataClass>(c));
    std::optional<double> bytes;
    if (!h.optional_quantity(cls, Dimension::bytes, bytes)) {
      ok = false;
    } else if (bytes) {
      sys.holds.emplace_back(c, Bytes(*bytes));
      total += *bytes;
    }
  }
  h.finish();
  if (ok && total > sys.capacity().value * (1 + 1e-9)) {
    diag.error(ptr, "holds more than the system's capacity (expected at most " + format_bytes(sys.capacity()) +
                        ", got " + format_bytes(Bytes(total)) + ")");
    ok = false;
  }
  return ok;
}

} // namespace

namespace {

// Where the parser is in the document, for the pointer of a duplicate key or of nesting too deep.
class JsonPlace {
public:
  // Returns false (stop) when the document nests deeper than kMaxJsonDepth.
  bool on(Json::parse_event_t event, const Json& parsed) {
    using E = Json::parse_event_t;
    switch (event) {
    case E::object_start:
    case E::array_start:
      element_starts();
      frames_.push_back({event == E::object_start, {}, {}, -1});
      return frames_.size() <= static_cast<size_t>(kMaxJsonDepth);
    case E::key:
      if (!frames_.empty()) {
        auto& f = frames_.back();
        f.key = parsed.get<std::string>();
        if (!f.keys.insert(f.key).second)
          duplicates_.push_back(pointer());
      }
      return true;
    case E::value:
      element_starts();
      return true;
    case E::object_end:
    case E::array_end:
      if (!frames_.empty())
        frames_.pop_back();
      return true;
    }
    return true;
  }
  // The value being read now; `next`: the one the parser is on but has not reported (a number it could not read).
  std::string pointer(bool next = false) const {
    std::string p;
    for (size_t i = 0; i < frames_.size(); ++i) {
      const auto& f = frames_[i];
      const long index = f.index + (next && i + 1 == frames_.size() ? 1 : 0);
      p += "/" + (f.object ? pointer_token(f.key) : std::to_string(std::max(0L, index)));
    }
    return p;
  }
  const std::vector<std::string>& duplicates() const { return duplicates_; }

private:
  void element_starts() {
    if (!frames_.empty() && !frames_.back().object)
      ++frames_.back().index;
  }
  struct Frame {
    bool object;
    std::set<std::string> keys;
    std::string key;
    long index;
  };
  std::vector<Frame> frames_;
  std::vector<std::string> duplicates_;
};

struct TooDeep {
  std::string pointer;
};

} // namespace

std::optional<Json> parse_json_text(const std::string& text, Diagnostics& diag, const std::string& pointer_prefix) {
  JsonPlace place;
  try {
    Json doc = Json::parse(text, [&](int, Json::parse_event_t event, Json& parsed) {
      if (!place.on(event, parsed))
        throw TooDeep{place.pointer()};
      return true;
    });
    for (const auto& p : place.duplicates())
      diag.error(pointer_prefix + p, "this key is written twice in one object (JSON keeps only the last one, so the "
                                     "other would be ignored without a word; keep one)");
    if (!place.duplicates().empty())
      return std::nullopt;
    return doc;
  } catch (const TooDeep& deep) {
    diag.error(pointer_prefix + deep.pointer, "nested deeper than " + std::to_string(kMaxJsonDepth) +
                                                  " levels (no aisim file needs that many; is this the right file?)");
    return std::nullopt;
  } catch (const Json::out_of_range& e) {
    // "number overflow parsing '1e400'": nlohmann's text names the number.
    std::string what = e.what();
    const auto at = what.find("] ");
    diag.error(pointer_prefix + place.pointer(true),
               (at == std::string::npos ? what : what.substr(at + 2)) + " (expected a number a double can hold)");
    return std::nullopt;
  } catch (const Json::parse_error& e) {
    // Turn the byte offset into a line and column a person can jump to.
    size_t line = 1, col = 1;
    const size_t end = std::min<size_t>(e.byte == 0 ? 0 : e.byte - 1, text.size());
    for (size_t i = 0; i < end; ++i) {
      if (text[i] == '\n') {
        ++line;
        col = 1;
      } else {
        ++col;
      }
    }
    // nlohmann's text repeats the position ("[json.exception.parse_error.101] parse error at line 4, column 11:
    // ..."); keep only the explanation after it.
    std::string what = e.what();
    const auto at = what.find("column ");
    const auto colon = at == std::string::npos ? std::string::npos : what.find(": ", at);
    if (colon != std::string::npos)
      what = what.substr(colon + 2);
    diag.error(pointer_prefix,
               "JSON syntax error at line " + std::to_string(line) + ", column " + std::to_string(col) + ": " + what);
    return std::nullopt;
  }
}

bool apply_override(Json& doc, const std::string& assignment, Diagnostics& diag) {
  const auto eq = assignment.find('=');
  if (eq == std::string::npos || assignment.empty() || assignment[0] != '/') {
    diag.error("", "--set \"" + assignment + "\": expected /json/pointer=value");
    return false;
  }
  const std::string ptr = assignment.substr(0, eq);
  const std::string raw = assignment.substr(eq + 1);
  if (!is_utf8(assignment)) {
    // A pointer that is not UTF-8 cannot be a diagnostic's pointer (results and --json are UTF-8): the message
    // names it with the bytes shown.
    diag.error(is_utf8(ptr) ? ptr : "",
               is_utf8(ptr) ? "--set: not UTF-8 text (a scenario is JSON, which is UTF-8)"
                            : "--set " + shown_as_utf8(ptr) +
                                  ": the pointer is not UTF-8 text (a scenario is JSON, which is UTF-8; no key of "
                                  "it can hold these bytes)");
    return false;
  }
  Json value = raw; // not JSON: a plain string such as 3d or H100-SXM
  if (Json::accept(raw)) {
    Diagnostics local(diag.get_file());
    auto parsed = parse_json_text(raw, local, ptr); // JSON, but maybe too deep or with a key written twice
    for (const auto& d : local.items())
      diag.error(d.pointer, "--set: " + d.message);
    if (!parsed)
      return false;
    value = std::move(*parsed);
  }
  try {
    Json::json_pointer jp(ptr);
    if (!doc.contains(jp.parent_pointer())) {
      diag.error(ptr, "--set names a place whose parent does not exist (expected an existing object or array)");
      return false;
    }
    Json& parent = doc[jp.parent_pointer()];
    if (!parent.is_object() && !parent.is_array()) {
      diag.error(ptr, "--set names a place inside a value that is not an object or array");
      return false;
    }
    if (parent.is_array()) {
      // nlohmann would fill the gap up to a far index with nulls (an error each, or no memory for a huge one).
      const std::string last = jp.back();
      const bool digits = !last.empty() && last.find_first_not_of("0123456789") == std::string::npos;
      if (last != "-" && (!digits || last.size() > 9 || std::stoul(last) > parent.size())) {
        diag.error(ptr, "--set: no such place in the array (expected an index from 0 to " +
                            std::to_string(parent.size()) + ", the last appending, or \"-\" to append; got \"" + last +
                            "\")");
        return false;
      }
    }
    doc[jp] = value;
  } catch (const Json::exception& e) {
    diag.error(ptr, std::string("--set: ") + e.what());
    return false;
  }
  return true;
}

LoadedScenario load_scenario(const std::string& path, const std::vector<std::string>& overrides) {
  LoadedScenario out{std::nullopt, Diagnostics(path), {}};
  std::string why;
  auto text = read_text_file(path, &why);
  if (!text) {
    out.diagnostics.error("", why);
    return out;
  }
  out.file_sha256 = sha256_hex(*text);
  auto doc = parse_json_text(*text, out.diagnostics);
  if (!doc)
    return out;
  for (const auto& o : overrides)
    apply_override(*doc, o, out.diagnostics);
  // Validate even when an override could not be applied, so every problem is reported in one run.
  const auto base = std::filesystem::path(path).parent_path().string();
  auto parsed = parse_scenario(std::move(*doc), path, base.empty() ? "." : base);
  if (!out.diagnostics.has_errors()) {
    parsed.file_sha256 = out.file_sha256;
    return parsed;
  }
  for (const auto& d : parsed.diagnostics.items())
    out.diagnostics.add(d);
  return out;
}

namespace {

// A group's prices: rented per GPU-hour, or bought (GPUs at the GPU model's price, nodes at $60k).
struct GroupPrices {
  std::optional<double> rent;
  bool rent_ok = true;
  std::optional<double> gpu_price, node_price;
};

GroupPrices read_group_prices(ObjectReader& g, const std::optional<GpuModel>& model, Diagnostics& diag) {
  // A rented group (a cloud cluster) is paid per GPU-hour and buys nothing: a purchase price would be
  // counted nowhere, so one given with the rent is refused rather than ignored.
  GroupPrices out;
  auto& [rent, rent_ok, gprice, nprice] = out;
  rent_ok = g.optional_quantity("gpu_rent", Dimension::dollars_per_hour, rent);
  gprice = 0.0;
  nprice = 0.0;
  if (!rent) {
    const std::string default_price = model ? format_dollars(model->price) : "$0";
    gprice = g.quantity("gpu_price", Dimension::dollars, default_price.c_str(), Bound::non_negative);
    nprice = g.quantity("node_price", Dimension::dollars, "$60k", Bound::non_negative);
  } else {
    for (const char* key : {"gpu_price", "node_price"})
      if (g.has(key)) {
        g.accept(key);
        diag.error(g.child_pointer(key), std::string("a group with gpu_rent is rented, not bought (expected "
                                                     "either gpu_rent or ") +
                                             key + ", not both)");
        gprice.reset();
      }
  }
  return out;
}

// A group's name joins `group_names` even when the group has errors, so that references to it do not cascade.
void record_group_name(const std::optional<std::string>& gname, ObjectReader& g, Diagnostics& diag,
                       std::vector<std::string>& group_names) {
  if (!gname)
    return;
  check_name(*gname, g.child_pointer("name"), diag);
  if (std::find(group_names.begin(), group_names.end(), *gname) != group_names.end())
    diag.error(g.child_pointer("name"), "duplicate node group name \"" + *gname + "\" (expected unique names)");
  group_names.push_back(*gname);
}

// One node group (cluster.node_groups[i]); nullopt where it has errors, each reported. Its name joins `group_names`
// either way, so that references to a group with errors do not cascade.
std::optional<NodeGroup> parse_node_group(ObjectReader& g, Diagnostics& diag, std::vector<std::string>& group_names) {
  NodeGroup ng;
  auto gname = g.text("name", nullptr);
  auto count = g.integer("count", std::nullopt, 1, kMaxCount);
  // A preset (models/hardware/node_presets.hpp) gives the defaults of a published system; without one the
  // defaults are a DGX H100's and `gpu` is required.
  std::optional<NodePreset> preset;
  bool preset_ok = true;
  if (g.has("preset")) {
    auto p = g.choice("preset", nullptr, node_preset_names());
    preset_ok = p.has_value();
    if (p)
      preset = find_node_preset(*p);
  } else {
    g.accept("preset");
  }
  const NodePreset base = preset.value_or(*find_node_preset("dgx-h100"));
  // Past any server's GPU count: MLPerf Storage's DLIO hosts emulate accelerators, 58 on one host in a
  // published single-drive row.
  auto gpn = g.integer("gpus_per_node", base.gpus_per_node, 1, 1024);
  auto gpu = g.choice("gpu", preset ? base.gpu.c_str() : nullptr, gpu_model_names());
  std::optional<GpuModel> model = gpu ? find_gpu_model(*gpu) : std::nullopt;
  const auto [rent, rent_ok, gprice, nprice] = read_group_prices(g, model, diag);
  auto nics = g.integer("nics", base.nics, 1, 64);
  auto nic_speed = g.quantity("nic_speed", Dimension::bytes_per_second, base.nic_speed.c_str());
  auto cnics = g.integer("compute_nics", base.compute_nics, 1, 64);
  auto cnic_speed = g.quantity("compute_nic_speed", Dimension::bytes_per_second, base.compute_nic_speed.c_str());
  auto mem = g.quantity("host_memory", Dimension::bytes, base.host_memory.c_str());
  // PCIe Gen5 x16 moves about 50 GB/s in practice of its 63 GB/s per direction.
  auto host_bw = g.quantity("gpu_host_bandwidth", Dimension::bytes_per_second, base.gpu_host_bandwidth.c_str());
  auto npower = g.quantity("node_power", Dimension::watts, "3kW", Bound::non_negative);
  // The node's data path (models/cluster/host_path.hpp); defaults and their sources in scenarios/README.md.
  auto gds = g.boolean("gpudirect_storage", false);
  auto switches = g.integer("pcie_switches", base.pcie_switches, 1, 64);
  std::optional<double> uplink; // absent: an x16 link like each GPU's, gpu_host_bandwidth
  const bool uplink_ok = g.optional_quantity("pcie_switch_uplink", Dimension::bytes_per_second, uplink);
  auto mem_bw = g.quantity("host_memory_bandwidth", Dimension::bytes_per_second, base.host_memory_bandwidth.c_str());
  auto cores = g.integer("cpu_cores", base.cpu_cores, 1, 4096);
  auto copy_bw = g.quantity("core_copy_bandwidth", Dimension::bytes_per_second, "10GB/s");
  auto request_cpu = g.quantity("io_request_cpu_time", Dimension::seconds, "5us", Bound::non_negative);
  // Mean time between failures that interrupt a job, per node (GPUs, memory, NICs, software); absent: none.
  std::optional<double> mtbf;
  const bool mtbf_ok = g.optional_quantity("node_mtbf", Dimension::seconds, mtbf);
  g.finish();
  record_group_name(gname, g, diag, group_names);
  if (!gname || !count || !gpn || !model || !gprice || !nics || !nic_speed || !cnics || !cnic_speed || !mem ||
      !host_bw || !npower || !nprice || !mtbf_ok || !rent_ok || !preset_ok || !gds || !switches || !uplink_ok ||
      !mem_bw || !cores || !copy_bw || !request_cpu)
    return std::nullopt;
  ng.name = *gname;
  ng.count = static_cast<int>(*count);
  ng.gpus_per_node = static_cast<int>(*gpn);
  ng.gpu = *model;
  ng.gpu_price = Dollars(*gprice);
  ng.nics = static_cast<int>(*nics);
  ng.nic_speed = BytesPerSecond(*nic_speed);
  ng.compute_nics = static_cast<int>(*cnics);
  ng.compute_nic_speed = BytesPerSecond(*cnic_speed);
  ng.host_memory = Bytes(*mem);
  ng.gpu_host_bandwidth = BytesPerSecond(*host_bw);
  ng.gpudirect_storage = *gds;
  ng.pcie_switches = static_cast<int>(*switches);
  ng.pcie_switch_uplink = BytesPerSecond(uplink.value_or(*host_bw));
  ng.host_memory_bandwidth = BytesPerSecond(*mem_bw);
  ng.cpu_cores = static_cast<int>(*cores);
  ng.core_copy_bandwidth = BytesPerSecond(*copy_bw);
  ng.io_request_cpu_time = Seconds(*request_cpu);
  ng.node_power = Watts(*npower);
  ng.node_price = Dollars(*nprice);
  ng.node_mtbf = Seconds(mtbf.value_or(0.0));
  ng.gpu_rent = DollarsPerHour(rent.value_or(0.0));
  return ng;
}

// The topology's own keys (a spine-leaf's leaves and spines, a fat tree's radix); another topology's keys are
// refused by name rather than silently ignored. False when one is wrong.
bool read_topology(ObjectReader& net, const std::string& topo, NetworkSpec& spec, Diagnostics& diag) {
  bool ok = true;
  spec.topology = topo;
  // Keys of other topologies are rejected by name rather than silently ignored.
  const std::vector<std::pair<std::string, std::vector<std::string>>> owners{
      {"nodes_per_leaf", {"spine_leaf", "rail_optimized"}},
      {"enclosures_per_leaf", {"spine_leaf", "rail_optimized"}},
      {"spines", {"spine_leaf", "rail_optimized"}},
      {"oversubscription", {"spine_leaf", "rail_optimized"}},
      {"k", {"fat_tree"}},
      {"link_speed", {"fat_tree"}}};
  for (const auto& [key, topologies] : owners) {
    if (std::find(topologies.begin(), topologies.end(), topo) != topologies.end() || !net.has(key))
      continue;
    net.accept(key);
    diag.error(net.child_pointer(key),
               "applies only to topology " + quoted_list(topologies) + " (got topology \"" + topo + "\")");
    ok = false;
  }
  if (topo == "spine_leaf" || topo == "rail_optimized") {
    auto npl = net.integer("nodes_per_leaf", topo == "rail_optimized" ? 32 : 16, 1, 100000);
    auto epl = net.integer("enclosures_per_leaf", 8, 1, 100000);
    auto spines = net.integer("spines", 8, 1, 100000);
    auto over = net.number("oversubscription", 1.0, 1.0, 100.0);
    ok = ok && npl && epl && spines && over;
    if (ok) {
      spec.nodes_per_leaf = static_cast<int>(*npl);
      spec.enclosures_per_leaf = static_cast<int>(*epl);
      spec.spines = static_cast<int>(*spines);
      spec.oversubscription = *over;
    }
  } else if (topo == "fat_tree") {
    auto k = net.integer("k", std::nullopt, 2, 256);
    auto speed = net.quantity("link_speed", Dimension::bytes_per_second, "400Gbps");
    if (k && *k % 2 != 0) {
      diag.error(net.child_pointer("k"),
                 "a fat tree needs an even radix (expected an even integer, got " + std::to_string(*k) + ")");
      k.reset();
    }
    ok = ok && k && speed;
    if (ok) {
      spec.k = static_cast<int>(*k);
      spec.link_speed = BytesPerSecond(*speed);
    }
  }
  return ok;
}

// The `network` section; nullopt where it has errors, each reported.
std::optional<NetworkSpec> parse_network(ObjectReader& net, Diagnostics& diag) {
  auto topo = net.choice("topology", "single_switch", {"single_switch", "spine_leaf", "fat_tree", "rail_optimized"});
  auto lat = net.quantity("link_latency", Dimension::seconds, "1us", Bound::non_negative);
  auto storage_net = net.choice("storage_network", "separate", {"separate", "converged"});
  auto fabric = net.choice("fabric", "ethernet", {"ethernet", "infiniband"});
  // Jumbo frames, as storage networks run them; 1500 is Ethernet's own (IEEE 802.3).
  int64_t mtu_bytes = 9000;
  bool mtu = true;
  if (fabric && *fabric == "ethernet") {
    const auto m = net.integer("mtu", 9000, 1280, 9216);
    mtu = m.has_value();
    mtu_bytes = m.value_or(9000);
  } else if (net.has("mtu")) {
    net.accept("mtu");
    diag.error(net.child_pointer("mtu"),
               "only an Ethernet fabric has an IP MTU to set (InfiniBand packets carry 4096 bytes; expected "
               "\"fabric\": \"ethernet\")");
    mtu = false;
  }
  // Estimates for a 32 x 400G Ethernet switch and, per port in use, a 400G optic with its share of a cable.
  auto switch_price = net.quantity("switch_price", Dimension::dollars, "$30k", Bound::non_negative);
  auto port_price = net.quantity("port_price", Dimension::dollars, "$1k", Bound::non_negative);
  auto switch_power = net.quantity("switch_power", Dimension::watts, "800W", Bound::non_negative);
  NetworkSpec spec;
  bool ok = topo && lat && switch_price && port_price && switch_power && fabric && mtu;
  if (topo)
    ok = read_topology(net, *topo, spec, diag) && ok;
  net.finish();
  if (ok && storage_net) {
    spec.link_latency = Seconds(*lat);
    spec.converged = *storage_net == "converged";
    spec.fabric = *fabric;
    spec.mtu = static_cast<int>(mtu_bytes);
    spec.switch_price = Dollars(*switch_price);
    spec.port_price = Dollars(*port_price);
    spec.switch_power = Watts(*switch_power);
    return spec;
  }
  return std::nullopt;
}

// The `costs` section into sc.costs (left at its defaults where it has errors, each reported). `sheet` is the price
// sheet already applied to `doc`, recorded there again.
void parse_costs(ObjectReader& costs, Json& doc, const std::optional<PriceSheet>& sheet, Scenario& sc,
                 Diagnostics& diag) {
  auto horizon = costs.quantity("horizon", Dimension::seconds, "3y");
  auto energy = costs.quantity("energy_price", Dimension::dollars_per_kwh, "$0.12/kWh", Bound::non_negative);
  auto pue = costs.number("pue", 1.3, 1.0, 5.0);
  auto gh = costs.quantity("gpu_hour_price", Dimension::dollars_per_hour, "$2.50/h", Bound::non_negative);
  auto life = costs.quantity("service_life", Dimension::seconds, "5y", Bound::positive);
  auto maintenance = costs.number("maintenance", 0.10, 0.0, 1.0);
  auto extrapolation = costs.choice("extrapolation", "repeat", {"repeat", "once"});
  auto facility = costs.quantity("facility_price", Dimension::dollars_per_kw_month, "$0/kW-month", Bound::non_negative);
  // A sheet already applied (by parse_scenario, or in a resolved scenario) stays as its record.
  if (costs.has("price_sheet")) {
    costs.accept("price_sheet");
    if (sheet)
      record_price_sheet(doc, *sheet);
  }
  std::array<std::optional<Costs::DataValue>, kDataClasses> data_value;
  bool value_ok = true;
  if (auto dv = costs.has("data_value") ? costs.object("data_value", false) : std::nullopt) {
    for (int c = 0; c < kDataClasses; ++c) {
      const std::string key = data_class_name(static_cast<DataClass>(c));
      if (!dv->has(key)) {
        dv->accept(key);
        continue;
      }
      // Money for the whole holding ("$2M"), or per size held ("$100/TB").
      const Json& v = doc["costs"]["data_value"][key];
      std::string error;
      const std::string text = v.is_string() ? v.get<std::string>() : "";
      auto usd = parse_quantity(text, Dimension::dollars, &error);
      bool per_byte = false;
      if (!usd) {
        usd = parse_quantity(text, Dimension::dollars_per_byte, &error);
        per_byte = true;
      }
      dv->accept(key);
      if (!usd || *usd < 0) {
        const bool negative = usd ? *usd < 0 : text.starts_with("-");
        diag.error(dv->child_pointer(key), std::string(negative ? "a negative data value" : "not a data value") +
                                               " (expected money for the whole holding like \"$2M\", or per size "
                                               "like \"$100/TB\", at least $0; got " +
                                               json_excerpt(v) + ")");
        value_ok = false;
        continue;
      }
      data_value[c] = Costs::DataValue{*usd, per_byte};
    }
    dv->finish();
  } else {
    costs.accept("data_value");
  }
  const auto growth_read = costs.number("data_growth", 0.0, -1.0, 100.0);
  const double growth = growth_read.value_or(0.0);
  bool growth_ok = growth_read && growth > -1.0;
  if (growth_read && !growth_ok)
    diag.error(costs.child_pointer("data_growth"),
               "data cannot shrink by 100 % or more a year (expected a yearly growth above -1, got " +
                   json_excerpt(doc["costs"]["data_growth"]) + ")");
  costs.finish();
  if (!value_ok)
    growth_ok = false; // reported above; nothing is half read
  if (horizon && energy && pue && gh && life && maintenance && extrapolation && facility && growth_ok)
    sc.costs = Costs{Seconds(*horizon),
                     DollarsPerKWh(*energy),
                     *pue,
                     DollarsPerHour(*gh),
                     Seconds(*life),
                     *maintenance,
                     *extrapolation,
                     DollarsPerKWMonth(*facility),
                     growth,
                     "",
                     0,
                     data_value};
  if (const Json rec = doc["costs"].value("price_sheet", Json()); rec.is_object() && rec.contains("applied")) {
    sc.costs.price_sheet = rec.value("name", "") + ", dated " + rec.value("date", "");
    sc.costs.price_sheet_figures = static_cast<int>(rec["applied"].size());
  }
}

// The inputs' own ranges for `aisim sweep --sensitivity`: {"/pointer": {"low": V, "high": V}}. A run does not use
// them; the shape is checked here, and each value in the scenario when the sensitivity runs.
void parse_uncertainty(ObjectReader& top, Json& doc, Diagnostics& diag) {
  if (top.has("uncertainty")) {
    if (auto unc = top.object("uncertainty", false); unc && unc->ok()) {
      for (auto& [key, entry] : doc["uncertainty"].items()) {
        unc->accept(key);
        const std::string ptr = unc->child_pointer(key);
        if (key.empty() || key.front() != '/')
          diag.error(ptr, "expected a JSON pointer to a scenario value, such as \"/cluster/node_groups/0/nic_speed\"");
        ObjectReader range(entry, ptr, diag);
        for (const char* end : {"low", "high"}) {
          range.accept(end);
          if (!range.ok())
            continue;
          if (!entry.contains(end))
            diag.error(ptr + "/" + end,
                       std::string("required: the input's ") + end + " value, written as the scenario writes it");
          else if (!entry[end].is_number() && !entry[end].is_string())
            diag.error(ptr + "/" + end, "expected a number or a quantity string, got " + json_excerpt(entry[end]));
        }
        range.finish();
      }
      unc->finish();
    }
  } else {
    top.accept("uncertainty");
  }
}

// What job i names elsewhere fits it: its dataset on its home and its storage, node-local systems of its own
// group, a checkpoint interval the group's failures can set, a multilevel checkpoint's local tier.
void check_job_storage(const Scenario& sc, size_t i, Diagnostics& diag) {
  const StorageSystem* home = sc.find_storage(sc.policies.tiering.dataset_home);
  const auto& job = sc.jobs[i];
  const std::string wptr = "/workloads/" + std::to_string(i);
  if (home && job.dataset.size > home->capacity())
    diag.error(wptr + "/dataset/size", "dataset larger than its home \"" + home->name + "\" (expected at most " +
                                           format_bytes(home->capacity()) + ", got " + format_bytes(job.dataset.size) +
                                           ")");
  const StorageSystem* ds = sc.find_storage(job.dataset.storage);
  if (ds && job.dataset.size > ds->capacity())
    diag.error(wptr + "/dataset/size", "dataset larger than storage \"" + ds->name + "\" (expected at most " +
                                           format_bytes(ds->capacity()) + ", got " + format_bytes(job.dataset.size) +
                                           ")");
  // Node-local drives serve only the nodes they sit in.
  for (const auto& [what, name] : {std::pair{"dataset", job.dataset.storage}, {"checkpoint", job.checkpoint.storage}}) {
    const StorageSystem* sys = sc.find_storage(name);
    if (sys && sys->kind == "local_nvme" && sys->node_group != job.node_group)
      diag.error(wptr + "/" + what + "/storage",
                 "\"" + name + "\" is node-local to node group \"" + sys->node_group +
                     "\" (expected a shared system or the local drives of the job's own group \"" + job.node_group +
                     "\")");
  }
  if (const auto& cache = job.dataset.cache; !cache.empty() && cache != "page_cache") {
    const StorageSystem* c = sc.find_storage(cache);
    if (c && (c->kind != "local_nvme" || c->node_group != job.node_group))
      diag.error(wptr + "/dataset/cache", "\"" + cache + "\" is not node-local to the job's group \"" + job.node_group +
                                              "\" (expected \"page_cache\" or its local_nvme)");
  }
  if (job.checkpoint.interval_auto) {
    const NodeGroup* g = sc.find_node_group(job.node_group);
    if (g && g->node_mtbf.value <= 0)
      diag.error(wptr + "/checkpoint/interval",
                 "an automatic interval balances checkpoint cost against failures, and node group \"" + g->name +
                     "\" has none (expected node_mtbf on the group, or an interval)");
  }
  if (!job.checkpoint.local_storage.empty()) {
    const StorageSystem* local = sc.find_storage(job.checkpoint.local_storage);
    if (job.checkpoint.mode != "multilevel")
      diag.error(wptr + "/checkpoint/local_storage",
                 "only multilevel checkpoints write to local storage first (expected mode \"multilevel\", got \"" +
                     job.checkpoint.mode + "\")");
    else if (local && (local->kind != "local_nvme" || local->node_group != job.node_group))
      diag.error(wptr + "/checkpoint/local_storage", "\"" + local->name + "\" is not node-local to the job's group \"" +
                                                         job.node_group +
                                                         "\" (expected the local_nvme of the job's own nodes)");
    else if (job.checkpoint.local_storage == job.checkpoint.storage)
      diag.error(wptr + "/checkpoint/storage",
                 "a multilevel checkpoint drains from local storage to shared storage (expected a system other "
                 "than local_storage \"" +
                     local->name + "\")");
  }
  const StorageSystem* cs = sc.find_storage(job.checkpoint.storage);
  if (cs && job.checkpoint.size > cs->capacity())
    diag.error(wptr + "/checkpoint/size", "checkpoint larger than storage \"" + cs->name + "\" (expected at most " +
                                              format_bytes(cs->capacity()) + ", got " +
                                              format_bytes(job.checkpoint.size) + ")");
  if (job.start >= sc.simulation.duration && sc.simulation.duration.value > 0)
    diag.warn(wptr + "/start", "the job starts after the simulation ends; it contributes nothing");
}

// Cross-checks that need several sections.
void check_across_sections(const Scenario& sc, Diagnostics& diag) {
  for (const auto& sys : sc.storage) {
    if (!sys.replication)
      continue;
    const StorageSystem* target = sc.find_storage(sys.replication->target);
    if (target && target->kind == "local_nvme")
      diag.error("/storage/" + pointer_token(sys.name) + "/replication/target",
                 "\"" + target->name +
                     "\" is node-local storage (expected a shared system: jbof, array, pfs or object)");
  }
  if (auto limit = endpoint_limit(sc.network)) {
    long long endpoints = 0;
    for (const auto& g : sc.node_groups)
      endpoints += g.count;
    for (const auto& s : sc.storage)
      endpoints += s.servers;
    if (endpoints > *limit)
      diag.error("/network/k",
                 "the fat tree attaches " + std::to_string(*limit) + " endpoints, the scenario has " +
                     std::to_string(endpoints) +
                     " GPU nodes and storage servers (expected k with k^3/4 >= " + std::to_string(endpoints) + ")");
  }
  check_node_schedule(sc, diag);
  for (size_t i = 0; i < sc.jobs.size(); ++i)
    check_job_storage(sc, i, diag);
}

// The version this parser reads; a file of another is refused.
void check_schema_version(ObjectReader& top, const Json& doc, Diagnostics& diag) {
  if (doc.contains("schema_version") && doc["schema_version"] != kScenarioSchemaVersion) {
    top.accept("schema_version");
    diag.error("/schema_version", "unsupported schema version (expected " + std::to_string(kScenarioSchemaVersion) +
                                      ", got " + json_excerpt(doc["schema_version"]) + ")");
  } else {
    top.integer("schema_version", std::nullopt, kScenarioSchemaVersion, kScenarioSchemaVersion);
  }
}

// The cluster's node groups; returns every named group, valid or not, so references to it do not cascade.
std::vector<std::string> parse_cluster(ObjectReader& top, Scenario& sc, Diagnostics& diag) {
  std::vector<std::string> group_names;
  if (auto cluster = top.object("cluster", true)) {
    Json* groups = cluster->array("node_groups", true);
    if (groups && groups->empty())
      diag.error(cluster->child_pointer("node_groups"), "no node groups (expected at least one)");
    if (groups) {
      for (size_t i = 0; i < groups->size(); ++i) {
        ObjectReader g((*groups)[i], cluster->child_pointer("node_groups") + "/" + std::to_string(i), diag);
        if (!g.ok())
          continue;
        if (auto ng = parse_node_group(g, diag, group_names))
          sc.node_groups.push_back(*ng);
      }
    }
    cluster->finish();
  }
  return group_names;
}

// The drive models, inline or from drive files; returns every name defined, valid or not.
std::vector<std::string> parse_drives(ObjectReader& top, Json& doc, const std::string& base_dir,
                                      std::optional<PriceSheet>& sheet, Scenario& sc, Diagnostics& diag) {
  std::vector<std::string> drive_names;
  if (auto drives = top.object("drives", false)) {
    if (drives->ok()) {
      for (auto& [dname, entry] : doc["drives"].items()) {
        drives->accept(dname);
        drive_names.push_back(dname);
        if (auto d =
                parse_drive(dname, entry, drives->child_pointer(dname), base_dir, sheet ? &*sheet : nullptr, diag)) {
          d->name = dname;
          sc.drives.push_back(*d);
        }
      }
    }
    drives->finish();
  }
  return drive_names;
}

// The storage systems and what each holds; returns every system's name, valid or not.
std::vector<std::string> parse_storage(ObjectReader& top, Json& doc, Scenario& sc,
                                       const std::vector<std::string>& drive_names,
                                       const std::vector<std::string>& group_names, Diagnostics& diag) {
  std::vector<std::string> storage_names;
  if (auto storage = top.object("storage", true)) {
    if (storage->ok()) {
      if (doc["storage"].empty())
        diag.error("/storage", "no storage systems (expected at least one named system)");
      for (const auto& [sname, entry] : doc["storage"].items())
        storage_names.push_back(sname); // every name first: replication may point forward
      for (auto& [sname, entry] : doc["storage"].items()) {
        storage->accept(sname);
        ObjectReader s(entry, storage->child_pointer(sname), diag);
        if (!s.ok())
          continue;
        auto sys = parse_storage_system(s, sname, sc.drives, drive_names, group_names, storage_names);
        if (!sys)
          continue;
        if (!parse_holds(entry, s.child_pointer("holds"), *sys, diag))
          continue;
        if (sys->kind == "local_nvme") {
          const NodeGroup* g = sc.find_node_group(sys->node_group);
          if (!g)
            continue; // the group had errors, already reported
          sys->nodes = g->count;
        }
        sc.storage.push_back(*sys);
      }
    }
    storage->finish();
  }
  return storage_names;
}

// The simulated period, the seed, the fidelity and the time series' resolution.
void parse_simulation(ObjectReader& top, const Json& doc, Scenario& sc, Diagnostics& diag) {
  auto sim = top.object("simulation", false);
  if (!sim)
    return;
  auto duration = sim->quantity("duration", Dimension::seconds, "7d");
  const bool too_long = duration.value_or(0) > kMaxSimulatedSeconds;
  if (too_long)
    diag.error(sim->child_pointer("duration"), "longer than aisim simulates (expected at most 1000 years, got " +
                                                   json_excerpt(doc["simulation"]["duration"]) + ")");
  auto seed = sim->integer("seed", 1, 0, int64_t(1) << 53);
  auto fidelity = sim->choice("fidelity", "aggregate", {"aggregate", "full"});
  auto res = sim->quantity("timeseries_resolution", Dimension::seconds, "1h");
  sim->finish();
  if (duration && !too_long && seed && fidelity && res)
    sc.simulation = SimulationSettings{Seconds(*duration), static_cast<uint64_t>(*seed), *fidelity, Seconds(*res)};
}

} // namespace

LoadedScenario parse_scenario(Json doc, const std::string& file, const std::string& base_dir) {
  LoadedScenario out{std::nullopt, Diagnostics(file), {}};
  Diagnostics& diag = out.diagnostics;
  Scenario sc;
  sc.file = file;
  ObjectReader top(doc, "", diag);
  if (!top.ok())
    return out;
  check_schema_version(top, doc, diag);
  // Prices the scenario leaves out come from its price sheet, filled in before anything is read.
  auto sheet = load_price_sheet(doc, base_dir, diag);
  if (sheet)
    apply_price_sheet(doc, *sheet, diag);
  auto name = top.text("name", std::filesystem::path(file).stem().string().c_str());
  top.text("description", "");
  if (name)
    sc.name = *name;

  // The sections in the order later ones need earlier ones: names of groups, drives and systems first.
  const auto group_names = parse_cluster(top, sc, diag);
  if (auto net = top.object("network", false)) {
    if (auto spec = parse_network(*net, diag))
      sc.network = *spec;
  }
  const auto drive_names = parse_drives(top, doc, base_dir, sheet, sc, diag);
  const auto storage_names = parse_storage(top, doc, sc, drive_names, group_names, diag);
  // policies before workloads: placement rules give workloads their default storage
  if (auto pol = top.object("policies", false))
    sc.policies = parse_policies(*pol, storage_names, sc.storage);
  parse_workloads(top, sc, group_names, storage_names);
  if (Json* domains = top.has("fault_domains") ? top.array("fault_domains", false) : nullptr)
    sc.fault_domains = parse_fault_domains(*domains, top.child_pointer("fault_domains"), diag, sc.storage);
  else
    top.accept("fault_domains");
  if (Json* threats = top.has("threats") ? top.array("threats", false) : nullptr)
    sc.threats = parse_threats(*threats, top.child_pointer("threats"), diag, storage_names, sc.storage);
  else
    top.accept("threats");
  if (auto costs = top.object("costs", false))
    parse_costs(*costs, doc, sheet, sc, diag);
  parse_simulation(top, doc, sc, diag);
  parse_uncertainty(top, doc, diag);
  top.finish();

  check_across_sections(sc, diag);
  if (diag.has_errors())
    return out;
  sc.resolved = std::move(doc);
  out.scenario = std::move(sc);
  return out;
}

BytesPerSecond Scenario::storage_bandwidth(const NodeGroup& g) const {
  return network.converged ? g.compute_nic_bandwidth() : g.nic_bandwidth();
}

int Scenario::storage_ports(const NodeGroup& g) const { return network.converged ? g.compute_nics : g.nics; }

int Scenario::gpu_count() const {
  int n = 0;
  for (const auto& g : node_groups)
    n += g.gpu_count();
  return n;
}

const StorageSystem* Scenario::find_storage(const std::string& n) const {
  for (const auto& s : storage)
    if (s.name == n)
      return &s;
  return nullptr;
}

bool Scenario::storage_can_fail(int s) const {
  if (storage[s].failures.any())
    return true;
  return std::any_of(fault_domains.begin(), fault_domains.end(), [&](const FaultDomain& d) {
    return d.failures &&
           std::any_of(d.members.begin(), d.members.end(), [&](const DomainMember& m) { return m.storage == s; });
  });
}

int Scenario::storage_index(const std::string& n) const {
  const StorageSystem* s = find_storage(n);
  return s ? static_cast<int>(s - storage.data()) : -1;
}

const NodeGroup* Scenario::find_node_group(const std::string& n) const {
  for (const auto& g : node_groups)
    if (g.name == n)
      return &g;
  return nullptr;
}

} // namespace aisim::models
