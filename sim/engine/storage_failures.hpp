// Storage components that fail while the jobs run: drives, JBOF enclosures, array controllers and file servers,
// each a renewal process (a Weibull lifetime, an outage, a new life) drawn from the scenario's seed. One actor
// sleeps until the next failure or repair and changes the platform at that moment, whatever is in flight: a
// failed drive takes its bandwidth out of its server's disks, a failed enclosure, controller or file server its
// whole server (front end, internal limit, drives) out of service, and an active-passive controller pair is out
// while its standby takes over. New transfers stripe over the servers still serving (Transfer); those already
// striped onto a failed server wait for its repair there.
// Protected systems (protection with parity) also lose and rebuild data: a failed drive's data, or every drive's
// of a failed enclosure or file server, is out until it is rebuilt onto the replacement (storage_rebuild.cpp):
// reads meanwhile reconstruct it from D pieces each, and a stripe group with more drives out than its parity has
// lost its data.
#pragma once

#include "sim/engine/metrics.hpp"
#include "sim/platform/platform.hpp"

#include "models/scenario/scenario.hpp"

#include <functional>
#include <random>
#include <string>
#include <vector>

namespace aisim::sim {

class StorageFailures {
public:
  // Data lost on a system: `fraction` of what it holds, and why (Lifecycle::data_lost).
  using DataLostCallback = std::function<void(int storage, double fraction, const std::string& cause)>;
  StorageFailures(const models::Scenario& sc, const Platform& platform, Metrics& metrics, DataLostCallback on_lost);
  // Whether any system has a failure process (otherwise no actor is needed).
  bool any() const { return !systems_.empty(); }
  void operator()(); // the actor: replays failures and repairs up to the end of the simulated period

private:
  enum class EventKind { drive_fails, drive_back, member_fails, member_back, takeover_done, domain_fails, domain_back };
  struct Event {
    double time_s;
    uint64_t seq; // creation order: equal times replay deterministically
    int system;   // index into systems_ (-1 for a fault domain's events)
    EventKind kind;
    int index;              // drive, member or slot; a domain's index in the scenario
    bool scheduled = false; // a failure at a set time (scenario "at") or a domain's, not a drawn one
    double repair_s = -1;   // a failure's time out of service; -1: its component kind's repair_time
    bool operator>(const Event& o) const { return time_s != o.time_s ? time_s > o.time_s : seq > o.seq; }
  };
  // One physical server position ("slot") of a system: an enclosure, a file server, or an array's active
  // controller with its standbys ("members").
  struct Slot {
    int host = -1;  // the platform server that stands for it
    int active = 0; // the member serving, -1 when none is up
    int members_up = 1;
    double takeover_until_s = 0;
    int drives_up = 0;
  };
  struct System {
    int storage = -1;
    int members_per_slot = 1;
    int drives_per_slot = 0;
    std::vector<Slot> slots;
    std::vector<char> drive_up, member_up;
    std::mt19937_64 drive_rng, member_rng;
    std::vector<int> event_of_drive, event_of_member; // index into Metrics' failure list while out of service
    // The drawn failure each component waits for; another one pending (drawn before a scheduled failure struck
    // it) is stale.
    std::vector<uint64_t> drawn_drive, drawn_member;
    // Whose data is out (every system), bumped at each loss so that a rebuild of an older loss does not count, and
    // per stripe group (protected systems) how many drives are out and whether it lost its data.
    std::vector<char> data_out;
    std::vector<int> generation;
    std::vector<int> group_out;
    std::vector<char> group_lost;
    int out_count = 0;
    double unprotected_loss = 0; // fraction of the data lost by the event being applied (no protection)
    std::vector<int> first_slot; // by platform server: the first slot it stands for
  };

  // Queues an event; returns its sequence number.
  uint64_t schedule(double time_s, int system, EventKind kind, int index, bool scheduled = false, double repair_s = -1);
  // A fault domain fails: each of its members still in service fails with it, for the domain's repair time.
  void domain_fails(int domain);
  void draw_domain_failure(int domain);
  // Queues the next drawn failure of a drive or member that has just entered service.
  void draw_failure(int system, EventKind kind, int index);
  // Whether a failure event still applies: its component is in service and it is not a stale draw.
  bool live(const Event& e) const;
  void apply(const Event& e);
  bool serving(const Slot& slot) const;
  // Sets the bandwidths of one platform server from the state of the slots it stands for.
  void update_server(System& sys, int host);
  // After a drive event on `host`: that server, or every server of an array (their drives are shared).
  void update_drive_servers(System& sys, int host);
  // A drive's data becomes unavailable, or available again.
  void lose_data(System& sys, int drive);
  void restore_data(System& sys, int drive);
  // Drive bytes read per byte asked on the system, from how many of its drives are out (Platform).
  void update_read_amplification(System& sys);
  // The other drives of `drive`'s stripe group that still hold their data: what a rebuild reads from.
  std::vector<int> whole_in_group(const System& sys, int drive) const;
  static std::vector<int> drives_of_slot(const System& sys, int slot);
  // A component came back: rebuild its lost drives from their groups (protected), or take them back empty.
  void drives_back(System& sys, const std::vector<int>& drives, const std::string& component, int index);
  // storage_rebuild.cpp: the rebuild's traffic as an actor, and the disk holding a drive.
  void start_rebuild(int system, std::vector<int> drives, const std::string& component, int index);
  // What one chunk of a rebuild moves: each disk's share (written for the drives rebuilt, read from the drives
  // still whole) at its priority, and the pieces that cross the network between servers.
  struct RebuildChunk {
    struct DiskShare {
      simgrid::s4u::Disk* disk;
      bool write;
      double bytes;
      double priority;
    };
    struct Copy {
      simgrid::s4u::Host* from;
      simgrid::s4u::Host* to;
      double bytes;
      double rate = -1; // a cap: a copy between servers merged into one host moves through one server's ports
    };
    std::vector<DiskShare> shares;
    std::vector<Copy> copies;
  };
  RebuildChunk rebuild_chunk(const System& sys, const std::vector<int>& drives) const;
  // The rebuild itself, chunk by chunk, in its own actor; it stops when a drive it rebuilds is lost again.
  void run_rebuild(int system, const std::vector<int>& drives, const std::vector<int>& generations,
                   const RebuildChunk& chunk, size_t record, double chunk_s);
  simgrid::s4u::Disk* disk_of(const System& sys, int drive) const;

  const models::Scenario* sc_;
  const Platform* platform_;
  Metrics* metrics_;
  std::vector<System> systems_;
  std::vector<int> system_of_storage_; // index into systems_, -1 for a system nothing fails on
  std::vector<std::mt19937_64> domain_rng_;
  std::vector<uint64_t> drawn_domain_;
  DataLostCallback on_lost_;
  std::vector<Event> queue_; // a min-heap on (time, seq)
  uint64_t seq_ = 0;
};

} // namespace aisim::sim
