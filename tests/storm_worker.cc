// storm_worker: one process of a claim storm (tests/fleet/storm_test.py). Starts N threads
// that each construct a generator on the same node source at one agreed instant, holds
// every slot it got until told to stop, and reports as lines on stdout:
//
//   claimed <node_id> <claim_us>          a generator exists (claim_us: its constructor's
//                                          duration, microseconds)
//   error <CODE> <claim_us> <message>      a constructor refused
//   ready <claimed> <refused>              every thread is done claiming
//   ids <wall_ms> <id> <id> ...            a few ids from each generator, after `ready`
//   closed                                 after every generator was closed
//
// usage: storm_worker --source SPEC [--generators N] [--layout L] [--start-at UNIX_MS]
//                     [--hold-seconds S]
// Holds until SIGTERM or --hold-seconds (default 60); then closes everything
// and exits 0.
#include <signal.h>
#include <time.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "snowfleet/snowfleet.hpp"

namespace {
volatile sig_atomic_t g_stop = 0;
void on_term(int) { g_stop = 1; }

int64_t wall_ms() {
  timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  return int64_t{ts.tv_sec} * 1000 + ts.tv_nsec / 1000000;
}
}  // namespace

int main(int argc, char** argv) {
  snowfleet::GeneratorOptions o;
  int generators = 1;
  int64_t start_at = 0;
  double hold = 60;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    const char* v = i + 1 < argc ? argv[i + 1] : "";
    if (a == "--source")
      o.node_source = v, ++i;
    else if (a == "--layout")
      o.layout = snowfleet::Layout::parse(v), ++i;
    else if (a == "--generators")
      generators = std::atoi(v), ++i;
    else if (a == "--start-at")
      start_at = std::atoll(v), ++i;
    else if (a == "--hold-seconds")
      hold = std::atof(v), ++i;
    else {
      std::fprintf(stderr, "storm_worker: unknown argument %s\n", a.c_str());
      return 64;
    }
  }
  signal(SIGTERM, on_term);
  signal(SIGPIPE, SIG_IGN);
  if (start_at > wall_ms()) usleep(static_cast<useconds_t>((start_at - wall_ms()) * 1000));

  std::mutex out_mu;
  std::vector<std::unique_ptr<snowfleet::Generator>> gens(static_cast<size_t>(generators));
  std::vector<std::thread> threads;
  int refused = 0;
  for (int t = 0; t < generators; ++t) {
    threads.emplace_back([&, t] {
      const auto t0 = std::chrono::steady_clock::now();
      std::string line;
      try {
        auto g = std::make_unique<snowfleet::Generator>(o);
        const auto us = std::chrono::duration_cast<std::chrono::microseconds>(
                            std::chrono::steady_clock::now() - t0)
                            .count();
        line = "claimed " + std::to_string(g->node_id()) + " " + std::to_string(us);
        gens[static_cast<size_t>(t)] = std::move(g);
      } catch (const snowfleet::Error& e) {
        const auto us = std::chrono::duration_cast<std::chrono::microseconds>(
                            std::chrono::steady_clock::now() - t0)
                            .count();
        line = std::string("error ") + e.code() + " " + std::to_string(us) + " " + e.what();
      }
      std::lock_guard<std::mutex> lock(out_mu);
      if (line.compare(0, 6, "error ") == 0) ++refused;
      std::printf("%s\n", line.c_str());
      std::fflush(stdout);
    });
  }
  for (std::thread& th : threads) th.join();
  std::printf("ready %d %d\n", generators - refused, refused);
  std::fflush(stdout);
  for (auto& g : gens) {
    if (!g) continue;
    std::string line = "ids " + std::to_string(wall_ms());
    try {
      for (int k = 0; k < 4; ++k) line += " " + std::to_string(g->next_id());
    } catch (const snowfleet::Error& e) {
      line = std::string("error ") + e.code() + " 0 " + e.what();
    }
    std::printf("%s\n", line.c_str());
  }
  std::fflush(stdout);
  // Hold every slot until told to stop (SIGTERM) or the hold runs out.
  const int64_t end = wall_ms() + static_cast<int64_t>(hold * 1000);
  while (!g_stop && wall_ms() < end) usleep(20000);
  for (auto& g : gens)
    if (g) g->close();
  std::printf("closed\n");
  std::fflush(stdout);
  return 0;
}
