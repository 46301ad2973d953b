// release_probe: two generators of one process claim leased node ids on SOURCE (so they
// share its etcd lease), print "ready", and wait for a line on stdin; then the second is
// closed ("closed"), and after a line more the first.
//
//   release_probe SOURCE  ->  "ready" ... "closed" ... "done"
#include <cstdio>
#include <iostream>
#include <string>

#include "snowfleet/snowfleet.hpp"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: release_probe SOURCE\n");
    return 64;
  }
  snowfleet::GeneratorOptions o;
  o.node_source = argv[1];
  try {
    snowfleet::Generator a(o);
    snowfleet::Generator b(o);
    std::printf("ready\n");
    std::fflush(stdout);
    std::string line;
    std::getline(std::cin, line);
    b.close();
    std::printf("closed\n");
    std::fflush(stdout);
    std::getline(std::cin, line);
    a.close();
    std::printf("done\n");
  } catch (const snowfleet::Error& e) {
    std::printf("error %s %s\n", e.code(), e.what());
    return 2;
  }
  return 0;
}
