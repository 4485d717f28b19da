#include "models/calibration/calibration_data.hpp"

#include <algorithm>
#include <cmath>

namespace aisim::models {
namespace {

// Reads typed fields of the raw document, collecting "/pointer: problem" lines instead of stopping at the first.
struct FieldReader {
  std::vector<std::string>& errors;

  const Json* field(const Json& obj, const std::string& key, const std::string& ptr, bool required = true) {
    if (!obj.is_object() || !obj.contains(key)) {
      if (required)
        errors.push_back(ptr + "/" + pointer_token(key) + ": missing");
      return nullptr;
    }
    return &obj[key];
  }
  // The field when it is there and `ok` says it is well formed; otherwise nullptr, with an error when it is there
  // but wrong ("wrong <what> (expected <expected>, got ...)").
  template <class Ok>
  const Json* checked(const Json& obj, const std::string& key, const std::string& ptr, Ok ok, const char* what,
                      const std::string& expected) {
    const Json* v = field(obj, key, ptr);
    if (v && !ok(*v)) {
      errors.push_back(ptr + "/" + key + ": wrong " + what + " (expected " + expected + ", got " + json_excerpt(*v) +
                       ")");
      return nullptr;
    }
    return v;
  }
  std::string text(const Json& obj, const std::string& key, const std::string& ptr) {
    const Json* v = checked(
        obj, key, ptr, [](const Json& j) { return j.is_string(); }, "type", "a string");
    return v ? v->get<std::string>() : std::string();
  }
  double number(const Json& obj, const std::string& key, const std::string& ptr, bool positive = false) {
    const Json* v = checked(
        obj, key, ptr,
        [positive](const Json& j) {
          return j.is_number() && !(positive && !(j.get<double>() > 0)) && !(j.get<double>() < 0);
        },
        "value", std::string("a ") + (positive ? "positive" : "non-negative") + " number");
    return v ? v->get<double>() : 0.0;
  }
  uint64_t count(const Json& obj, const std::string& key, const std::string& ptr, bool positive = false) {
    const Json* v = checked(
        obj, key, ptr,
        [positive](const Json& j) { return j.is_number_unsigned() && !(positive && j.get<uint64_t>() == 0); }, "value",
        std::string("a ") + (positive ? "positive" : "non-negative") + " integer");
    return v ? v->get<uint64_t>() : 0;
  }
  bool flag(const Json& obj, const std::string& key, const std::string& ptr) {
    const Json* v = checked(
        obj, key, ptr, [](const Json& j) { return j.is_boolean(); }, "type", "true or false");
    return v && v->get<bool>();
  }
  const Json& object(const Json& obj, const std::string& key, const std::string& ptr) {
    static const Json empty = Json::object();
    const Json* v = checked(
        obj, key, ptr, [](const Json& j) { return j.is_object(); }, "type", "an object");
    return v ? *v : empty;
  }
};

} // namespace

const char* to_string(IoOp op) { return op == IoOp::read ? "read" : "write"; }
const char* to_string(IoPattern pattern) { return pattern == IoPattern::random ? "random" : "sequential"; }

std::string format_block_size(uint64_t bs) {
  if (bs && bs % (1024 * 1024) == 0)
    return std::to_string(bs / (1024 * 1024)) + "MiB";
  if (bs && bs % 1024 == 0)
    return std::to_string(bs / 1024) + "KiB";
  return std::to_string(bs) + "B";
}

double MeasuredPoint::spread() const {
  if (repeats.size() < 2)
    return 0.0;
  double lo = repeats[0].iops, hi = repeats[0].iops, sum = 0;
  for (const auto& r : repeats) {
    lo = std::min(lo, r.iops);
    hi = std::max(hi, r.iops);
    sum += r.iops;
  }
  const double mean = sum / static_cast<double>(repeats.size());
  return mean > 0 ? (hi - lo) / mean : 0.0;
}

std::string MeasuredPoint::label() const {
  return std::string(to_string(op)) + " " + to_string(pattern) + " " + format_block_size(bs_bytes) + " QD" +
         std::to_string(queue_depth);
}

Json point_to_json(const MeasuredPoint& p) {
  Json reps = Json::array();
  for (const auto& r : p.repeats)
    reps.push_back({{"iops", r.iops}, {"bw_bytes", r.bw_Bps}, {"clat_ns", {{"mean", r.clat_mean_ns}}}});
  return Json{{"op", to_string(p.op)},
              {"pattern", to_string(p.pattern)},
              {"bs_bytes", p.bs_bytes},
              {"qd", p.queue_depth},
              {"iops", p.iops},
              {"bw_bytes", p.bw_Bps},
              {"clat_ns", p.clat.fio_json()},
              {"spread", p.spread()},
              {"repeats", reps},
              {"clat_histogram", p.clat.to_json()}};
}

Json to_json(const CalibrationData& d) {
  Json target = d.target.is_object() ? d.target : Json::object();
  target["path"] = d.target_path;
  target["kind"] = d.target_kind;
  target["size_bytes"] = d.target_size_bytes;
  Json device = d.device.is_object() ? d.device : Json::object();
  device["name"] = d.device_name;
  device["model"] = d.device_model;
  Json plan = d.plan.is_object() ? d.plan : Json::object();
  plan["quick"] = d.quick;
  plan["write"] = d.wrote;
  Json points = Json::array();
  for (const auto& p : d.points)
    points.push_back(point_to_json(p));
  Json doc{{"format", kCalibrationRawFormat},
           {"aisim_version", d.aisim_version},
           {"measured_at", d.measured_at},
           {"capacity_bytes", d.capacity_bytes},
           {"target", target},
           {"device", device},
           {"engine", d.engine},
           {"plan", plan},
           {"points", points}};
  if (d.write_cache_run) {
    const auto& w = *d.write_cache_run;
    doc["write_cache_run"] = {{"bs_bytes", w.bs_bytes},
                              {"qd", w.queue_depth},
                              {"interval_s", w.interval_s},
                              {"interval_bytes", w.interval_bytes}};
  } else {
    doc["write_cache_run"] = nullptr;
  }
  return doc;
}

namespace {

// One sweep point (/points/i): its operation, pattern, block size, depth, rates, latency histogram and repeats.
MeasuredPoint read_point(FieldReader& r, const Json& pj, const std::string& ptr, std::vector<std::string>& errors) {
  MeasuredPoint p;
  const std::string op = r.text(pj, "op", ptr);
  const std::string pattern = r.text(pj, "pattern", ptr);
  if (op != "read" && op != "write" && !op.empty())
    errors.push_back(ptr + "/op: unknown operation (expected \"read\" or \"write\", got \"" + op + "\")");
  if (pattern != "random" && pattern != "sequential" && !pattern.empty())
    errors.push_back(ptr + "/pattern: unknown pattern (expected \"random\" or \"sequential\", got \"" + pattern +
                     "\")");
  p.op = op == "write" ? IoOp::write : IoOp::read;
  p.pattern = pattern == "sequential" ? IoPattern::sequential : IoPattern::random;
  p.bs_bytes = r.count(pj, "bs_bytes", ptr, true);
  p.queue_depth = static_cast<unsigned>(r.count(pj, "qd", ptr, true));
  p.iops = r.number(pj, "iops", ptr);
  p.bw_Bps = r.number(pj, "bw_bytes", ptr);
  if (const Json* h = r.field(pj, "clat_histogram", ptr)) {
    std::string why;
    auto hist = LatencyHistogram::from_json(*h, &why);
    if (hist)
      p.clat = *hist;
    else
      errors.push_back(ptr + "/clat_histogram: " + why);
  }
  if (const Json* reps = r.field(pj, "repeats", ptr, false); reps && reps->is_array()) {
    for (size_t k = 0; k < reps->size(); ++k) {
      const std::string rptr = ptr + "/repeats/" + std::to_string(k);
      PointRepeat rep;
      rep.iops = r.number((*reps)[k], "iops", rptr);
      rep.bw_Bps = r.number((*reps)[k], "bw_bytes", rptr);
      rep.clat_mean_ns = r.number(r.object((*reps)[k], "clat_ns", rptr), "mean", rptr + "/clat_ns");
      p.repeats.push_back(rep);
    }
  }
  return p;
}

// The long write that finds the write cache: its request, its interval and the bytes written in each.
WriteCacheRun read_write_cache_run(FieldReader& r, const Json& w, std::vector<std::string>& errors) {
  WriteCacheRun run;
  run.bs_bytes = r.count(w, "bs_bytes", "/write_cache_run", true);
  run.queue_depth = static_cast<unsigned>(r.count(w, "qd", "/write_cache_run", true));
  run.interval_s = r.number(w, "interval_s", "/write_cache_run", true);
  const Json* samples = r.field(w, "interval_bytes", "/write_cache_run");
  if (samples && samples->is_array()) {
    for (size_t i = 0; i < samples->size(); ++i) {
      if (!(*samples)[i].is_number() || (*samples)[i].get<double>() < 0) {
        errors.push_back("/write_cache_run/interval_bytes/" + std::to_string(i) +
                         ": wrong value (expected a non-negative number, got " + json_excerpt((*samples)[i]) + ")");
        continue;
      }
      run.interval_bytes.push_back((*samples)[i].get<double>());
    }
  } else if (samples) {
    errors.push_back("/write_cache_run/interval_bytes: wrong type (expected an array, got " + json_excerpt(*samples) +
                     ")");
  }
  return run;
}

} // namespace

std::optional<CalibrationData> calibration_data_from_json(const Json& doc, std::vector<std::string>& errors) {
  const size_t errors_before = errors.size();
  if (!doc.is_object()) {
    errors.push_back("/: wrong type (expected an object, got " + json_excerpt(doc) + ")");
    return std::nullopt;
  }
  if (doc.value("format", Json()) != Json(kCalibrationRawFormat)) {
    errors.push_back(std::string("/format: not a calibration raw file (expected \"") + kCalibrationRawFormat +
                     "\", got " + json_excerpt(doc.value("format", Json())) + ")");
    return std::nullopt;
  }
  FieldReader r{errors};
  CalibrationData d;
  d.aisim_version = r.text(doc, "aisim_version", "");
  d.measured_at = r.text(doc, "measured_at", "");
  d.capacity_bytes = r.count(doc, "capacity_bytes", "", true);
  d.target = r.object(doc, "target", "");
  d.target_path = r.text(d.target, "path", "/target");
  d.target_kind = r.text(d.target, "kind", "/target");
  d.target_size_bytes = r.count(d.target, "size_bytes", "/target", true);
  d.device = r.object(doc, "device", "");
  d.device_name = r.text(d.device, "name", "/device");
  d.device_model = r.text(d.device, "model", "/device");
  d.engine = r.object(doc, "engine", "");
  d.plan = r.object(doc, "plan", "");
  d.quick = r.flag(d.plan, "quick", "/plan");
  d.wrote = r.flag(d.plan, "write", "/plan");

  const Json* points = r.field(doc, "points", "");
  if (points && !points->is_array())
    errors.push_back("/points: wrong type (expected an array, got " + json_excerpt(*points) + ")");
  else if (points) {
    for (size_t i = 0; i < points->size(); ++i) {
      const Json& pj = (*points)[i];
      const std::string ptr = "/points/" + std::to_string(i);
      if (!pj.is_object()) {
        errors.push_back(ptr + ": wrong type (expected an object, got " + json_excerpt(pj) + ")");
        continue;
      }
      d.points.push_back(read_point(r, pj, ptr, errors));
    }
  }

  if (const Json* w = r.field(doc, "write_cache_run", "", false); w && !w->is_null()) {
    d.write_cache_run = read_write_cache_run(r, *w, errors);
  }
  if (errors.size() != errors_before)
    return std::nullopt;
  return d;
}

} // namespace aisim::models
