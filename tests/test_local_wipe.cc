// The local registry deleted or replaced under live holders (logind removing
// $XDG_RUNTIME_DIR, a tmp cleaner, a person): no newcomer may get a held slot, and the
// holder's maintain() (and every mark write) puts back the directory, the slot file and
// the mark, so later claimants find the history. Multi-process: tests/fleet/fleet_test.py.
#include <catch2/catch.hpp>

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <thread>

#include "lease/node_source.hpp"  // internal: the lease itself, to call maintain() directly
#include "local_util.hpp"
#include "snowfleet/snowfleet.hpp"
#include "test_util.hpp"

using namespace snowfleet;
using namespace local_test;
using snowfleet_test::error_of;
using snowfleet_test::mark_in;
using snowfleet_test::Opts;
using snowfleet_test::slot_path;
using snowfleet_test::temp_dir;
namespace fs = std::filesystem;

namespace {
// Aborts the test binary if not destroyed within `seconds`: maintain() runs in this
// process (a forked child drops its copy of the lease), so a call that blocks must end
// the run with a message rather than hang it.
class Watchdog {
 public:
  Watchdog(int seconds, const char* what)
      : thread_([this, seconds, what] {
          std::unique_lock<std::mutex> lock(mu_);
          if (!cv_.wait_for(lock, std::chrono::seconds(seconds), [this] { return done_; })) {
            std::fprintf(stderr, "watchdog: %s blocked for %d s\n", what, seconds);
            std::abort();
          }
        }) {}
  ~Watchdog() {
    {
      std::lock_guard<std::mutex> lock(mu_);
      done_ = true;
    }
    cv_.notify_all();
    thread_.join();
  }

 private:
  std::mutex mu_;
  std::condition_variable cv_;
  bool done_ = false;
  std::thread thread_;
};

// Calls lease->maintain() under a watchdog; returns "held " or "lost " and the problem.
std::string maintained(detail::NodeLease& lease) {
  Watchdog w(10, "maintain()");
  lease.maintain();
  return std::string(lease.lost() ? "lost " : "held ") + lease.problem();
}

// remove_all, retried: the holders' mark keepers put files back while it runs (every
// ~100 ms), as they would under a real cleaner, so one pass can meet a new file.
void remove_all_racing_healers(const std::string& dir) {
  for (int i = 0; i < 200; ++i) {
    std::error_code ec;
    fs::remove_all(dir, ec);
    if (!ec) return;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  FAIL("could not remove " << dir);
}

// Deletes or replaces the registry the way a cleaner (or a person) might.
void wipe(const std::string& dir, const std::string& how) {
  if (how == "directory removed") {
    remove_all_racing_healers(dir);
  } else if (how == "files removed") {
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(dir)) fs::remove(e.path(), ec);
  } else if (how == "directory replaced") {
    remove_all_racing_healers(dir + ".old");
    fs::rename(dir, dir + ".old");
    std::error_code ec;
    fs::create_directory(dir, ec);  // a healer may have been first
  } else {  // files replaced by copies: same content, new inodes, no locks
    for (const auto& e : fs::directory_iterator(dir)) {
      const std::string p = e.path().string();
      fs::copy_file(p, p + ".copy");
      fs::rename(p + ".copy", p);
    }
  }
}

const char* const kWipes[] = {"directory removed", "files removed", "directory replaced",
                              "files replaced by copies"};
}  // namespace

