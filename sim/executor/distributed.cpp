#include "sim/executor/distributed.hpp"

#include <mpi.h>

#include <chrono>
#include <climits>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <unistd.h>

namespace aisim::sim {
namespace {

namespace fs = std::filesystem;

constexpr int kResultTag = 1;    // one run ended: its index, how, and its files when it ran on another machine
constexpr int kRoundDoneTag = 2; // a rank ran all of its share of the round (or was interrupted)

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

void send(const std::string& bytes, int tag) {
  if (bytes.size() > static_cast<size_t>(INT_MAX))
    throw std::runtime_error("a run's output is over 2 GB: too large to send between MPI ranks");
  MPI_Send(bytes.data(), static_cast<int>(bytes.size()), MPI_CHAR, 0, tag, MPI_COMM_WORLD);
}

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

// Written through a temporary name and a rename, so a reader never sees half a file.
void write_whole(const fs::path& path, const std::string& content) {
  fs::create_directories(path.parent_path());
  const fs::path tmp = path.parent_path() / ("." + path.filename().string() + ".rank0.tmp");
  {
    std::ofstream f(tmp, std::ios::binary | std::ios::trunc);
    f.write(content.data(), static_cast<std::streamsize>(content.size()));
    if (!f)
      throw std::runtime_error("cannot write " + tmp.string());
  }
  fs::rename(tmp, path);
}

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
  const uint64_t files = u.u64();
  const fs::path dir = run_folder(specs[index]);
  for (uint64_t f = 0; f < files; ++f) {
    const std::string name = u.str();
    const std::string content = u.str();
    if (name.find('/') != std::string::npos || name.empty() || name[0] == '.')
      throw std::runtime_error("an MPI rank sent a file named \"" + name + "\"");
    write_whole(dir / name, content);
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
  if (!already)
    MPI_Init(nullptr, nullptr);
  g_world.launched = true;
  MPI_Comm_rank(MPI_COMM_WORLD, &g_world.rank);
  MPI_Comm_size(MPI_COMM_WORLD, &g_world.size);
  g_host = host_name();
  return g_world;
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
    // here.
    const char* force = std::getenv("AISIM_MPI_SEND_FILES");
    const bool ship = my_host != root_host || (force && std::string(force) == "1");
    std::error_code tmp_ec;
    fs::path tmp = fs::temp_directory_path(tmp_ec);
    if (tmp_ec)
      tmp = "/tmp";
    const fs::path scratch = tmp / ("aisim-rank-" + std::to_string(w.rank) + "-" + std::to_string(::getpid()));
    std::vector<ChildSpec> mine;
    std::vector<size_t> index;
    for (size_t i = static_cast<size_t>(w.rank); i < n; i += static_cast<size_t>(w.size)) {
      ChildSpec s = all[i];
      if (ship) {
        const std::string folder = run_folder(s);
        const std::string local = (scratch / std::to_string(i)).string();
        for (auto& a : s.argv)
          if (a == folder)
            a = local;
        s.log_path = (fs::path(local) / fs::path(s.log_path).filename()).string();
        s.out_dir = local;
      }
      std::error_code ec;
      fs::create_directories(run_folder(s), ec);
      mine.push_back(std::move(s));
      index.push_back(i);
    }
    const auto out = run_pool(mine, jobs, [&](size_t k, const ChildResult& r) {
      send(pack_result(index[k], r, mine[k], ship && r.started), kResultTag);
      if (ship) {
        std::error_code ec;
        fs::remove_all(run_folder(mine[k]), ec);
      }
    });
    if (ship) {
      std::error_code ec;
      fs::remove_all(scratch, ec);
    }
    // Runs the pool never started are reported too, so rank 0 accounts for every run of the round.
    for (size_t k = 0; k < mine.size(); ++k)
      if (!out.children[k].started && out.interrupted)
        send(pack_result(index[k], out.children[k], mine[k], false), kResultTag);
    Packer done;
    done.u64(out.interrupted);
    send(done.bytes(), kRoundDoneTag);
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
  // Takes what the other ranks have sent; waits for one message when `block`.
  const auto drain = [&](bool block) {
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
  std::vector<ChildSpec> mine;
  std::vector<size_t> index;
  for (size_t i = 0; i < specs.size(); i += static_cast<size_t>(w.size)) {
    mine.push_back(specs[i]);
    index.push_back(i);
  }
  const auto local = run_pool(
      mine, jobs,
      [&](size_t k, const ChildResult& r) {
        if (on_done)
          on_done(index[k], r);
      },
      [&] { drain(false); });
  for (size_t k = 0; k < mine.size(); ++k)
    out.children[index[k]] = local.children[k];
  while (ranks_done < w.size - 1)
    drain(true);
  out.interrupted = local.interrupted || remote_interrupted;
  return out;
}

} // namespace aisim::sim
