#include "sim/engine/storage_ledger.hpp"

#include <catch2/catch.hpp>

using namespace aisim::sim;
using aisim::models::DataClass;

namespace {
Metrics metrics_for(size_t systems) {
  Metrics m;
  m.storage.resize(systems);
  return m;
}
} // namespace

TEST_CASE("the ledger counts space when it is taken and when a deferred release falls due", "[ledger]") {
  Metrics m = metrics_for(1);
  StorageLedger ledger({100.0}, m);
  const int a = ledger.add(0, 0.0, DataClass::active_checkpoint, 60, 0);
  CHECK(ledger.fits(0, 0.0, 40));
  CHECK_FALSE(ledger.fits(0, 0.0, 41));
  ledger.release(a, 1.0, 10.0); // a snapshot holds the blocks until t=10
  CHECK(ledger.used(0, 5.0) == 60);
  CHECK(ledger.next_release(0, 5.0) == 10.0);
  CHECK(ledger.used(0, 10.0) == 0);
  CHECK(ledger.next_release(0, 10.0) < 0);
  ledger.release(a, 11.0, 11.0); // twice is harmless
  CHECK(ledger.used(0, 11.0) == 0);
  REQUIRE(m.storage[0].usage_events.size() == 2);
  CHECK(m.storage[0].usage_events[1].time_s == 10.0);
}

TEST_CASE("eviction frees the oldest unpinned evictable items first", "[ledger]") {
  Metrics m = metrics_for(1);
  StorageLedger ledger({100.0}, m);
  const int dataset = ledger.add(0, 0.0, DataClass::training_dataset, 30, 0);
  const int validated = ledger.add(0, 1.0, DataClass::validated_model, 20, 0);
  const int old_ckpt = ledger.add(0, 2.0, DataClass::active_checkpoint, 20, 0);
  const int newest = ledger.add(0, 3.0, DataClass::active_checkpoint, 20, 0);
  ledger.pin(newest);
  // The dataset's job still runs: only the old checkpoint may go.
  double freed = ledger.evict_oldest(0, 4.0, 25, [](int) { return false; });
  CHECK(freed == 20);
  CHECK(ledger.released(old_ckpt));
  CHECK_FALSE(ledger.released(newest));
  CHECK_FALSE(ledger.released(validated)); // protected classes are never evicted
  CHECK(ledger.used(0, 4.0) == 70);
  // Once the job ended, its dataset is fair game.
  freed = ledger.evict_oldest(0, 5.0, 50, [](int) { return true; });
  CHECK(freed == 30);
  CHECK(ledger.released(dataset));
  CHECK(ledger.fits(0, 5.0, 50));
  CHECK_FALSE(ledger.unpin(newest));
  CHECK_FALSE(ledger.pinned(newest));
}
