// The local registry's files: what a claimant does with a FIFO, a link or a directory in
// place of a slot, mark or temporary file (refuses it by name, never blocks, never writes
// through a link), with a mark that is not a plain decimal, and where the default registry
// lives, what a forked child keeps of it and what a reboot leaves. A registry on a network
// filesystem or in a shared folder is test_local_fs.cc, one deleted under its holders
// test_local_wipe.cc; the basic lease behaviour (distinct slots, marks, crash, fork) is
// test_fleet.cc.
#include <catch2/catch.hpp>

#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "lease/node_source.hpp"  // internal: the claimed mark, before any generator adds its own
#include "local_util.hpp"
#include "snowfleet/snowfleet.hpp"
#include "test_util.hpp"

using namespace snowfleet;
using namespace local_test;
using snowfleet_test::mark_in;
using snowfleet_test::Opts;
using snowfleet_test::slot_path;
using snowfleet_test::slurp;
using snowfleet_test::temp_dir;
namespace fs = std::filesystem;

namespace {
// Puts a non-regular file (or a link) at `path`.
void make_odd(const std::string& path, const std::string& kind, const std::string& dir) {
  if (kind == "FIFO") {
    REQUIRE(mkfifo(path.c_str(), 0600) == 0);
  } else if (kind == "directory") {
    REQUIRE(mkdir(path.c_str(), 0700) == 0);
  } else if (kind == "symbolic link") {
    write_file(dir + "/target", "1704067201000\n");  // a readable mark: still refused
    REQUIRE(symlink((dir + "/target").c_str(), path.c_str()) == 0);
  } else {  // dangling symbolic link: a claimant must not create a file through it
    REQUIRE(symlink((dir + "/nowhere").c_str(), path.c_str()) == 0);
  }
}

}  // namespace

TEST_CASE("local: a FIFO, link or directory in place of a slot or mark file is refused by name",
          "[fleet][local]") {
  for (const char* suffix : {"", ".mark"}) {
    for (const char* kind : {"FIFO", "directory", "symbolic link", "dangling symbolic link"}) {
      INFO("slot-NNNN" << suffix << " is a " << kind);
      const std::string dir = temp_dir();
      for (int n = 0; n < 2; ++n) make_odd(slot_path(dir, n, suffix), kind, dir);
      const std::string verdict = guarded([&] { return claim_verdict("local:" + dir); });
      INFO("verdict: " << verdict);
      CHECK(verdict.rfind("refused NODE_ID_UNAVAILABLE", 0) == 0);
      CHECK(verdict.find(dir + "/slot-000") != std::string::npos);
      CHECK(verdict.find(std::string(suffix) + " is a ") != std::string::npos);
      if (std::string(kind) == "symbolic link") CHECK(slurp(dir + "/target") == "1704067201000\n");
      if (std::string(kind) == "dangling symbolic link") CHECK_FALSE(fs::exists(dir + "/nowhere"));
    }
  }
}

TEST_CASE(
    "local: a stale FIFO or link at the temporary mark file is replaced, never written through",
    "[fleet][local]") {
  for (const char* kind : {"FIFO", "symbolic link", "dangling symbolic link", "directory"}) {
    INFO("slot-NNNN.mark.tmp is a " << kind);
    const std::string dir = temp_dir();
    for (int n = 0; n < 2; ++n) make_odd(slot_path(dir, n, ".mark.tmp"), kind, dir);
    const std::string verdict = guarded([&] { return claim_verdict("local:" + dir); });
    INFO("verdict: " << verdict);
    if (std::string(kind) == "directory") {
      // Not ours to remove: the write fails, naming the file; the slot stays held.
      CHECK(verdict.rfind("refused ", 0) == 0);
      CHECK(verdict.find(".mark.tmp") != std::string::npos);
      continue;
    }
    CHECK(verdict.rfind("claimed ", 0) == 0);
    if (verdict.rfind("claimed ", 0) != 0) continue;
    const int64_t node = std::stoll(verdict.substr(8));
    CHECK(mark_in(dir, node) == T);  // written ahead, then lowered by close()
    if (std::string(kind) == "symbolic link") CHECK(slurp(dir + "/target") == "1704067201000\n");
    if (std::string(kind) == "dangling symbolic link") CHECK_FALSE(fs::exists(dir + "/nowhere"));
  }
}

