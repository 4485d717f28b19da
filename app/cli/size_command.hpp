// `aisim size SCENARIO --vary POINTER=RANGE --target METRIC>=VALUE [--maximize POINTER]`: the cheapest value (or,
// with several --vary, the cheapest combination) whose run meets the target, or with --maximize the largest value
// that still meets it. One parameter is bisected where its metric (and cost) is monotone, checked on every run made;
// otherwise, and with several parameters, every value is run. Prints the answer, the method and how many runs it
// took, the knee and the top candidates with their margins; writes OUT/size.json and each run's folder. Exit 0 with
// an answer, 2 on bad input or when no value meets the target, 1 when a run failed.
#pragma once

#include "app/cli/progress.hpp"

#include <string>
#include <vector>

namespace aisim::app {

struct SizeCommand {
  std::string scenario;
  std::string out_dir; // empty: results/<scenario stem>-size/
  std::vector<std::string> sets;
  std::vector<std::string> vary;
  std::string target;
  std::string minimize; // "cost" (the default goal)
  std::string maximize; // a varied pointer: the largest value meeting the target
  long long seed = -1;
  int jobs = 0;
  std::string self;
};

int size_command(const SizeCommand& cmd);

} // namespace aisim::app
