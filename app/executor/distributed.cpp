#include "app/executor/distributed.hpp"

#include <mpi.h>

#include <algorithm>
#include <chrono>
#include <climits>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <filesystem>
#include <fstream>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <thread>
#include <unistd.h>

namespace aisim::app {
namespace {

namespace fs = std::filesystem;

constexpr int kResultTag = 1;    // one run ended: its index, how, and its files when it ran on another machine
constexpr int kRoundDoneTag = 2; // a rank has no more runs of the round (or was interrupted)
constexpr int kAskTag = 3;       // a rank asks rank 0 for this many more runs
constexpr int kDealTag = 4;      // rank 0's answer: that many run indices or fewer; none means the round is dealt

// Length-prefixed fields: arguments and files are bytes (a --set value need not be UTF-8), so no JSON here.
class Packer {
public:
  void u64(uint64_t v) { buf_.append(reinterpret_cast<const char*>(&v), sizeof v); }
  void str(const std::string& s) {
    u64(s.size());
    buf_ += s;
  }
  std::string& bytes() { return buf_; }

private:
  std::string buf_;
};

class Unpacker {
public:
  explicit Unpacker(const std::string& b) : b_(b) {}
  uint64_t u64() {
    uint64_t v = 0;
    need(sizeof v);
    std::memcpy(&v, b_.data() + at_, sizeof v);
    at_ += sizeof v;
    return v;
  }
  std::string str() {
    const uint64_t n = u64();
    need(n);
    std::string s = b_.substr(at_, n);
    at_ += n;
    return s;
  }

private:
  void need(uint64_t n) const {
    if (at_ + n > b_.size())
      throw std::runtime_error("a message between MPI ranks is cut short");
  }
  const std::string& b_;
  size_t at_ = 0;
};

MpiWorld g_world;
bool g_initialized = false;
std::string g_host;

std::string host_name() {
  char name[MPI_MAX_PROCESSOR_NAME];
  int len = 0;
  MPI_Get_processor_name(name, &len);
  return std::string(name, static_cast<size_t>(len));
}

// Waits for a request without spinning: Open MPI's blocking calls poll at full speed, and a rank waiting for the
// next round (or rank 0 for the others' last runs) would take a core from the runs still going (2 ranks on 2
// cores gave 1.35x instead of about 1.8x).
void wait_quietly(MPI_Request& request) {
  for (int done = 0;;) {
    MPI_Test(&request, &done, MPI_STATUS_IGNORE);
    if (done)
      return;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
}

// Rank 0's bytes to every rank, in pieces an int counts.
std::string broadcast(std::string bytes) {
  uint64_t size = bytes.size();
  MPI_Request request;
  MPI_Ibcast(&size, 1, MPI_UINT64_T, 0, MPI_COMM_WORLD, &request);
  wait_quietly(request);
  bytes.resize(size);
  for (uint64_t at = 0; at < size;) {
    const int n = static_cast<int>(std::min<uint64_t>(size - at, INT_MAX));
    MPI_Ibcast(bytes.data() + at, n, MPI_CHAR, 0, MPI_COMM_WORLD, &request);
    wait_quietly(request);
    at += static_cast<uint64_t>(n);
  }
  return bytes;
}

// Messages on their way. A blocking MPI_Send spins in Open MPI's progress loop until the receiver takes the
// message, and rank 0 looks only between its own runs: ranks spent a sixth of a core sending results. Sends are
// posted instead and their buffers kept until they complete; `flush` waits for all without spinning.
class Outbox {
public:
  void post(std::string bytes, int dest, int tag) {
    if (bytes.size() > static_cast<size_t>(INT_MAX))
      throw std::runtime_error("a run's output is over 2 GB: too large to send between MPI ranks");
    auto& m = pending_.emplace_back(std::make_unique<std::string>(std::move(bytes)), MPI_REQUEST_NULL);
    MPI_Isend(m.first->data(), static_cast<int>(m.first->size()), MPI_CHAR, dest, tag, MPI_COMM_WORLD, &m.second);
    progress();
  }
  // Lets go of the sends that completed.
  void progress() {
    std::erase_if(pending_, [](auto& m) {
      int done = 0;
      MPI_Test(&m.second, &done, MPI_STATUS_IGNORE);
      return done != 0;
    });
  }
  void flush() {
    for (auto& m : pending_)
      wait_quietly(m.second);
    pending_.clear();
  }

private:
  std::vector<std::pair<std::unique_ptr<std::string>, MPI_Request>> pending_;
};

std::string receive(const MPI_Status& probed) {
  int count = 0;
  MPI_Get_count(&probed, MPI_CHAR, &count);
  std::string bytes(static_cast<size_t>(count), '\0');
  MPI_Recv(bytes.data(), count, MPI_CHAR, probed.MPI_SOURCE, probed.MPI_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  return bytes;
}

std::string run_folder(const ChildSpec& s) {
  return !s.out_dir.empty() ? s.out_dir : fs::path(s.log_path).parent_path().string();
}

FolderWriter g_folder_writer;

std::string pack_result(size_t index, const ChildResult& r, const ChildSpec& spec, bool ship_files) {
  Packer p;
  p.u64(index);
  p.u64(r.started);
  p.u64(r.finished);
  p.u64(static_cast<uint64_t>(static_cast<int64_t>(r.exit_code)));
  p.u64(static_cast<uint64_t>(r.signal));
  uint64_t wall = 0;
  std::memcpy(&wall, &r.wall_s, sizeof wall);
  p.u64(wall);
  p.str(r.digest);
  std::vector<std::pair<std::string, std::string>> files;
  if (ship_files) {
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(run_folder(spec), ec)) {
      if (!e.is_regular_file() || e.path().filename().string().starts_with("."))
        continue;
      std::ifstream f(e.path(), std::ios::binary);
      files.emplace_back(e.path().filename().string(),
                         std::string(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>()));
    }
  }
  p.u64(files.size());
  for (const auto& [name, content] : files) {
    p.str(name);
    p.str(content);
  }
  return std::move(p.bytes());
}

// Rank 0: one run's report; its files written where the run would have written them. Returns its index.
size_t take_result(const std::string& bytes, const std::vector<ChildSpec>& specs, ChildResult& r) {
  Unpacker u(bytes);
  const auto index = static_cast<size_t>(u.u64());
  if (index >= specs.size())
    throw std::runtime_error("an MPI rank reported a run that was not handed out");
  r.started = u.u64() != 0;
  r.finished = u.u64() != 0;
  r.exit_code = static_cast<int>(static_cast<int64_t>(u.u64()));
  r.signal = static_cast<int>(u.u64());
  const uint64_t wall = u.u64();
  std::memcpy(&r.wall_s, &wall, sizeof wall);
  r.digest = u.str();
  const uint64_t count = u.u64();
  std::vector<std::pair<std::string, std::string>> files;
  for (uint64_t f = 0; f < count; ++f) {
    std::string name = u.str();
    std::string content = u.str();
    if (name.find('/') != std::string::npos || name.empty() || name[0] == '.')
      throw std::runtime_error("an MPI rank sent a file named \"" + name + "\"");
    files.emplace_back(std::move(name), std::move(content));
  }
  if (!files.empty()) {
    if (!g_folder_writer)
      throw std::runtime_error("an MPI rank sent a run's files, and nothing here can write them");
    g_folder_writer(run_folder(specs[index]), files);
  }
  return index;
}

std::string pack_round(const std::vector<ChildSpec>& specs, int jobs, bool finish) {
  Packer p;
  p.u64(finish);
  p.str(g_host);
  p.u64(static_cast<uint64_t>(jobs));
  p.u64(specs.size());
  for (const auto& s : specs) {
    p.u64(s.argv.size());
    for (const auto& a : s.argv)
      p.str(a);
    p.str(s.log_path);
    p.str(s.out_dir);
    p.str(s.digest);
  }
  return std::move(p.bytes());
}

} // namespace

const MpiWorld& mpi_world() {
  if (g_initialized)
    return g_world;
  g_initialized = true;
  // Open MPI's launcher sets OMPI_COMM_WORLD_SIZE; PMIx and PMI launchers (srun, MPICH's) set theirs.
  const bool launched = std::getenv("OMPI_COMM_WORLD_SIZE") || std::getenv("PMIX_RANK") || std::getenv("PMI_RANK");
  if (!launched)
    return g_world;
  int already = 0;
  MPI_Initialized(&already);
  if (!already) {
    // Open MPI picks UCX where it is installed, whose start-up probes every transport for RDMA: 0.25 s of a job's
    // 0.5 s start and end here (mpirun -n 1 aisim --version: 0.50 s with UCX, 0.25 s with ob1), paid on every sweep.
    // aisim's messages are run indices and a run's files, which ob1's shared-memory and TCP transports carry as well.
    // A choice of the user's own (--mca pml ucx, or OMPI_MCA_pml exported) wins.
    setenv("OMPI_MCA_pml", "ob1", 0);
    MPI_Init(nullptr, nullptr);
  }
  g_world.launched = true;
  MPI_Comm_rank(MPI_COMM_WORLD, &g_world.rank);
  MPI_Comm_size(MPI_COMM_WORLD, &g_world.size);
  g_host = host_name();
  return g_world;
}

void set_folder_writer(FolderWriter writer) { g_folder_writer = std::move(writer); }

std::string describe_runners(int jobs) {
  const std::string workers = std::to_string(jobs) + (jobs == 1 ? " worker" : " workers");
  const auto& w = mpi_world();
  if (!w.spread())
    return workers;
  return std::to_string(w.size) + " MPI ranks of " + workers + " each";
}

int default_runs_at_once() { return mpi_world().launched ? 1 : default_jobs(); }

void serve_rounds();

int serve_runs() {
  try {
    serve_rounds();
  } catch (const std::exception& e) {
    // Rank 0 would wait for this rank's reports for ever: end the whole job instead.
    std::fprintf(stderr, "aisim: MPI rank %d: %s\n", mpi_world().rank, e.what());
    MPI_Abort(MPI_COMM_WORLD, 1);
    return 1;
  }
  MPI_Finalize();
  return 0;
}

// A rank above 0 in a round: asks rank 0 for runs as its slots free up. An answer takes a few milliseconds (rank 0
// looks between polls of its own workers, and both may wait for a core), as long as a whole one-day run: so a rank
// keeps spare runs in hand, as many per slot as cover 20 ms of its runs (one spare per slot for runs up to a second,
// none for longer runs, which would otherwise be held back at the end by a rank still busy while another is idle).
class Asker {
public:
  Asker(int jobs, Outbox& outbox) : jobs_(static_cast<size_t>(jobs)), outbox_(outbox) {}