TEST_CASE("local: a mark that is not a plain decimal Unix ms makes its slot unusable, named",
          "[fleet][local]") {
  const std::vector<std::string> bad = {
      "",
      "\n",
      "+1704067201000\n",
      " 1704067201000\n",
      "1704067201000 \n",
      "1704067201000\n\n",
      "1704067201000x",
      "1704067201000\r\n",
      "0x10\n",
      "1e12\n",
      "-5\n",
      "-1\n",
      "--1\n",
      "99999999999999999999\n",  // beyond int64
      "9223372036854775807\n",   // an int64, but past the last millisecond of the layout
      std::string("17040\0", 6),
      std::string(100, '1'),
      "1704067201000\n" + std::string(80, ' ')};
  for (const std::string& text : bad) {
    INFO("mark file '" << text << "'");
    const std::string dir = temp_dir();
    for (int n = 0; n < 2; ++n) write_file(slot_path(dir, n, ".mark"), text);
    const std::string verdict = claim_verdict("local:" + dir);
    INFO("verdict: " << verdict);
    CHECK(verdict.rfind("refused NODE_ID_UNAVAILABLE", 0) == 0);
    CHECK(verdict.find(".mark: ") != std::string::npos);
  }
  for (const std::string text : {"1704067201000\n", "1704067201000"}) {
    const std::string dir = temp_dir();
    for (int n = 0; n < 2; ++n) write_file(slot_path(dir, n, ".mark"), text);
    auto lease = detail::claim_local("local:" + dir, Layout::parse(kTwoSlots));
    CHECK(lease->claimed_mark_ms() == 1704067201000);
  }
}

TEST_CASE("local: the default registry is a persistent state directory", "[fleet][local]") {
  const std::string dir = temp_dir();
  const std::string verdict = guarded([&] {
    setenv("XDG_STATE_HOME", dir.c_str(), 1);
    Opts a("local", T);
    Generator g(a.o);
    g.next_id();
    struct stat st;
    if (stat((dir + "/snowfleet").c_str(), &st) != 0) return std::string("no registry");
    if ((st.st_mode & 0777) != 0700) return std::string("not 0700");
    return slurp(slot_path(dir + "/snowfleet", g.node_id(), ".mark"));
  });
  CHECK(verdict == std::to_string(T + 1000) + "\n");
  // A relative $XDG_STATE_HOME is ignored (XDG spec): ~/.local/state/snowfleet for a user,
  // /var/lib/snowfleet for root (not checked here: it would create it on this machine).
  const std::string user = guarded([&] {
    if (geteuid() == 0) {
      chmod(dir.c_str(), 0777);
      if (setgid(65534) != 0 || setuid(65534) != 0) return std::string("cannot drop root");
    }
    setenv("XDG_STATE_HOME", "relative/state", 1);
    setenv("HOME", dir.c_str(), 1);
    Opts a("local", T);
    Generator g(a.o);
    g.next_id();
    return slurp(slot_path(dir + "/.local/state/snowfleet", g.node_id(), ".mark"));
  });
  CHECK(user == std::to_string(T + 1000) + "\n");
}

TEST_CASE("local: a forked child closes its copies at once: the slot is the parent's alone",
          "[fleet][local]") {
  const std::string dir = temp_dir();
  const std::string src = "local:" + dir;
  int p[2];  // children live until the test closes the write end
  REQUIRE(pipe(p) == 0);
  // A slot is free once the child has run: its atfork handler closes its copies, which
  // keep the socket bound (and the lock held) until then.
  // (At T + 5000: past any mark the holders reserved.)
  const auto claim_soon = [](const std::string& source) {
    std::string verdict = claim_verdict(source, T + 5000);
    for (int i = 0; i < 500 && verdict.rfind("claimed ", 0) != 0; ++i) {
      usleep(10000);
      verdict = claim_verdict(source, T + 5000);
    }
    return verdict;
  };
  const auto live_until_eof = [&] {
    close(p[1]);
    char c;
    while (read(p[0], &c, 1) > 0) {
    }
    _exit(0);
  };
  SECTION("the parent releases while its child lives") {
    Opts a(src, T, Mode::kStrict, kTwoSlots);
    Generator other(a.o);  // so that a claimant can only get the released slot
    auto g = std::make_unique<Generator>(a.o);
    const int64_t node = g->node_id();
    const pid_t pid = fork();
    REQUIRE(pid >= 0);
    if (pid == 0) live_until_eof();
    g->close();
    CHECK(claim_soon(src) == "claimed " + std::to_string(node));
    close(p[1]);
    waitpid(pid, nullptr, 0);
  }
  SECTION("the parent dies while its child lives") {
    int ready[2];
    REQUIRE(pipe(ready) == 0);
    const pid_t pid = fork();
    REQUIRE(pid >= 0);
    if (pid == 0) {
      try {
        Opts a(src, T, Mode::kStrict, kTwoSlots);
        Generator g0(a.o), g1(a.o);  // both slots
        if (fork() == 0) live_until_eof();
        if (write(ready[1], "r", 1) != 1) _exit(1);
        _exit(0);  // dies without closing; its child lives on
      } catch (...) {
        _exit(2);
      }
    }
    close(ready[1]);
    char c;
    CHECK(read(ready[0], &c, 1) == 1);
    close(ready[0]);
    waitpid(pid, nullptr, 0);
    CHECK(claim_soon(src).rfind("claimed ", 0) == 0);  // before: both slots stayed held
    close(p[1]);
  }
  close(p[0]);
}

