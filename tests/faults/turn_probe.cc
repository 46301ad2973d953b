// turn_probe: one generator claims a leased node id and mints, prints "ready", waits for a
// line on stdin (the test makes the store hang meanwhile), then starts CLAIMERS threads that
// each construct a generator on the same source (so they share the process's lease and its
// request limiter), and closes the first generator while they wait. Prints how long close()
// and the slowest claim took. With "fresh", no generator claims first (the claimers are the
// process's first: they share its lease grant and its first read of the held slots).
//
//   turn_probe SOURCE CLAIMERS [fresh]
//     ->  "ready" ... "close_us=<n> claim_max_us=<n> claimed=<n>"
#include <time.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "snowfleet/snowfleet.hpp"

namespace {
long long now_us() {
  timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1000000LL + t.tv_nsec / 1000;
}
}  // namespace

int main(int argc, char** argv) {
  if (argc != 3 && !(argc == 4 && std::string(argv[3]) == "fresh")) {
    std::fprintf(stderr, "usage: turn_probe SOURCE CLAIMERS [fresh]\n");
    return 64;
  }
  snowfleet::GeneratorOptions o;
  o.node_source = argv[1];
  const int claimers = std::stoi(argv[2]);
  const bool fresh = argc == 4;
  try {
    std::unique_ptr<snowfleet::Generator> g;
    if (!fresh) {
      g = std::make_unique<snowfleet::Generator>(o);
      g->next_id();
    }
    std::printf("ready\n");
    std::fflush(stdout);
    std::string line;
    std::getline(std::cin, line);
    std::atomic<long long> claim_max{0};
    std::atomic<int> claimed{0};
    std::atomic<int> errors{0};
    std::vector<std::thread> threads;
    for (int i = 0; i < claimers; ++i)
      threads.emplace_back([&] {
        const long long a = now_us();
        try {
          snowfleet::Generator c(o);
          ++claimed;
        } catch (const snowfleet::Error& e) {
          if (errors++ == 0) std::fprintf(stderr, "first refusal: %s\n", e.what());
        }
        const long long took = now_us() - a;
        long long seen = claim_max.load();
        while (took > seen && !claim_max.compare_exchange_weak(seen, took)) {
        }
      });
    std::this_thread::sleep_for(std::chrono::milliseconds(300));  // the claimers queue
    const long long a = now_us();
    if (g) g->close();
    const long long close_us = now_us() - a;
    for (std::thread& t : threads) t.join();
    std::printf("close_us=%lld claim_max_us=%lld claimed=%d\n", close_us, claim_max.load(),
                claimed.load());
  } catch (const snowfleet::Error& e) {
    std::printf("error %s %s\n", e.code(), e.what());
    return 2;
  }
  return 0;
}
