#include "models/common/json_reader.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

namespace aisim::models {

std::string pointer_token(std::string_view key) {
  std::string out;
  for (char c : key) {
    if (c == '~')
      out += "~0";
    else if (c == '/')
      out += "~1";
    else
      out += c;
  }
  return out;
}

std::string json_excerpt(const Json& v) {
  std::string s = v.dump();
  if (s.size() > 60)
    s = s.substr(0, 57) + "...";
  return s;
}

bool is_utf8(const std::string& text) {
  try {
    (void)Json(text).dump();
    return true;
  } catch (const Json::type_error&) {
    return false;
  }
}

std::string shown_as_utf8(const std::string& text) {
  std::string out;
  const auto byte = [&](size_t i) { return static_cast<unsigned char>(text[i]); };
  for (size_t i = 0; i < text.size();) {
    const unsigned char c = byte(i);
    // The length a lead byte announces and the lowest code point it may carry (no overlong forms, no surrogates).
    const size_t n = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xE ? 3 : (c >> 3) == 0x1E ? 4 : 0;
    bool valid = n > 0 && i + n <= text.size();
    unsigned cp = n == 1 ? c : n == 2 ? (c & 0x1Fu) : n == 3 ? (c & 0x0Fu) : (c & 0x07u);
    for (size_t k = 1; valid && k < n; ++k) {
      valid = (byte(i + k) & 0xC0) == 0x80;
      cp = (cp << 6) | (byte(i + k) & 0x3Fu);
    }
    valid = valid && !(n == 2 && cp < 0x80) && !(n == 3 && (cp < 0x800 || (cp >= 0xD800 && cp <= 0xDFFF))) &&
            !(n == 4 && (cp < 0x10000 || cp > 0x10FFFF));
    if (valid) {
      out.append(text, i, n);
      i += n;
    } else {
      char hex[8];
      std::snprintf(hex, sizeof hex, "\\x%02X", c);
      out += hex;
      ++i;
    }
  }
  return out;
}

ObjectReader::ObjectReader(Json& node, std::string pointer, Diagnostics& diag)
    : node_(&node), pointer_(std::move(pointer)), diag_(&diag), ok_(node.is_object()) {
  if (!ok_)
    diag_->error(pointer_, "wrong type (expected an object, got " + json_excerpt(node) + ")");
}

const Json* ObjectReader::fetch(const std::string& key, bool required, const std::string& expected) {
  known_.push_back(key);
  if (!ok_)
    return nullptr;
  auto it = node_->find(key);
  if (it == node_->end()) {
    if (required)
      diag_->error(child_pointer(key), "missing required key (expected " + expected + ")");
    return nullptr;
  }
  return &*it;
}

std::optional<double> ObjectReader::quantity(const std::string& key, Dimension d, const char* default_text,
                                             Bound bound) {
  const std::string expected = describe(d);
  const Json* v = fetch(key, default_text == nullptr, expected);
  if (!v) {
    if (!ok_ || default_text == nullptr)
      return std::nullopt;
    (*node_)[key] = default_text;
    return parse_quantity(default_text, d, nullptr);
  }
  const std::string ptr = child_pointer(key);
  if (v->is_number()) {
    diag_->error(ptr, "a bare number has no unit (expected " + expected + ", got " + json_excerpt(*v) + ")");
    return std::nullopt;
  }
  if (!v->is_string()) {
    diag_->error(ptr, "wrong type (expected " + expected + ", got " + json_excerpt(*v) + ")");
    return std::nullopt;
  }
  std::string why;
  auto q = parse_quantity(v->get<std::string>(), d, &why);
  if (!q) {
    diag_->error(ptr, why + " (expected " + expected + ", got " + json_excerpt(*v) + ")");
    return std::nullopt;
  }
  // Beyond these a value is a typo or an overflow, and the engine's arithmetic would break on it (a denormal
  // bandwidth, a 1e300-year duration: SimGrid aborts).
  constexpr double kSmallest = 1e-12, kLargest = 1e24;
  if (!std::isfinite(*q) || std::fabs(*q) > kLargest || (*q != 0 && std::fabs(*q) < kSmallest)) {
    diag_->error(ptr, std::string(std::isfinite(*q) && std::fabs(*q) < kSmallest ? "too small" : "too large") +
                          " to simulate (expected a magnitude from 1e-12 to 1e24 in SI base units, or 0; got " +
                          json_excerpt(*v) + ")");
    return std::nullopt;
  }
  if ((bound == Bound::positive && !(*q > 0)) || (bound == Bound::non_negative && *q < 0)) {
    diag_->error(ptr, std::string(bound == Bound::positive ? "must be greater than zero" : "must not be negative") +
                          " (expected " + expected + ", got " + json_excerpt(*v) + ")");
    return std::nullopt;
  }
  return q;
}

bool ObjectReader::optional_quantity(const std::string& key, Dimension d, std::optional<double>& out, Bound bound) {
  out.reset();
  if (!has(key)) {
    accept(key);
    return true;
  }
  out = quantity(key, d, nullptr, bound);
  return out.has_value();
}

std::optional<int64_t> ObjectReader::integer(const std::string& key, std::optional<int64_t> default_value, int64_t min,
                                             int64_t max) {
  const std::string expected = "an integer from " + std::to_string(min) + " to " + std::to_string(max);
  const Json* v = fetch(key, !default_value, expected);
  if (!v) {
    if (ok_ && default_value)
      (*node_)[key] = *default_value;
    return ok_ ? default_value : std::nullopt;
  }
  const bool integral =
      v->is_number_integer() || (v->is_number_float() && std::floor(v->get<double>()) == v->get<double>());
  if (!integral) {
    diag_->error(child_pointer(key), "wrong type (expected " + expected + ", got " + json_excerpt(*v) + ")");
    return std::nullopt;
  }
  // Integers are compared as integers: through a double, 2^53 + 1 would pass for 2^53 and be recorded two ways.
  const auto out_of_range = [&] {
    diag_->error(child_pointer(key), "out of range (expected " + expected + ", got " + json_excerpt(*v) + ")");
    return std::nullopt;
  };
  if (v->is_number_unsigned()) {
    const auto u = v->get<uint64_t>();
    if (u > static_cast<uint64_t>(std::numeric_limits<int64_t>::max()) || static_cast<int64_t>(u) > max ||
        static_cast<int64_t>(u) < min)
      return out_of_range();
    return static_cast<int64_t>(u);
  }
  if (v->is_number_integer()) {
    const auto i = v->get<int64_t>();
    if (i < min || i > max)
      return out_of_range();
    return i;
  }
  // A float with no fraction (1e3): exact only up to 2^53.
  const double x = v->get<double>();
  if (x < static_cast<double>(min) || x > static_cast<double>(max) || std::fabs(x) > 9007199254740992.0)
    return out_of_range();
  return static_cast<int64_t>(x);
}

std::optional<double> ObjectReader::number(const std::string& key, std::optional<double> default_value, double min,
                                           double max) {
  char buf[96];
  std::snprintf(buf, sizeof buf, "a number from %g to %g", min, max);
  const std::string expected = buf;
  const Json* v = fetch(key, !default_value, expected);
  if (!v) {
    if (ok_ && default_value)
      (*node_)[key] = *default_value;
    return ok_ ? default_value : std::nullopt;
  }
  if (!v->is_number()) {
    diag_->error(child_pointer(key), "wrong type (expected " + expected + ", got " + json_excerpt(*v) + ")");
    return std::nullopt;
  }
  const double x = v->get<double>();
  if (!(x >= min && x <= max)) { // NaN too
    diag_->error(child_pointer(key), "out of range (expected " + expected + ", got " + json_excerpt(*v) + ")");
    return std::nullopt;
  }
  return x;
}

std::optional<std::string> ObjectReader::string_value(const std::string& key, const char* default_value,
                                                      const std::string& expected) {
  const Json* v = fetch(key, default_value == nullptr, expected);
  if (!v) {
    if (!ok_ || default_value == nullptr)
      return std::nullopt;
    (*node_)[key] = default_value;
    return std::string(default_value);
  }
  if (!v->is_string()) {
    diag_->error(child_pointer(key), "wrong type (expected " + expected + ", got " + json_excerpt(*v) + ")");
    return std::nullopt;
  }
  return v->get<std::string>();
}

std::optional<std::string> ObjectReader::choice(const std::string& key, const char* default_value,
                                                const std::vector<std::string>& allowed) {
  const std::string expected = "one of " + quoted_list(allowed);
  auto s = string_value(key, default_value, expected);
  if (!s || std::find(allowed.begin(), allowed.end(), *s) != allowed.end())
    return s;
  const std::string hint = closest_match(*s, allowed);
  diag_->error(child_pointer(key), "unknown value" + (hint.empty() ? "" : ", did you mean \"" + hint + "\"?") +
                                       " (expected " + expected + ", got " + json_excerpt(Json(*s)) + ")");
  return std::nullopt;
}

std::optional<bool> ObjectReader::boolean(const std::string& key, std::optional<bool> default_value) {
  const Json* v = fetch(key, !default_value, "true or false");
  if (!v) {
    if (ok_ && default_value)
      (*node_)[key] = *default_value;
    return ok_ ? default_value : std::nullopt;
  }
  if (!v->is_boolean()) {
    diag_->error(child_pointer(key), "wrong type (expected true or false, got " + json_excerpt(*v) + ")");
    return std::nullopt;
  }
  return v->get<bool>();
}

std::optional<std::string> ObjectReader::text(const std::string& key, const char* default_value) {
  return string_value(key, default_value, "a string");
}

std::optional<std::string> ObjectReader::reference(const std::string& key, const std::vector<std::string>& known,
                                                   const std::string& what) {
  const std::string expected = known.empty() ? "the name of one of the " + what + " (none are defined)"
                                             : "one of the " + what + ": " + quoted_list(known);
  auto s = string_value(key, nullptr, expected);
  if (!s || std::find(known.begin(), known.end(), *s) != known.end())
    return s;
  const std::string hint = closest_match(*s, known);
  diag_->error(child_pointer(key), "names \"" + *s + "\", which is not defined" +
                                       (hint.empty() ? "" : ", did you mean \"" + hint + "\"?") + " (expected " +
                                       expected + ")");
  return std::nullopt;
}

std::optional<ObjectReader> ObjectReader::object(const std::string& key, bool required) {
  const Json* v = fetch(key, required, "an object");
  if (!ok_)
    return std::nullopt;
  if (!v) {
    if (required)
      return std::nullopt;
    (*node_)[key] = Json::object();
  }
  return ObjectReader((*node_)[key], child_pointer(key), *diag_);
}

Json* ObjectReader::array(const std::string& key, bool required) {
  const Json* v = fetch(key, required, "an array");
  if (!v)
    return nullptr;
  if (!v->is_array()) {
    diag_->error(child_pointer(key), "wrong type (expected an array, got " + json_excerpt(*v) + ")");
    return nullptr;
  }
  return &(*node_)[key];
}

void ObjectReader::finish() {
  if (!ok_)
    return;
  for (const auto& [key, value] : node_->items()) {
    bool found = false;
    for (const auto& k : known_)
      found = found || k == key;
    if (found)
      continue;
    const std::string hint = closest_match(key, known_);
    diag_->error(child_pointer(key), "unknown key" + (hint.empty() ? "" : ", did you mean \"" + hint + "\"?") +
                                         " (expected one of " + quoted_list(known_) + ")");
  }
}

} // namespace aisim::models
