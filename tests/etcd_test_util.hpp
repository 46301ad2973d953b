// Helpers shared by the white-box etcd tests that inspect etcd with plain curl and etcdctl
// (test_etcd_shared_lease.cc, test_etcd_mark_batch.cc: tag [.etcd-plaintext]). They run
// against $SNOWFLEET_TEST_ETCD, a plaintext etcd without users (scripts/test/fleet.sh).
#pragma once

#include <catch2/catch.hpp>

#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace etcd_test {

/// $SNOWFLEET_TEST_ETCD (host:port); the test fails when it is not set.
inline std::string endpoint() {
  const char* ep = std::getenv("SNOWFLEET_TEST_ETCD");
  REQUIRE(ep != nullptr);
  return ep;
}

/// A prefix no other test, run or process has used: the tests share one etcd, and keys
/// (marks, the genesis) outlive the run.
inline std::string fresh_prefix(const std::string& name) {
  static int counter = 0;
  return name + "-" + std::to_string(getpid()) + "-" + std::to_string(++counter) + "-" +
         std::to_string(std::chrono::steady_clock::now().time_since_epoch().count());
}

/// Runs a shell command; returns its standard output.
inline std::string run(const std::string& cmd) {
  std::string out;
  FILE* p = popen(cmd.c_str(), "r");
  REQUIRE(p != nullptr);
  char buf[4096];
  while (fgets(buf, sizeof buf, p)) out += buf;
  pclose(p);
  return out;
}

/// "ETCDCTL_API=3 etcdctl --endpoints <endpoint()> ", to which a test appends its command.
inline std::string etcdctl() { return "ETCDCTL_API=3 etcdctl --endpoints " + endpoint() + " "; }

}  // namespace etcd_test
