#include "models/scenario/fault_domains.hpp"

#include "models/hardware/stripe_groups.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <stdexcept>
#include <tuple>

namespace aisim::models {

namespace {

// "hot/enclosures/0-3" -> the members it names, or an error message.
std::optional<std::vector<DomainMember>> parse_member(const std::string& text,
                                                      const std::vector<StorageSystem>& storage, std::string& error) {
  const auto a = text.find('/'), b = text.rfind('/');
  if (a == std::string::npos || a == b) {
    error =
        "expected \"SYSTEM/COMPONENT/INDEX\" like \"hot/enclosures/0\" or \"hot/drives/0-23\", got \"" + text + "\"";
    return std::nullopt;
  }
  const std::string name = text.substr(0, a), component = text.substr(a + 1, b - a - 1), range = text.substr(b + 1);
  const auto sys = std::find_if(storage.begin(), storage.end(), [&](const StorageSystem& s) { return s.name == name; });
  if (sys == storage.end()) {
    error = "names \"" + name + "\", which is not a storage system under /storage";
    return std::nullopt;
  }
  const std::string server = server_component(sys->kind);
  if (server.empty()) {
    error =
        "\"" + name + "\" is of kind " + sys->kind + ", whose components do not fail (expected a jbof, array or pfs)";
    return std::nullopt;
  }
  const bool drive = component == "drives";
  if (!drive && component != server + "s") {
    error = "\"" + name + "\" has drives and " + server + "s (expected \"drives\" or \"" + server + "s\", got \"" +
            component + "\")";
    return std::nullopt;
  }
  const int count = drive ? failing_drives(*sys) : failing_servers(*sys);
  int first = -1, last = -1;
  try {
    size_t used = 0;
    const auto dash = range.find('-');
    first = std::stoi(range.substr(0, dash), &used);
    if (used != (dash == std::string::npos ? range.size() : dash))
      throw std::invalid_argument(range);
    last = first;
    if (dash != std::string::npos) {
      last = std::stoi(range.substr(dash + 1), &used);
      if (used != range.size() - dash - 1)
        throw std::invalid_argument(range);
    }
  } catch (const std::exception&) {
    error =
        "expected an index or a range like \"0-3\" after \"" + name + "/" + component + "/\", got \"" + range + "\"";
    return std::nullopt;
  }
  if (first < 0 || last < first || last >= count) {
    error = "\"" + name + "\" has " + std::to_string(count) + " " + component + " (expected indices 0 to " +
            std::to_string(count - 1) + ", got \"" + range + "\")";
    return std::nullopt;
  }
  std::vector<DomainMember> out;
  const int s = static_cast<int>(sys - storage.begin());
  for (int i = first; i <= last; ++i)
    out.push_back({s, drive, i});
  return out;
}

} // namespace

std::vector<FaultDomain> parse_fault_domains(Json& list, const std::string& pointer, Diagnostics& diag,
                                             const std::vector<StorageSystem>& storage) {
  std::vector<FaultDomain> out;
  if (!list.is_array()) {
    diag.error(pointer, "expected an array of fault domains, got " + json_excerpt(list));
    return out;
  }
  // Which domain of each kind already holds a component: (kind, storage, drive?, index) -> domain name.
  std::map<std::tuple<std::string, int, bool, int>, std::string> held;
  std::set<std::string> names;
  for (size_t i = 0; i < list.size(); ++i) {
    const std::string ptr = pointer + "/" + std::to_string(i);
    ObjectReader r(list[i], ptr, diag);
    if (!r.ok())
      continue;
    FaultDomain d;
    auto name = r.text("name", nullptr);
    auto kind = r.choice("kind", nullptr, {"rack", "leaf_switch", "power_feed", "backplane"});
    bool ok = name && kind;
    if (name && !names.insert(*name).second) {
      diag.error(r.child_pointer("name"), "a second fault domain named \"" + *name + "\" (expected unique names)");
      ok = false;
    }
    if (Json* members = r.array("members", true)) {
      if (members->empty()) {
        diag.error(r.child_pointer("members"), "no members (expected at least one \"SYSTEM/COMPONENT/INDEX\")");
        ok = false;
      }
      for (size_t k = 0; k < members->size(); ++k) {
        const std::string mptr = r.child_pointer("members") + "/" + std::to_string(k);
        const Json& v = (*members)[k];
        std::string error = "expected \"SYSTEM/COMPONENT/INDEX\", got " + json_excerpt(v);
        const auto parsed = v.is_string() ? parse_member(v.get<std::string>(), storage, error) : std::nullopt;
        if (!parsed) {
          diag.error(mptr, error);
          ok = false;
          continue;
        }
        for (const auto& m : *parsed) {
          if (kind) {
            const auto [it, fresh] = held.emplace(std::tuple{*kind, m.storage, m.drive, m.index}, name.value_or(""));
            if (!fresh) {
              const auto& sys = storage[m.storage];
              diag.error(mptr, sys.name + "/" + (m.drive ? "drives" : server_component(sys.kind) + "s") + "/" +
                                   std::to_string(m.index) + " is already in " + *kind + " \"" + it->second +
                                   "\" (expected each component in one domain of each kind)");
              ok = false;
              break;
            }
          }
          d.members.push_back(m);
        }
      }
    } else {
      ok = false;
    }
    // A domain fails when it says how: a rate, or failures at set times; else it is declared for the exposure.
    if (r.has("afr") || r.has("mtbf") || r.has("at") || r.has("repair_time") || r.has("weibull_shape")) {
      d.failures = parse_failure_spec(r, 0.0, "this domain", 1);
      ok = ok && d.failures;
    } else {
      r.finish();
    }
    if (!ok)
      continue;
    d.name = *name;
    d.kind = *kind;
    out.push_back(std::move(d));
  }
  return out;
}

std::vector<int> data_drives_in_domain(const StorageSystem& sys, int storage, const FaultDomain& domain) {
  std::set<int> drives;
  for (const auto& m : domain.members) {
    if (m.storage != storage)
      continue;
    if (m.drive) {
      drives.insert(m.index);
    } else if (sys.kind != "array") { // an enclosure or file server: its drives go with it
      const int slot = m.index / members_per_slot(sys);
      for (int d = slot * sys.drives_per_server; d < (slot + 1) * sys.drives_per_server; ++d)
        drives.insert(d);
    }
  }
  return {drives.begin(), drives.end()};
}

SystemExposure domain_exposure(const StorageSystem& sys, int storage, const std::vector<FaultDomain>& domains) {
  SystemExposure out;
  const int groups = stripe_group_count(sys);
  out.groups = std::max(1, groups);
  std::vector<char> exposed(static_cast<size_t>(out.groups), 0);
  for (size_t i = 0; i < domains.size(); ++i) {
    const auto drives = data_drives_in_domain(sys, storage, domains[i]);
    if (drives.empty())
      continue;
    DomainExposure e{static_cast<int>(i), static_cast<int>(drives.size()), 0};
    if (groups == 0) {
      e.groups_exposed = 1; // unprotected: any drive lost is a piece of every stripe
      exposed[0] = 1;
    } else {
      std::vector<int> in_group(static_cast<size_t>(groups), 0);
      for (int d : drives)
        ++in_group[stripe_group_of(sys, d)];
      for (int g = 0; g < groups; ++g)
        if (in_group[g] > sys.protection.parity) {
          ++e.groups_exposed;
          exposed[g] = 1;
        }
    }
    out.by_domain.push_back(e);
  }
  out.exposed_groups = static_cast<int>(std::count(exposed.begin(), exposed.end(), 1));
  return out;
}

} // namespace aisim::models
