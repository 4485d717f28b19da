// Durability of redundancy groups (n-way mirrors, RAID 5 and 6, k+m erasure codes) as a Markov chain: drives fail
// independently at a constant rate, a failed drive is rebuilt at a constant rate, and data is lost when more drives
// are down at once than the group tolerates. Gives the mean time to data loss (MTTDL), the probability of a loss
// within a horizon, and the bytes expected lost per year; closed forms to cross-check them. Rare losses, which
// simulation cannot reach (a loss every billion years), are answered here.
#pragma once

namespace aisim::models {

enum class RepairPolicy {
  parallel, // every failed drive is rebuilt at once: i failed, rate i x mu (declustered rebuilds, erasure codes)
  serial,   // one rebuild at a time: rate mu whatever is failed (a single spare, the classic RAID analyses)
};

struct RedundancyGroup {
  int drives = 2;          // n: drives (or shards) one piece of data is spread over
  int tolerated = 1;       // f: drives that may be down at once without loss (mirror copies - 1, RAID 5: 1, ...)
  double failure_rate = 0; // lambda: per drive, per second
  double repair_rate = 0;  // mu: one rebuild's rate, per second (1 / rebuild time); 0: never rebuilt
  RepairPolicy repair = RepairPolicy::parallel;
};

// The exact mean time to absorption from "all drives up" of the birth-death chain on 0..f failed drives (seconds),
// for any f up to the widest code (64+16).
double mttdl_s(const RedundancyGroup& g);

// The probability that the group loses data within `horizon_s`, starting with every drive up: the chain's
// transient distribution (a matrix exponential), to its digits however rare the loss. Once the chain settles (about
// H_f / mu after the start) it grows as 1 - exp(-t / MTTDL).
double loss_probability(const RedundancyGroup& g, double horizon_s);

// For `groups` independent groups holding `bytes_per_group` each: the probability that any of them loses data
// within the horizon, and the bytes expected lost per year (each loss taking its group's data).
double loss_probability(const RedundancyGroup& g, double horizon_s, double groups);
double bytes_lost_per_year(const RedundancyGroup& g, double groups, double bytes_per_group);

// The textbook approximation for rebuilds much faster than failures: MTTDL = mu^f / (lambda^(f+1) x n (n-1) ...
// (n-f)), times f! for parallel repair. (Patterson, Gibson and Katz's RAID 5 formula is its f = 1 case.)
double mttdl_closed_form_s(const RedundancyGroup& g);

// A drive's failure rate per second from its annual failure rate (the chance it fails within a year).
double failure_rate_from_afr(double afr);

} // namespace aisim::models
