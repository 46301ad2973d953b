// snowfleet.next_id(): the core's generator on the id space in shared memory (mint.hpp);
// snowfleet.next_uuid7(): the core's UUIDv7 generator, one per backend.
//
// Each backend makes its generator at its first call (backends are forked from the
// postmaster, and the core refuses a generator made before fork), and remakes it when
// snowfleet.mode, .max_wait_ms or .max_drift_ms changed on reload. The generator's clock is
// PostgreSQL's: its sleep waits on the backend's latch, at most 10 ms at a time, and when an
// interrupt is pending (a query cancel, statement_timeout, a shutdown) it throws
// Interrupted instead; next_id() then lets PostgreSQL serve the interrupt with
// CHECK_FOR_INTERRUPTS() after the C++ frames are gone, never longjmp-ing through them.
#include <time.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <memory>
#include <string>

#include "bridge.hpp"
#include "mint.hpp"
#include "node_lease.hpp"
#include "pg.hpp"
#include "snowfleet/generator.hpp"
#include "snowfleet/uuid7.hpp"

extern "C" {
#include "access/xlog.h"
#include "miscadmin.h"
#include "storage/latch.h"
#include "utils/wait_event.h"
}

using namespace snowfleet_pg;

namespace {

constexpr int64_t kNsPerMs = 1000000;

int64_t read_clock(clockid_t id) {
  timespec ts;
  clock_gettime(id, &ts);
  return static_cast<int64_t>(ts.tv_sec) * 1000000000 + ts.tv_nsec;
}

// Sleeps on the latch for up to `ms`; a PostgreSQL error there is kept and thrown as
// PostgresError (no object with a destructor lives in this frame).
void wait_on_latch(long ms) {
  volatile bool failed = false;
  PG_TRY();
  {
    (void)WaitLatch(MyLatch, WL_LATCH_SET | WL_TIMEOUT | WL_EXIT_ON_PM_DEATH, ms,
                    PG_WAIT_EXTENSION);
    ResetLatch(MyLatch);
  }
  PG_CATCH();
  {
    keep_pending_error();
    failed = true;
  }
  PG_END_TRY();
  if (failed) throw PostgresError{};
}

class PostgresClock final : public snowfleet::Clock {
 public:
  int64_t wall_ns() override {
    // snowfleet.test_clock_offset_ms (superuser only) moves this session's clock in tests.
    return read_clock(CLOCK_REALTIME) + settings().test_clock_offset_ms * kNsPerMs;
  }
  int64_t monotonic_ns() override { return read_clock(CLOCK_MONOTONIC); }
  void sleep_ns(int64_t ns) override {
    throw_if_interrupted();
    // A backend waiting for the mark wakes its writer.
    if (SharedMint* m = shared_mint())
      if (const int64_t latch = m->worker_latch.load())
        SetLatch(reinterpret_cast<Latch*>(latch));
    if (ns < kNsPerMs) {
      const timespec ts{0, static_cast<long>(ns)};
      nanosleep(&ts, nullptr);
    } else {
      wait_on_latch(static_cast<long>(std::min<int64_t>(ns / kNsPerMs, 10)));
    }
    throw_if_interrupted();
  }

