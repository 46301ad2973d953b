// What an operator alerts on: the mark's headroom in status(), failed
// mark writes and failed lease renewals in stats(). The fields themselves are listed once
// (SNOWFLEET_STATS_FIELDS / SNOWFLEET_STATUS_FIELDS) and checked per language elsewhere.
#include <catch2/catch.hpp>

#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <climits>
#include <functional>
#include <memory>
#include <string>
#include <thread>

#include "mint/mark_keeper.hpp"  // internal: the keeper with a scripted lease
#include "mint/node_lease.hpp"
#include "snowfleet/snowfleet.hpp"
#include "test_util.hpp"

using namespace snowfleet;
using snowfleet_test::error_of;
using snowfleet_test::Opts;
using snowfleet_test::temp_dir;

namespace {
constexpr int64_t E = 1704067200000;
constexpr int64_t T = E + 1'000'000;  // a scripted "now"
constexpr const char* kOneSlot = "41.0.22@1704067200000";

bool eventually(const std::function<bool()>& done) {
  for (int i = 0; i < 500; ++i) {
    if (done()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return done();
}

// A lease whose renewals and mark writes fail when the test says so.
class ScriptedLease final : public detail::NodeLease {
 public:
  ScriptedLease() {
    node_id_ = 0;
    where_ = "scripted lease";
  }
  std::atomic<int> renewals_to_fail{0};
  std::atomic<bool> writes_fail{false};
  std::atomic<bool> writes_hang{false};  // a write waits until this is false again
  std::atomic<int> writes_entered{0};
  std::atomic<int> writes_held{0};  // writes that met writes_hang
  std::atomic<bool> maintain_clears_problem{false};
  int64_t lead_ms = 0;  // as etcd's (its TTL): the reserve kept while writes succeed

  int64_t mark_lead_ms() const noexcept override { return lead_ms; }
  void write_mark(int64_t mark_ms) override {
    writes_entered.fetch_add(1);
    if (writes_hang.load()) {
      writes_held.fetch_add(1);
      while (writes_hang.load()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    if (writes_fail.load()) {
      set_problem("disk full");
      throw Error(ErrorKind::kLeaseLost, "scripted lease: disk full");
    }
    mark_ms_.store(mark_ms);
  }
  void maintain() override {
    // As the local registry does: a check that finds the files in order clears the problem.
    if (maintain_clears_problem.load()) set_problem("");
    // One failed keepalive per tick, as many as scripted.
    if (renewals_to_fail.load() > 0) {
      renewals_to_fail.fetch_sub(1);
      count_renewal_failure();
    }
  }
  void release() noexcept override {}
  void abandon_after_fork() noexcept override {}
};

// A mark keeper over a scripted lease, with the generator's side of its inputs (41-bit
// window, 12 sequence bits) as fields the test reads and moves.
struct KeeperRig {
  std::atomic<int64_t> state{-1}, wall_high{0}, mark_limit{-1};
  std::atomic<uint64_t> writes{0}, write_failures{0}, renewal_failures{0};
  std::unique_ptr<detail::MarkKeeper> keeper;

  explicit KeeperRig(std::shared_ptr<detail::NodeLease> lease) {
    detail::MarkKeeper::Inputs in;
    in.lease = std::move(lease);
    in.clock = std::make_shared<ScriptedClock>(T);
    in.state = &state;
    in.wall_high = &wall_high;
    in.mark_limit = &mark_limit;
    in.mark_writes = &writes;
    in.mark_write_failures = &write_failures;
    in.renewal_failures = &renewal_failures;
    in.sequence_bits = 12;
    in.epoch_ms = E;
    in.max_elapsed_ms = (int64_t{1} << 41) - 1;
    keeper = std::make_unique<detail::MarkKeeper>(std::move(in));
  }
};
}  // namespace

TEST_CASE("status: mark_headroom_ms is how far the persisted mark runs ahead", "[fleet][local]") {
  Opts plain("static:3", T);
  CHECK(Generator(plain.o).status().mark_headroom_ms == -1);  // no lease, no mark

  const std::string dir = temp_dir();
  Opts a("local:" + dir, T, Mode::kStrict, kOneSlot);
  Generator g(a.o);
  CHECK(g.status().mark_headroom_ms == 1000);  // the constructor wrote T + 1000
  g.next_id();
  a.clock->set_wall_ms(T + 300);
  g.next_id();
  CHECK(g.status().mark_headroom_ms == 700);
  g.close();  // lowers the mark to the last issued ms: nothing ahead
  CHECK(g.status().mark_headroom_ms == 0);
}

TEST_CASE("stats: failed mark writes are counted, headroom 0 once the mark is spent",
          "[fleet][local]") {
  const std::string dir = temp_dir();
  Opts a("local:" + dir, T, Mode::kStrict, kOneSlot);
  Generator g(a.o);
  g.next_id();
  CHECK(g.stats().mark_write_failures == 0);
  const std::string tmp = dir + "/slot-0000.mark.tmp";
  REQUIRE(mkdir(tmp.c_str(), 0700) == 0);  // the next write cannot create its temp file
  a.clock->set_wall_ms(T + 600);           // under half a second left: the keeper writes
  g.next_id();
  CHECK(eventually([&] { return g.stats().mark_write_failures >= 1; }));
  a.clock->set_wall_ms(T + 1001);
  CHECK(error_of([&] { g.next_id(); }).kind() == ErrorKind::kLeaseLost);
  const Status st = g.status();
  CHECK(st.mark_headroom_ms == 0);
  CHECK(st.lease_state == LeaseState::kHeld);  // the slot is still ours: an alert, not lost
  // A call now is refused, so the generator is not healthy, and says why.
  CHECK_FALSE(st.healthy);
  CHECK(st.reason.find("could not persist the high-water mark") != std::string::npos);
  CHECK(st.reason.find(".mark.tmp") != std::string::npos);
  CHECK(g.stats().lease_refusals == 1);
  REQUIRE(rmdir(tmp.c_str()) == 0);
  CHECK(eventually([&] { return g.status().mark_headroom_ms > 0; }));  // the retry landed
  // Read only now: a write that failed just before the rmdir may still have been counting.
  const uint64_t failures = g.stats().mark_write_failures;
  std::this_thread::sleep_for(std::chrono::milliseconds(250));  // idle keeper ticks
  CHECK(g.stats().mark_write_failures == failures);
  CHECK(g.stats().lease_renewal_failures == 0);  // a local lease is never renewed
}

TEST_CASE("stats: a lease's failed renewals and mark writes reach the generator's counters",
          "[fleet]") {
  auto lease = std::make_shared<ScriptedLease>();
  KeeperRig rig(lease);
  auto [state, wall_high, mark_limit] = std::tie(rig.state, rig.wall_high, rig.mark_limit);
  auto [writes, write_failures, renewal_failures] =
      std::tie(rig.writes, rig.write_failures, rig.renewal_failures);
  detail::MarkKeeper& keeper = *rig.keeper;
  keeper.start(0);
  CHECK(writes == 1);
  lease->renewals_to_fail = 3;
  CHECK(eventually([&] { return renewal_failures.load() == 3; }));
  CHECK(lease->renewal_failures() == 3);
  lease->writes_fail = true;
  wall_high = 900;  // under half a second of headroom: the keeper writes, and fails
  CHECK(eventually([&] { return keeper.failing(); }));
  CHECK(write_failures.load() >= 1);
  keeper.stop();
  CHECK(renewal_failures == 3);  // counted once each, however many ticks saw them
}

TEST_CASE("mark keeper: why its writes fail is kept until one succeeds", "[fleet]") {
  // The keeper's thread runs the lease's checks before each write; a check that finds the
  // files in order clears the lease's problem while the mark still cannot be written. The
  // refusal and status() must still say why writes fail.
  auto lease = std::make_shared<ScriptedLease>();
  lease->maintain_clears_problem = true;
  KeeperRig rig(lease);
  detail::MarkKeeper& keeper = *rig.keeper;
  keeper.start(0);
  CHECK(keeper.failure().empty());
  lease->writes_fail = true;
  rig.wall_high = 900;  // under half a second of headroom: the keeper writes, and fails
  REQUIRE(eventually([&] { return keeper.failing(); }));
  CHECK(keeper.failure() == "scripted lease: disk full");
  // Hold the next write after its tick's check cleared the lease's problem.
  lease->writes_hang = true;
  CHECK(eventually([&] { return lease->writes_held.load() == 1; }));  // (no REQUIRE: unhang)
  CHECK(lease->problem().empty());
  CHECK(keeper.failure() == "scripted lease: disk full");
  lease->writes_fail = false;
  lease->writes_hang = false;
  REQUIRE(eventually([&] { return !keeper.failing(); }));
  CHECK(keeper.failure().empty());
  keeper.stop();
}

TEST_CASE("mark keeper: a write that lands late never lowers what may be issued", "[fleet]") {
  // A mark write held up by an etcd election lands after the clock passed its target minus
  // the lead (the reserve kept while writes succeed). While it was in flight the whole
  // previous mark could be issued; the landing must not take that back (a call then waited
  // for the next write and was refused: 1 of 32 stopped-leader runs).
  auto lease = std::make_shared<ScriptedLease>();
  lease->lead_ms = 5000;
  KeeperRig rig(lease);
  auto [state, wall_high, mark_limit] = std::tie(rig.state, rig.wall_high, rig.mark_limit);
  auto [writes, write_failures, renewal_failures] =
      std::tie(rig.writes, rig.write_failures, rig.renewal_failures);
  detail::MarkKeeper& keeper = *rig.keeper;
  keeper.start(0);  // persisted 0 + 5000 + 1000; issued up to 1000 (the lead in reserve)
  REQUIRE(writes == 1);
  CHECK((mark_limit.load() >> 12) == 1000);
  lease->writes_hang = true;
  wall_high = 600;  // under half a second of headroom: the keeper writes 600 + 6000
  REQUIRE(eventually([&] { return lease->writes_entered.load() == 2; }));
  CHECK((mark_limit.load() >> 12) == 6000);  // in flight: the whole persisted mark
  wall_high = 1700;                          // the write took 1.1 s
  lease->writes_hang = false;
  REQUIRE(eventually([&] { return writes.load() >= 2; }));  // the next tick writes again
  // The keeper is idle now (nothing minted: it looks again in 100 ms).
  CHECK((mark_limit.load() >> 12) >= 6000);
  keeper.stop();
}
