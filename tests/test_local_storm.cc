// A claim storm on a local registry: every slot of a 10-bit layout
// claimed at once by threads of several processes, and one after another by one process.
// Prints the claim latency; asserts only counts (distinct slots, no duplicate id, the
// refusal of one claimant too many).
#include <catch2/catch.hpp>

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <memory>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "lease/node_source.hpp"  // internal: claims without generators (no mark writes)
#include "snowfleet/snowfleet.hpp"
#include "test_util.hpp"

using namespace snowfleet;
using snowfleet_test::error_of;
using snowfleet_test::Opts;
using snowfleet_test::temp_dir;

namespace {
constexpr int64_t kNow = 1704067200000 + 1'000'000;  // a scripted "now"
constexpr int kProcesses = 8;
constexpr int kPerProcess = 128;  // 8 x 128 = 1,024: every slot of the default layout
constexpr int kIdsEach = 16;

// One claimant process: kPerProcess threads wait for `go` to close, each claims a generator
// and mints; the results go to `out` ("node latency_ns id..." or "refused CODE: message"
// per line). Then it tells `ready` and holds its slots until `hold` closes.
[[noreturn]] void claimant(const std::string& src, const std::string& out, int go, int ready,
                           int hold) {
  alarm(120);  // a hung claim fails the test instead of blocking it
  std::vector<std::unique_ptr<Generator>> gens(kPerProcess);
  std::vector<std::string> lines(kPerProcess);
  std::vector<std::thread> threads;
  for (int i = 0; i < kPerProcess; ++i) {
    threads.emplace_back([&, i] {
      char c;
      while (read(go, &c, 1) > 0) {
      }
      Opts a(src, kNow);
      const auto t0 = std::chrono::steady_clock::now();
      try {
        gens[static_cast<size_t>(i)] = std::make_unique<Generator>(a.o);
        const auto ns = std::chrono::duration_cast<std::chrono::nanoseconds>(
                            std::chrono::steady_clock::now() - t0)
                            .count();
        std::string line =
            std::to_string(gens[static_cast<size_t>(i)]->node_id()) + " " + std::to_string(ns);
        for (int k = 0; k < kIdsEach; ++k)
          line += " " + std::to_string(gens[static_cast<size_t>(i)]->next_id());
        lines[static_cast<size_t>(i)] = line;
      } catch (const Error& e) {
        lines[static_cast<size_t>(i)] = std::string("refused ") + e.code() + ": " + e.what();
      }
    });
  }
  for (auto& t : threads) t.join();
  {
    std::ofstream f(out);
    for (const auto& l : lines) f << l << "\n";
  }
  if (write(ready, "r", 1) != 1) _exit(2);
  char c;
  while (read(hold, &c, 1) > 0) {
  }
  _exit(0);  // the kernel drops every lock
}

int64_t percentile(std::vector<int64_t> v, double p) {
  std::sort(v.begin(), v.end());
  const size_t i = std::min(v.size() - 1, static_cast<size_t>(p * static_cast<double>(v.size())));
  return v[i];
}
}  // namespace

TEST_CASE("local: a storm of 1,024 claimants in 8 processes gets 1,024 distinct slots",
          "[fleet][local][storm]") {
#if defined(__SANITIZE_THREAD__) || defined(__SANITIZE_ADDRESS__)
  WARN("skipped under a sanitizer: 2,048 threads in forked children (the release build runs it)");
  return;
#endif
  const std::string dir = temp_dir(), results = temp_dir();
  const std::string src = "local:" + dir;
  int go[2], ready[2], hold[2];
  REQUIRE(pipe(go) == 0);
  REQUIRE(pipe(ready) == 0);
  REQUIRE(pipe(hold) == 0);
  std::vector<pid_t> pids;
  for (int p = 0; p < kProcesses; ++p) {
    const pid_t pid = fork();
    REQUIRE(pid >= 0);
    if (pid == 0) {
      close(go[1]);
      close(ready[0]);
      close(hold[1]);
      claimant(src, results + "/" + std::to_string(p), go[0], ready[1], hold[0]);
    }
    pids.push_back(pid);
  }
  close(go[0]);
  close(ready[1]);
  close(hold[0]);
  const auto t0 = std::chrono::steady_clock::now();
  close(go[1]);  // every thread of every process claims now
  int done = 0;
  char c;
  while (done < kProcesses && read(ready[0], &c, 1) == 1) ++done;
  const double storm_s =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  CHECK(done == kProcesses);

  // One claimant too many, while every slot is held.
  Opts extra(src, kNow);
  const Error full = error_of([&] { Generator g(extra.o); });
  close(hold[1]);
  close(ready[0]);
  for (pid_t pid : pids) {
    int status = 0;
    waitpid(pid, &status, 0);
    CHECK(WIFEXITED(status));
  }

  std::set<int64_t> nodes, ids;
  std::vector<int64_t> latency;
  std::vector<std::string> refused;
  for (int p = 0; p < kProcesses; ++p) {
    std::ifstream f(results + "/" + std::to_string(p));
    std::string line;
    while (std::getline(f, line)) {
      if (line.rfind("refused", 0) == 0) {
        refused.push_back(line);
        continue;
      }
      std::istringstream in(line);
      int64_t node, ns, id;
      in >> node >> ns;
      nodes.insert(node);
      latency.push_back(ns);
      while (in >> id) ids.insert(id);
    }
  }
  INFO("first refusal: " << (refused.empty() ? std::string("none") : refused.front()));
  CHECK(refused.empty());
  CHECK(latency.size() == 1024);
  CHECK(nodes.size() == 1024);            // every slot, each once
  CHECK(ids.size() == 1024u * kIdsEach);  // 0 duplicate ids
  CHECK(full.kind() == ErrorKind::kNodeIdUnavailable);
  CHECK(std::string(full.what()).find(dir) != std::string::npos);
  CHECK(std::string(full.what()).find("1024 of 1024 slots") != std::string::npos);
  INFO(full.what());
  if (!latency.empty())
    std::printf(
        "local storm: %d claimants in %d processes, %.2f s; claim latency median %.2f ms, "
        "p99 %.2f ms, max %.2f ms\n",
        kProcesses * kPerProcess, kProcesses, storm_s, percentile(latency, 0.5) / 1e6,
        percentile(latency, 0.99) / 1e6, percentile(latency, 1.0) / 1e6);
}

TEST_CASE("local: one process claims all 1,024 slots in turn, the next is refused",
          "[fleet][local][storm]") {
  // Leases only (no generator, so no mark write): what the probing costs. Every claim of one
  // process used to start probing at the same slot and walk past all the slots it held.
  const std::string dir = temp_dir();
  const Layout layout = Layout::parse("default");
  std::vector<std::shared_ptr<detail::NodeLease>> leases;
  std::set<int64_t> nodes;
  const auto t0 = std::chrono::steady_clock::now();
  for (int i = 0; i < 1024; ++i) {
    leases.push_back(detail::claim_local("local:" + dir, layout));
    nodes.insert(leases.back()->node_id());
  }
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  CHECK(nodes.size() == 1024);
  const Error full = error_of([&] { detail::claim_local("local:" + dir, layout); });
  CHECK(full.kind() == ErrorKind::kNodeIdUnavailable);
  CHECK(std::string(full.what()).find("registry directory " + dir) != std::string::npos);
  CHECK(std::string(full.what()).find("1024 of 1024 slots probed are held") != std::string::npos);
  std::printf("local: 1024 claims in turn by one process: %.3f s (%.1f us per claim)\n", s,
              s * 1e6 / 1024);
}
