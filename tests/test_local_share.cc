// A host-shared node id ("local:DIR?share=NAME"): every process (and generator) naming the
// same registry and share mints with one node id on one state word, the slot stays held
// while any sharer lives, a forked child joins its parent's share, and a sharer killed in
// the middle of minting stops nobody.
#include <catch2/catch.hpp>

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
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

TEST_CASE("share: generators naming one share mint with one node id, never the same id",
          "[fleet][local][share]") {
  const std::string dir = temp_dir(), spec = "local:" + dir + "?share=web";
  Opts a(spec, T, Mode::kStrict, kTwoSlots), b(spec, T, Mode::kStrict, kTwoSlots);
  b.o.clock = a.clock;
  Generator g1(a.o), g2(b.o);
  CHECK(g1.node_id() == g2.node_id());
  std::set<int64_t> seen;
  int64_t last = -1;
  for (int i = 0; i < 3000; ++i) {
    const int64_t id = (i % 3 ? g1 : g2).next_id();
    CHECK(id > last);  // one word: ascending whichever generator issues
    last = id;
    seen.insert(id);
    if (i % 1000 == 999) a.clock->advance_wall_ms(1);
  }
  CHECK(seen.size() == 3000);
}

TEST_CASE("share: the slot stays held while any sharer lives, and is free after the last",
          "[fleet][local][share]") {
  const std::string dir = temp_dir(), spec = "local:" + dir + "?share=web";
  Opts a(spec, T, Mode::kStrict, kTwoSlots), b(spec, T, Mode::kStrict, kTwoSlots);
  b.o.clock = a.clock;
  auto g1 = std::make_unique<Generator>(a.o);
  auto g2 = std::make_unique<Generator>(b.o);
  const int64_t node = g1->node_id();
  const std::string pinned = "local:" + dir + "?node=" + std::to_string(node);
  g1->next_id();
  g1->close();  // the share's first claimant goes: the other keeps the slot
  CHECK(guarded([&] { return claim_verdict(pinned); }).rfind("refused NODE_ID_UNAVAILABLE", 0) ==
        0);
  const int64_t last = g2->next_id();
  g2->close();
  CHECK(mark_in(dir, node) >= (last >> 22) + 1704067200000);
  CHECK(guarded([&] { return claim_verdict(pinned, T + 5000); }) ==
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
          "[fleet][local][share]") {
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
          "[fleet][local][share]") {
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