TEST_CASE("local: deleting or replacing the registry under live holders gives no slot away",
          "[fleet][local]") {
  for (const char* how : kWipes) {
    INFO("registry " << how);
    const std::string dir = temp_dir();
    const std::string src = "local:" + dir;
    Opts a(src, T, Mode::kStrict, kTwoSlots);
    a.o.max_wait_ms = 1000;  // a call past the mark may wait for a background mark write
    Generator h0(a.o), h1(a.o);  // every slot held
    std::set<int64_t> ids = {h0.next_id(), h1.next_id()};
    wipe(dir, how);
    // A newcomer with the same clock: if it got a slot on fresh files it would see no
    // history and re-issue the holder's ids.
    size_t duplicates = 0;
    bool refused = false;
    try {
      Opts b(src, T, Mode::kStrict, kTwoSlots);
      Generator g(b.o);
      for (int i = 0; i < 100; ++i) duplicates += ids.insert(g.next_id()).second ? 0 : 1;
    } catch (const Error& e) {
      refused = e.kind() == ErrorKind::kNodeIdUnavailable;
      CHECK(std::string(e.what()).find("2 of 2 slots probed are held") != std::string::npos);
    }
    CHECK(duplicates == 0);
    CHECK(refused);
    // The holders' next mark write puts the registry back, so later claimants see the
    // history (without waiting for that write, maintain() does it; see below).
    a.clock->set_wall_ms(T + 1500);
    h0.next_id();
    h1.next_id();
    CHECK(h0.status().lease_state == LeaseState::kHeld);
    CHECK(mark_in(dir, h0.node_id()) == T + 2500);
    CHECK(mark_in(dir, h1.node_id()) == T + 2500);
    CHECK(locked(slot_path(dir, h0.node_id())));
    const int64_t freed = h0.node_id();
    h0.close();  // lowers the mark to T + 1500
    Opts c(src, T + 1000, Mode::kStrict, kTwoSlots);
    Generator heir(c.o);
    CHECK(heir.node_id() == freed);
    const Error e = error_of([&] { heir.next_id(); });
    CHECK(e.kind() == ErrorKind::kClockMovedBackwards);
    CHECK(std::string(e.what()).find("mark " + std::to_string(T + 1500)) != std::string::npos);
    remove_all_racing_healers(dir + ".old");
  }
}

TEST_CASE("local: a registry deleted under a holder in another process gives no slot away",
          "[fleet][local]") {
  const std::string dir = temp_dir();
  const std::string src = "local:" + dir;
  int down[2], up[2];
  REQUIRE(pipe(down) == 0);
  REQUIRE(pipe(up) == 0);
  const pid_t pid = fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {  // the holder: both slots, one id each, then a mark write after the wipe
    alarm(30);
    close(down[1]);
    close(up[0]);
    try {
      Opts a(src, T, Mode::kStrict, kTwoSlots);
      a.o.max_wait_ms = 1000;
      Generator h0(a.o), h1(a.o);
      const std::string ready = std::to_string(h0.next_id()) + " " + std::to_string(h1.next_id());
      char c;
      if (write(up[1], ready.data(), ready.size()) < 0 || read(down[0], &c, 1) != 1) _exit(1);
      a.clock->set_wall_ms(T + 1500);
      h0.next_id();
      h1.next_id();
      if (write(up[1], "h", 1) != 1 || read(down[0], &c, 1) != 1) _exit(1);
      _exit(0);  // a crash: no close(), the marks stay T + 2500
    } catch (...) {
      _exit(2);  // never back into the test runner from a child
    }
  }
  close(down[0]);
  close(up[1]);
  char buf[64] = {0};
  REQUIRE(read(up[0], buf, sizeof buf - 1) > 0);
  std::set<int64_t> ids;
  for (const char* p = buf; *p;) {
    char* end;
    ids.insert(std::strtoll(p, &end, 10));
    p = end;
  }
  REQUIRE(ids.size() == 2);
  remove_all_racing_healers(dir);
  std::string verdict;
  size_t duplicates = 0;
  try {
    Opts b(src, T, Mode::kStrict, kTwoSlots);
    Generator g(b.o);
    for (int i = 0; i < 100; ++i) duplicates += ids.insert(g.next_id()).second ? 0 : 1;
    verdict = "claimed " + std::to_string(g.node_id());
  } catch (const Error& e) {
    verdict = std::string("refused ") + e.code();
  }
  INFO("verdict: " << verdict);
  CHECK(duplicates == 0);
  CHECK(verdict == "refused NODE_ID_UNAVAILABLE");
  char c;
  REQUIRE(write(down[1], "w", 1) == 1);
  REQUIRE(read(up[0], &c, 1) == 1);  // the holder wrote its marks again
  CHECK(mark_in(dir, 0) == T + 2500);
  CHECK(mark_in(dir, 1) == T + 2500);
  CHECK(claim_verdict(src, T + 1000).rfind("refused NODE_ID_UNAVAILABLE", 0) == 0);
  REQUIRE(write(down[1], "d", 1) == 1);
  int status = 0;
  waitpid(pid, &status, 0);
  CHECK(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 0);
  close(down[1]);
  close(up[0]);
  // The holder died: its slots are free, and their history is the one it put back.
  Opts b(src, T + 2000, Mode::kStrict, kTwoSlots);
  Generator heir(b.o);
  const Error e = error_of([&] { heir.next_id(); });
  CHECK(e.kind() == ErrorKind::kClockMovedBackwards);
  CHECK(std::string(e.what()).find("mark " + std::to_string(T + 2500)) != std::string::npos);
}

