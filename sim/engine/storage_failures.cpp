#include "sim/engine/storage_failures.hpp"

#include "models/hardware/failure_spec.hpp"
#include "models/hardware/stripe_groups.hpp"

#include <algorithm>
#include <functional>
#include <limits>

namespace aisim::sim {

namespace sg4 = simgrid::s4u;

namespace {

// SimGrid 3.32 takes a bandwidth of 0 as "no change"; a component out of service keeps a billionth of its
// bandwidth instead, so what was striped onto it effectively waits for its repair.
constexpr double kOutOfService = 1e-9;

std::mt19937_64 seeded(uint64_t seed, size_t storage, int stream) {
  std::seed_seq seq{static_cast<uint32_t>(seed), static_cast<uint32_t>(seed >> 32), static_cast<uint32_t>(storage),
                    static_cast<uint32_t>(stream)};
  return std::mt19937_64(seq);
}

} // namespace

StorageFailures::StorageFailures(const models::Scenario& sc, const Platform& platform, Metrics& metrics,
                                 DataLostCallback on_lost)
    : sc_(&sc), platform_(&platform), metrics_(&metrics), on_lost_(std::move(on_lost)) {
  system_of_storage_.assign(sc.storage.size(), -1);
  for (size_t s = 0; s < sc.storage.size(); ++s) {
    const auto& spec = sc.storage[s];
    if (!sc.storage_can_fail(static_cast<int>(s)))
      continue;
    system_of_storage_[s] = static_cast<int>(systems_.size());
    System sys;
    sys.storage = static_cast<int>(s);
    // An active-passive array's slot is an active controller and the standbys that can take over from it.
    sys.members_per_slot = models::members_per_slot(spec);
    sys.drives_per_slot = spec.drives_per_server;
    sys.first_slot.assign(platform.servers.size(), -1);
    for (int h : platform.servers_of_storage[s])
      for (int k = 0; k < platform.servers[h].weight; ++k) {
        if (k == 0)
          sys.first_slot[h] = static_cast<int>(sys.slots.size());
        sys.slots.push_back(Slot{.host = h,
                                 .active = 0,
                                 .members_up = sys.members_per_slot,
                                 .takeover_until_s = 0,
                                 .drives_up = sys.drives_per_slot});
      }
    const auto drives = static_cast<size_t>(models::failing_drives(spec));
    sys.drive_up.assign(drives, 1);
    sys.event_of_drive.assign(drives, -1);
    sys.drawn_drive.assign(drives, 0);
    sys.member_up.assign(static_cast<size_t>(models::failing_servers(spec)), 1);
    sys.event_of_member.assign(sys.member_up.size(), -1);
    sys.drawn_member.assign(sys.member_up.size(), 0);
    sys.data_out.assign(drives, 0);
    sys.generation.assign(drives, 0);
    sys.group_out.assign(static_cast<size_t>(models::stripe_group_count(spec)), 0);
    sys.group_lost.assign(sys.group_out.size(), 0);
    sys.drive_rng = seeded(sc.simulation.seed, s, 0);
    sys.member_rng = seeded(sc.simulation.seed, s, 1);
    systems_.push_back(std::move(sys));
  }
  // Every component enters service new at time 0 and fails after one lifetime, or when the scenario says.
  for (size_t i = 0; i < systems_.size(); ++i) {
    const auto& sys = systems_[i];
    const auto& f = sc.storage[sys.storage].failures;
    const int system = static_cast<int>(i);
    if (f.drives) {
      for (size_t d = 0; d < sys.drive_up.size(); ++d)
        draw_failure(system, EventKind::drive_fails, static_cast<int>(d));
      for (const auto& at : f.drives->scheduled)
        schedule(at.at.value, system, EventKind::drive_fails, at.index, true);
    }
    if (f.servers) {
      for (size_t m = 0; m < sys.member_up.size(); ++m)
        draw_failure(system, EventKind::member_fails, static_cast<int>(m));
      for (const auto& at : f.servers->scheduled)
        schedule(at.at.value, system, EventKind::member_fails, at.index, true);
    }
  }
  // Each fault domain that fails is a renewal process of its own (its own stream), besides its set failures.
  drawn_domain_.assign(sc.fault_domains.size(), 0);
  for (size_t d = 0; d < sc.fault_domains.size(); ++d) {
    domain_rng_.push_back(seeded(sc.simulation.seed, sc.storage.size() + d, 2));
    const auto& f = sc.fault_domains[d].failures;
    if (!f)
      continue;
    draw_domain_failure(static_cast<int>(d));
    for (const auto& at : f->scheduled)
      schedule(at.at.value, -1, EventKind::domain_fails, static_cast<int>(d), true);
  }
}

void StorageFailures::draw_domain_failure(int domain) {
  const auto& f = *sc_->fault_domains[domain].failures;
  if (f.random())
    drawn_domain_[domain] = schedule(sg4::Engine::get_clock() + f.draw_lifetime_s(domain_rng_[domain]), -1,
                                     EventKind::domain_fails, domain);
}

void StorageFailures::domain_fails(int domain) {
  const auto& d = sc_->fault_domains[domain];
  const double now = sg4::Engine::get_clock(), repair = d.failures->repair.value;
  metrics_->domain_failures.push_back({now, domain});
  schedule(now + repair, -1, EventKind::domain_back, domain);
  for (const auto& m : d.members) {
    const int system = system_of_storage_[m.storage];
    auto& sys = systems_[system];
    // A member already out stays out on its own repair.
    if (m.drive ? !sys.drive_up[m.index] : !sys.member_up[m.index])
      continue;
    apply(Event{now, 0, system, m.drive ? EventKind::drive_fails : EventKind::member_fails, m.index, true, repair});
  }
}

uint64_t StorageFailures::schedule(double time_s, int system, EventKind kind, int index, bool scheduled,
                                   double repair_s) {
  queue_.push_back(Event{time_s, seq_, system, kind, index, scheduled, repair_s});
  std::push_heap(queue_.begin(), queue_.end(), std::greater<>());
  return seq_++;
}

void StorageFailures::draw_failure(int system, EventKind kind, int index) {
  auto& sys = systems_[system];
  const auto& f = sc_->storage[sys.storage].failures;
  const bool drive = kind == EventKind::drive_fails;
  const auto& spec = drive ? f.drives : f.servers;
  if (!spec || !spec->random())
    return; // fails only with its fault domain, or at set times
  const double at = sg4::Engine::get_clock() + spec->draw_lifetime_s(drive ? sys.drive_rng : sys.member_rng);
  (drive ? sys.drawn_drive : sys.drawn_member)[index] = schedule(at, system, kind, index);
}

bool StorageFailures::live(const Event& e) const {
  if (e.kind == EventKind::domain_fails)
    return e.scheduled || drawn_domain_[e.index] == e.seq;
  if (e.system < 0)
    return true;
  const auto& sys = systems_[e.system];
  if (e.kind == EventKind::drive_fails)
    return sys.drive_up[e.index] && (e.scheduled || sys.drawn_drive[e.index] == e.seq);
  if (e.kind == EventKind::member_fails)
    return sys.member_up[e.index] && (e.scheduled || sys.drawn_member[e.index] == e.seq);
  return true;
}

bool StorageFailures::serving(const Slot& slot) const {
  return slot.active >= 0 && sg4::Engine::get_clock() >= slot.takeover_until_s;
}

void StorageFailures::update_server(System& sys, int host) {
  const auto& srv = platform_->servers[host];
  int serving_slots = 0, drives_up = 0;
  for (const auto& slot : sys.slots)
    if (slot.host == host && serving(slot)) {
      ++serving_slots;
      drives_up += slot.drives_up;
    }
  srv.serving = serving_slots;
  const double servers_frac = std::max(kOutOfService, static_cast<double>(serving_slots) / srv.weight);
  double drives_frac =
      sys.drives_per_slot > 0 ? static_cast<double>(drives_up) / (srv.weight * sys.drives_per_slot) : servers_frac;
  if (sc_->storage[sys.storage].kind == "array") {
    // An array's controllers share its shelves: a lost drive takes its share from all of them alike.
    int up = 0;
    for (const auto& slot : sys.slots)
      up += slot.drives_up;
    drives_frac = static_cast<double>(up) / (static_cast<double>(sys.slots.size()) * sys.drives_per_slot);
  }
  drives_frac = std::max(kOutOfService, drives_frac);
  srv.front_end->set_bandwidth(srv.front_end_Bps * servers_frac);
  if (srv.internal) {
    srv.internal->get_link_up()->set_bandwidth(srv.internal_read_Bps * servers_frac);
    srv.internal->get_link_down()->set_bandwidth(srv.internal_write_Bps * servers_frac);
  }
  for (size_t d = 0; d < srv.disks.size(); ++d) {
    srv.disks[d]->set_read_bandwidth(srv.disk_Bps[d].first * drives_frac);
    srv.disks[d]->set_write_bandwidth(srv.disk_Bps[d].second * drives_frac);
  }
}

void StorageFailures::update_drive_servers(System& sys, int host) {
  if (sc_->storage[sys.storage].kind != "array") {
    update_server(sys, host);
    return;
  }
  for (int h : platform_->servers_of_storage[sys.storage])
    update_server(sys, h);
}

void StorageFailures::lose_data(System& sys, int drive) {
  const auto& spec = sc_->storage[sys.storage];
  ++sys.generation[drive];
  if (sys.data_out[drive])
    return;
  sys.data_out[drive] = 1;
  ++sys.out_count;
  if (sys.group_out.empty()) {
    // Without protection the drive's share of everything on the system is gone (reported once per event).
    sys.unprotected_loss += 1.0 / static_cast<double>(sys.data_out.size());
    return;
  }
  const int g = models::stripe_group_of(spec, drive);
  if (++sys.group_out[g] > spec.protection.parity && !sys.group_lost[g]) {
    sys.group_lost[g] = 1;
    metrics_->storage[sys.storage].group_losses.push_back({sg4::Engine::get_clock(), g, sys.group_out[g]});
    if (on_lost_)
      on_lost_(sys.storage, static_cast<double>(models::stripe_group_drives(spec, g).size()) / sys.data_out.size(),
               "stripe_group");
  }
  update_read_amplification(sys);
}

void StorageFailures::restore_data(System& sys, int drive) {
  const auto& spec = sc_->storage[sys.storage];
  if (!sys.data_out[drive])
    return;
  sys.data_out[drive] = 0;
  --sys.out_count;
  if (sys.group_out.empty())
    return;
  const int g = models::stripe_group_of(spec, drive);
  if (--sys.group_out[g] == 0)
    sys.group_lost[g] = 0; // whole again: what is written from now on is protected
  update_read_amplification(sys);
}

void StorageFailures::update_read_amplification(System& sys) {
  // What was on the drives out is read as D pieces from the rest of their groups (a mirror reads another copy).
  platform_->read_amplification[sys.storage] = 1.0 + (sc_->storage[sys.storage].protection.data - 1.0) * sys.out_count /
                                                         static_cast<double>(sys.data_out.size());
}

std::vector<int> StorageFailures::whole_in_group(const System& sys, int drive) const {
  const auto& spec = sc_->storage[sys.storage];
  std::vector<int> whole;
  for (int m : models::stripe_group_drives(spec, models::stripe_group_of(spec, drive)))
    if (m != drive && !sys.data_out[m])
      whole.push_back(m);
  return whole;
}

std::vector<int> StorageFailures::drives_of_slot(const System& sys, int slot) {
  std::vector<int> drives;
  for (int d = slot * sys.drives_per_slot; d < (slot + 1) * sys.drives_per_slot; ++d)
    drives.push_back(d);
  return drives;
}

void StorageFailures::drives_back(System& sys, const std::vector<int>& drives, const std::string& component,
                                  int index) {
  const auto& spec = sc_->storage[sys.storage];
  std::vector<int> lost;
  // An enclosure's or file server's drives are rebuilt once it serves again; an array's drives do not depend on
  // their controller.
  for (int d : drives)
    if (sys.data_out[d] && sys.drive_up[d] && (spec.kind == "array" || serving(sys.slots[d / sys.drives_per_slot])))
      lost.push_back(d);
  if (lost.empty())
    return;
  if (sg4::Engine::get_clock() > metrics_->period_end_s) {
    for (int d : lost) // past the simulated period: no rebuild is simulated
      restore_data(sys, d);
    return;
  }
  // A drive is rebuilt from D drives of its group still holding their data; with fewer (no protection, or a group
  // that lost its data, recorded when it happened) it comes back empty.
  std::vector<int> rebuild;
  for (int d : lost) {
    if (spec.protection.parity > 0 && static_cast<int>(whole_in_group(sys, d).size()) >= spec.protection.data)
      rebuild.push_back(d);
    else
      restore_data(sys, d);
  }
  if (!rebuild.empty())
    start_rebuild(static_cast<int>(&sys - systems_.data()), rebuild, component, index);
}

void StorageFailures::apply(const Event& e) {
  auto& sys = systems_[e.system];
  const auto& spec = sc_->storage[sys.storage];
  auto& failures = metrics_->storage[sys.storage].failures;
  const double now = sg4::Engine::get_clock();
  switch (e.kind) {
  case EventKind::drive_fails: {
    auto& slot = sys.slots[e.index / sys.drives_per_slot];
    sys.drive_up[e.index] = 0;
    --slot.drives_up;
    sys.event_of_drive[e.index] = static_cast<int>(failures.size());
    failures.push_back({now, std::numeric_limits<double>::infinity(), "drive", e.index});
    schedule(now + (e.repair_s >= 0 ? e.repair_s : spec.failures.drives->repair.value), e.system, EventKind::drive_back,
             e.index);
    lose_data(sys, e.index);
    update_drive_servers(sys, slot.host);
    break;
  }
  case EventKind::drive_back: {
    auto& slot = sys.slots[e.index / sys.drives_per_slot];
    sys.drive_up[e.index] = 1;
    ++slot.drives_up;
    failures[sys.event_of_drive[e.index]].back_s = now;
    draw_failure(e.system, EventKind::drive_fails, e.index);
    update_drive_servers(sys, slot.host);
    drives_back(sys, {e.index}, "drive", e.index);
    break;
  }
  case EventKind::member_fails: {
    const int s = e.index / sys.members_per_slot, member = e.index % sys.members_per_slot;
    auto& slot = sys.slots[s];
    sys.member_up[e.index] = 0;
    --slot.members_up;
    sys.event_of_member[e.index] = static_cast<int>(failures.size());
    failures.push_back({now, std::numeric_limits<double>::infinity(), models::server_component(spec.kind), e.index});
    schedule(now + (e.repair_s >= 0 ? e.repair_s : spec.failures.servers->repair.value), e.system,
             EventKind::member_back, e.index);
    if (slot.active == member) {
      // A standby still up takes over after the takeover time; with none, the slot is out until a repair.
      slot.active = -1;
      for (int m = 0; m < sys.members_per_slot && slot.active < 0; ++m)
        if (sys.member_up[s * sys.members_per_slot + m])
          slot.active = m;
      if (slot.active >= 0) {
        slot.takeover_until_s = now + spec.failures.takeover.value;
        schedule(slot.takeover_until_s, e.system, EventKind::takeover_done, s);
      }
    }
    // An enclosure or file server takes its drives' data with it (it comes back to be rebuilt); an array's drives
    // sit on shelves the other controllers reach.
    if (spec.kind != "array")
      for (int d : drives_of_slot(sys, s))
        lose_data(sys, d);
    update_server(sys, slot.host);
    break;
  }
  case EventKind::member_back: {
    const int s = e.index / sys.members_per_slot;
    auto& slot = sys.slots[s];
    sys.member_up[e.index] = 1;
    ++slot.members_up;
    failures[sys.event_of_member[e.index]].back_s = now;
    if (slot.active < 0) // the slot was out: the repaired member serves at once
      slot.active = e.index % sys.members_per_slot;
    draw_failure(e.system, EventKind::member_fails, e.index);
    update_server(sys, slot.host);
    if (spec.kind != "array")
      drives_back(sys, drives_of_slot(sys, s), models::server_component(spec.kind), e.index);
    break;
  }
  case EventKind::takeover_done:
    update_server(sys, sys.slots[e.index].host);
    break;
  case EventKind::domain_fails:
  case EventKind::domain_back:
    break; // handled by the actor: a domain's events belong to no one system
  }
}

void StorageFailures::operator()() {
  // Past the simulated period nothing fails, but repairs still come: what straddles the end (a phase, a copy) and
  // waits on a failed component finishes when it is back, as it would have.
  while (!queue_.empty()) {
    std::pop_heap(queue_.begin(), queue_.end(), std::greater<>());
    const Event e = queue_.back();
    queue_.pop_back();
    const bool failure =
        e.kind == EventKind::drive_fails || e.kind == EventKind::member_fails || e.kind == EventKind::domain_fails;
    if (!live(e) || (failure && e.time_s > metrics_->period_end_s)) // (a run limit may end the period early)
      continue;
    sg4::this_actor::sleep_until(e.time_s);
    // A run limit may also end the period while this actor sleeps towards a failure: it then falls after the end.
    if (failure && e.time_s > metrics_->period_end_s)
      continue;
    ++metrics_->activities;
    if (e.system < 0) {
      if (e.kind == EventKind::domain_back) {
        draw_domain_failure(e.index);
        continue;
      }
      for (auto& sys : systems_)
        sys.unprotected_loss = 0;
      domain_fails(e.index);
      // Unprotected systems lose their members' share of everything they hold, once for the whole domain.
      for (auto& sys : systems_)
        if (sys.unprotected_loss > 0 && on_lost_)
          on_lost_(sys.storage, std::min(1.0, sys.unprotected_loss), sc_->fault_domains[e.index].kind);
      continue;
    }
    auto& sys = systems_[e.system];
    sys.unprotected_loss = 0;
    apply(e);
    if (sys.unprotected_loss > 0 && on_lost_)
      on_lost_(sys.storage, sys.unprotected_loss,
               e.kind == EventKind::drive_fails ? "drive" : models::server_component(sc_->storage[sys.storage].kind));
  }
}

} // namespace aisim::sim
