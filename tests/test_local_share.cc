// A host-shared node id ("local:DIR?share=NAME"): every process (and generator) naming the
// same registry and share mints with one node id on one state word, the slot stays held
// while any sharer lives, a forked child joins its parent's share, and a sharer killed in
// the middle of minting stops nobody.
#include <catch2/catch.hpp>

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <cstdio>
#include <set>
#include <string>
#include <vector>

#include "local_util.hpp"
#include "snowfleet/snowfleet.hpp"
#include "test_util.hpp"

using namespace snowfleet;
using namespace local_test;
using snowfleet_test::mark_in;
using snowfleet_test::Opts;
using snowfleet_test::temp_dir;

namespace {

GeneratorOptions real_clock(const std::string& source, const char* layout = kTwoSlots) {
  GeneratorOptions o;
  o.node_source = source;
  o.layout = Layout::parse(layout);
  o.max_wait_ms = 50;
  return o;
}

}  // namespace

TEST_CASE("share: one generator per process, and none other of the process mints its node",
          "[fleet][local][share]") {
  const std::string dir = temp_dir(), other = temp_dir(), spec = "local:" + dir + "?share=web";
  Opts a(spec, T, Mode::kStrict, kTwoSlots);
  Generator g(a.o);
  const std::string node = std::to_string(g.node_id());
  for (const std::string& source :
       {spec, "local:" + other + "?node=" + node, "local:" + other + "?share=api&node=" + node,
        "static:" + node}) {
    INFO(source);
    Opts b(source, T, Mode::kStrict, kTwoSlots);
    b.o.clock = a.clock;
    try {
      Generator h(b.o);
      FAIL("a second generator of node " << node << " in this process");
    } catch (const Error& e) {
      CHECK(e.kind() == ErrorKind::kNodeIdUnavailable);
    }
  }
  // An unpinned claim walks past the node.
  Opts c("local:" + other, T, Mode::kStrict, kTwoSlots);
  c.o.clock = a.clock;
  Generator h(c.o);
  CHECK(h.node_id() != g.node_id());
  std::set<int64_t> seen;
  for (int i = 0; i < 3000; ++i) {
    seen.insert(g.next_id());
    seen.insert(h.next_id());
    if (i % 1000 == 999) a.clock->advance_wall_ms(1);
  }
  CHECK(seen.size() == 6000);
}

TEST_CASE("share: the slot stays held while any sharer lives, and is free after the last",
          "[fleet][local][share][fork]") {
  SKIP_FORK_OF_THREADED_PROCESS_UNDER_SANITIZER();
  const std::string dir = temp_dir(), spec = "local:" + dir + "?share=web";
  auto g = std::make_unique<Generator>(real_clock(spec));
  const int64_t node = g->node_id();
  const std::string pinned = "local:" + dir + "?node=" + std::to_string(node);
  int joined[2], done[2];
  REQUIRE(pipe(joined) == 0);
  REQUIRE(pipe(done) == 0);
  const pid_t pid = fork();
  if (pid == 0) {  // a second sharer: joins (a generator of its own), then waits
    Generator h(real_clock(spec));
    h.next_id();
    const char c = h.node_id() == node ? 'y' : 'n';
    (void)!write(joined[1], &c, 1);
    char x;
    (void)!read(done[0], &x, 1);
    _exit(0);
  }
  char c = 0;
  REQUIRE(read(joined[0], &c, 1) == 1);
  CHECK(c == 'y');
  g->next_id();
  g->close();  // the share's first claimant goes: the child keeps the slot
  CHECK(guarded([&] { return claim_verdict(pinned); }).rfind("refused NODE_ID_UNAVAILABLE", 0) ==
        0);
  (void)!write(done[1], "x", 1);
  REQUIRE(waitpid(pid, nullptr, 0) == pid);
  // Free: claimed (the mark it finds runs ahead of the clock, so nothing is minted here).
  CHECK(guarded([&] {
          return "claimed " + std::to_string(Generator(real_clock(pinned)).node_id());
        }) ==
        "claimed " + std::to_string(node));
}

