#include "sim/engine/lifecycle.hpp"

#include "sim/engine/file_ops.hpp"

#include <algorithm>
#include <cmath>

namespace aisim::sim {

namespace sg4 = simgrid::s4u;
using models::DataClass;

namespace {
std::vector<double> capacities(const models::Scenario& sc) {
  std::vector<double> c;
  for (const auto& s : sc.storage)
    c.push_back(s.capacity().value);
  return c;
}
} // namespace

Lifecycle::Lifecycle(const models::Scenario& sc, const Platform& platform, Metrics& metrics)
    : sc_(&sc), platform_(&platform), metrics_(&metrics), ledger_(capacities(sc), metrics),
      running_(sc.jobs.size(), false), stagers_(sc.jobs.size()), staged_item_(sc.jobs.size(), -1),
      newest_ckpt_(sc.jobs.size(), -1), ckpt_count_(sc.jobs.size(), 0), production_(sc.jobs.size()),
      live_checkpoints_(sc.jobs.size()), local_ckpt_(sc.jobs.size(), -1) {
  for (size_t j = 0; j < sc.jobs.size(); ++j)
    rng_.emplace_back(sc.simulation.seed * 1000003ULL + j);
  space_mutex_ = sg4::Mutex::create();
  blocked_.resize(sc.storage.size());
  promised_.assign(sc.storage.size(), 0.0);
  attempts_.assign(sc.jobs.size(), 0);
}

void Lifecycle::release(int item, double now, double at) {
  ledger_.release(item, now, at);
  wake_blocked(ledger_.storage_of(item));
}

void Lifecycle::wake_blocked(int storage) {
  const double now = sg4::Engine::get_clock();
  // Chosen first, notified after: a notification is a simcall, during which the woken writer may run, leave the
  // list and end the life of its entry.
  std::vector<sg4::ConditionVariablePtr> wake;
  for (auto* w : blocked_[storage])
    if (!w->woken && ledger_.fits(storage, now, promised_[storage] + w->bytes)) {
      w->woken = true;
      promised_[storage] += w->bytes;
      wake.push_back(w->wake);
    }
  for (const auto& cv : wake)
    cv->notify_one();
}

sg4::Host* Lifecycle::host_of(int job) const {
  return platform_->node_sets[platform_->node_sets_of_job[job].front()].host;
}

std::vector<Flow> Lifecycle::job_flows(int job, double bytes) const {
  std::vector<Flow> out;
  const auto& spec = sc_->jobs[job];
  for (int ns : platform_->node_sets_of_job[job])
    out.push_back({ns, bytes * platform_->node_sets[ns].gpus / spec.gpus});
  return out;
}

void Lifecycle::start() {
  start_threats();
  const int home = sc_->storage_index(sc_->policies.tiering.dataset_home);
  const double end = metrics_->period_end_s;
  // Data at rest from the start belongs to no job and is never evicted: it is what the system is there to keep.
  for (size_t s = 0; s < sc_->storage.size(); ++s)
    for (const auto& [cls, bytes] : sc_->storage[s].holds)
      ledger_.pin(ledger_.add(static_cast<int>(s), 0.0, static_cast<DataClass>(cls), bytes.value, -1));
  for (size_t j = 0; j < sc_->jobs.size(); ++j) {
    const auto& job = sc_->jobs[j];
    if (job.kind == "inference") {
      // The fleet's model is on its production tier from the start.
      ledger_.add(sc_->storage_index(job.inference.model_storage), 0.0, DataClass::production_model,
                  job.inference.model_size.value, static_cast<int>(j));
      continue;
    }
    const int hot = sc_->storage_index(job.dataset.storage);
    const int jj = static_cast<int>(j);
    const double size = job.dataset.size.value;
    if (home < 0 || home == hot || job.start.value >= end) {
      // Already in place when the simulated period starts.
      staged_item_[j] = ledger_.add(hot, 0.0, DataClass::training_dataset, size, jj);
      continue;
    }
    ledger_.add(home, 0.0, DataClass::training_dataset, size, jj);
    const double at = std::max(0.0, job.start.value - sc_->policies.tiering.stage_dataset_before.value);
    stagers_[j] = sg4::Actor::create(job.name + "-stage", host_of(jj), [this, jj, home, hot, size, at] {
      sg4::this_actor::sleep_until(at);
      if (at >= metrics_->period_end_s) // a run limit ended the period before the job would start
        return;
      const int item = acquire(hot, size, DataClass::training_dataset, jj);
      if (item < 0)
        return;
      ledger_.pin(item); // a dataset arriving is not evictable
      move(home, hot, size, DataClass::training_dataset, jj);
      ledger_.unpin(item);
      staged_item_[jj] = item;
    });
  }
}

void Lifecycle::wait_for_dataset(int job) {
  if (!stagers_[job])
    return;
  const double t0 = sg4::Engine::get_clock();
  stagers_[job]->join();
  stagers_[job] = nullptr;
  metrics_->jobs[job].staging_wait_s = sg4::Engine::get_clock() - t0;
}

void Lifecycle::move(int from, int to, double bytes, DataClass cls, int job) {
  const double t0 = sg4::Engine::get_clock();
  // An object store takes a copy in requests too, beside its bytes: GETs out of it, PUTs into it.
  std::vector<sg4::ExecPtr> requests;
  for (const auto& [s, direction] : {std::pair{from, IoDirection::read}, std::pair{to, IoDirection::write}})
    if (sc_->storage[s].kind == "object")
      for (auto& r : start_file_costs(*sc_, *platform_, s, {Flow{0, bytes}}, direction, {}, *metrics_))
        requests.push_back(std::move(r));
  const bool node_local = sc_->storage[from].kind == "local_nvme" || sc_->storage[to].kind == "local_nvme";
  // Datasets move once, around their job (staging, demotion); checkpoints and models move with every one.
  const bool one_off = cls == DataClass::training_dataset;
  if (node_local) {
    // Through the job's nodes: read on one side and write on the other, pipelined.
    const auto flows = job_flows(job, bytes);
    Transfer read(*sc_, *platform_, from, IoDirection::read, flows, *metrics_);
    Transfer write(*sc_, *platform_, to, IoDirection::write, flows, *metrics_);
    if (one_off) {
      read.once();
      write.once();
    }
    read.wait();
    write.wait();
  } else {
    Transfer copy = Transfer::replicate(*sc_, *platform_, from, to, bytes, *metrics_, true);
    if (one_off)
      copy.once();
    copy.wait();
  }
  for (auto& r : requests)
    r->wait();
  metrics_->movements.push_back({from, to, cls, bytes, t0, sg4::Engine::get_clock()});
}

void Lifecycle::data_lost(int storage, double fraction, const std::string& cause) {
  const double now = sg4::Engine::get_clock();
  std::vector<int> items;
  std::vector<std::pair<int, double>> datasets;
  DataLoss loss{now, storage, cause, fraction, ledger_.destroy(storage, fraction, items, datasets), {}, 0.0};
  for (int id : items)
    item_lost(id, loss, now);
  wake_blocked(storage);
  // A staged dataset's lost shard is fetched again from its home tier, beside the job.
  const int home = sc_->storage_index(sc_->policies.tiering.dataset_home);
  for (const auto& [id, bytes] : datasets) {
    const int job = ledger_.job_of(id);
    if (home < 0 || home == storage || job < 0 || staged_item_[job] != id)
      continue;
    loss.restaged_bytes += bytes;
    ++metrics_->activities;
    sg4::Actor::create(sc_->jobs[job].name + "-restage", host_of(job), [this, home, storage, bytes = bytes, job] {
      move(home, storage, bytes, DataClass::training_dataset, job);
    });
  }
  metrics_->data_losses.push_back(loss);
}

void Lifecycle::item_lost(int id, DataLoss& loss, double now) {
  ++loss.items[static_cast<size_t>(ledger_.class_of(id))];
  // A model is gone once none of its copies is: it must be trained again up to where it came from.
  const auto m = model_of_.find(id);
  if (m == model_of_.end() || models_[m->second].destroyed)
    return;
  auto& model = models_[m->second];
  if (std::any_of(model.items.begin(), model.items.end(), [&](int c) { return usable(c); }))
    return;
  model.destroyed = true;
  const auto& job = sc_->jobs[model.job];
  metrics_->model_losses.push_back(
      {now, model.job, ledger_.class_of(id), job.gpus * std::max(0.0, model.made_from_s - job.start.value)});
}

void Lifecycle::add_model_copy(int model, int item) {
  models_[model].items.push_back(item);
  model_of_[item] = model;
}

void Lifecycle::restart_job(int job) {
  ++attempts_[job];
  // Chosen first, notified after (see wake_blocked).
  std::vector<sg4::ConditionVariablePtr> wake;
  for (const auto& writers : blocked_)
    for (auto* w : writers)
      if (w->job == job && w->attempt >= 0) // checkpoint writes only: the job's other copies outlive its runs
        wake.push_back(w->wake);
  for (const auto& cv : wake)
    cv->notify_one();
}

int Lifecycle::acquire(int storage, double bytes, DataClass cls, int job, int attempt) {
  double now = sg4::Engine::get_clock();
  if (ledger_.fits(storage, now, bytes))
    return ledger_.add(storage, now, cls, bytes, job);
  const std::string& policy = sc_->policies.on_full;
  if (policy == "evict_oldest") {
    const double freed =
        ledger_.evict_oldest(storage, now, bytes, [this](int j) { return !running_[j] && !stagers_[j]; });
    if (freed > 0)
      metrics_->capacity_events.push_back({now, storage, job, "evicted", freed, 0.0});
    if (ledger_.fits(storage, now, bytes))
      return ledger_.add(storage, now, cls, bytes, job);
  } else if (policy == "block_writes") {
    // Space frees when a scheduled release falls due, or when another actor deletes something or loses it: wait
    // for the first, woken by the others (release(), data_lost()), until the simulated period ends, or for a
    // running job's own writes until its window ends (its GPUs are the next job's then).
    // (Read afresh at each wake: a run limit may end the period early, Metrics::period_end_s.)
    const auto end = [&] {
      return job >= 0 && running_[job] ? metrics_->jobs[job].window_end_s : metrics_->period_end_s;
    };
    const double t0 = now;
    const auto abandoned = [&] { return attempt >= 0 && attempts_[job] != attempt; };
    BlockedWrite me{bytes, sg4::ConditionVariable::create(), job, attempt};
    auto& line = blocked_[storage];
    const auto mine = line.insert(line.end(), &me);
    while (!ledger_.fits(storage, now, bytes) && now < end() && !abandoned()) {
      // The first in line alone waits for the system's next scheduled release, and wakes those behind it that fit
      // then; the others wait to be woken. (Every writer waking at every release made a full system that blocks
      // a thousand writers cost a thousand wakes a release: 30 years of failures.json never finished.)
      double wake = end();
      if (const double next = ledger_.next_release(storage, now); next > now && line.front() == &me)
        wake = std::min(wake, next);
      std::unique_lock<sg4::Mutex> lock(*space_mutex_);
      me.wake->wait_until(lock, wake);
      if (me.woken) { // the promise ends here: the ledger decides from now on
        me.woken = false;
        promised_[storage] -= bytes;
      }
      ++metrics_->activities;
      now = sg4::Engine::get_clock();
      if (line.front() == &me && !ledger_.fits(storage, now, bytes))
        wake_blocked(storage);
    }
    const bool first = line.front() == &me;
    line.erase(mine);
    metrics_->capacity_events.push_back({t0, storage, job, "blocked", bytes, now - t0});
    // The next in line takes over the wait for scheduled releases. (A notification is a simcall: last.)
    if (first && !line.empty())
      line.front()->wake->notify_one();
    if (abandoned()) {
      wake_blocked(storage); // space it may have been promised goes to the next
      return -1;
    }
    if (ledger_.fits(storage, now, bytes))
      return ledger_.add(storage, now, cls, bytes, job);
    // Still waiting when the period (or the job's window) ended: the write never happened, and its wait is the
    // "blocked" event above. The job did not fail for it: it ran until the end as every job does.
    return -1;
  }
  metrics_->capacity_events.push_back({now, storage, job, "failed_job", bytes, 0.0});
  fail(job, "storage \"" + sc_->storage[storage].name + "\" full: " + models::format_bytes(models::Bytes(bytes)) +
                " of " + models::data_class_name(cls) + " did not fit (policies.on_full = " + policy + ")");
  return -1;
}

std::optional<Transfer> Lifecycle::start_output_write(int job, double bytes) {
  const int to = sc_->storage_index(sc_->jobs[job].output.storage);
  if (acquire(to, bytes, DataClass::training_dataset, job) < 0)
    return std::nullopt;
  std::optional<Transfer> t(std::in_place, *sc_, *platform_, to, IoDirection::write, job_flows(job, bytes), *metrics_);
  t->once().for_job(job, Traffic::output); // preprocessing makes its dataset once
  return t;
}

void Lifecycle::fail(int job, const std::string& why) {
  if (metrics_->jobs[job].failure.empty())
    metrics_->jobs[job].failure = why;
}

void Lifecycle::discard(int item) {
  const double now = sg4::Engine::get_clock();
  release(item, now, now);
}

void Lifecycle::job_ended(int job) {
  running_[job] = false;
  if (newest_ckpt_[job] >= 0) {
    unpin(newest_ckpt_[job]);
    newest_ckpt_[job] = -1;
  }
  const auto& demote = sc_->policies.tiering.demote_dataset_after;
  const int item = staged_item_[job];
  if (!demote || item < 0 || sc_->policies.tiering.dataset_home.empty() ||
      sc_->jobs[job].dataset.storage == sc_->policies.tiering.dataset_home)
    return;
  // The home copy stays; demotion drops the hot one.
  const double delay = demote->value;
  ++metrics_->activities;
  sg4::Actor::create(sc_->jobs[job].name + "-demote", host_of(job), [this, item, delay] {
    sg4::this_actor::sleep_for(delay);
    discard(item);
  });
}

} // namespace aisim::sim
