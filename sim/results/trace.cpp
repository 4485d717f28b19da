#include "sim/results/trace.hpp"

#include "sim/results/version_info.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>

namespace aisim::sim {

using models::Json;

namespace {

struct Span {
  double start_s = 0, end_s = 0;
  std::string name;
  Json args = Json::object();
  bool instant = false;
};

struct Track {
  int pid = 0;
  std::string name;
  std::vector<Span> spans;
};

std::string phase_name(const JobSegment& seg, bool serving) {
  const double parts[] = {seg.compute, seg.data_stall, seg.checkpoint_stall, seg.failure};
  const char* names[] = {serving ? "serving" : "training", "data stall", "checkpoint stall", "failure recovery"};
  return names[std::max_element(std::begin(parts), std::end(parts)) - std::begin(parts)];
}

// One span per stretch of `width` seconds in which spans start: from the first start to the next stretch's first
// start (or the last end), so merged spans never overlap; their count and time by name go into args.
std::vector<Span> merge_into(const std::vector<Span>& spans, size_t budget, double horizon_s) {
  const double width = horizon_s / static_cast<double>(budget);
  std::map<long long, std::vector<const Span*>> buckets;
  for (const auto& s : spans)
    buckets[static_cast<long long>(std::floor(s.start_s / width))].push_back(&s);
  std::vector<Span> out;
  for (auto it = buckets.begin(); it != buckets.end(); ++it) {
    Span m;
    std::map<std::string, double> seconds;
    std::map<std::string, int> count;
    m.start_s = it->second.front()->start_s;
    double last_end = 0;
    for (const auto* s : it->second) {
      m.start_s = std::min(m.start_s, s->start_s);
      last_end = std::max(last_end, s->end_s);
      seconds[s->name] += s->end_s - s->start_s;
      ++count[s->name];
    }
    const auto next = std::next(it);
    double next_start = last_end;
    if (next != buckets.end()) {
      next_start = next->second.front()->start_s;
      for (const auto* s : next->second)
        next_start = std::min(next_start, s->start_s);
    }
    m.end_s = std::max(m.start_s, std::min(last_end, next_start));
    m.instant = it->second.front()->instant;
    const auto top = std::max_element(count.begin(), count.end(), [&](const auto& a, const auto& b) {
      return seconds[a.first] + a.second * 1e-12 < seconds[b.first] + b.second * 1e-12;
    });
    m.name = top->first + " (" + std::to_string(it->second.size()) + " merged)";
    Json by_name = Json::object();
    for (const auto& [name, n] : count)
      by_name[name] = {{"count", n}, {"seconds", seconds[name]}};
    m.args = {{"merged", it->second.size()}, {"by_name", by_name}};
    out.push_back(std::move(m));
  }
  return out;
}

// Lanes of one track: each span goes to the first lane free at its start, so spans of a lane never overlap.
std::vector<std::vector<const Span*>> lanes_of(std::vector<Span>& spans) {
  std::stable_sort(spans.begin(), spans.end(), [](const Span& a, const Span& b) { return a.start_s < b.start_s; });
  std::vector<std::vector<const Span*>> lanes;
  std::vector<double> free_at;
  for (const auto& s : spans) {
    size_t lane = 0;
    while (lane < lanes.size() && free_at[lane] > s.start_s)
      ++lane;
    if (lane == lanes.size()) {
      lanes.emplace_back();
      free_at.push_back(0);
    }
    lanes[lane].push_back(&s);
    free_at[lane] = s.instant ? s.start_s : s.end_s;
  }
  return lanes;
}

// Microseconds to the nanosecond: a span's end printed as ts + dur lands on the next span's ts, never past it.
double us(double seconds) { return std::round(seconds * 1e9) / 1e3; }

std::string text(double v) {
  char b[48];
  std::snprintf(b, sizeof b, "%.3f", v);
  return b;
}

std::string metadata_event(const char* what, int pid, int tid, const Json& args) {
  return R"({"ph":"M","name":")" + std::string(what) + R"(","pid":)" + std::to_string(pid) + R"(,"tid":)" +
         std::to_string(tid) + R"(,"args":)" + args.dump() + "}";
}

// Process "jobs": per job, a track of its phases (each state's share in its args) and one of its own I/O.
void add_job_tracks(std::vector<Track>& tracks, const models::Scenario& sc, const RunOutput& run) {
  for (size_t j = 0; j < sc.jobs.size(); ++j) {
    const auto& job = sc.jobs[j];
    const auto& jm = run.metrics.jobs[j];
    Track phases{1, job.name, {}}, io{1, job.name + " I/O", {}};
    for (const auto& seg : jm.segments)
      phases.spans.push_back({seg.start_s,
                              seg.end_s,
                              phase_name(seg, job.kind == "inference"),
                              {{"compute", seg.compute},
                               {"data_stall", seg.data_stall},
                               {"checkpoint_stall", seg.checkpoint_stall},
                               {"failure", seg.failure}}});
    for (size_t s = 0; s < sc.storage.size(); ++s)
      for (const auto& t : run.metrics.storage[s].transfers) {
        if (t.job != static_cast<int>(j))
          continue;
        const char* what = t.traffic == Traffic::checkpoint   ? "checkpoint write to "
                           : t.traffic == Traffic::restore    ? "restore from "
                           : t.traffic == Traffic::model_load ? "model load from "
                                                              : nullptr;
        if (what)
          io.spans.push_back(
              {t.start_s,
               t.end_s,
               what + sc.storage[s].name,
               {{"bytes", t.bytes}, {"Bps", t.end_s > t.start_s ? t.bytes / (t.end_s - t.start_s) : 0}}});
      }
    tracks.push_back(std::move(phases));
    tracks.push_back(std::move(io));
  }
}

// Process "storage": per system, its failures, rebuilds, data lost and full writes, and the copies arriving.
void add_storage_tracks(std::vector<Track>& tracks, const models::Scenario& sc, const RunOutput& run, double T) {
  const auto until = [T](double end_s) { return std::isfinite(end_s) ? std::min(end_s, T) : T; };
  for (size_t s = 0; s < sc.storage.size(); ++s) {
    const auto& sm = run.metrics.storage[s];
    const auto& name = sc.storage[s].name;
    Track events{2, name + " failures and rebuilds", {}}, copies{2, name + " copies in", {}};
    for (const auto& f : sm.failures)
      events.spans.push_back({f.time_s,
                              until(f.back_s),
                              f.component + " " + std::to_string(f.index) + " out",
                              {{"back_in_service_s", std::isfinite(f.back_s) ? Json(f.back_s) : Json()}}});
    for (const auto& rb : sm.rebuilds)
      events.spans.push_back(
          {rb.start_s,
           until(rb.end_s),
           "rebuild " + rb.component + " " + std::to_string(rb.index),
           {{"drives", rb.drives}, {"written_bytes", rb.written_bytes}, {"finished", std::isfinite(rb.end_s)}}});
    for (const auto& l : run.metrics.data_losses)
      if (l.storage == static_cast<int>(s))
        events.spans.push_back({l.time_s, l.time_s, "data lost (" + l.cause + ")", {{"fraction", l.fraction}}, true});
    for (const auto& c : run.metrics.capacity_events)
      if (c.storage == static_cast<int>(s))
        events.spans.push_back({c.time_s,
                                c.time_s,
                                "full: " + c.action,
                                {{"job", c.job >= 0 ? Json(sc.jobs[c.job].name) : Json()}, {"bytes", c.bytes}},
                                true});
    // Every copy arriving, by replication or by a policy's movement, recorded at its write end.
    for (const auto& t : sm.transfers)
      if (t.copy && t.direction == IoDirection::write && t.from >= 0)
        copies.spans.push_back(
            {t.start_s,
             t.end_s,
             "copy from " + sc.storage[t.from].name,
             {{"bytes", t.bytes}, {"Bps", t.end_s > t.start_s ? t.bytes / (t.end_s - t.start_s) : 0}}});
    tracks.push_back(std::move(events));
    tracks.push_back(std::move(copies));
  }
}

// Process "cluster": fault domains failing and threats striking.
void add_cluster_tracks(std::vector<Track>& tracks, const models::Scenario& sc, const RunOutput& run) {
  Track domains{3, "fault domains", {}}, threats{3, "threats", {}};
  for (const auto& d : run.metrics.domain_failures)
    domains.spans.push_back({d.time_s, d.time_s, sc.fault_domains[d.domain].name + " fails", {}, true});
  for (const auto& e : run.metrics.threat_events)
    threats.spans.push_back({e.time_s,
                             e.time_s,
                             sc.threats[e.threat].kind,
                             {{"hit_bytes", e.hit_bytes}, {"lost_bytes", e.lost_bytes}},
                             true});
  tracks.push_back(std::move(domains));
  tracks.push_back(std::move(threats));
}

// Past `max_events`, each track keeps its share of them by merging its spans per stretch of time; the events
// there were before.
size_t merge_tracks(std::vector<Track>& tracks, size_t max_events, double T) {
  size_t total = 0;
  for (const auto& t : tracks)
    total += t.spans.size();
  if (total > max_events)
    for (auto& t : tracks) {
      const auto budget =
          std::max<size_t>(1, static_cast<size_t>(static_cast<double>(max_events) *
                                                  static_cast<double>(t.spans.size()) / static_cast<double>(total)));
      if (t.spans.size() > budget)
        t.spans = merge_into(t.spans, budget, T);
    }
  return total;
}

// The trace-event lines: each process's and each lane's name and order, then every span; `written` counts spans.
std::vector<std::string> trace_events(std::vector<Track>& tracks, bool merged, size_t max_events, size_t& written) {
  std::vector<std::string> out;
  const char* processes[] = {"", "jobs", "storage", "cluster"};
  for (int pid = 1; pid <= 3; ++pid) {
    out.push_back(metadata_event("process_name", pid, 0, {{"name", processes[pid]}}));
    out.push_back(metadata_event("process_sort_index", pid, 0, {{"sort_index", pid}}));
  }
  if (merged)
    out.push_back(R"({"ph":"i","s":"g","name":"trace merged past )" + std::to_string(max_events) +
                  R"( events: see otherData","ts":0,"pid":3,"tid":0})");
  std::map<int, int> next_tid;
  for (auto& t : tracks) {
    auto lanes = lanes_of(t.spans);
    for (size_t l = 0; l < lanes.size(); ++l) {
      const int tid = ++next_tid[t.pid];
      const std::string lane = lanes.size() > 1 ? t.name + " (" + std::to_string(l + 1) + ")" : t.name;
      out.push_back(metadata_event("thread_name", t.pid, tid, {{"name", lane}}));
      out.push_back(metadata_event("thread_sort_index", t.pid, tid, {{"sort_index", tid}}));
      for (const auto* s : lanes[l]) {
        std::string e = R"({"name":)" + Json(s->name).dump() + R"(,"ph":")" + (s->instant ? "i" : "X") + R"(","ts":)" +
                        text(us(s->start_s));
        if (s->instant)
          e += R"(,"s":"t")";
        else
          e += R"(,"dur":)" + text(std::max(0.0, us(s->end_s) - us(s->start_s)));
        e += R"(,"pid":)" + std::to_string(t.pid) + R"(,"tid":)" + std::to_string(tid) + R"(,"args":)" +
             s->args.dump() + "}";
        out.push_back(std::move(e));
        ++written;
      }
    }
  }

