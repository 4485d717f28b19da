// What a planner declares about the life of data: where each class of data lives, how checkpoints are
// evaluated and promoted (active -> validated -> production), how datasets and old checkpoints move between
// tiers, and what a full system does. The engine (sim/lifecycle, sim/storage_ledger) carries it out.
#pragma once

#include "models/common/units.hpp"

#include <array>
#include <optional>
#include <string>

namespace aisim::models {

// Every byte a storage system holds belongs to one class; results report occupancy per class.
enum class DataClass {
  training_dataset,    // what jobs read: at home on a cold tier, or staged to a hot one
  active_checkpoint,   // the last K checkpoints of a running job, for restart
  archived_checkpoint, // older checkpoints moved off the hot tier
  validated_model,     // a checkpoint that passed evaluation, kept on protected storage
  production_model,    // the model inference serves (current and previous, for rollback)
  replica,             // another system's copy (storage replication)
};
inline constexpr int kDataClasses = 6;
const char* data_class_name(DataClass c);
// A class's key as people write it in prose: "training_dataset" -> "training dataset".
inline std::string data_class_words(std::string key) {
  for (auto& ch : key)
    if (ch == '_')
      ch = ' ';
  return key;
}

// Every Nth checkpoint is evaluated; one that passes is copied to the validated_model placement; every Mth
// validated model is released to production.
struct Promotion {
  int evaluate_every = 0;
  Seconds evaluation_time;  // from the checkpoint written to the verdict (evaluation runs on other GPUs)
  double pass_rate = 1.0;   // fraction that passes, drawn with the scenario's seed
  int production_every = 0; // 0: no release to production
};

struct Tiering {
  std::string dataset_home;                    // where datasets rest; "" when they live on their placement
  Seconds stage_dataset_before;                // staging to the placement starts this long before a job
  std::optional<Seconds> demote_dataset_after; // the hot copy is dropped this long after its job ends
  std::string archive_checkpoints_to;          // checkpoints leaving keep-last-K are copied here first
  std::string replicate_validated_to;          // validated models get a second copy here
};

struct Policies {
  int checkpoint_keep_last = 2;
  // "fail_job": a write that does not fit stops the job; "block_writes": it waits for space; "evict_oldest":
  // the oldest data that no running job needs is deleted to make room.
  std::string on_full = "fail_job";
  std::array<std::string, kDataClasses> placement; // storage system per class; "" when unset
  std::optional<Promotion> promotion;
  Tiering tiering;

  const std::string& place(DataClass c) const { return placement[static_cast<int>(c)]; }
};

} // namespace aisim::models
