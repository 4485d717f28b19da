#include "models/common/diagnostics.hpp"

#include <algorithm>
#include <cctype>

namespace aisim::models {

bool Diagnostics::has_errors() const {
  return std::any_of(items_.begin(), items_.end(), [](const Diagnostic& d) { return !d.warning; });
}

std::string Diagnostics::format(bool warnings) const {
  std::string out;
  for (bool want_warning : {false, true}) {
    if (want_warning && !warnings)
      break;
    for (const auto& d : items_) {
      if (d.warning != want_warning)
        continue;
      // The root pointer is "", which would print as "FILE:: ..."; a whole-file problem prints as "FILE: ...".
      out +=
          file_ + (d.pointer.empty() ? "" : ":" + d.pointer) + ": " + (d.warning ? "warning: " : "") + d.message + "\n";
    }
  }
  return out;
}

size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<size_t> prev(b.size() + 1), cur(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j)
    prev[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    cur[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      const size_t subst = prev[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1);
      cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, subst});
    }
    std::swap(prev, cur);
  }
  return prev[b.size()];
}

std::string closest_match(std::string_view word, const std::vector<std::string>& candidates) {
  std::string best;
  size_t best_d = std::max<size_t>(2, word.size() / 3) + 1;
  const auto lower = [](std::string_view s) {
    std::string out(s);
    for (auto& ch : out)
      ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    return out;
  };
  const std::string w = lower(word);
  for (const auto& c : candidates) {
    const std::string lc = lower(c);
    size_t d = edit_distance(w, lc);
    // A name given short ("H100" for "H100-SXM") is a better guess than one at a small edit distance.
    if (w.size() >= 2 && lc.starts_with(w))
      d = std::min<size_t>(d, 1);
    if (d < best_d) {
      best_d = d;
      best = c;
    }
  }
  return best;
}

std::string quoted_list(const std::vector<std::string>& words) {
  std::string out;
  for (size_t i = 0; i < words.size(); ++i) {
    if (i > 0)
      out += (i + 1 == words.size()) ? " or " : ", ";
    out += "\"" + words[i] + "\"";
  }
  return out;
}

void check_name(const std::string& name, const std::string& ptr, Diagnostics& diag) {
  if (name.empty())
    diag.error(ptr, "empty name (expected a non-empty name)");
}

} // namespace aisim::models