TEST_CASE("local: ?node=N pins a slot: held once, its mark kept across generators",
          "[fleet][local]") {
  // The opt-in persisted mark for a node id of one's choosing.
  const std::string dir = temp_dir();
  const std::string src = "local:" + dir + "?node=37";
  int64_t last;
  {
    Opts a(src, T + 5000);
    Generator g(a.o);
    CHECK(g.node_id() == 37);
    last = g.next_id();
    Opts b(src, T + 5000);
    const Error held = snowfleet_test::error_of([&] { Generator other(b.o); });
    CHECK(held.kind() == ErrorKind::kNodeIdUnavailable);
    CHECK(std::string(held.what()).find("slot 37 of registry directory " + dir) !=
          std::string::npos);
    CHECK(std::string(held.what()).find("held by a live process") != std::string::npos);
  }
  CHECK(mark_in(dir, 37) == T + 5000);  // close() lowered it to the last issued ms
  // Another process restarting on a clock behind the mark refuses (a fresh clock: a new
  // time, so only the persisted mark carries the history).
  Opts c(src, T + 4000);
  Generator again(c.o);
  CHECK(again.node_id() == 37);
  const Error behind = snowfleet_test::error_of([&] { again.next_id(); });
  CHECK(behind.kind() == ErrorKind::kClockMovedBackwards);
  c.clock->set_wall_ms(T + 5001);
  CHECK(again.next_id() > last);
  for (const char* bad : {"?node=1024", "?node=-1", "?node=", "?nod=3", "?node=3&x=1"}) {
    Opts d("local:" + dir + bad, T);
    CHECK(snowfleet_test::error_of([&] { Generator g(d.o); }).kind() ==
          ErrorKind::kInvalidArgument);
  }
}

TEST_CASE("local: a slot pinned by another process is refused by name, its mark is inherited",
          "[fleet][local]") {
  const std::string dir = temp_dir();
  const std::string src = "local:" + dir + "?node=1";
  int ready[2], hold[2];
  REQUIRE(pipe(ready) == 0);
  REQUIRE(pipe(hold) == 0);
  const pid_t pid = fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    close(ready[0]);
    close(hold[1]);
    alarm(20);
    try {
      Opts a(src, T + 3000, Mode::kStrict, kTwoSlots);
      Generator g(a.o);
      g.next_id();
      if (write(ready[1], "r", 1) != 1) _exit(1);
      char c;
      while (read(hold[0], &c, 1) > 0) {
      }
      _exit(0);  // dies holding the slot: its reservation stays
    } catch (...) {
      _exit(2);
    }
  }
  close(ready[1]);
  close(hold[0]);
  char c;
  REQUIRE(read(ready[0], &c, 1) == 1);
  const std::string verdict = claim_verdict(src, T);
  CHECK(verdict == "refused NODE_ID_UNAVAILABLE: node source '" + src +
                       "': slot 1 of registry "
                       "directory " +
                       dir + " is held by a live process");
  // Unpinned claimants do not take it either.
  for (int i = 0; i < 3; ++i) CHECK(claim_verdict("local:" + dir, T + 10 * i) == "claimed 0");
  close(hold[1]);
  int status = 0;
  waitpid(pid, &status, 0);
  REQUIRE(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 0);
  close(ready[0]);
  Opts b(src, T + 3500, Mode::kStrict, kTwoSlots);
  Generator g(b.o);
  CHECK(g.node_id() == 1);
  CHECK(g.status().mark_ms >= T + 4000);  // the holder's T + 4000 reservation, kept
  CHECK(snowfleet_test::error_of([&] { g.next_id(); }).kind() == ErrorKind::kClockMovedBackwards);
}

TEST_CASE("local: after a reboot the marks hold and the locks are gone", "[fleet][local]") {
  // What a reboot (or power loss) leaves: every slot file naming a holder that is gone, the
  // marks fsynced before any id under them was issued, a temporary mark cut short by the
  // power loss. No lock and no socket survive it (they live in the kernel). Copying the
  // files to a directory nobody ever held is that state exactly.
  const std::string dir = temp_dir();
  for (int n = 0; n < 2; ++n) {
    write_file(slot_path(dir, n), "pid 4242 host before-reboot\n");
    write_file(slot_path(dir, n, ".mark"), std::to_string(T + 1000 * (n + 1)) + "\n");
    write_file(slot_path(dir, n, ".mark.tmp"), "17040");
  }
  Opts a("local:" + dir, T + 500, Mode::kStrict, kTwoSlots);
  Generator g0(a.o), g1(a.o);  // both slots are free again
  CHECK(std::set<int64_t>{g0.node_id(), g1.node_id()} == std::set<int64_t>{0, 1});
  // The clock came back behind the marks (an RTC that lost time): nothing at or below them.
  Generator& first = g0.node_id() == 0 ? g0 : g1;
  CHECK(snowfleet_test::error_of([&] { first.next_id(); }).kind() ==
        ErrorKind::kClockMovedBackwards);
  a.clock->set_wall_ms(T + 1001);
  CHECK(decode(Layout::parse(kTwoSlots), first.next_id()).timestamp_ms == T + 1001);
  CHECK(slurp(slot_path(dir, 0)).rfind("pid " + std::to_string(getpid()) + " ", 0) == 0);
  CHECK_FALSE(fs::exists(slot_path(dir, 0, ".mark.tmp")));  // the cut-short write is gone
}