  // Takes rank 0's answer if it came (or waits for it when `block`), then asks for more if this rank is short.
  void exchange(bool block) {
    if (asking_) {
      MPI_Status st;
      int ready = 0;
      for (;;) {
        MPI_Iprobe(0, kDealTag, MPI_COMM_WORLD, &ready, &st);
        if (ready || !block)
          break;
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
      }
      if (!ready)
        return;
      const std::string bytes = receive(st);
      Unpacker u(bytes);
      const uint64_t count = u.u64();
      for (uint64_t k = 0; k < count; ++k)
        queue_.push_back(static_cast<size_t>(u.u64()));
      no_more_ = count == 0;
      asking_ = false;
    }
    if (block || no_more_)
      return;
    const size_t spare = jobs_ * spare_per_slot();
    const size_t have = running_ + queue_.size();
    if (have < jobs_ + spare) {
      Packer ask;
      ask.u64(jobs_ + spare - have);
      outbox_.post(std::move(ask.bytes()), 0, kAskTag);
      asking_ = true;
    }
  }

  // The pool's next run.
  Deal next() {
    exchange(false);
    if (!queue_.empty()) {
      const size_t i = queue_.front();
      queue_.pop_front();
      ++running_;
      return {Deal::start, i};
    }
    return no_more_ ? Deal{Deal::none, 0} : Deal{Deal::later, 0};
  }

