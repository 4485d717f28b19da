#include "sim/engine/inference_fleet.hpp"

#include "sim/engine/file_ops.hpp"
#include "sim/engine/transfer.hpp"

#include <algorithm>
#include <cmath>

namespace aisim::sim {

namespace sg4 = simgrid::s4u;

InferenceFleet::InferenceFleet(const models::Scenario& sc, int job, const Platform& platform, Metrics& metrics,
                               Lifecycle& lifecycle, const models::FlowBound& data_bound)
    : sc_(&sc), job_(&sc.jobs[job]), spec_(&sc.jobs[job].inference), index_(job), platform_(&platform),
      metrics_(&metrics), jm_(&metrics.jobs[job]), lifecycle_(&lifecycle) {
  if (spec_->request_rate.value <= 0)
    return;
  const auto& sys = sc.storage[sc.storage_index(spec_->data_storage)];
  const double bs = spec_->read_size.value;
  // The drives' random-read ceiling at this size, and the network's, whichever binds.
  capacity_iops_ = data_bound.read_Bps / bs;
  if (sys.drive) {
    const auto& d = *sys.drive;
    capacity_iops_ =
        std::min(capacity_iops_,
                 sys.drive_count() * d.max_iops(models::IoOp::read, models::IoPattern::random, spec_->read_size));
    unloaded_s_ = d.qd1_service_time(models::IoOp::read, models::IoPattern::random, spec_->read_size).value;
  }
  // Object stores answer each request after their request latency, and take at most their GET rate (a read of at
  // most object_size is one GET).
  if (sys.kind == "object") {
    unloaded_s_ = std::max(unloaded_s_, sys.request_latency.value);
    capacity_iops_ = std::min(capacity_iops_, sys.object_request_rate(false) / sys.object_requests(bs, 1));
  }
}

void InferenceFleet::add_segment(double start_s, double compute_gpu_s, double data_gpu_s) {
  jm_->add_segment(start_s, sg4::Engine::get_clock(), compute_gpu_s, data_gpu_s, 0.0, 0.0);
}

void InferenceFleet::cold_start(int replicas, int serving) {
  const double t0 = sg4::Engine::get_clock();
  const double bytes = replicas * spec_->model_size.value;
  // The new replicas' GPUs are the first of the fleet's after those already serving; each node set takes the
  // share of the bytes its GPUs hold among them.
  std::vector<Flow> flows;
  double skip = static_cast<double>(serving) * spec_->gpus_per_replica;
  double want = static_cast<double>(replicas) * spec_->gpus_per_replica;
  for (int ns : platform_->node_sets_of_job[index_]) {
    const double gpus = platform_->node_sets[ns].gpus;
    const double take = std::clamp(gpus - skip, 0.0, want);
    skip = std::max(0.0, skip - gpus);
    want -= take;
    if (take > 0)
      flows.push_back({ns, bytes * take / (replicas * spec_->gpus_per_replica)});
  }
  const int storage = sc_->storage_index(spec_->model_storage);
  // From an object store the weights come as GETs of at most object_size each (ranged GETs), beside the bytes.
  auto gets = start_file_costs(*sc_, *platform_, storage, flows, IoDirection::read, {}, *metrics_);
  Transfer load(*sc_, *platform_, storage, IoDirection::read, flows, *metrics_);
  load.for_job(index_, Traffic::model_load);
  for (auto& g : gets) // the GETs pace the load beside its bytes: recorded as done once both are
    g->wait();
  load.wait();
  const double load_s = sg4::Engine::get_clock() - t0;
  jm_->load_s.push_back(load_s);
  jm_->replicas_loaded += replicas;
  add_segment(t0, load_s * serving * spec_->gpus_per_replica, load_s * replicas * spec_->gpus_per_replica);
}

void InferenceFleet::serve(int replicas, double until_s) {
  const double bin = sc_->simulation.timeseries_resolution.value;
  const int data = sc_->storage_index(spec_->data_storage);
  // The window is read afresh: a run limit may end it early (Metrics::period_end_s).
  while (replicas > 0 && sg4::Engine::get_clock() < std::min(until_s, jm_->window_end_s)) {
    const double t0 = sg4::Engine::get_clock();
    const double period = std::min(bin, until_s - t0);
    double slower = 0;
    if (capacity_iops_ > 0) {
      // The fleet's reads for the period, spread over all the fleet's nodes by their GPUs.
      const double reads = spec_->request_rate.value * spec_->reads_per_request * period;
      const auto flows = lifecycle_->job_flows(index_, reads * spec_->read_size.value);
      // On an object store each read is a GET (of at most object_size), under the store's request limit.
      auto gets = start_file_costs(*sc_, *platform_, data, flows, IoDirection::read, {reads, 0.0}, *metrics_);
      Transfer t(*sc_, *platform_, data, IoDirection::read, flows, *metrics_);
      t.for_job(index_, Traffic::serving);
      sg4::this_actor::sleep_for(period);
      ++metrics_->activities;
      t.wait();
      for (auto& g : gets)
        g->wait();
      slower = sg4::Engine::get_clock() - t0 - period; // storage fell behind the requests
      const bool overloaded = slower > 1e-9 * period;
      const double rho = overloaded ? 1.0 : reads / period / capacity_iops_;
      jm_->serving.push_back({reads, models::mean_response_s(unloaded_s_, rho)});
      if (overloaded)
        jm_->overloaded_s += period;
    } else {
      sg4::this_actor::sleep_for(period);
      ++metrics_->activities;
    }
    add_segment(t0, period * replicas * spec_->gpus_per_replica,
                std::max(0.0, slower) * replicas * spec_->gpus_per_replica);
  }
  if (sg4::Engine::get_clock() < until_s) // no replica in service: the fleet's GPUs idle
    sg4::this_actor::sleep_until(std::min(until_s, jm_->window_end_s));
}

void InferenceFleet::operator()() {
  if (job_->start.value >= metrics_->period_end_s)
    return;
  sg4::this_actor::sleep_until(job_->start.value);
  if (job_->start.value >= metrics_->period_end_s) // a run limit ended the period first
    return;
  lifecycle_->job_started(index_);
  int serving = 0;
  for (size_t i = 0; i < spec_->scale.size(); ++i) {
    const double end = jm_->window_end_s; // read afresh: a run limit may end it early
    const double at = job_->start.value + spec_->scale[i].at.value;
    if (at >= end)
      break;
    if (sg4::Engine::get_clock() < at)
      sg4::this_actor::sleep_until(at);
    if (at >= jm_->window_end_s) // a run limit ended the window while the fleet waited
      break;
    const int want = spec_->scale[i].replicas;
    if (want > serving)
      cold_start(want - serving, serving);
    serving = want;
    const double next = i + 1 < spec_->scale.size() ? job_->start.value + spec_->scale[i + 1].at.value : end;
    serve(serving, std::min(next, end));
  }
  jm_->end_s = sg4::Engine::get_clock();
  lifecycle_->job_ended(index_);
}

} // namespace aisim::sim