  return out;
}

} // namespace

std::string build_trace(const models::Scenario& sc, const RunOutput& run, size_t max_events) {
  const double T = std::max(run.simulated_s, run.traffic_s);
  std::vector<Track> tracks;
  add_job_tracks(tracks, sc, run);
  add_storage_tracks(tracks, sc, run, T);
  add_cluster_tracks(tracks, sc, run);
  const size_t total = merge_tracks(tracks, max_events, T);
  const bool merged = total > max_events;
  size_t written = 0;
  const std::vector<std::string> out = trace_events(tracks, merged, max_events, written);
  const Json other = {{"aisim_version", kAisimVersion},
                      {"scenario", sc.name},
                      {"simulated_s", run.simulated_s},
                      {"events", written},
                      {"events_before_merging", total},
                      {"max_events", max_events},
                      {"merged", merged},
                      {"note", merged ? "more events than max_events: each track's spans merged per stretch of time "
                                        "(args.merged, args.by_name)"
                                      : "every event as simulated"}};
  std::string doc = "{\"displayTimeUnit\":\"ms\",\"otherData\":" + other.dump() + ",\"traceEvents\":[\n";
  for (size_t i = 0; i < out.size(); ++i)
    doc += out[i] + (i + 1 < out.size() ? ",\n" : "\n");
  doc += "]}\n";
  return doc;
}

} // namespace aisim::sim
