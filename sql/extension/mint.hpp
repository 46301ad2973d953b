// Minting inside PostgreSQL: the server is one node, and every backend mints from one id
// space whose state word lives in PostgreSQL's shared memory (the core's SharedIdSpace).
//
//   settings.cc     the GUCs (snowfleet.node_id, .layout, .mode, .max_wait_ms,
//                   .max_drift_ms), each checked by the core when set
//   shared_mint.cc  the shared memory, started above the high-water mark file
//                   $PGDATA/snowfleet.mark, and the background worker that keeps the mark
//                   ahead of the ids (no file is written on the minting path)
//   node_lease.cc   snowfleet.node_source: the worker's lease of the node id, published
//                   in shared memory for backends
//   mint.cc         snowfleet.next_id(): each backend's generator, made at its first call
//                   (the core refuses generators made before fork), on a clock whose
//                   sleep waits on the backend's latch and gives way to interrupts
#pragma once

#include <atomic>
#include <cstdint>
#include <string>

#include "snowfleet/options.hpp"

extern "C" {
#include "postgres.h"
#include "storage/spin.h"
}

namespace snowfleet_pg {

/// The node's state in shared memory.
struct SharedMint {
  std::atomic<int64_t> state;       // the id space's packed state word
  std::atomic<int64_t> mark_limit;  // last packed value the persisted mark covers
  std::atomic<int64_t> mark_ms;     // the persisted mark, Unix ms
  std::atomic<int64_t> start;       // the packed state the word started at, after the mark
  std::atomic<int64_t> worker_latch;  // the mark worker's Latch*, 0 before it runs
  char problem[512];                // not empty: minting is refused, this says why
  // snowfleet.node_source: the node id the worker holds the lease of (-1: none yet), the
  // lease's deadline on CLOCK_MONOTONIC (INT64_MAX: it cannot expire; INT64_MIN: lost),
  // and why there is no node id (under lease_lock).
  std::atomic<int64_t> leased_node;
  std::atomic<int64_t> lease_deadline_ns;
  slock_t lease_lock;
  char lease_problem[512];
};

/// The shared memory, or null when the module was not preloaded.
SharedMint* shared_mint() noexcept;

/// The settings as they are now in this process.
struct Settings {
  int node_id;
  const char* node_source;  // "" unless the node id is leased
  const char* layout;
  const char* mode;
  double max_wait_ms;
  int max_drift_ms;
  int test_clock_offset_ms;
};
Settings settings() noexcept;

/// GeneratorOptions for `s` (no shared space, system clock). Throws the core's Error for
/// a layout or mode it refuses.
snowfleet::GeneratorOptions options_of(const Settings& s);

/// How far the worker keeps the mark ahead of the ids (ms), and when it writes again: a
/// write (two fsyncs) may take a few hundred ms on a busy disk, and backends wait only
/// max_wait_ms for it, so the headroom is generous; it is also the longest a strict
/// generator refuses after a crash (the clock must pass the mark), as with the core's
/// mark keeper of a leased node id.
constexpr int64_t kMarkAheadMs = 1000;
constexpr int64_t kMarkRewriteMs = 500;
/// The mark file, in the data directory.
constexpr const char* kMarkSlot = "snowfleet";  // snowfleet.mark

void define_settings();
/// At server start, once every setting is read: refuses (ERROR, which stops the server)
/// settings that do not go together, naming the rule.
void check_settings_at_start();
void request_shared_memory();
void register_mark_worker();

}  // namespace snowfleet_pg
