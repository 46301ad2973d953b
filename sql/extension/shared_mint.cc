// The node's state in shared memory and its high-water mark file (mint.hpp).
//
// The mark, $PGDATA/snowfleet.mark (one decimal Unix ms, read and written by the core's
// mark-file functions, the ones a local node-id registry uses), is the last millisecond any
// id may have been issued in. A background worker keeps it ahead of the ids (kMarkAheadMs
// past max(wall clock, last issued ms), rewritten durably before the headroom falls below
// kMarkRewriteMs) and only then moves the limit in shared memory: backends never write a
// file, and never issue an id the file does not cover.
//
// Shared memory is made at server start and again after a backend crash (PostgreSQL's
// reinitialisation): each time the state word starts after the mark, so no id is issued
// twice across a crash. A mark file that is missing is not an empty history: the word
// starts after now + max_drift_ms + kMarkAheadMs (what any earlier mark could have
// covered, unless the clock went back since), and the server log says so. A mark file that
// cannot be read refuses minting, naming the file, until a DBA fixes or removes it.
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <new>
#include <string>

#include "bridge.hpp"
#include "lease/local_registry.hpp"  // the core's mark-file reader and writer
#include "mint.hpp"
#include "node_lease.hpp"
#include "pg.hpp"

extern "C" {
#include "miscadmin.h"
#include "postmaster/bgworker.h"
#include "postmaster/interrupt.h"
#include "storage/ipc.h"
#include "storage/latch.h"
#include "storage/lwlock.h"
#include "storage/shmem.h"
#include "utils/guc.h"
#include "utils/wait_event.h"
}

namespace reg = snowfleet::detail::registry;