TEST_CASE("local: maintain() puts back a deleted or damaged registry and keeps the slot",
          "[fleet][local]") {
  const std::string dir = temp_dir();
  const std::string src = "local:" + dir;
  auto lease = detail::claim_local(src, Layout::parse(kTwoSlots));
  const int64_t n = lease->node_id();
  lease->write_mark(T + 1000);
  const std::string slot = slot_path(dir, n), mark = slot_path(dir, n, ".mark");
  SECTION("directory removed") { fs::remove_all(dir); }
  SECTION("directory replaced") { wipe(dir, "directory replaced"); }
  SECTION("slot file removed") { REQUIRE(unlink(slot.c_str()) == 0); }
  SECTION("slot file replaced by an unlocked copy") { wipe(dir, "files replaced by copies"); }
  SECTION("mark removed") { REQUIRE(unlink(mark.c_str()) == 0); }
  SECTION("mark lowered") { write_file(mark, std::to_string(T) + "\n"); }
  SECTION("mark garbage") { write_file(mark, "garbage\n"); }
  SECTION("mark replaced by a FIFO") {
    REQUIRE(unlink(mark.c_str()) == 0);
    REQUIRE(mkfifo(mark.c_str(), 0600) == 0);
  }
  SECTION("mark replaced by a symbolic link") {
    write_file(dir + "/target", std::to_string(T + 1000) + "\n");
    REQUIRE(unlink(mark.c_str()) == 0);
    REQUIRE(symlink((dir + "/target").c_str(), mark.c_str()) == 0);
  }
  CHECK(maintained(*lease) == "held ");
  CHECK(mark_in(dir, n) == T + 1000);
  CHECK(lease->mark_ms() == T + 1000);
  CHECK(locked(slot));
  CHECK(claim_verdict(src) != "claimed " + std::to_string(n));
  lease->write_mark(T + 2000);
  CHECK(mark_in(dir, n) == T + 2000);
  lease->release();
  fs::remove_all(dir + ".old");
}

TEST_CASE("local: maintain() keeps a higher mark, and loses a slot someone else locked",
          "[fleet][local]") {
  const std::string dir = temp_dir();
  auto lease = detail::claim_local("local:" + dir, Layout::parse(kTwoSlots));
  const int64_t n = lease->node_id();
  lease->write_mark(T + 1000);
  const std::string slot = slot_path(dir, n), mark = slot_path(dir, n, ".mark");
  SECTION("a higher mark is more cautious: kept") {
    write_file(mark, std::to_string(T + 5000) + "\n");
    CHECK(maintained(*lease) == "held ");
    CHECK(mark_in(dir, n) == T + 5000);
  }
  SECTION("a slot file re-created and locked by another holder (another network namespace)") {
    REQUIRE(unlink(slot.c_str()) == 0);
    const int other = open(slot.c_str(), O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    REQUIRE(other >= 0);
    struct flock fl;
    std::memset(&fl, 0, sizeof fl);
    fl.l_type = F_WRLCK;
    REQUIRE(fcntl(other, F_OFD_SETLK, &fl) == 0);
    write_file(mark, std::to_string(T + 7000) + "\n");  // the other holder's mark
    CHECK(maintained(*lease).rfind("lost ", 0) == 0);
    CHECK(lease->problem().find(slot) != std::string::npos);
    CHECK(lease->problem().find("locked by another") != std::string::npos);
    CHECK(mark_in(dir, n) == T + 7000);  // not ours to touch any more
    CHECK(error_of([&] { lease->write_mark(T + 9000); }).kind() == ErrorKind::kLeaseLost);
    CHECK(mark_in(dir, n) == T + 7000);
    close(other);
  }
  SECTION("a slot file replaced by a FIFO: nobody can claim it, the slot stays ours") {
    REQUIRE(unlink(slot.c_str()) == 0);
    REQUIRE(mkfifo(slot.c_str(), 0600) == 0);
    const std::string verdict = maintained(*lease);
    CHECK(verdict.rfind("held ", 0) == 0);
    CHECK(verdict.find(slot + " is a FIFO") != std::string::npos);
    lease->write_mark(T + 2000);  // the mark is still kept
    CHECK(mark_in(dir, n) == T + 2000);
  }
  lease->release();
  lease->maintain();  // released: nothing to check, nothing to create
}
