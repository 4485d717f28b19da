// How often to checkpoint when failures interrupt a job: Daly's higher-order estimate of the optimum compute time
// between checkpoints (Future Generation Computer Systems, 2006), refining Young's sqrt(2 delta M) (CACM, 1974).
#pragma once

namespace aisim::models {

// delta: the time one checkpoint costs the job (its stall); mtbf: the job's mean time between failures. Both in
// seconds, > 0. Returns the compute time between checkpoints.
double daly_interval_s(double delta, double mtbf);

// Young's first-order optimum, sqrt(2 delta M) (CACM 1974).
double young_interval_s(double delta, double mtbf);

// The share of wall time that is useful compute when checkpointing every `tau` of compute at a cost `delta`, with
// failures at rate 1 / mtbf each costing `restart` before the rework: Daly's complete model (2006, eq. 20),
// T_wall / T_solve = M e^(R/M) (e^((tau + delta)/M) - 1) / tau, so goodput = tau / (M e^(R/M) (e^((tau+delta)/M) - 1)).
// Without failures (mtbf = 0 meaning none) it is tau / (tau + delta).
double expected_goodput(double tau, double delta, double restart, double mtbf);

} // namespace aisim::models
