// Leased node ids: the local registry (always) and etcd (tag [.etcd], run by
// scripts/test/fleet.sh against a real etcd given in $SNOWFLEET_TEST_ETCD). Multi-process
// behaviour (SIGKILL, SIGSTOP, etcd killed) is in tests/fleet/fleet_test.py.
#include <catch2/catch.hpp>

#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <functional>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "snowfleet/snowfleet.hpp"
#include "test_util.hpp"

using namespace snowfleet;
using snowfleet_test::error_of;
using snowfleet_test::mark_in;
using snowfleet_test::Opts;
using snowfleet_test::temp_dir;

namespace {
constexpr int64_t E = 1704067200000;
constexpr int64_t T = E + 1'000'000;  // a scripted "now"
using Seg = ScriptedClock::Segment;

// Polls `done` for up to 5 s: for what the mark keeper's thread does in the background.
bool eventually(const std::function<bool()>& done) {
  for (int i = 0; i < 500; ++i) {
    if (done()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return done();
}

// One slot only: the second claimant must wait for the first.
constexpr const char* kOneSlot = "41.0.22@1704067200000";
}  // namespace

TEST_CASE("local: generators in one process get distinct slots, full registry names the dir",
          "[fleet][local]") {
  const std::string dir = temp_dir();
  const std::string src = "local:" + dir;
  Opts a(src, T, Mode::kStrict, "41.2.20@1704067200000");  // 4 slots
  std::vector<std::unique_ptr<Generator>> gens;
  std::set<int64_t> nodes;
  for (int i = 0; i < 4; ++i) {
    gens.push_back(std::make_unique<Generator>(a.o));
    nodes.insert(gens.back()->node_id());
    CHECK(gens.back()->status().lease_state == LeaseState::kHeld);
  }
  CHECK(nodes.size() == 4);  // OFD locks: two opens in one process never share a slot
  const Error full = error_of([&] { Generator g(a.o); });
  CHECK(full.kind() == ErrorKind::kNodeIdUnavailable);
  CHECK(std::string(full.what()).find(dir) != std::string::npos);
  const int64_t freed = gens[2]->node_id();
  gens[2]->close();
  CHECK(gens[2]->status().lease_state == LeaseState::kReleased);
  Generator again(a.o);
  CHECK(again.node_id() == freed);
}

TEST_CASE("local: the generator's own thread keeps the mark ahead, close() lowers it",
          "[fleet][local]") {
  const std::string dir = temp_dir();
  Opts a("local:" + dir, T);
  a.o.max_wait_ms = 1000;  // a call that overtakes the keeper waits for it (disks vary)
  Generator g(a.o);
  // Written before the constructor returned, so no call waits for the first write.
  CHECK(g.stats().mark_writes == 1);
  CHECK(mark_in(dir, g.node_id()) == T + 1000);
  CHECK(g.status().mark_ms == T + 1000);
  CHECK(decode(Layout(), g.next_id()).timestamp_ms == T);
  // Ids well inside the reserved second write nothing more.
  for (int i = 0; i < 100; ++i) g.next_id();
  a.clock->set_wall_ms(T + 400);
  for (int i = 0; i < 100; ++i) g.next_id();
  std::this_thread::sleep_for(std::chrono::milliseconds(300));  // many keeper ticks
  CHECK(g.stats().mark_writes == 1);
  // Below half a second of headroom the keeper writes again, ahead of need.
  a.clock->set_wall_ms(T + 600);
  g.next_id();
  CHECK(eventually([&] { return g.stats().mark_writes == 2; }));
  CHECK(mark_in(dir, g.node_id()) == T + 1600);
  CHECK(g.stats().waits == 0);
  // A call past the mark asks the keeper and waits for it; it never writes itself.
  a.clock->set_wall_ms(T + 1700);
  CHECK(decode(Layout(), g.next_id()).timestamp_ms == T + 1700);
  CHECK(mark_in(dir, g.node_id()) == T + 2700);
  const int64_t node = g.node_id();
  const uint64_t writes = g.stats().mark_writes;
  g.close();
  CHECK(mark_in(dir, node) == T + 1700);  // the last issued millisecond
  CHECK(g.stats().mark_writes == writes + 1);
}

TEST_CASE("local: a new holder issues nothing at or below the slot's mark", "[fleet][local]") {
  const std::string dir = temp_dir();
  const std::string src = "local:" + dir;
  int64_t last = 0;
  {
    Opts a(src, T + 5000, Mode::kStrict, kOneSlot);
    Generator g(a.o);
    last = g.next_id();
  }  // closed: mark = T + 5000
  SECTION("strict: refuses while the clock is behind the mark, and says so") {
    Opts b(src, T, Mode::kStrict, kOneSlot);
    Generator g(b.o);
    CHECK(g.status().mark_ms == T + 6000);  // the claimed mark plus our own reservation
    const Error e = error_of([&] { g.next_id(); });
    CHECK(e.kind() == ErrorKind::kClockMovedBackwards);
    CHECK(e.drift_ms() == 5000);
    const std::string msg = e.what();
    CHECK(msg.find("high-water mark " + std::to_string(T + 5000)) != std::string::npos);
    CHECK(msg.find(dir) != std::string::npos);
    const Status st = g.status();
    CHECK_FALSE(st.healthy);
    CHECK(st.reason.find("high-water mark") != std::string::npos);
    CHECK(st.last_ms == -1);
    CHECK(g.drift_ms() == 5000);
    b.clock->set_wall_ms(T + 5000);  // still the mark's millisecond: spent
    CHECK(error_of([&] { g.next_id(); }).kind() == ErrorKind::kClockMovedBackwards);
    b.clock->set_wall_ms(T + 5001);
    const int64_t id = g.next_id();
    CHECK(id > last);
    CHECK(decode(Layout::parse(kOneSlot), id).timestamp_ms == T + 5001);
    CHECK(g.status().healthy);
  }
  SECTION("strict: a mark within the wait budget is waited out") {
    Opts b(src, T + 4998, Mode::kStrict, kOneSlot);
    b.clock->append(T + 4999);
    b.clock->append(T + 5000);
    b.clock->append(T + 5001);
    Generator g(b.o);
    CHECK(decode(Layout::parse(kOneSlot), g.next_id()).timestamp_ms == T + 5001);
    CHECK(g.stats().waits == 1);
  }
  SECTION("monotonic: continues after the mark when within max_drift_ms") {
    Opts b(src, T + 4500, Mode::kMonotonic, kOneSlot);
    Generator g(b.o);
    const int64_t id = g.next_id();
    CHECK(id > last);
    CHECK(decode(Layout::parse(kOneSlot), id).timestamp_ms == T + 5001);
    b.clock->set_wall_ms(T);  // 5 s behind: beyond max_drift_ms
    CHECK(error_of([&] { g.next_id(); }).kind() == ErrorKind::kClockMovedBackwards);
  }
}

TEST_CASE("local: a crashed holder's slot is free, and its reservation is respected",
          "[fleet][local]") {
  const std::string dir = temp_dir();
  const std::string src = "local:" + dir;
  const pid_t pid = fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    Opts a(src, T, Mode::kStrict, kOneSlot);
    Generator g(a.o);
    g.next_id();
    _exit(0);  // no close(): the kernel drops the lock, the mark stays T + 1000
  }
  int status = 0;
  waitpid(pid, &status, 0);
  REQUIRE(WIFEXITED(status));
  Opts b(src, T + 500, Mode::kStrict, kOneSlot);
  Generator g(b.o);
  CHECK(g.status().mark_ms == T + 2000);  // the crashed holder's T + 1000, then ours
  const Error e = error_of([&] { g.next_id(); });
  CHECK(e.kind() == ErrorKind::kClockMovedBackwards);
  CHECK(std::string(e.what()).find(std::to_string(T + 1000)) != std::string::npos);
  b.clock->set_wall_ms(T + 1001);
  CHECK(decode(Layout::parse(kOneSlot), g.next_id()).timestamp_ms == T + 1001);
}

TEST_CASE("local: a forked child neither releases nor rewrites the parent's slot",
          "[fleet][local]") {
  const std::string dir = temp_dir();
  const std::string src = "local:" + dir;
  Opts a(src, T, Mode::kStrict, kOneSlot);
  auto g = std::make_unique<Generator>(a.o);
  g->next_id();
  const pid_t pid = fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    bool ok = false;
    try {
      g->next_id();  // claims a slot of its own: the only one is the parent's
    } catch (const Error& e) {
      ok = e.kind() == ErrorKind::kNodeIdUnavailable;
    }
    g.reset();  // close() in the child: must not unlock or write the mark
    // The parent still holds the only slot.
    Opts c(src, T, Mode::kStrict, kOneSlot);
    try {
      Generator other(c.o);
      ok = false;
    } catch (const Error& e) {
      ok = ok && e.kind() == ErrorKind::kNodeIdUnavailable;
    }
    _exit(ok ? 0 : 1);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  CHECK(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 0);
  CHECK(mark_in(dir, 0) == T + 1000);  // untouched by the child
  Opts c(src, T, Mode::kStrict, kOneSlot);
  CHECK(error_of([&] { Generator other(c.o); }).kind() == ErrorKind::kNodeIdUnavailable);
  CHECK(g->next_id() > 0);
  g->close();
  CHECK(mark_in(dir, 0) == T);
}

TEST_CASE("local: a failed mark write refuses only ids the persisted mark does not cover",
          "[fleet][local]") {
  const std::string dir = temp_dir();
  Opts a("local:" + dir, T, Mode::kStrict, kOneSlot);
  a.o.max_wait_ms = 1000;
  Generator g(a.o);
  g.next_id();  // mark T + 1000, written by the constructor
  const std::string tmp = dir + "/slot-0000.mark.tmp";
  REQUIRE(mkdir(tmp.c_str(), 0700) == 0);  // the next write cannot create its temp file
  a.clock->set_wall_ms(T + 600);
  g.next_id();  // the keeper now tries to write ahead, and fails
  a.clock->set_wall_ms(T + 1000);
  g.next_id();  // covered by the persisted mark
  a.clock->set_wall_ms(T + 1001);
  const Error e = error_of([&] { g.next_id(); });
  CHECK(e.kind() == ErrorKind::kLeaseLost);
  CHECK(std::string(e.what()).find("could not persist") != std::string::npos);
  CHECK(g.status().lease_state == LeaseState::kHeld);  // transient: the slot is still ours
  REQUIRE(rmdir(tmp.c_str()) == 0);
  // The keeper retries every tick; once a write succeeds the call is served.
  CHECK(eventually([&] {
    try {
      return decode(Layout::parse(kOneSlot), g.next_id()).timestamp_ms == T + 1001;
    } catch (const Error&) {
      return false;
    }
  }));
  CHECK(mark_in(dir, 0) == T + 2001);
}

namespace {
std::atomic<int> g_hook_enters{0}, g_hook_leaves{0};
void* hook_enter(void*) {
  g_hook_enters.fetch_add(1);
  return &g_hook_enters;
}
void hook_leave(void*, void* token) {
  if (token == &g_hook_enters) g_hook_leaves.fetch_add(1);
}
}  // namespace

TEST_CASE("local: waiting for the mark keeper and close() run inside the wait hooks",
          "[fleet][local]") {
  const std::string dir = temp_dir();
  Opts a("local:" + dir, T);
  a.o.max_wait_ms = 1000;
  a.o.wait_hooks.enter = hook_enter;
  a.o.wait_hooks.leave = hook_leave;
  g_hook_enters = g_hook_leaves = 0;
  Generator g(a.o);
  g.next_id();  // covered by the mark the constructor wrote: no hook
  g.next_id();
  CHECK(g_hook_enters == 0);
  a.clock->set_wall_ms(T + 5000);  // past the mark: this call waits for the keeper
  g.next_id();
  CHECK(g.stats().waits == 0);  // not a clock wait
  CHECK(g_hook_enters == 1);
  g.close();  // stopping the keeper, the final mark write, the release
  CHECK(g_hook_enters == 4);
  CHECK(g_hook_leaves == 4);
}

TEST_CASE("local: threads share a leased generator, the mark covers every id", "[fleet][local]") {
  const std::string dir = temp_dir();
  GeneratorOptions o;
  o.node_source = "local:" + dir;
  o.mode = Mode::kMonotonic;
  Generator g(o);
  std::vector<std::vector<int64_t>> got(4);
  std::vector<ErrorKind> ended(4, ErrorKind::kInternal);  // Catch2 asserts are not thread-safe
  std::vector<std::thread> pool;
  for (int t = 0; t < 4; ++t)
    pool.emplace_back([&, t] {
      try {
        for (;;) got[static_cast<size_t>(t)].push_back(g.next_id());
      } catch (const Error& e) {
        ended[static_cast<size_t>(t)] = e.kind();
      }
    });
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  g.close();  // races with the minting threads
  for (auto& th : pool) th.join();
  for (ErrorKind k : ended) CHECK(k == ErrorKind::kGeneratorClosed);
  std::vector<int64_t> all;
  for (auto& v : got) all.insert(all.end(), v.begin(), v.end());
  std::sort(all.begin(), all.end());
  REQUIRE(!all.empty());
  CHECK(std::adjacent_find(all.begin(), all.end()) == all.end());
  // close() persisted the last issued ms: no id, not even one racing close(), lies above.
  CHECK(decode(Layout(), all.back()).timestamp_ms <= mark_in(dir, g.node_id()));
  CHECK(g.stats().ids_issued == all.size());
  CHECK(g.stats().mark_writes <= 4);  // ~0.3 s of minting: one write ahead + one at close
}

// ---- etcd ---------------------------------------------------------------------------------
#if SNOWFLEET_HAVE_ETCD
namespace {
// $SNOWFLEET_TEST_ETCD_QUERY (TLS or user options) and $SNOWFLEET_TEST_ETCD_PREFIX (a key
// prefix the etcd user may write) let tests/fleet/etcd_tls_auth_test.py run these tests
// over TLS and with authentication.
std::string etcd_source(const std::string& prefix, const std::string& query = "ttl=2") {
  const char* ep = std::getenv("SNOWFLEET_TEST_ETCD");
  REQUIRE(ep != nullptr);  // scripts/test/fleet.sh sets it
  const char* extra = std::getenv("SNOWFLEET_TEST_ETCD_QUERY");
  const char* root = std::getenv("SNOWFLEET_TEST_ETCD_PREFIX");
  static int counter = 0;
  return std::string("etcd://") + ep + "/" + (root ? root : "") + prefix + "-" +
         std::to_string(getpid()) + "-" + std::to_string(++counter) + "?" + query +
         (extra && *extra ? std::string("&") + extra : "");
}

// etcdctl with the same endpoint and credentials ($SNOWFLEET_TEST_ETCDCTL when set).
std::string etcdctl() {
  const char* cmd = std::getenv("SNOWFLEET_TEST_ETCDCTL");
  if (cmd && *cmd) return cmd;
  return "ETCDCTL_API=3 etcdctl --endpoints " + std::string(std::getenv("SNOWFLEET_TEST_ETCD"));
}
}  // namespace

TEST_CASE("etcd: distinct slots, revoke on close, pinned slot held once", "[.etcd][fleet]") {
  const std::string src = etcd_source("distinct", "ttl=5&node=9");
  Opts a(src, T);
  auto g = std::make_unique<Generator>(a.o);
  CHECK(g->node_id() == 9);
  CHECK(g->status().lease_state == LeaseState::kHeld);
  CHECK(g->status().lease_expires_in_ms > 0);
  const Error e = error_of([&] { Generator other(a.o); });
  CHECK(e.kind() == ErrorKind::kNodeIdUnavailable);
  CHECK(std::string(e.what()).find("held by another process") != std::string::npos);
  g->next_id();
  g->close();  // revokes: the slot is free at once, no TTL wait
  Generator again(a.o);
  CHECK(again.node_id() == 9);
  // close() lowered the mark to the last issued ms, T; the new holder's first mark is that
  // plus the lease's lead (TTL 5 s) and 1 s ahead. (Had close() not lowered it, the mark
  // would start from the old reservation T + 6000 and be T + 12000.)
  CHECK(again.status().mark_ms == T + 5000 + 1000);

  const std::string shared = etcd_source("many");
  std::set<int64_t> nodes;
  std::vector<std::unique_ptr<Generator>> gens;
  for (int i = 0; i < 5; ++i) {
    Opts b(shared, T);
    gens.push_back(std::make_unique<Generator>(b.o));
    nodes.insert(gens.back()->node_id());
  }
  CHECK(nodes.size() == 5);
}

TEST_CASE("etcd: restarting a slot with the clock behind its mark refuses", "[.etcd][fleet]") {
  const std::string src = etcd_source("mark", "ttl=5&node=3");
  {
    Opts a(src, T + 5000);
    Generator g(a.o);
    g.next_id();
    CHECK(g.stats().mark_writes == 1);
    CHECK(g.status().mark_ms == T + 5000 + 5000 + 1000);  // run + TTL lead + 1 s ahead
  }
  Opts b(src, T);
  Generator g(b.o);
  CHECK(g.status().mark_ms == T + 5000 + 5000 + 1000);  // the claimed mark, then ours on it
  const Error e = error_of([&] { g.next_id(); });
  CHECK(e.kind() == ErrorKind::kClockMovedBackwards);
  CHECK(std::string(e.what()).find("high-water mark " + std::to_string(T + 5000)) !=
        std::string::npos);
  b.clock->set_wall_ms(T + 5001);
  CHECK(decode(Layout(), g.next_id()).timestamp_ms == T + 5001);
}

TEST_CASE("etcd: past the local deadline every call raises LeaseLost until a keepalive",
          "[.etcd][fleet]") {
  Opts a(etcd_source("fence", "ttl=2"), T);
  Generator g(a.o);
  g.next_id();
  // The process "pauses": 2 s pass on its monotonic clock. The wall clock moves on too
  // (only 500 ms here, as if it had been stepped back meanwhile, so that the id would
  // still be inside the reserved mark and only the deadline can stop it).
  a.clock->sleep_ns(2'000'000'000);
  a.clock->set_wall_ms(T + 500);
  const Error e = error_of([&] { g.next_id(); });
  CHECK(e.kind() == ErrorKind::kLeaseLost);
  CHECK(std::string(e.what()).find("unconfirmed") != std::string::npos);
  CHECK(g.status().lease_state == LeaseState::kUnconfirmed);
  CHECK_FALSE(g.status().healthy);
  CHECK(g.status().lease_expires_in_ms < 0);
  CHECK(g.stats().lease_refusals == 1);
  // The lease is in fact alive in etcd: the next keepalive (every ttl/3) confirms it.
  bool served = false;
  for (int i = 0; i < 40 && !served; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    served = g.status().lease_state == LeaseState::kHeld;
  }
  CHECK(served);
  CHECK(g.next_id() > 0);
}

TEST_CASE("etcd: a forked child neither revokes nor renews for the parent", "[.etcd][fleet]") {
  const std::string src = etcd_source("fork", "ttl=2&node=2");
  Opts a(src, T);
  auto g = std::make_unique<Generator>(a.o);
  g->next_id();
  const pid_t pid = fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    g.reset();  // close() in the child: no revoke, no mark write, no join of a thread
    _exit(0);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  CHECK(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 0);
  CHECK(error_of([&] { Generator other(a.o); }).kind() == ErrorKind::kNodeIdUnavailable);
  std::this_thread::sleep_for(std::chrono::milliseconds(2500));  // past the TTL
  CHECK(g->status().lease_state == LeaseState::kHeld);           // the parent's keepalives go on
  CHECK(error_of([&] { Generator other(a.o); }).kind() == ErrorKind::kNodeIdUnavailable);
  CHECK(g->status().mark_ms == T + 2000 + 1000);  // the child wrote nothing
}

TEST_CASE("etcd: a slot taken over from an expired lease is held right after construction",
          "[.etcd][fleet]") {
  const std::string src = etcd_source("takeover", "ttl=2&node=6");
  GeneratorOptions o;
  o.node_source = src;
  const pid_t pid = fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    // The previous holder dies without closing: its lease is not revoked, it expires.
    Generator* g = new Generator(o);
    g->next_id();
    _exit(0);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  REQUIRE(WIFEXITED(status));
  REQUIRE(WEXITSTATUS(status) == 0);
  std::unique_ptr<Generator> g;
  for (int i = 0; i < 100 && !g; ++i) {  // until etcd expires the old lease (TTL 2 s)
    try {
      g = std::make_unique<Generator>(o);
    } catch (const Error& e) {
      REQUIRE(e.kind() == ErrorKind::kNodeIdUnavailable);
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
  }
  REQUIRE(g != nullptr);
  const Status st = g->status();
  CHECK(st.lease_state == LeaseState::kHeld);
  CHECK(st.lease_expires_in_ms > 0);
}

TEST_CASE("etcd: a slot taken away is lost for good, its mark cannot be moved", "[.etcd][fleet]") {
  const std::string src = etcd_source("steal", "ttl=2&node=4");
  Opts a(src, T);
  Generator g(a.o);
  g.next_id();  // mark T + 2000 + 1000, hot limit T + 1000
  // Delete the slot key behind the holder's back (as an expired lease would).
  const std::string prefix = src.substr(src.find('/', 7) + 1, src.find('?') - src.find('/', 7) - 1);
  const std::string cmd = etcdctl() + " del " + prefix + "/slots/0004 >/dev/null";
  REQUIRE(std::system(cmd.c_str()) == 0);
  a.clock->set_wall_ms(T + 1500);  // needs a new mark: the compare-and-swap fails
  // Until that write's failure is known the call may wait and give up ("not persisted
  // beyond", still held) or, once the keeper has started the write, issue an id the
  // persisted mark covers (T + 3000: allowed while a write is in flight). On a loaded
  // machine either comes first (both before the slot is lost, the first also as
  // LEASE_LOST); the refusal once the write's failure is known is the point.
  Error e(ErrorKind::kInternal, "no refusal yet");
  for (int i = 0; i < 50; ++i) {
    const bool lost = g.status().lease_state == LeaseState::kLost;
    try {
      g.next_id();
    } catch (const Error& err) {
      e = err;
    }
    if (lost) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  CHECK(e.kind() == ErrorKind::kLeaseLost);
  CHECK(std::string(e.what()).find("no longer ours") != std::string::npos);
  CHECK(g.status().lease_state == LeaseState::kLost);
  a.clock->set_wall_ms(T + 1);  // even inside the old reservation: lost is final
  CHECK(error_of([&] { g.next_id(); }).kind() == ErrorKind::kLeaseLost);
}

TEST_CASE("etcd auth: expired tokens are renewed for keepalives, marks and the revoke",
          "[.etcd-auth]") {
  // Run against an etcd with authentication and --auth-token-ttl=1 (a simple token dies
  // after a second unused): every keepalive (each 2 s at ttl=6) and the close() after the
  // pause below find their token expired.
  GeneratorOptions o;
  o.node_source = etcd_source("token", "ttl=6&node=5");
  REQUIRE(o.node_source.find("user=") != std::string::npos);
  auto g = std::make_unique<Generator>(o);
  g->next_id();
  // Past the first deadline a lease could have without a keepalive (6 s - margin 1.2 s).
  std::this_thread::sleep_for(std::chrono::milliseconds(5500));
  CHECK(g->status().lease_state == LeaseState::kHeld);
  CHECK(g->status().lease_expires_in_ms > 0);
  CHECK(g->next_id() > 0);
  std::this_thread::sleep_for(std::chrono::milliseconds(2500));  // the claim handle's token dies
  g->close();  // the final mark write and the revoke: the slot is free at once
  Generator again(o);
  CHECK(again.node_id() == 5);
}
#endif

TEST_CASE("etcd: unreachable store and bad specs", "[fleet][etcd-offline]") {
  Opts a("etcd://127.0.0.1:1/x?ttl=2", T);
#if SNOWFLEET_HAVE_ETCD
  const Error e = error_of([&] { Generator g(a.o); });
  CHECK(e.kind() == ErrorKind::kNodeIdUnavailable);
  CHECK(std::string(e.what()).find("unreachable") != std::string::npos);
  for (const char* bad : {"etcd://host/x", "etcd://h:99999/x", "etcd://h:1/x?ttl=1",
                          "etcd://h:1/x?color=red", "etcd://h:1/x?node=1024"}) {
    Opts b(bad, T);
    CHECK(error_of([&] { Generator g(b.o); }).kind() == ErrorKind::kInvalidArgument);
  }
#else
  const Error e = error_of([&] { Generator g(a.o); });
  CHECK(e.kind() == ErrorKind::kNodeIdUnavailable);
  CHECK(std::string(e.what()).find("without etcd support") != std::string::npos);
#endif
}
