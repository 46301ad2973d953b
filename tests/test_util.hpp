// Helpers shared by the Catch2 tests.
#pragma once

#include <catch2/catch.hpp>

#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <memory>
#include <string>
#include <system_error>
#include <utility>
#include <vector>

#include "snowfleet/snowfleet.hpp"

// A forked child of a multi-threaded process that allocates or starts threads is beyond
// what this toolchain's sanitizer runtimes follow: ThreadSanitizer ends such a child or
// mistakes its new threads for the parent's ("dup thread with used id"), and GCC 12's
// AddressSanitizer allocator is not locked across fork(), so a child can inherit one of its
// mutexes held by a parent thread and hang in malloc. Tests that fork a process running a
// leased generator's mark keeper run in the release build; under a sanitizer they say so.
#if defined(__SANITIZE_THREAD__) || defined(__SANITIZE_ADDRESS__)
#define SKIP_FORK_OF_THREADED_PROCESS_UNDER_SANITIZER()                            \
  do {                                                                             \
    WARN("skipped under a sanitizer: a forked child of a multi-threaded process"); \
    return;                                                                        \
  } while (0)
#else
#define SKIP_FORK_OF_THREADED_PROCESS_UNDER_SANITIZER() \
  do {                                                  \
  } while (0)
#endif

namespace snowfleet_test {

/// Runs fn, which must throw snowfleet::Error, and returns that error (fails the test if
/// fn returns normally).
inline snowfleet::Error error_of(const std::function<void()>& fn) {
  try {
    fn();
  } catch (const snowfleet::Error& e) {
    return e;
  }
  FAIL("expected snowfleet::Error");
  return snowfleet::Error(snowfleet::ErrorKind::kInternal, "unreachable");
}

/// The kind of the snowfleet::Error fn throws.
inline snowfleet::ErrorKind kind_of(const std::function<void()>& fn) { return error_of(fn).kind(); }

/// A fresh registry directory for one test, removed at exit (tests run in one process).
inline std::string temp_dir() {
  struct Cleanup {
    std::vector<std::string> dirs;
    ~Cleanup() {
      std::error_code ec;
      for (const auto& d : dirs) std::filesystem::remove_all(d, ec);
    }
  };
  static Cleanup cleanup;
  char tmpl[] = "/tmp/snowfleet-test-XXXXXX";
  REQUIRE(mkdtemp(tmpl) != nullptr);
  cleanup.dirs.push_back(tmpl);
  return tmpl;
}

/// The whole content of a regular file; "" when it cannot be read or is anything else (a
/// FIFO left where a registry file should be must fail a test, not hang it).
inline std::string slurp(const std::string& path) {
  const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) return "";
  struct stat st;
  std::string out;
  if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) {
    char buf[4096];
    ssize_t n;
    while ((n = read(fd, buf, sizeof buf)) > 0) out.append(buf, static_cast<size_t>(n));
  }
  close(fd);
  return out;
}

/// DIR/slot-NNNN, the registry's name for a slot (with an optional suffix such as ".mark").
inline std::string slot_path(const std::string& dir, int64_t node, const char* suffix = "") {
  char name[40];
  std::snprintf(name, sizeof name, "/slot-%04lld%s", static_cast<long long>(node), suffix);
  return dir + name;
}

/// The mark persisted for `node` in registry `dir` (fails the test when there is none).
inline int64_t mark_in(const std::string& dir, int64_t node) {
  const std::string text = slurp(slot_path(dir, node, ".mark"));
  REQUIRE(!text.empty());
  return std::stoll(text);
}

/// Generator options with a node source and a scripted clock frozen at `wall_ms`.
struct Opts {
  std::shared_ptr<snowfleet::ScriptedClock> clock;
  snowfleet::GeneratorOptions o;
  Opts(const std::string& source, int64_t wall_ms, snowfleet::Mode mode = snowfleet::Mode::kStrict,
       const char* layout = "default") {
    clock = std::make_shared<snowfleet::ScriptedClock>(wall_ms);
    o.node_source = source;
    o.mode = mode;
    o.clock = clock;
    o.layout = snowfleet::Layout::parse(layout);
  }
};

/// Runs `body` in a forked child that SIGALRM ends after `seconds` (a hang fails the test
/// instead of blocking the suite). Returns what the body returned, or "exception: ..." if
/// it threw, and the child's exit code: 0, 3 after an exception, 128 + N after signal N.
inline std::pair<std::string, int> run_child(const std::function<std::string()>& body,
                                             unsigned seconds = 20) {
  int p[2];
  REQUIRE(pipe(p) == 0);
  const pid_t pid = fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    close(p[0]);
    alarm(seconds);
    std::string out;
    int code = 0;
    try {
      out = body();
    } catch (const std::exception& e) {
      out = std::string("exception: ") + e.what();
      code = 3;
    } catch (...) {
      out = "exception";  // a failed REQUIRE: never back into the test runner from a child
      code = 3;
    }
    if (write(p[1], out.data(), out.size()) < 0) _exit(2);
    _exit(code);
  }
  close(p[1]);
  std::string out;
  char buf[4096];
  ssize_t n;
  while ((n = read(p[0], buf, sizeof buf)) > 0) out.append(buf, static_cast<size_t>(n));
  close(p[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  return {out, WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status)};
}

// Sets an environment variable (unsets it: nullptr) for a scope, then puts back what was
// there.
class EnvSet {
 public:
  EnvSet(const char* name, const char* value) : name_(name) {
    const char* was = std::getenv(name);
    had_ = was != nullptr;
    if (had_) was_ = was;
    if (value)
      setenv(name, value, 1);
    else
      unsetenv(name);
  }
  ~EnvSet() {
    if (had_)
      setenv(name_, was_.c_str(), 1);
    else
      unsetenv(name_);
  }
  EnvSet(const EnvSet&) = delete;
  EnvSet& operator=(const EnvSet&) = delete;

 private:
  const char* name_;
  bool had_ = false;
  std::string was_;
};

}  // namespace snowfleet_test