 private:
  static void throw_if_interrupted() {
    if (InterruptPending && INTERRUPTS_CAN_BE_PROCESSED()) throw Interrupted{};
  }
};

const std::shared_ptr<snowfleet::Clock>& postgres_clock() {
  static const std::shared_ptr<snowfleet::Clock> clock = std::make_shared<PostgresClock>();
  return clock;
}

// The settings a backend's generator was made with: it is remade when a reload changed
// one (a reload replaces the mode's string: its text is kept).
struct MadeWith {
  bool made = false;
  int64_t node_id = -1;
  std::string mode;
  double max_wait_ms = 0;
  int max_drift_ms = 0;
  bool current(const Settings& s, int64_t node = -1) const {
    return made && node_id == node && mode == s.mode && max_wait_ms == s.max_wait_ms && max_drift_ms == s.max_drift_ms;
  }
  void set(const Settings& s, int64_t node = -1) {
    made = true;
    node_id = node;
    mode = s.mode;
    max_wait_ms = s.max_wait_ms;
    max_drift_ms = s.max_drift_ms;
  }
};

snowfleet::Generator* generator = nullptr;
MadeWith generator_made;

// The generator for node `node` (the setting's, or the leased one, which a restarted
// worker may have changed).
snowfleet::Generator& backend_generator(SharedMint* m, int64_t node) {
  const Settings s = settings();
  if (generator != nullptr && generator_made.current(s, node)) return *generator;
  delete generator;
  generator = nullptr;
  snowfleet::GeneratorOptions o = options_of(s);
  o.node_id = node;
  o.clock = postgres_clock();
  o.shared.state = &m->state;
  o.shared.mark_limit = &m->mark_limit;
  o.shared.start = &m->start;
  o.shared.where = std::string("PostgreSQL shared memory (mark file ") + DataDir + "/" +
                   kMarkSlot + ".mark)";
  generator = new snowfleet::Generator(std::move(o));
  generator_made.set(s, node);
  return *generator;
}

// UUIDv7s: a generator per backend, in the backend's memory (the core's UUIDv7 counter is
// seeded per process, so one shared state would not order UUIDs across backends anyway):
// a session's UUIDs increase; across sessions they are ordered by millisecond and kept
// apart by their 48 random bits, as between any two processes.
snowfleet::Uuid7Generator* uuid7_generator = nullptr;
MadeWith uuid7_made;

snowfleet::Uuid7Generator& backend_uuid7_generator() {
  const Settings s = settings();
  if (uuid7_generator != nullptr && uuid7_made.current(s)) return *uuid7_generator;
  delete uuid7_generator;
  uuid7_generator = nullptr;
  snowfleet::Uuid7Options o;
  o.mode = snowfleet::parse_mode(s.mode);
  o.max_wait_ms = s.max_wait_ms;
  o.max_drift_ms = s.max_drift_ms;
  o.clock = postgres_clock();
  uuid7_generator = new snowfleet::Uuid7Generator(std::move(o));
  uuid7_made.set(s);
  return *uuid7_generator;
}

SharedMint* minting_memory() {
  SharedMint* m = shared_mint();
  if (m == nullptr)
    ereport(ERROR,
            (errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
             errmsg("snowfleet.next_id() needs shared_preload_libraries = 'snowfleet' in "
                    "postgresql.conf (and a server restart): the server's backends mint from "
                    "one state in shared memory")));
  if (m->problem[0] != '\0') raise(snowfleet::ErrorKind::kInternal, m->problem);
  // A standby's settings are a copy of its primary's, node id included.
  if (RecoveryInProgress())
    ereport(ERROR, (errcode(ERRCODE_READ_ONLY_SQL_TRANSACTION),
                    errmsg("snowfleet.next_id() does not mint during recovery (a standby has "
                           "its primary's node id)")));
  return m;
}

// The node id to mint with. Leased (snowfleet.node_source): the one the worker holds,
// refused before it holds one and past the lease's deadline (checked at every call: a
// clock read, no system call). A fixed one: the setting, checked by the core.
int64_t node_to_mint(SharedMint* m) {
  const Settings s = settings();
  if (s.node_source[0] == '\0') return s.node_id;
  const int64_t node = m->leased_node.load();
  char why[600];
  if (node < 0) {
    char problem[sizeof m->lease_problem];
    lease_problem(m, problem, sizeof problem);
    snprintf(why, sizeof why,
             "no node id leased from snowfleet.node_source yet (the background worker "
             "\"snowfleet mark writer\" claims it): %s",
             problem);
    raise(snowfleet::ErrorKind::kNodeIdUnavailable, why);
  }
  const int64_t deadline = m->lease_deadline_ns.load();
  if (deadline == INT64_MAX) return node;
  const int64_t now = read_clock(CLOCK_MONOTONIC);
  if (now <= deadline) return node;
  snprintf(why, sizeof why,
           "node %lld: the node-id lease is %s; refusing to issue ids until the worker "
           "confirms it",
           static_cast<long long>(node),
           deadline == INT64_MIN ? "lost" : "unconfirmed: its local deadline passed");
  raise(snowfleet::ErrorKind::kLeaseLost, why);
}

}  // namespace

SNOWFLEET_PG_FUNCTION(snowfleet_next_id) {
  SharedMint* m = minting_memory();
  for (;;) {
    const int64_t node = node_to_mint(m);
    int64_t id = 0;
    Failure f;
    if (attempt(f, [&] { id = backend_generator(m, node).next_id(); })) PG_RETURN_INT64(id);
    if (f.source != Failure::Source::kInterrupted) raise(f);
    // The C++ frames are gone: PostgreSQL serves the interrupt (an ERROR for a cancel or a
    // timeout); when it was one that does not end the statement, mint again.
    CHECK_FOR_INTERRUPTS();
  }
}

SNOWFLEET_PG_FUNCTION(snowfleet_next_uuid7) {
  for (;;) {
    std::array<uint8_t, 16> bytes;
    Failure f;
    if (attempt(f, [&] { bytes = backend_uuid7_generator().next().bytes(); })) {
      pg_uuid_t* u = static_cast<pg_uuid_t*>(palloc(sizeof(pg_uuid_t)));
      std::memcpy(u->data, bytes.data(), bytes.size());
      PG_RETURN_UUID_P(u);
    }
    if (f.source != Failure::Source::kInterrupted) raise(f);
    CHECK_FOR_INTERRUPTS();
  }
}
