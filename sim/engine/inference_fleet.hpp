// The actor that replays an inference fleet: at each scale event new replicas load the model from its storage
// (the cold start, a real transfer competing with everything else), and between events the serving replicas
// issue small random reads, timed as transfers and judged by the serving-latency model.
#pragma once

#include "sim/engine/lifecycle.hpp"
#include "sim/engine/metrics.hpp"
#include "sim/platform/platform.hpp"

#include "models/cluster/cluster_network.hpp"
#include "models/scenario/scenario.hpp"

namespace aisim::sim {

class InferenceFleet {
public:
  InferenceFleet(const models::Scenario& sc, int job, const Platform& platform, Metrics& metrics, Lifecycle& lifecycle,
                 const models::FlowBound& data_bound);
  void operator()();

private:
  // Loads the model onto `replicas` new replicas; their GPUs wait, the serving ones compute meanwhile.
  void cold_start(int replicas, int serving);
  // Serves with `replicas` replicas until `until_s`, in periods of at most one time-series bin.
  void serve(int replicas, double until_s);
  void add_segment(double start_s, double compute_gpu_s, double data_gpu_s);

  const models::Scenario* sc_;
  const models::TrainingJob* job_;
  const models::InferenceSpec* spec_;
  int index_;
  const Platform* platform_;
  Metrics* metrics_;
  JobMetrics* jm_;
  Lifecycle* lifecycle_;
  double capacity_iops_ = 0; // what the data storage delivers for the serving reads
  double unloaded_s_ = 0;    // one serving read with nothing else queued
};

} // namespace aisim::sim
