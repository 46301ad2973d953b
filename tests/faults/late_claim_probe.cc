// late_claim_probe: one generator claims a leased node id on SOURCE and prints "ready";
// after a line on stdin (the test revokes the process's etcd lease meanwhile) a second
// generator of the same process claims, and the probe prints "claimed <node>" or the error.
//
//   late_claim_probe SOURCE  ->  "ready" ... "claimed <n>" | "error <CODE> <message>"
#include <cstdio>
#include <iostream>
#include <string>

#include "snowfleet/snowfleet.hpp"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: late_claim_probe SOURCE\n");
    return 64;
  }
  snowfleet::GeneratorOptions o;
  o.node_source = argv[1];
  try {
    snowfleet::Generator a(o);
    std::printf("ready\n");
    std::fflush(stdout);
    std::string line;
    std::getline(std::cin, line);
    snowfleet::Generator b(o);
    std::printf("claimed %lld\n", static_cast<long long>(b.node_id()));
  } catch (const snowfleet::Error& e) {
    std::printf("error %s %s\n", e.code(), e.what());
    return 2;
  }
  return 0;
}
