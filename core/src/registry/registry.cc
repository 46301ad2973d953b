// libsnowfleet_registry.so.1: the process's one registry of id spaces (see abi.h).
//
// Deliberately small and self-contained: no C++ runtime (no exceptions, no operator new,
// no standard containers), only libc and pthreads, so that whichever copy of the library
// a process loaded first can serve copies of the core built by other compilers or
// releases. Every function but unbias runs under one mutex; none runs per id: generators
// take their word at construction and mint on it directly.
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#if defined(__linux__)
#include <linux/membarrier.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

#include "abi.h"

// Built into a program with a static core (the Rust crate), this is the registry of last
// resort, under another name and not exported (see locate.cc); built as
// libsnowfleet_registry.so.1, it is the library's entry point.
#ifdef SNOWFLEET_REGISTRY_BUILTIN
#include "builtin.h"
#define SNOWFLEET_REGISTRY_ENTRY snowfleet_registry_builtin_v1
#define SNOWFLEET_EXPORT __attribute__((visibility("hidden")))
#else
#define SNOWFLEET_REGISTRY_ENTRY snowfleet_registry_v1
#define SNOWFLEET_EXPORT __attribute__((visibility("default")))
#endif

namespace {

struct Space {
  snowfleet_space key;  // key.exclusive: whether the open generator (if any) is exclusive
  int open;             // generators that have it open
  snowfleet_word* word;
  char description[160];
};

pthread_mutex_t g_mu = PTHREAD_MUTEX_INITIALIZER;
Space** g_spaces = nullptr;  // g_count used, g_capacity allocated
size_t g_count = 0, g_capacity = 0;

// Whether a thread may own a word (abi.h): taking a word from its owner needs a barrier
// on every thread of the process (membarrier's private expedited command), which makes the
// owner's `busy` store visible or its next read of `bias` see the revocation. Decided at
// load and in a forked child; cleared for good if the barrier is ever refused (a seccomp
// filter installed after start-up).
bool g_expedited = false;

bool register_expedited() {
#if defined(__linux__) && defined(__NR_membarrier)
  const long commands = syscall(__NR_membarrier, MEMBARRIER_CMD_QUERY, 0, 0);
  if (commands < 0 || (commands & MEMBARRIER_CMD_PRIVATE_EXPEDITED) == 0) return false;
  return syscall(__NR_membarrier, MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED, 0, 0) == 0;
#else
  return false;
#endif
}

bool barrier_every_thread() {
#if defined(__linux__) && defined(__NR_membarrier)
  return syscall(__NR_membarrier, MEMBARRIER_CMD_PRIVATE_EXPEDITED, 0, 0) == 0;
#else
  return false;
#endif
}

int64_t load(const snowfleet_word* w) { return __atomic_load_n(&w->value, __ATOMIC_ACQUIRE); }

// A word nobody holds may be owned afresh: no call can be in flight on it.
void rearm(snowfleet_word* w) {
  __atomic_store_n(&w->busy, 0, __ATOMIC_RELAXED);
  const bool ownable = __atomic_load_n(&g_expedited, __ATOMIC_RELAXED);
  __atomic_store_n(&w->bias, ownable ? SNOWFLEET_BIAS_UNSET : SNOWFLEET_BIAS_REVOKED,
                   __ATOMIC_RELEASE);
}

snowfleet_word* new_word(int64_t value) {
  void* p = aligned_alloc(64, sizeof(snowfleet_word));
  if (p == nullptr) return nullptr;
  auto* w = static_cast<snowfleet_word*>(p);
  w->value = value;
  w->refs = 1;
  rearm(w);
  return w;
}

void registry_unbias(snowfleet_word* w) {
  for (;;) {
    uint64_t b = __atomic_load_n(&w->bias, __ATOMIC_ACQUIRE);
    if (b == SNOWFLEET_BIAS_REVOKED) return;
    if (b == SNOWFLEET_BIAS_REVOKING) {
      sched_yield();  // another thread is taking it: wait until it is done
      continue;
    }
    const uint64_t to =
        b == SNOWFLEET_BIAS_UNSET ? SNOWFLEET_BIAS_REVOKED : SNOWFLEET_BIAS_REVOKING;
    if (!__atomic_compare_exchange_n(&w->bias, &b, to, false, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
      continue;
    if (to == SNOWFLEET_BIAS_REVOKED) return;
    // The owner either set `busy` before the barrier (seen below) or reads REVOKING after
    // it. Without the barrier (refused after start-up), no word is owned again, and this
    // one is taken after a grace period: a store leaves a CPU's store buffer within
    // microseconds, and a preemption drains it at once.
    if (!barrier_every_thread()) {
      __atomic_store_n(&g_expedited, false, __ATOMIC_RELAXED);
      const struct timespec grace = {0, 10 * 1000 * 1000};
      nanosleep(&grace, nullptr);
    }
    // The owner is inside one call (a clock read and a store): nanoseconds unless it
    // was preempted there.
    for (int spins = 0; __atomic_load_n(&w->busy, __ATOMIC_ACQUIRE) != 0;) {
      if (spins < 64)
        ++spins;
      else
        sched_yield();
    }
    __atomic_store_n(&w->bias, SNOWFLEET_BIAS_REVOKED, __ATOMIC_RELEASE);
    return;
  }
}

void unref(snowfleet_word* w) {
  if (--w->refs == 0) free(w);
}

void copy_text(char* to, size_t size, const char* from) {
  if (size == 0) return;
  size_t n = from ? strlen(from) : 0;
  if (n >= size) n = size - 1;
  if (n) memcpy(to, from, n);
  to[n] = '\0';
}

void remove_at(size_t i) {
  Space* s = g_spaces[i];
  unref(s->word);
  free(s);
  g_spaces[i] = g_spaces[--g_count];
}

bool same_shape(const snowfleet_space& a, const snowfleet_space& b) {
  return a.sequence_bits == b.sequence_bits && a.low_first == b.low_first &&
         a.low_last == b.low_last;
}

// The packed value, in `to`'s packing, of "the millisecond of `last` (in `from`'s packing)
// fully spent": what a new space starts from so it mints nothing an overlapping closed
// space may have minted. Both share the epoch and the timestamp shift, so a millisecond
// is the same number in both; it fits: elapsed < 2^(63 - shift) and sequence_bits <= shift.
int64_t spent_through(int64_t last, const snowfleet_space& from, const snowfleet_space& to) {
  if (last < 0) return -1;
  const int64_t ms = last >> from.sequence_bits;
  return (ms << to.sequence_bits) | ((int64_t{1} << to.sequence_bits) - 1);
}

bool overlaps(const snowfleet_space& k, const snowfleet_space& key) {
  // Spaces of different times (real time, each scripted clock) never meet.
  return k.time_source == key.time_source && k.epoch_ms == key.epoch_ms &&
         k.timestamp_shift == key.timestamp_shift && k.low_first <= key.low_last &&
         key.low_first <= k.low_last;
}

// The open space `key` may not join (its description is the refusal), else null; `*found`:
// the closed or shared space of `key`'s exact shape, if any. Decides, changing nothing: a
// refusal must not lose any space's history.
const Space* conflicting(const snowfleet_space* key, Space** found) {
  *found = nullptr;
  for (size_t i = 0; i < g_count; ++i) {
    Space* s = g_spaces[i];
    if (!overlaps(s->key, *key)) continue;
    const bool exact = same_shape(s->key, *key);
    if (s->open > 0 && (!exact || s->key.exclusive || key->exclusive)) return s;
    if (exact) *found = s;
  }
  return nullptr;
}

// Takes over the closed spaces of other shapes over some of the same ids as `key` (all but
// `keep`): the new space starts after their last millisecond (spent), and they are
// forgotten. Their words are sealed with the closed sentinel, taking the final value from
// the swap, so a call of a closed generator still in flight on one fails its
// compare-and-swap instead of minting an id the new shape may mint too. Returns the packed
// value to start from (-1: none).
int64_t take_over_closed(const snowfleet_space* key, const Space* keep) {
  int64_t start = -1;
  for (size_t i = 0; i < g_count;) {
    Space* s = g_spaces[i];
    if (s == keep || !overlaps(s->key, *key)) {
      ++i;
      continue;
    }
    registry_unbias(s->word);  // a closed generator's call may still be in flight on it
    const int64_t last = __atomic_exchange_n(&s->word->value, INT64_MIN, __ATOMIC_ACQ_REL);
    const int64_t v = spent_through(last, s->key, *key);
    if (v > start) start = v;
    remove_at(i);
  }
  return start;
}

// A new space of `key`'s shape starting at `start`, added to the registry; null when out
// of memory.
Space* add_space(const snowfleet_space* key, int64_t start) {
  if (g_count == g_capacity) {
    const size_t cap = g_capacity ? g_capacity * 2 : 16;
    void* grown = realloc(g_spaces, cap * sizeof(Space*));
    if (grown == nullptr) return nullptr;
    g_spaces = static_cast<Space**>(grown);
    g_capacity = cap;
  }
  Space* space = static_cast<Space*>(calloc(1, sizeof(Space)));
  if (space == nullptr) return nullptr;
  space->word = new_word(start);
  if (space->word == nullptr) {
    free(space);
    return nullptr;
  }
  space->key = *key;
  g_spaces[g_count++] = space;
  return space;
}

int open_locked(const snowfleet_space* key, const char* description, snowfleet_slot** slot,
                snowfleet_word** word, char* why, size_t why_size) {
  Space* found = nullptr;
  if (const Space* busy = conflicting(key, &found)) {
    copy_text(why, why_size, busy->description);
    return 1;
  }
  const int64_t start = take_over_closed(key, found);
  if (found == nullptr) {
    found = add_space(key, start);
    if (found == nullptr) return 2;
  } else {
    // A word another generator holds is shared from now on by compare-and-swap only (and
    // a copy of the core that predates `bias` knows no other way); one nobody holds starts
    // over, ownable.
    if (found->word->refs > 1)
      registry_unbias(found->word);
    else
      rearm(found->word);
    // Cannot happen while spaces of one band stay disjoint; kept so that it never goes back.
    if (start > load(found->word)) __atomic_store_n(&found->word->value, start, __ATOMIC_RELEASE);
  }
  found->key.exclusive = key->exclusive;
  if (found->open++ == 0 || key->exclusive)
    copy_text(found->description, sizeof found->description, description);
  ++found->word->refs;
  *slot = reinterpret_cast<snowfleet_slot*>(found);
  *word = found->word;
  return 0;
}

int registry_open(const snowfleet_space* key, const char* description, snowfleet_slot** slot,
                  snowfleet_word** word, char* why, size_t why_size) {
  if (why_size) why[0] = '\0';
  pthread_mutex_lock(&g_mu);
  const int rc = open_locked(key, description, slot, word, why, why_size);
  pthread_mutex_unlock(&g_mu);
  return rc;
}

void registry_close(snowfleet_slot* slot, int retire, int64_t final_value) {
  auto* s = reinterpret_cast<Space*>(slot);
  pthread_mutex_lock(&g_mu);
  if (s->open > 0) --s->open;
  if (s->open == 0) s->key.exclusive = 0;
  if (retire && s->open == 0) {
    snowfleet_word* fresh = new_word(final_value);
    if (fresh != nullptr) {
      // Owned by nobody once it leaves the registry: after a fork, only the words the
      // registry still lists are freed of the parent's owners.
      registry_unbias(s->word);
      unref(s->word);
      s->word = fresh;
    }
    // Out of memory: the space keeps the closing generator's word, and with it the
    // sentinel; a later generator of the space then refuses instead of duplicating.
  }
  pthread_mutex_unlock(&g_mu);
}

void registry_release_word(snowfleet_word* word) {
  pthread_mutex_lock(&g_mu);
  unref(word);
  pthread_mutex_unlock(&g_mu);
}

void registry_forget_time_source(uint64_t time_source) {
  if (time_source == 0) return;  // real time is never forgotten
  pthread_mutex_lock(&g_mu);
  for (size_t i = 0; i < g_count;) {
    if (g_spaces[i]->key.time_source == time_source && g_spaces[i]->open == 0) {
      registry_unbias(g_spaces[i]->word);  // as every word that leaves the registry
      remove_at(i);
    } else {
      ++i;
    }
  }
  pthread_mutex_unlock(&g_mu);
}

int registry_would_conflict(const snowfleet_space* key) {
  pthread_mutex_lock(&g_mu);
  int rc = 0;
  for (size_t i = 0; i < g_count && rc == 0; ++i) {
    const Space* s = g_spaces[i];
    if (s->open > 0 && overlaps(s->key, *key) &&
        (!same_shape(s->key, *key) || s->key.exclusive || key->exclusive))
      rc = 1;
  }
  pthread_mutex_unlock(&g_mu);
  return rc;
}

size_t registry_space_count(void) {
  pthread_mutex_lock(&g_mu);
  const size_t n = g_count;
  pthread_mutex_unlock(&g_mu);
  return n;
}

// fork(): the registry is copied into the child consistent (the mutex is held across the
// fork), and there nothing counts as open: the generators the child inherited are the
// parent's and refuse to mint.
void before_fork(void) { pthread_mutex_lock(&g_mu); }
void after_fork_parent(void) { pthread_mutex_unlock(&g_mu); }
// The parent's owners are gone with their threads (one may have been inside a call, its
// `busy` set for ever): no word is owned in the child until nobody holds it.
void after_fork_child(void) {
  __atomic_store_n(&g_expedited, register_expedited(), __ATOMIC_RELAXED);
  for (size_t i = 0; i < g_count; ++i) {
    g_spaces[i]->open = 0;
    g_spaces[i]->key.exclusive = 0;
    __atomic_store_n(&g_spaces[i]->word->busy, 0, __ATOMIC_RELAXED);
    __atomic_store_n(&g_spaces[i]->word->bias, SNOWFLEET_BIAS_REVOKED, __ATOMIC_RELEASE);
  }
  pthread_mutex_unlock(&g_mu);
}

__attribute__((constructor)) void registry_loaded(void) {
  __atomic_store_n(&g_expedited, register_expedited(), __ATOMIC_RELAXED);
  pthread_atfork(before_fork, after_fork_parent, after_fork_child);
}

const snowfleet_registry_api g_api = {
    1,
    sizeof(snowfleet_registry_api),
    registry_open,
    registry_close,
    registry_release_word,
    registry_forget_time_source,
    registry_space_count,
    registry_would_conflict,
    registry_unbias,
};

}  // namespace

extern "C" SNOWFLEET_EXPORT const snowfleet_registry_api* SNOWFLEET_REGISTRY_ENTRY(void) {
  return &g_api;
}
