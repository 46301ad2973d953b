// Helpers shared by the local-registry tests (test_local_registry.cc, test_local_wipe.cc).
#pragma once

#include <catch2/catch.hpp>

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstring>
#include <fstream>
#include <functional>
#include <string>

#include "snowfleet/snowfleet.hpp"
#include "test_util.hpp"

namespace local_test {

constexpr int64_t T = 1704067200000 + 1'000'000;  // a scripted "now"
// Two slots (one node bit): a test that needs every slot taken holds both.
constexpr const char* kTwoSlots = "41.1.21@1704067200000";

// Runs `body` in a forked child that SIGALRM ends after `seconds`, so that a registry
// operation which blocks fails the test instead of hanging the suite. Returns what the
// body returned, or "hung or crashed (signal N)".
inline std::string guarded(const std::function<std::string()>& body, unsigned seconds = 10) {
  const auto [out, code] = snowfleet_test::run_child(body, seconds);
  if (code >= 128) return "hung or crashed (signal " + std::to_string(code - 128) + ")";
  return out;
}

// "claimed N" after a generator claimed slot N and issued an id, or "refused CODE: message".
inline std::string claim_verdict(const std::string& source, int64_t now = T) {
  try {
    snowfleet_test::Opts a(source, now, snowfleet::Mode::kStrict, kTwoSlots);
    snowfleet::Generator g(a.o);
    g.next_id();
    return "claimed " + std::to_string(g.node_id());
  } catch (const snowfleet::Error& e) {
    return std::string("refused ") + e.code() + ": " + e.what();
  }
}

inline void write_file(const std::string& path, const std::string& text) {
  std::ofstream f(path, std::ios::binary | std::ios::trunc);
  f << text;
  REQUIRE(f.good());
}

// True when some open file description holds a lock on `path` (asked without taking one).
inline bool locked(const std::string& path) {
  const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
  if (fd < 0) return false;
  struct flock fl;
  std::memset(&fl, 0, sizeof fl);
  fl.l_type = F_WRLCK;
  fl.l_whence = SEEK_SET;
  const bool held = fcntl(fd, F_OFD_GETLK, &fl) == 0 && fl.l_type != F_UNLCK;
  close(fd);
  return held;
}

}  // namespace local_test
