#include "sim/engine/training_job.hpp"

#include "models/analytics/checkpoint_interval.hpp"
#include "models/analytics/stats.hpp"
#include "sim/engine/file_ops.hpp"
#include "sim/engine/flows.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <memory>
#include <optional>

namespace aisim::sim {

namespace sg4 = simgrid::s4u;

TrainingJob::TrainingJob(const models::Scenario& sc, int job, const Platform& platform, Metrics& metrics,
                         Lifecycle& lifecycle, const models::FlowBound& data_bound)
    : sc_(&sc), job_(&sc.jobs[job]), index_(job), group_(sc.find_node_group(job_->node_group)),
      nodes_(job_->gpus / group_->gpus_per_node), lifecycle_(&lifecycle), platform_(&platform), metrics_(&metrics),
      jm_(&metrics.jobs[job]), data_bound_Bps_(data_bound.read_Bps) {}

double TrainingJob::epoch_end(double read) const {
  const double size = job_->dataset.size.value;
  return (std::floor(read / size + 1e-12) + 1.0) * size;
}

void TrainingJob::draw_next_failure(double from) {
  next_failure_ = group_->node_mtbf.value > 0
                      ? from + std::exponential_distribution<double>(nodes_ / group_->node_mtbf.value)(failure_rng_)
                      : std::numeric_limits<double>::infinity();
  // A failure set in the scenario strikes at its time unless a drawn one comes first; those set during a restart
  // are taken as striking once it is over.
  const auto& at = job_->failures_at;
  while (next_scheduled_ < at.size() && at[next_scheduled_].value < from)
    ++next_scheduled_;
  if (next_scheduled_ < at.size() && at[next_scheduled_].value <= next_failure_) {
    next_failure_ = at[next_scheduled_].value;
    ++next_scheduled_;
  }
}

int TrainingJob::dataset_storage() const { return sc_->storage_index(job_->dataset.storage); }

double TrainingJob::cache_per_node() const {
  const auto& ds = job_->dataset;
  if (ds.cache.empty())
    return 0.0;
  // The page cache gets half the host memory; the job's own processes need the rest.
  return ds.cache == "page_cache" ? 0.5 * group_->host_memory.value
                                  : sc_->find_storage(ds.cache)->capacity().value / group_->count;
}

double TrainingJob::cache_hit_fraction(double read_before) const {
  const auto& ds = job_->dataset;
  const double epochs_done = std::floor(read_before / ds.size.value + 1e-12);
  if (cache_bytes_ <= 0 || epochs_done < 1.0)
    return 0.0;             // the first epoch reads every sample once, so nothing read before is read again
  if (ds.shuffle == "node") // each node rereads its own shard
    return std::min(1.0, cache_bytes_ / (ds.size.value / nodes_));
  // Global shuffling: a node reads a random 1/nodes of the dataset each epoch, so after k epochs it has seen
  // 1 - (1 - 1/nodes)^k of it, and its cache holds at most its capacity of that.
  const double seen = 1.0 - std::pow(1.0 - 1.0 / nodes_, epochs_done);
  return std::min(cache_bytes_ / ds.size.value, seen);
}

TrainingJob::DatasetRead TrainingJob::read_dataset(double bytes) {
  const auto& ds = job_->dataset;
  // Samples the nodes have read before are served by their cache, in the share it holds (which changes only
  // at epoch ends); the rest come from storage, and are kept in the cache while it has room.
  double hits = 0;
  for (double done = 0; done < bytes;) {
    const double at = jm_->dataset_read_bytes + done;
    const double part = std::min(bytes - done, epoch_end(at) - at);
    hits += part * cache_hit_fraction(at);
    done += part;
  }
  const double from_storage = bytes - hits;
  const double fill = std::min(from_storage, std::max(0.0, cache_total_ - cached_));
  cached_ += fill;
  jm_->dataset_read_bytes += bytes;
  jm_->dataset_cache_bytes += hits;
  const auto data_flows = flows(from_storage);
  DatasetRead r{Transfer(*sc_, *platform_, dataset_storage(), IoDirection::read, data_flows, *metrics_),
                {},
                std::nullopt,
                std::nullopt};
  r.data.for_job(index_, Traffic::dataset);
  if (job_->kind == "preprocessing")
    r.data.once(); // a corpus is preprocessed once, not every period the simulation stands for
  // What the files cost, pipelined with the data: small files are opened (and closed) where the system keeps its
  // metadata, and an object store takes one request per file, or per object of its object_size for large shards.
  if (from_storage > 0) {
    const FileCost files =
        ds.small_files() ? FileCost{from_storage / ds.file_size.value, static_cast<double>(ds.metadata_ops_per_file)}
                         : FileCost{};
    r.opens = start_file_costs(*sc_, *platform_, dataset_storage(), data_flows, IoDirection::read, files, *metrics_);
  }
  if (cache_storage_ >= 0) {
    if (hits > 0)
      r.from_cache.emplace(*sc_, *platform_, cache_storage_, IoDirection::read, flows(hits), *metrics_);
    if (fill > 0)
      r.to_cache.emplace(*sc_, *platform_, cache_storage_, IoDirection::write, flows(fill), *metrics_);
  }
  return r;
}

void TrainingJob::add_segment(double start_s, double compute_gpu_s, double data_gpu_s, double ckpt_gpu_s,
                              double failure_gpu_s) {
  jm_->add_segment(start_s, sg4::Engine::get_clock(), compute_gpu_s, data_gpu_s, ckpt_gpu_s, failure_gpu_s);
}

int64_t TrainingJob::steps_per_checkpoint() const {
  const double step_s = job_->step_time.value;
  const auto& c = job_->checkpoint;
  if (c.size.value <= 0)
    return std::numeric_limits<int64_t>::max() / 4; // no checkpoints
  if (c.interval_steps > 0)
    return c.interval_steps;
  double interval = c.interval.value;
  if (c.interval_auto) {
    // Before the first checkpoint its cost is estimated at the nodes' storage NICs; then it is what was measured.
    const double delta = jm_->checkpoint_stall_s.empty()
                             ? c.size.value / (nodes_ * sc_->storage_bandwidth(*group_).value)
                             : models::summarize(jm_->checkpoint_stall_s).mean;
    interval = models::daly_interval_s(std::max(delta, 1e-9), group_->node_mtbf.value / nodes_);
  }
  return std::max<int64_t>(1, static_cast<int64_t>(interval / step_s));
}

void TrainingJob::recover() {
  const double t0 = sg4::Engine::get_clock();
  ++jm_->failures;
  ++generation_;
  lifecycle_->restart_job(index_); // its checkpoint writes still waiting for space died with the run
  // Resume from the newest checkpoint that still has a usable copy; storage failures may have destroyed newer
  // ones (then more work is lost), or all of them (then the job starts over from its start).
  int restore_from = -1;
  if (!durable_.empty()) {
    const size_t newest = durable_.size();
    while (!durable_.empty() && (restore_from = lifecycle_->usable_copy(durable_.back().item)) < 0)
      durable_.pop_back();
    if (durable_.size() < newest) {
      ++(durable_.empty() ? jm_->restarts_from_scratch : jm_->restarts_from_older);
      durable_steps_ = durable_.empty() ? 0 : durable_.back().steps;
      durable_time_ = durable_.empty() ? job_->start.value : durable_.back().captured_s;
    }
  }
  // Compute since the last durable checkpoint is redone: it becomes failure time.
  double lost = 0;
  for (auto it = jm_->segments.rbegin(); it != jm_->segments.rend() && it->start_s >= durable_time_; ++it) {
    const double gpu_s = job_->gpus * (it->end_s - it->start_s);
    lost += gpu_s * it->compute;
    it->failure += it->compute;
    it->compute = 0;
  }
  jm_->compute_gpu_s = std::max(0.0, jm_->compute_gpu_s - lost); // the same sums in another order: never below 0
  jm_->failure_gpu_s += lost;
  jm_->lost_gpu_s += lost;
  jm_->replay_gpu_s += lost;
  jm_->steps = durable_steps_;
  // Rescheduling and start-up, then every rank reads its shard of the last durable checkpoint (if any). Nodes go
  // on failing meanwhile: a failure during either starts them over from its moment.
  // The failure is noticed first (a hung collective times out), then the job is rescheduled.
  if (job_->detection_time.value > 0) {
    sg4::this_actor::sleep_for(job_->detection_time.value);
    ++metrics_->activities;
    jm_->detection_gpu_s += job_->detection_time.value * job_->gpus;
  }
  draw_next_failure(sg4::Engine::get_clock());
  for (bool restarted = false; !restarted;) {
    const double r0 = sg4::Engine::get_clock();
    const bool fails = next_failure_ < window_end_s() && next_failure_ < r0 + job_->restart_time.value;
    sg4::this_actor::sleep_until(fails ? next_failure_ : r0 + job_->restart_time.value);
    ++metrics_->activities;
    jm_->rescheduling_gpu_s += (sg4::Engine::get_clock() - r0) * job_->gpus;
    if (!fails) {
      const double reload0 = sg4::Engine::get_clock();
      restarted = true;
      if (durable_steps_ > 0 || job_->checkpoint.restore_at_start)
        restarted = join_until_failure([this, restore_from] { lifecycle_->restore_checkpoint(index_, restore_from); });
      jm_->reload_gpu_s += (sg4::Engine::get_clock() - reload0) * job_->gpus;
    }
    if (!restarted) {
      ++jm_->failures;
      draw_next_failure(sg4::Engine::get_clock());
    }
  }
  add_segment(t0, 0.0, 0.0, 0.0, (sg4::Engine::get_clock() - t0) * job_->gpus);
  durable_time_ = sg4::Engine::get_clock();
}

double TrainingJob::window_end_s() const { return jm_->window_end_s; }

bool TrainingJob::join_until_failure(std::function<void()> work) {
  auto done = std::make_shared<bool>(false);
  auto actor = sg4::Actor::create(job_->name + "-io", sg4::this_actor::get_host(), [work = std::move(work), done] {
    work();
    *done = true;
  });
  const double now = sg4::Engine::get_clock();
  if (next_failure_ > now && next_failure_ < window_end_s())
    actor->join(next_failure_ - now);
  else
    actor->join();
  if (!*done)
    interrupted_.push_back(actor);
  return *done;
}

void TrainingJob::run_phase(int64_t steps, int64_t buffered) {
  const double t0 = sg4::Engine::get_clock();
  const double compute_s = static_cast<double>(steps) * job_->step_time.value;
  const double read_bytes = static_cast<double>(std::max<int64_t>(0, steps - buffered)) * job_->batch_bytes().value;
  DatasetRead read = read_dataset(read_bytes);
  // Preprocessing writes what it makes of the phase's input as it goes: a new dataset.
  std::optional<Transfer> output =
      job_->kind == "preprocessing"
          ? lifecycle_->start_output_write(index_,
                                           static_cast<double>(steps) * job_->batch_bytes().value * job_->output.ratio)
          : std::nullopt;
  if (job_->prefetch_batches == 0)
    read.wait(); // without prefetch, loading and compute take turns
  // On a converged network the steps' all-reduce shares the NICs with storage traffic; a step waits for both.
  Flows collectives(platform_->routes);
  if (sc_->network.converged && job_->allreduce_bytes_per_step.value > 0) {
    for (int n : platform_->node_sets_of_job[index_]) {
      const auto& ns = platform_->node_sets[n];
      const auto bytes = static_cast<uint64_t>(job_->allreduce_bytes_per_step.value * ns.gpus * steps);
      // One flow each way per node at fidelity "full": the set's flow takes their shares of its NICs.
      collectives.add(ns.host, ns.fabric_peer, bytes, ns.nodes);
      collectives.add(ns.fabric_peer, ns.host, bytes, ns.nodes);
    }
    collectives.start();
    metrics_->activities += collectives.size();
  }
  sg4::this_actor::sleep_for(compute_s);
  ++metrics_->activities;
  read.wait();
  if (output)
    output->wait();
  collectives.wait();
  const double elapsed = sg4::Engine::get_clock() - t0;
  // A phase that ran past the window's end counts the steps done by then: a run limit ended the window during it
  // (Metrics::period_end_s), or the phase was sized to fit at the compute pace and its data held it longer.
  int64_t done = steps;
  if (t0 + elapsed > window_end_s() && elapsed > 0)
    done = std::clamp<int64_t>(
        static_cast<int64_t>(std::floor(static_cast<double>(steps) * (window_end_s() - t0) / elapsed + 1e-9)), 0,
        steps);
  jm_->steps += done;
  add_segment(t0, compute_s * job_->gpus, std::max(0.0, elapsed - compute_s) * job_->gpus, 0.0);
}

bool TrainingJob::write_checkpoint(double size, bool drain_local, int64_t at_steps, double captured_s) {
  const int generation = generation_;
  return lifecycle_->write_checkpoint(index_, size, drain_local, [&](double write_s, int item) {
    jm_->checkpoint_write_s.push_back(write_s);
    // A restart can resume from here, unless a failure struck while the write was in flight: one handled already
    // (a new generation), or one that struck during a synchronous write and is handled once it returns.
    const bool interrupted = next_failure_ >= captured_s && next_failure_ <= sg4::Engine::get_clock();
    if (generation != generation_ || interrupted)
      return false;
    durable_steps_ = at_steps;
    durable_time_ = captured_s;
    // Checkpoints deleted everywhere (keep-last-K, no archive) can never be resumed from: forget them, whenever the
    // list has doubled since it was last pruned. A restart skips the deleted ones at the back anyway (recover());
    // pruning at every write walked every archived checkpoint each time: 4,320 a run of 90 days at 30 min, 9 % of
    // a 100,000-GPU year.
    if (durable_.size() >= durable_pruned_size_ * 2 + 16) {
      std::erase_if(durable_, [&](const Durable& d) { return lifecycle_->usable_copy(d.item) < 0; });
      durable_pruned_size_ = durable_.size();
    }
    durable_.push_back({at_steps, captured_s, item});
    return true;
  });
}

void TrainingJob::run_checkpoint() {
  const double t0 = sg4::Engine::get_clock();
  const double size = job_->checkpoint.size.value;
  const int64_t at_steps = jm_->steps;
  // The loader refills its prefetch buffer while the GPUs wait.
  const double refill = job_->prefetch_batches * job_->batch_bytes().value;
  DatasetRead prefetch = read_dataset(refill);
  if (job_->checkpoint.mode == "async") {
    // The host buffer is reused: a previous write still draining holds the GPUs back.
    if (writer_)
      writer_->join();
    // Every GPU copies its shard to host memory at once; then the write drains in the background, competing
    // with the data loader for storage and network.
    sg4::this_actor::sleep_for(size / (job_->gpus * group_->gpu_host_bandwidth.value));
    ++metrics_->activities;
    writer_ = sg4::Actor::create(job_->name + "-checkpoint-writer", sg4::this_actor::get_host(),
                                 [this, size, at_steps, t0] { write_checkpoint(size, false, at_steps, t0); });
  } else if (job_->checkpoint.mode == "multilevel") {
    // The local copy is the buffer: the previous drain must have finished before it is overwritten.
    if (writer_)
      writer_->join();
    // The GPUs wait while every node writes its shard to its own drives; the drain to shared storage then runs
    // in the background.
    if (lifecycle_->write_local_checkpoint(index_, size))
      writer_ = sg4::Actor::create(job_->name + "-checkpoint-drain", sg4::this_actor::get_host(),
                                   [this, size, at_steps, t0] { write_checkpoint(size, true, at_steps, t0); });
  } else {
    // The GPUs wait for the whole write, unless a node failure ends the wait at its moment (the job restarts from
    // there; the write, left to finish, never becomes durable).
    join_until_failure([this, size, at_steps, t0] { write_checkpoint(size, false, at_steps, t0); });
  }
  const double stall_s = sg4::Engine::get_clock() - t0;
  prefetch.wait();
  const double elapsed = sg4::Engine::get_clock() - t0;
  jm_->checkpoint_stall_s.push_back(stall_s);
  add_segment(t0, 0.0, (elapsed - stall_s) * job_->gpus, stall_s * job_->gpus);
}

bool TrainingJob::start_job() {
  if (job_->start.value >= metrics_->period_end_s)
    return false; // starts after the simulated period: nothing to replay (the parser warned)
  sg4::this_actor::sleep_until(job_->start.value);
  if (job_->start.value >= metrics_->period_end_s) // a run limit ended the period first
    return false;
  lifecycle_->job_started(index_);
  cache_bytes_ = cache_per_node();
  // What all the job's nodes can keep: each at most what it ever reads.
  const double size = job_->dataset.size.value;
  cache_total_ = nodes_ * std::min(cache_bytes_, job_->dataset.shuffle == "node" ? size / nodes_ : size);
  if (const auto& cache = job_->dataset.cache; !cache.empty() && cache != "page_cache") {
    cache_storage_ = sc_->storage_index(cache);
    if (lifecycle_->acquire(cache_storage_, cache_total_, models::DataClass::training_dataset, index_) < 0) {
      finish();
      return false;
    }
  }
  // A dataset still on its way to the hot tier holds the job's GPUs back.
  lifecycle_->wait_for_dataset(index_);
  if (jm_->staging_wait_s > 0)
    add_segment(job_->start.value, 0.0, jm_->staging_wait_s * job_->gpus, 0.0);
  if (lifecycle_->failed(index_)) {
    finish();
    return false;
  }
  return true;
}

int64_t TrainingJob::phase_step_limit() const {
  const double step_s = job_->step_time.value;
  // A data-bound phase lasts longer than its compute, and by how much is only known once it ran; capping a
  // phase at one time-series bin of compute bounds how far the last one can run past the end, and keeps the
  // time series sharp.
  // A job that asks for more data than its system can send at all is held by it: its phase is what that bound moves
  // in one bin. Sized by compute alone, a 1 ns step asked one phase for 6e19 bytes, past what a transfer's 64-bit
  // size holds, and ran 318 days past a 7-day period.
  const double bin_s = sc_->simulation.timeseries_resolution.value;
  double max_steps = bin_s / step_s;
  if (const double batch = job_->batch_bytes().value;
      batch > 0 && data_bound_Bps_ > 0 && std::isfinite(data_bound_Bps_))
    max_steps = std::min(max_steps, bin_s * data_bound_Bps_ / batch);
  return std::max<int64_t>(1, static_cast<int64_t>(std::min(max_steps, 1e15)));
}

int64_t TrainingJob::load_before_first_step() {
  const double step_s = job_->step_time.value;
  // Before the first step the loader fills its prefetch buffer and, when the job resumes, every rank reads its
  // shard of the latest checkpoint; the GPUs wait for both.
  int64_t buffered = 0;
  const bool fill_buffer = job_->prefetch_batches > 0 && sg4::Engine::get_clock() + step_s <= window_end_s();
  // A fine-tuning job first loads its base model: every node reads the whole of it.
  if (job_->base_model.size.value > 0) {
    const double t0 = sg4::Engine::get_clock();
    std::vector<Flow> per_node;
    for (int ns : platform_->node_sets_of_job[index_])
      per_node.push_back({ns, job_->base_model.size.value * platform_->node_sets[ns].nodes});
    Transfer load(*sc_, *platform_, sc_->storage_index(job_->base_model.storage), IoDirection::read, per_node,
                  *metrics_);
    load.for_job(index_, Traffic::model_load).wait();
    jm_->model_load_s = sg4::Engine::get_clock() - t0;
    add_segment(t0, 0.0, jm_->model_load_s * job_->gpus, 0.0);
  }
  if (fill_buffer || job_->checkpoint.restore_at_start) {
    const double t0 = sg4::Engine::get_clock();
    DatasetRead fill = read_dataset(fill_buffer ? job_->prefetch_batches * job_->batch_bytes().value : 0.0);
    double restore_s = 0;
    if (job_->checkpoint.restore_at_start) {
      lifecycle_->restore_checkpoint(index_);
      restore_s = sg4::Engine::get_clock() - t0;
      jm_->restore_s = restore_s;
    }
    fill.wait();
    const double elapsed = sg4::Engine::get_clock() - t0;
    add_segment(t0, 0.0, (elapsed - restore_s) * job_->gpus, restore_s * job_->gpus);
    buffered = fill_buffer ? job_->prefetch_batches : 0;
  }
  return buffered;
}

int64_t TrainingJob::steps_that_fit(double end_s, int64_t epoch_steps) const {
  const double step_s = job_->step_time.value;
  const double remaining = end_s - sg4::Engine::get_clock();
  auto fit = static_cast<int64_t>(std::floor(remaining / step_s + 1e-9));
  // A phase ends where the next failure strikes.
  if (next_failure_ < end_s)
    fit = std::min(fit, static_cast<int64_t>(std::floor((next_failure_ - sg4::Engine::get_clock()) / step_s)));
  if (epoch_steps > 0) // a job sized in epochs ends after its last one
    fit = std::min(fit, epoch_steps - jm_->steps);
  // With a cache, what storage serves changes at each epoch's end: a phase stops there.
  if (cache_bytes_ > 0) {
    const double read = jm_->dataset_read_bytes;
    fit = std::min(fit, std::max<int64_t>(1, static_cast<int64_t>(std::ceil(
                                                 (epoch_end(read) - read) / job_->batch_bytes().value - 1e-9))));
  }
  return fit;
}

void TrainingJob::operator()() {
  if (!start_job())
    return;
  const double step_s = job_->step_time.value;
  int64_t steps_per_ckpt = steps_per_checkpoint();
  jm_->interval_s.push_back(static_cast<double>(steps_per_ckpt) * step_s);
  const int64_t max_phase_steps = phase_step_limit();
  int64_t buffered = load_before_first_step();
  const int64_t epoch_steps =
      job_->epochs > 0
          ? static_cast<int64_t>(std::ceil(job_->epochs * job_->dataset.size.value / job_->batch_bytes().value - 1e-9))
          : 0;
  // Failures strike the job's nodes at random, at the group's rate per node, drawn from the scenario's seed.
  failure_rng_.seed(sc_->simulation.seed * 7919ULL + static_cast<uint64_t>(index_));
  durable_time_ = sg4::Engine::get_clock();
  draw_next_failure(durable_time_);
  int64_t since_ckpt = 0;
  while (!lifecycle_->failed(index_)) {
    // A failure within the next step interrupts it: the job restarts from its last durable checkpoint.
    // The window is read afresh each time: a run limit may end it early (Metrics::period_end_s).
    const double end_s = window_end_s();
    if (next_failure_ < end_s && next_failure_ - sg4::Engine::get_clock() < step_s) {
      if (next_failure_ > sg4::Engine::get_clock()) {
        const double t0 = sg4::Engine::get_clock();
        sg4::this_actor::sleep_until(next_failure_); // the interrupted step, lost
        add_segment(t0, 0.0, 0.0, 0.0, (next_failure_ - t0) * job_->gpus);
        jm_->replay_gpu_s += (next_failure_ - t0) * job_->gpus;
      }
      recover();
      since_ckpt = 0;
      buffered = 0;
      continue;
    }
    const int64_t fit = steps_that_fit(end_s, epoch_steps);
    if (fit <= 0)
      break;
    const int64_t steps = std::min({steps_per_ckpt - since_ckpt, fit, max_phase_steps});
    run_phase(steps, buffered);
    buffered = 0;
    since_ckpt += steps;
    if (since_ckpt == steps_per_ckpt && sg4::Engine::get_clock() < window_end_s()) {
      run_checkpoint();
      since_ckpt = 0;
      buffered = job_->prefetch_batches;
      if (job_->checkpoint.interval_auto) {
        steps_per_ckpt = steps_per_checkpoint();
        jm_->interval_s.push_back(static_cast<double>(steps_per_ckpt) * step_s);
      }
    }
  }
  finish();
}

void TrainingJob::finish() {
  jm_->end_s = sg4::Engine::get_clock();
  // The last asynchronous write may still be draining, and writes a failure interrupted may still run; they use
  // this object, so they must end first.
  if (writer_)
    writer_->join();
  for (auto& w : interrupted_)
    w->join();
  lifecycle_->job_ended(index_);
}

} // namespace aisim::sim
