// close_probe: claims a leased node id, mints one id, prints "ready", waits for a line on
// stdin (the test makes the store hang meanwhile), then times close().
//
//   close_probe SOURCE      ->  "ready" ... "close_us=<n>"
#include <time.h>

#include <cstdio>
#include <iostream>
#include <string>

#include "snowfleet/snowfleet.hpp"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: close_probe SOURCE\n");
    return 64;
  }
  snowfleet::GeneratorOptions o;
  o.node_source = argv[1];
  try {
    snowfleet::Generator g(o);
    g.next_id();
    std::printf("ready\n");
    std::fflush(stdout);
    std::string line;
    std::getline(std::cin, line);
    timespec a, b;
    clock_gettime(CLOCK_MONOTONIC, &a);
    g.close();
    clock_gettime(CLOCK_MONOTONIC, &b);
    std::printf("close_us=%lld\n", static_cast<long long>((b.tv_sec - a.tv_sec) * 1000000LL +
                                                         (b.tv_nsec - a.tv_nsec) / 1000));
  } catch (const snowfleet::Error& e) {
    std::printf("error %s %s\n", e.code(), e.what());
    return 2;
  }
  return 0;
}
