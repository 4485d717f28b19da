// Latency of small random reads served by a storage system under load: each drive is taken as a queue whose
// unloaded response is the drive model's L1(read size) and whose utilization is the offered load over what the
// system can deliver; responses are exponential with mean L1 / (1 - utilization) (the M/M/1 form). A coarse,
// stated approximation: it orders designs by headroom and shows the knee, it is not a tail-latency model of any
// one drive.
#pragma once

#include "models/common/units.hpp"

#include <vector>

namespace aisim::models {

struct ServingPeriod {
  double requests = 0; // how many reads the period carried (the weight of its latencies)
  double mean_s = 0;   // mean response; infinite when the system was overloaded
};

// Mean response at utilization rho (< 1); infinite at rho >= 1.
double mean_response_s(double unloaded_s, double rho);
// The p-quantile (0 < p < 1) of the reads of all periods together (a mixture of exponentials); infinite when
// more than 1 - p of the reads fell in overloaded periods.
double latency_quantile_s(const std::vector<ServingPeriod>& periods, double p);
// The fraction of reads answered within `slo_s`.
double slo_attainment(const std::vector<ServingPeriod>& periods, double slo_s);

} // namespace aisim::models