  void ended(const ChildResult& r) {
    --running_;
    if (r.started) {
      ++done_;
      wall_s_ += r.wall_s;
    }
  }

  // After the pool: an answer still on its way is taken, so that it is not read as the next round's.
  void settle() {
    if (asking_)
      exchange(true);
  }

private:
  size_t spare_per_slot() const {
    if (done_ == 0) // nothing known yet: none, in case the runs are long
      return 0;
    const double mean_s = wall_s_ / static_cast<double>(done_);
    if (mean_s >= kLongRun_s)
      return 0;
    return std::clamp<size_t>(static_cast<size_t>(std::ceil(kCover_s / mean_s)), 1, kMostSpare);
  }
  static constexpr double kCover_s = 0.02;
  static constexpr double kLongRun_s = 1.0;
  static constexpr size_t kMostSpare = 16;
  size_t jobs_;
  Outbox& outbox_;
  std::deque<size_t> queue_;
  size_t running_ = 0;
  size_t done_ = 0;
  double wall_s_ = 0;
  bool asking_ = false;
  bool no_more_ = false;
};

void serve_rounds() {
  const auto& w = mpi_world();
  const std::string my_host = g_host;
  for (;;) {
    const std::string work = broadcast({});
    Unpacker u(work);
    const bool finish = u.u64() != 0;
    if (finish)
      break;
    const std::string root_host = u.str();
    const int jobs = static_cast<int>(u.u64());
    const auto n = static_cast<size_t>(u.u64());
    std::vector<ChildSpec> all(n);
    for (auto& s : all) {
      s.argv.resize(static_cast<size_t>(u.u64()));
      for (auto& a : s.argv)
        a = u.str();
      s.log_path = u.str();
      s.out_dir = u.str();
      s.digest = u.str();
    }
    // On another machine (or when asked, as where ranks do not share a file system), a run writes into a scratch
    // folder of this rank's, whose files go to rank 0 and which is then removed; rank 0's folders need not exist
    // here. Every run is pointed there now: the pool's workers are forked with the specs as they are.
    const char* force = std::getenv("AISIM_MPI_SEND_FILES");
    const bool ship = my_host != root_host || (force && std::string(force) == "1");
    std::error_code tmp_ec;
    fs::path tmp = fs::temp_directory_path(tmp_ec);
    if (tmp_ec)
      tmp = "/tmp";
    const fs::path scratch = tmp / ("aisim-rank-" + std::to_string(w.rank) + "-" + std::to_string(::getpid()));
    if (ship)
      for (size_t i = 0; i < n; ++i) {
        ChildSpec& s = all[i];
        const std::string folder = run_folder(s);
        const std::string local = (scratch / std::to_string(i)).string();
        for (auto& a : s.argv)
          if (a == folder)
            a = local;
        s.log_path = (fs::path(local) / fs::path(s.log_path).filename()).string();
        s.out_dir = local;
      }
    Outbox outbox;
    Asker asker(std::max(1, jobs), outbox);
    const auto out = run_pool(
        all, jobs,
        [&](size_t i, const ChildResult& r) {
          asker.ended(r);
          outbox.post(pack_result(i, r, all[i], ship && r.started), 0, kResultTag);
          if (ship) {
            std::error_code ec;
            fs::remove_all(run_folder(all[i]), ec);
          }
        },
        [&] {
          outbox.progress();
          asker.exchange(false);
        },
        [&] {
          Deal d = asker.next();
          if (d.kind == Deal::start && d.index < n) {
            std::error_code ec;
            fs::create_directories(run_folder(all[d.index]), ec);
          }
          return d;
        });
    asker.settle();
    if (ship) {
      std::error_code ec;
      fs::remove_all(scratch, ec);
    }
    // Runs dealt here but never started (an interrupt) stay "not started" on rank 0, as every run it did not hear of.
    Packer done;
    done.u64(out.interrupted);
    outbox.post(std::move(done.bytes()), 0, kRoundDoneTag);
    outbox.flush();
  }
}

void finish_runs() {
  const auto& w = mpi_world();
  if (!w.launched)
    return;
  if (w.rank == 0)
    broadcast(pack_round({}, 0, true));
  MPI_Finalize();
}

PoolOutcome run_many(const std::vector<ChildSpec>& specs, int jobs,
                     const std::function<void(size_t, const ChildResult&)>& on_done) {
  const auto& w = mpi_world();
  if (!w.spread())
    return run_pool(specs, jobs, on_done);
  broadcast(pack_round(specs, jobs, false));
  PoolOutcome out;
  out.children.resize(specs.size());
  int ranks_done = 0;
  bool remote_interrupted = false;
  // Runs go to whoever is free first, rank 0's own pool or a rank asking, in index order: runs that differ in cost
  // (every other point of a sweep's first axis) would otherwise leave one rank idle while another works through its
  // fixed share (2 ranks: 1.35x instead of the 1.8x two local workers get).
  size_t next = 0;
  bool dealing = true;
  const auto deal_one = [&]() -> std::optional<size_t> {
    if (!dealing || next >= specs.size())
      return std::nullopt;
    return next++;
  };
  Outbox outbox;
  // Takes what the other ranks have sent and answers their asks; waits for one message when `block`.
  const auto drain = [&](bool block) {
    outbox.progress();
    for (;;) {
      MPI_Status st;
      int ready = 0;
      MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &ready, &st);
      if (!ready && block) { // as wait_quietly: no spinning while the other ranks' runs go on
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
        continue;
      }
      if (!ready)
        return;
      const std::string bytes = receive(st);
      if (st.MPI_TAG == kRoundDoneTag) {
        ++ranks_done;
        remote_interrupted = remote_interrupted || Unpacker(bytes).u64() != 0;
      } else if (st.MPI_TAG == kAskTag) {
        const uint64_t wanted = Unpacker(bytes).u64();
        std::vector<size_t> given;
        for (uint64_t k = 0; k < wanted; ++k)
          if (const auto i = deal_one())
            given.push_back(*i);
        Packer answer;
        answer.u64(given.size());
        for (const size_t i : given)
          answer.u64(i);
        outbox.post(std::move(answer.bytes()), st.MPI_SOURCE, kDealTag);
      } else {
        ChildResult r;
        const size_t i = take_result(bytes, specs, r);
        out.children[i] = r;
        if (on_done && r.started)
          on_done(i, r);
      }
      if (block)
        return;
    }
  };
  const auto local = run_pool(
      specs, jobs,
      [&](size_t i, const ChildResult& r) {
        out.children[i] = r;
        if (on_done)
          on_done(i, r);
      },
      [&] { drain(false); },
      [&] {
        const auto i = deal_one();
        return i ? Deal{Deal::start, *i} : Deal{Deal::none, 0};
      });
  dealing = !local.interrupted; // an interrupted rank 0 deals no more; the others finish what they hold
  while (ranks_done < w.size - 1)
    drain(true);
  outbox.flush();
  out.interrupted = local.interrupted || remote_interrupted;
  return out;
}

} // namespace aisim::app