namespace snowfleet_pg {
namespace {

SharedMint* mint = nullptr;
shmem_request_hook_type prev_request = nullptr;
shmem_startup_hook_type prev_startup = nullptr;
// The postmaster's memory outlives a crash's reinitialisation: the start it last chose.
int64_t remembered_start_ms = INT64_MIN;

int64_t wall_ms() {
  timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  return static_cast<int64_t>(ts.tv_sec) * 1000 + ts.tv_nsec / 1000000;
}

int open_data_dir() { return open(DataDir, O_RDONLY | O_DIRECTORY | O_CLOEXEC); }

// Where the word starts, from the mark file: *problem set when it cannot be used, *note
// when the log should say how the start was chosen.
int64_t start_ms(const Settings& s, std::string* problem, std::string* note) {
  const int fd = open_data_dir();
  int64_t mark = 0;
  std::string why;
  const reg::MarkFile r = fd < 0 ? reg::MarkFile::kUnusable
                                 : reg::read_mark(fd, kMarkSlot, DataDir, &mark, &why);
  if (fd >= 0) close(fd);
  if (fd < 0) why = std::string(DataDir) + ": cannot open the data directory";
  if (r == reg::MarkFile::kUnusable) {
    *problem = "the high-water mark file " + why +
               ", so it cannot be used; fix it, or remove it to start after now + " +
               std::to_string(s.max_drift_ms + kMarkAheadMs) + " ms";
    return INT64_MIN;
  }
  if (r == reg::MarkFile::kValue) return std::max(mark, remembered_start_ms);
  const int64_t start = wall_ms() + std::max(s.max_drift_ms, 0) + kMarkAheadMs;
  *note = std::string("no high-water mark file ") + DataDir + "/" + kMarkSlot +
          ".mark (a new server, or it was removed): minting starts after " +
          std::to_string(start) + " ms, now + " + std::to_string(start - wall_ms()) + " ms";
  return std::max(start, remembered_start_ms);
}

void init_shared(SharedMint* m, char* note, size_t note_size) {
  new (m) SharedMint();
  m->state.store(-1);
  m->mark_limit.store(-1);
  m->mark_ms.store(-1);
  m->start.store(-1);
  m->problem[0] = '\0';
  m->leased_node.store(-1);
  m->lease_deadline_ns.store(INT64_MAX);
  SpinLockInit(&m->lease_lock);
  snprintf(m->lease_problem, sizeof m->lease_problem, "%s",
           "the background worker has not claimed it yet");
  note[0] = '\0';
  std::string problem, said;
  Failure f;
  const Settings s = settings();
  if (!attempt(f, [&] {
        const snowfleet::Layout layout = snowfleet::Layout::parse(s.layout);
        const int64_t start = start_ms(s, &problem, &said);
        if (start == INT64_MIN) return;
        remembered_start_ms = start;
        const int64_t packed = snowfleet::last_packed_of_ms(layout, start);
        m->state.store(packed);
        m->start.store(packed);
        m->mark_limit.store(packed);  // nothing issued until the worker writes a mark
        m->mark_ms.store(start);
      }))
    problem = std::string(snowfleet::error_code(f.kind)) + ": " + f.message;
  snprintf(m->problem, sizeof m->problem, "%s", problem.c_str());
  snprintf(note, note_size, "%s", said.c_str());
}

void request_hook() {
  if (prev_request) prev_request();
  RequestAddinShmemSpace(sizeof(SharedMint));
}

void startup_hook() {
  if (prev_startup) prev_startup();
  LWLockAcquire(AddinShmemInitLock, LW_EXCLUSIVE);
  bool found = false;
  mint = static_cast<SharedMint*>(ShmemInitStruct("snowfleet", sizeof(SharedMint), &found));
  char note[512];
  note[0] = '\0';
  if (!found) init_shared(mint, note, sizeof note);
  LWLockRelease(AddinShmemInitLock);
  if (!found && mint->problem[0] != '\0')
    ereport(WARNING, (errmsg("snowfleet: minting is refused: %s", mint->problem)));
  if (note[0] != '\0') ereport(LOG, (errmsg("snowfleet: %s", note)));
}

// One look at the mark: rewritten when its headroom is short. Returns false with *why
// when a write failed.
bool keep_mark(SharedMint* m, const snowfleet::Layout& layout, int dir_fd, LeaseHolder* lease,
               bool* written, char* why, size_t why_size) {
  const int64_t need =
      std::max(wall_ms(), snowfleet::ms_of_packed(layout, m->state.load()));
  const int64_t persisted = m->mark_ms.load();
  if (*written && persisted - need >= kMarkRewriteMs) return true;
  const int64_t target = std::max(need + kMarkAheadMs, persisted);
  std::string problem;
  bool ok = false;
  Failure f;
  if (!attempt(f, [&] { ok = reg::write_mark(dir_fd, kMarkSlot, DataDir, target, &problem); }))
    problem = f.message;
  if (ok) ok = lease->write_mark(target, &problem);  // a leased node id: also in its slot
  if (!ok) {
    snprintf(why, why_size, "%s", problem.c_str());
    return false;
  }
  m->mark_ms.store(target);
  m->mark_limit.store(snowfleet::last_packed_of_ms(layout, target));
  *written = true;
  return true;
}

}  // namespace

SharedMint* shared_mint() noexcept { return mint; }

void request_shared_memory() {
  prev_request = shmem_request_hook;
  shmem_request_hook = request_hook;
  prev_startup = shmem_startup_hook;
  shmem_startup_hook = startup_hook;
}

void register_mark_worker() {
  BackgroundWorker w;
  memset(&w, 0, sizeof w);
  w.bgw_flags = BGWORKER_SHMEM_ACCESS;
  w.bgw_start_time = BgWorkerStart_PostmasterStart;
  w.bgw_restart_time = 1;  // also restarted after a crash's reinitialisation
  snprintf(w.bgw_library_name, BGW_MAXLEN, "snowfleet");
  snprintf(w.bgw_function_name, BGW_MAXLEN, "snowfleet_mark_worker_main");
  snprintf(w.bgw_name, BGW_MAXLEN, "snowfleet mark writer");
  snprintf(w.bgw_type, BGW_MAXLEN, "snowfleet mark writer");
  RegisterBackgroundWorker(&w);
}

}  // namespace snowfleet_pg