TEST_CASE("share: a share used with another layout, or a node it does not hold, is refused",
          "[fleet][local][share]") {
  const std::string dir = temp_dir(), spec = "local:" + dir + "?share=web";
  Opts a(spec, T, Mode::kStrict, kTwoSlots);
  Generator g(a.o);
  Opts other(spec, T, Mode::kStrict, "41.10.12@1704067200000");
  try {
    Generator h(other.o);
    FAIL("joined a share of another layout");
  } catch (const Error& e) {
    CHECK(e.kind() == ErrorKind::kNodeIdUnavailable);
    CHECK(std::string(e.what()).find("is used by live processes with layout 41.1.21@") !=
          std::string::npos);
  }
  const int64_t elsewhere = 1 - g.node_id();
  Opts pinned(spec + "&node=" + std::to_string(elsewhere), T, Mode::kStrict, kTwoSlots);
  try {
    Generator h(pinned.o);
    FAIL("joined a share pinned to another node");
  } catch (const Error& e) {
    CHECK(std::string(e.what()).find("holds node " + std::to_string(g.node_id())) !=
          std::string::npos);
  }
}

TEST_CASE("share: a forked child joins its parent's share and mints distinct ids",
          "[fleet][local][share][fork]") {
  SKIP_FORK_OF_THREADED_PROCESS_UNDER_SANITIZER();
  const std::string dir = temp_dir(), spec = "local:" + dir + "?share=web";
  Generator parent(real_clock(spec));
  parent.next_id();
  int fds[2];
  REQUIRE(pipe(fds) == 0);
  const pid_t pid = fork();
  if (pid == 0) {
    close(fds[0]);
    std::string out;
    try {
      out = "node " + std::to_string(parent.node_id()) + "\n";
      for (int i = 0; i < 20000; ++i) out += std::to_string(parent.next_id()) + "\n";
    } catch (...) {
      _exit(3);
    }
    (void)!write(fds[1], out.data(), out.size());
    _exit(0);
  }
  close(fds[1]);
  std::vector<int64_t> mine;
  for (int i = 0; i < 20000; ++i) mine.push_back(parent.next_id());
  FILE* in = fdopen(fds[0], "r");
  long long child_node = -1;
  REQUIRE(std::fscanf(in, "node %lld", &child_node) == 1);
  std::vector<int64_t> theirs;
  long long v;
  while (std::fscanf(in, "%lld", &v) == 1) theirs.push_back(v);
  std::fclose(in);
  int status = 0;
  REQUIRE(waitpid(pid, &status, 0) == pid);
  REQUIRE(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 0);
  CHECK(child_node == parent.node_id());  // joined, not a slot of its own
  CHECK(theirs.size() == 20000);
  std::set<int64_t> all(mine.begin(), mine.end());
  all.insert(theirs.begin(), theirs.end());
  CHECK(all.size() == 40000);
}

TEST_CASE("share: a sharer killed while minting stops nobody, and the slot stays held",
          "[fleet][local][share][fork]") {
  SKIP_FORK_OF_THREADED_PROCESS_UNDER_SANITIZER();
  const std::string dir = temp_dir(), spec = "local:" + dir + "?share=web";
  int fds[2];
  REQUIRE(pipe(fds) == 0);
  const pid_t pid = fork();
  if (pid == 0) {
    close(fds[0]);
    Generator g(real_clock(spec));
    const char node = static_cast<char>('0' + g.node_id());
    (void)!write(fds[1], &node, 1);
    for (;;) g.next_id();  // killed in here
  }
  close(fds[1]);
  char c;
  REQUIRE(read(fds[0], &c, 1) == 1);
  close(fds[0]);
  Generator g(real_clock(spec));
  CHECK(g.node_id() == c - '0');  // joined the child's share
  usleep(20000);
  kill(pid, SIGKILL);
  waitpid(pid, nullptr, 0);
  std::set<int64_t> ids;
  for (int i = 0; i < 10000; ++i) ids.insert(g.next_id());
  CHECK(ids.size() == 10000);
  const std::string pinned = "local:" + dir + "?node=" + std::to_string(g.node_id());
  CHECK(guarded([&] { return claim_verdict(pinned); }).rfind("refused NODE_ID_UNAVAILABLE", 0) ==
        0);
}

