#include "models/scenario/policy_parser.hpp"

#include <array>

namespace aisim::models {

const char* data_class_name(DataClass c) {
  // In the enum's order: results and scenario keys spell the classes exactly as the enum names them.
  static constexpr std::array<const char*, kDataClasses> names{
      "training_dataset", "active_checkpoint", "archived_checkpoint", "validated_model", "production_model", "replica"};
  const auto i = static_cast<size_t>(c);
  return i < names.size() ? names[i] : "?";
}

namespace {

const StorageSystem* find(const std::vector<StorageSystem>& storage, const std::string& name) {
  for (const auto& s : storage)
    if (s.name == name)
      return &s;
  return nullptr;
}

// Data that outlives the job that made it cannot sit in one job's nodes.
void require_shared(const std::vector<StorageSystem>& storage, const std::string& name, const std::string& ptr,
                    Diagnostics& diag) {
  if (const auto* sys = find(storage, name); sys && sys->kind == "local_nvme")
    diag.error(ptr, "\"" + name + "\" is node-local storage (expected a shared system: jbof, array, pfs or object)");
}

} // namespace

Policies parse_policies(ObjectReader& pol, const std::vector<std::string>& storage_names,
                        const std::vector<StorageSystem>& storage) {
  Policies p;
  auto& diag = pol.get_diagnostics();
  const std::string what = "storage systems under /storage";
  auto keep = pol.integer("checkpoint_keep_last", 2, 1, 1000000);
  auto on_full = pol.choice("on_full", "fail_job", {"fail_job", "block_writes", "evict_oldest"});
  if (keep)
    p.checkpoint_keep_last = static_cast<int>(*keep);
  if (on_full)
    p.on_full = *on_full;

  // Placement: optional per class; a workload may still name its own dataset and checkpoint storage.
  if (pol.has("placement")) {
    if (auto pl = pol.object("placement", false)) {
      for (auto c : {DataClass::training_dataset, DataClass::active_checkpoint, DataClass::validated_model,
                     DataClass::production_model}) {
        const std::string key = data_class_name(c);
        if (!pl->has(key)) {
          pl->accept(key);
          continue;
        }
        auto where = pl->reference(key, storage_names, what);
        if (!where) {
          // Reported already; a placeholder keeps the workloads that rely on the rule from reporting it again.
          p.placement[static_cast<int>(c)] = "(invalid)";
          continue;
        }
        p.placement[static_cast<int>(c)] = *where;
        if (c == DataClass::validated_model || c == DataClass::production_model)
          require_shared(storage, *where, pl->child_pointer(key), diag);
      }
      pl->finish();
    }
  } else {
    pol.accept("placement");
  }

  if (pol.has("promotion")) {
    if (auto pr = pol.object("promotion", false)) {
      Promotion m;
      auto every = pr->integer("evaluate_every", std::nullopt, 1, 1000000);
      auto eval = pr->quantity("evaluation_time", Dimension::seconds, "0s", Bound::non_negative);
      auto pass = pr->number("pass_rate", 1.0, 0.0, 1.0);
      auto prod = pr->integer("production_every", 0, 0, 1000000);
      pr->finish();
      if (every && eval && pass && prod) {
        m = Promotion{static_cast<int>(*every), Seconds(*eval), *pass, static_cast<int>(*prod)};
        p.promotion = m;
        if (p.place(DataClass::validated_model).empty())
          diag.error(pol.child_pointer("placement"),
                     "promotion needs a place for validated models (expected placement.validated_model)");
        if (m.production_every > 0 && p.place(DataClass::production_model).empty())
          diag.error(pol.child_pointer("placement"),
                     "promotion.production_every needs a place for the production model (expected "
                     "placement.production_model)");
      }
    }
  } else {
    pol.accept("promotion");
  }

  if (auto t = pol.object("tiering", false)) {
    auto optional_system = [&](const std::string& key) -> std::string {
      if (!t->has(key)) {
        t->accept(key);
        return "";
      }
      auto where = t->reference(key, storage_names, what);
      if (!where) {
        return "";
      }
      require_shared(storage, *where, t->child_pointer(key), diag);
      return *where;
    };
    p.tiering.dataset_home = optional_system("dataset_home");
    auto before = t->quantity("stage_dataset_before", Dimension::seconds, "0s", Bound::non_negative);
    if (before)
      p.tiering.stage_dataset_before = Seconds(*before);
    std::optional<double> after;
    t->optional_quantity("demote_dataset_after", Dimension::seconds, after, Bound::non_negative);
    if (after)
      p.tiering.demote_dataset_after = Seconds(*after);
    if (t->has("demote_dataset_after") && p.tiering.dataset_home.empty())
      diag.error(t->child_pointer("demote_dataset_after"),
                 "demoting a dataset drops its hot copy, so it needs a copy at home (expected tiering.dataset_home)");
    p.tiering.archive_checkpoints_to = optional_system("archive_checkpoints_to");
    p.tiering.replicate_validated_to = optional_system("replicate_validated_to");
    if (!p.tiering.replicate_validated_to.empty() && !p.promotion)
      diag.error(t->child_pointer("replicate_validated_to"),
                 "no checkpoint is ever validated (expected a promotion section beside tiering)");
    t->finish();
  }
  pol.finish();
  return p;
}

} // namespace aisim::models