using namespace snowfleet_pg;

extern "C" SNOWFLEET_PG_EXPORT void snowfleet_mark_worker_main(Datum);

namespace {

// snowfleet.node_source: claims the node id, trying again every second (the reason is
// published for backends, and logged when it changes); false when shut down first.
bool claim_node_id(SharedMint* m, LeaseHolder* lease, const snowfleet::Layout& layout) {
  m->leased_node.store(-1);  // a restarted worker's lease ended with its predecessor
  char said[sizeof m->lease_problem] = "";
  while (!lease->claim(m, settings().node_source, layout)) {
    char why[sizeof m->lease_problem];
    lease_problem(m, why, sizeof why);
    if (strcmp(why, said) != 0)
      ereport(WARNING, (errmsg("snowfleet: no node id from snowfleet.node_source: %s", why)));
    snprintf(said, sizeof said, "%s", why);
    (void)WaitLatch(MyLatch, WL_LATCH_SET | WL_TIMEOUT | WL_EXIT_ON_PM_DEATH, 1000,
                    PG_WAIT_EXTENSION);
    ResetLatch(MyLatch);
    if (ShutdownRequestPending) return false;
  }
  ereport(LOG, (errmsg("snowfleet: node id %lld leased from snowfleet.node_source",
                       static_cast<long long>(m->leased_node.load()))));
  return true;
}

}  // namespace

// The mark writer: claims a leased node id when snowfleet.node_source is set, then every
// 10 ms (or when a waiting backend sets its latch) keeps the mark ahead of the ids.
void snowfleet_mark_worker_main(Datum) {
  pqsignal(SIGHUP, SignalHandlerForConfigReload);
  pqsignal(SIGTERM, SignalHandlerForShutdownRequest);
  BackgroundWorkerUnblockSignals();
  SharedMint* m = shared_mint();
  if (m == nullptr || m->problem[0] != '\0') proc_exit(0);  // nothing to keep: not restarted
  snowfleet::Layout layout;
  Failure f;
  if (!attempt(f, [&] { layout = snowfleet::Layout::parse(settings().layout); })) raise(f);
  const int dir_fd = open_data_dir();
  if (dir_fd < 0)
    ereport(ERROR, (errcode_for_file_access(), errmsg("snowfleet: cannot open %s", DataDir)));
  m->worker_latch.store(reinterpret_cast<int64_t>(MyLatch));
  // Kept out of this frame: ereport(ERROR) leaves it without running destructors.
  static LeaseHolder lease;
  // Exit code 1 on SIGTERM: the postmaster starts the worker again (code 0 would end it for
  // good, and minting with it once the mark's headroom is spent); at shutdown it does not.
  if (settings().node_source[0] != '\0' && !claim_node_id(m, &lease, layout)) proc_exit(1);
  bool written = false;
  // 0, not INT64_MIN: wall_ms() - INT64_MIN would overflow.
  int64_t warned_at = 0;
  char why[512];
  for (;;) {
    if (!lease.keep(m)) {
      set_lease_problem(m, "the node-id lease was lost; the worker claims a node id again");
      ereport(ERROR, (errmsg("snowfleet: the node-id lease was lost")));  // restarted in 1 s
    }
    if (!keep_mark(m, layout, dir_fd, &lease, &written, why, sizeof why) &&
        wall_ms() - warned_at > 10000) {
      warned_at = wall_ms();
      ereport(WARNING, (errmsg("snowfleet: cannot persist the high-water mark: %s", why)));
    }
    (void)WaitLatch(MyLatch, WL_LATCH_SET | WL_TIMEOUT | WL_EXIT_ON_PM_DEATH, 10,
                    PG_WAIT_EXTENSION);
    ResetLatch(MyLatch);
    if (ShutdownRequestPending) break;
    if (ConfigReloadPending) {
      ConfigReloadPending = false;
      ProcessConfigFile(PGC_SIGHUP);
    }
  }
  m->worker_latch.store(0);
  lease.release(m);
  proc_exit(1);
}