namespace {
// An open-file-description lock of `type` on byte `at` of `path`, held while `fd` is open.
int lock_byte_of(const std::string& path, short type, off_t at, off_t len = 1) {
  const int fd = open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
  REQUIRE(fd >= 0);
  struct flock fl;
  std::memset(&fl, 0, sizeof fl);
  fl.l_type = type;
  fl.l_whence = SEEK_SET;
  fl.l_start = at;
  fl.l_len = len;
  REQUIRE(fcntl(fd, F_OFD_SETLK, &fl) == 0);
  return fd;
}
}  // namespace

TEST_CASE("share: a joiner that finds the slot used meanwhile continues after its mark",
          "[fleet][local][share]") {
  // The share still counts a sharer (a process stopped in the middle of leaving) while the
  // slot is free: an exclusive claimant took it, minted ahead of the clock and left. A
  // joiner must not mint on the share's word from where it stood.
  const std::string dir = temp_dir(), spec = "local:" + dir + "?share=web";
  auto g = std::make_unique<Generator>(real_clock(spec));
  const int64_t node = g->node_id();
  const int member = lock_byte_of(dir + "/share-web", F_RDLCK, 1);
  g->close();
  const int64_t now = std::chrono::duration_cast<std::chrono::milliseconds>(
                          std::chrono::system_clock::now().time_since_epoch())
                          .count();
  write_file(snowfleet_test::slot_path(dir, node, ".mark"), std::to_string(now + 60000) + "\n");
  GeneratorOptions o = real_clock(spec);
  o.mode = Mode::kMonotonic;
  o.max_drift_ms = 86'400'000;
  Generator h(o);
  CHECK(h.node_id() == node);
  const int64_t id = h.next_id();
  CHECK((id >> 22) + 1704067200000 > now + 60000);
  close(member);
}

TEST_CASE("share: a sharer whose slot was taken no longer counts as a sharer",
          "[fleet][local][share]") {
  const std::string dir = temp_dir(), spec = "local:" + dir + "?share=web";
  Generator g(real_clock(spec));
  const int64_t node = g.node_id();
  // The slot file replaced by one another process holds (one outside this network
  // namespace could, since it does not see the holder's socket).
  const std::string slot = snowfleet_test::slot_path(dir, node, "");
  REQUIRE(std::rename(slot.c_str(), (slot + ".old").c_str()) == 0);
  const int outsider = lock_byte_of(slot, F_WRLCK, 0, 0);
  Status st;
  for (int i = 0; i < 300; ++i) {
    st = g.status();
    if (st.lease_state == LeaseState::kLost) break;
    usleep(10000);
  }
  REQUIRE(st.lease_state == LeaseState::kLost);
  CHECK(st.reason.find("was deleted or replaced while shared") != std::string::npos);
  Generator h(real_clock(spec));  // alone: claims the other slot afresh
  CHECK(h.node_id() != node);
  close(outsider);
}

TEST_CASE("share: a share opened and closed again and again keeps its mark near the clock",
          "[fleet][local][share]") {
  // The last sharer writes back the millisecond it reached, as an exclusive holder does:
  // else each group's first mark starts a lead beyond the one before.
  const std::string dir = temp_dir(), spec = "local:" + dir + "?share=web";
  int64_t node = -1;
  for (int i = 0; i < 10; ++i) {
    Generator g(real_clock(spec));
    node = g.node_id();
    g.next_id();
  }
  const int64_t now = std::chrono::duration_cast<std::chrono::milliseconds>(
                          std::chrono::system_clock::now().time_since_epoch())
                          .count();
  CHECK(mark_in(dir, node) <= now);
  Generator g(real_clock(spec));
  CHECK_NOTHROW(g.next_id());
}
