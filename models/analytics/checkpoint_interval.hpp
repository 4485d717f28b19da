// How often to checkpoint when failures interrupt a job: Daly's higher-order estimate of the optimum compute time
// between checkpoints (Future Generation Computer Systems, 2006), refining Young's sqrt(2 delta M) (CACM, 1974).
#pragma once

namespace aisim::models {

// delta: the time one checkpoint costs the job (its stall); mtbf: the job's mean time between failures. Both in
// seconds, > 0. Returns the compute time between checkpoints.
double daly_interval_s(double delta, double mtbf);

} // namespace aisim::models
