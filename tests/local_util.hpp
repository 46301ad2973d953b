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
  int p[2];
  REQUIRE(pipe(p) == 0);
  const pid_t pid = fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    close(p[0]);
    alarm(seconds);
    std::string out;
    try {
      out = body();
    } catch (const std::exception& e) {
      out = std::string("exception: ") + e.what();
    } catch (...) {
      out = "exception";  // a failed REQUIRE: never back into the test runner from a child
    }
    if (write(p[1], out.data(), out.size()) < 0) _exit(1);
    _exit(0);
  }
  close(p[1]);
  std::string out;
  char buf[512];
  ssize_t n;
  while ((n = read(p[0], buf, sizeof buf)) > 0) out.append(buf, static_cast<size_t>(n));
  close(p[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  if (WIFSIGNALED(status))
    return "hung or crashed (signal " + std::to_string(WTERMSIG(status)) + ")";
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
