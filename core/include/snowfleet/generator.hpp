// snowfleet public API: the thread-safe Generator.
// Included by <snowfleet/snowfleet.hpp>.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "snowfleet/options.hpp"

namespace snowfleet {

namespace detail {
class NodeLease;      // core/src/mint/node_lease.hpp
class IdSpace;        // core/src/mint/id_space.hpp
class MarkKeeper;     // core/src/mint/mark_keeper.hpp
class GeneratorCore;  // below
}  // namespace detail

/// A thread-safe id generator. The hot path is one wall-clock read and one CAS on a
/// packed (millisecond, sequence) word: no mutex, no system call.
///
/// The word belongs to the generator's id space, not to the generator: the ids a
/// generator can mint are fixed by the layout's epoch and timestamp position, the node
/// value (node id << sequence bits, whether written as node_id or as datacenter +
/// machine) and the clock's time (see Clock). Every generator of one id space in this
/// process mints from one word, whichever language or copy of the library made it, so
/// the `twitter` preset and `41.10.12` with Twitter's epoch, or two generators for one
/// node, can never issue the same id, and a generator made after another one closed
/// continues after the last millisecond the other issued. A generator whose ids would
/// overlap an open generator's but cannot share its word (another sequence width, a
/// leased node id) is refused with kNodeIdUnavailable naming the other one.
class Generator {
 public:
  explicit Generator(GeneratorOptions options);
  ~Generator();
  Generator(const Generator&) = delete;
  Generator& operator=(const Generator&) = delete;
  /// Takes over `other`'s node id, lease, id space and counters. `other` is left closed:
  /// its calls throw kGeneratorClosed saying it was moved from, stats() is all zero,
  /// status() names the move, node_id() is -1.
  Generator(Generator&& other) noexcept;
  /// Closes this generator (as close() does: a leased node id is released) and takes
  /// over `other`'s, which is left as by the move constructor.
  Generator& operator=(Generator&& other) noexcept;

  /// The next id. Throws kClockMovedBackwards, kTimestampOutOfRange, kForkDetected,
  /// kGeneratorClosed, and with a leased node id kLeaseLost. On a throw the state is
  /// unchanged, with one exception: a call that waited, found its millisecond taken by
  /// other calls and reserved ids in the next one (holding them until their millisecond,
  /// so that it never waits past its budget for its turn) refuses them with
  /// kClockMovedBackwards if the clock goes back meanwhile; they are skipped, never
  /// issued to anyone. Thread-safe, but not async-signal-safe: a signal handler must not
  /// mint on the id space of a call it interrupted.
  int64_t next_id();
  /// Fills out[0..n) with ascending ids; each run of ids inside one millisecond is
  /// reserved with one clock read and one state update. n <= kMaxBatch. If a wait fails
  /// part-way, the ids already reserved are skipped (never issued to anyone) and the
  /// error is thrown.
  void next_ids(int64_t* out, size_t n);
  std::vector<int64_t> next_ids(size_t n);
  static constexpr size_t kMaxBatch = size_t{1} << 24;
  /// A batch size from a host language, checked in the order every call checks: a closed
  /// generator throws kGeneratorClosed (or kForkDetected in a forked child) whatever n is,
  /// then n outside [0, kMaxBatch] throws kInvalidArgument naming n. Bindings call it
  /// before allocating a batch's buffer, so every language answers the same way.
  size_t batch_size(int64_t n) const;

  /// Counters (exact once no call is in flight).
  Stats stats() const noexcept;
  /// Reads the clock once and reports whether a call now would be served.
  Status status();
  /// max(0, last issued ms - wall clock now): how far ahead the generator runs.
  int64_t drift_ms();

  const Layout& layout() const noexcept;
  /// The node id in every id. In a forked child of a leased generator: the parent's until
  /// the child's first call (or status()) claims a slot of its own.
  int64_t node_id() const noexcept;
  Mode mode() const noexcept;
  double max_wait_ms() const noexcept;
  int64_t max_drift_ms() const noexcept;

  /// Stops the generator. With a leased node id it first persists the last issued
  /// millisecond as the slot's mark (so a restart need not wait out the reservation made
  /// ahead), then releases the slot (unlock / etcd revoke). Later calls throw
  /// kGeneratorClosed. Idempotent. In a forked child it releases nothing: the slot is the
  /// parent's.
  void close() noexcept;
  bool closed() const noexcept;

 private:
  friend class Uuid7Generator;
  Generator(GeneratorOptions options, bool uuid7);
  detail::GeneratorCore& core() const;
  [[noreturn]] static void throw_moved_from();

  // On the heap, so that the generator can move: the mark keeper's thread keeps addresses
  // inside it. Null once moved from.
  std::unique_ptr<detail::GeneratorCore> core_;
};

namespace detail {

/// What a Generator owns: its state and the algorithm. Not for direct use; each call is
/// documented at Generator's.
class GeneratorCore {
 public:
  /// `uuid7`: a Uuid7Generator's inner generator, in an id space apart from every
  /// Snowflake generator's (see detail::IdSpace).
  GeneratorCore(GeneratorOptions options, bool uuid7);
  ~GeneratorCore();
  GeneratorCore(const GeneratorCore&) = delete;
  GeneratorCore& operator=(const GeneratorCore&) = delete;

  int64_t next_id();
  void next_ids(int64_t* out, size_t n);
  std::vector<int64_t> next_ids(size_t n);
  static constexpr size_t kMaxBatch = Generator::kMaxBatch;
  size_t batch_size(int64_t n) const;
  Stats stats() const noexcept;
  Status status();
  int64_t drift_ms();
  const Layout& layout() const noexcept { return layout_; }
  int64_t node_id() const noexcept { return node_id_; }
  Mode mode() const noexcept { return mode_; }
  double max_wait_ms() const noexcept { return max_wait_ms_; }
  int64_t max_drift_ms() const noexcept { return max_drift_ms_; }
  void close() noexcept;
  bool closed() const noexcept;

 private:
  struct Run {
    int64_t first;  // packed (elapsed_ms << sequence_bits | sequence) of the first id
    int64_t count;
  };
  struct Reading {
    int64_t state;    // state_ loaded before the clock was read
    int64_t high;     // wall_high_ loaded before the clock was read
    int64_t now;      // wall clock, ms since the epoch
    int64_t wall_ns;  // the exact reading (unset when elided)
    bool elided;      // `now` came from the TSC window
  };
  Run reserve(int64_t want);
  Run reserve_slow(int64_t want, Reading reading);
  class SlowCall;  // one call of the slow path (mint_slow.cc)
  Run reserve_revived(int64_t want, bool owned);
  void check_usable() const;
  [[noreturn]] void throw_unusable() const;
  void attach(int64_t node_id, int64_t floor_state = -1);
  void revive_or_throw();
  int64_t read_elapsed_ms(bool* elided, int64_t* wall_ns);
  int64_t read_elapsed_ms_exact(int64_t* wall_ns);
  void note_wall(int64_t now_ms, int64_t high) noexcept;
  int64_t monotonic_now() const;
  bool past_deadline() const;
  bool near_deadline() const;
  [[noreturn]] void throw_lease_lost();
  int64_t current_state() const noexcept;
  std::string mark_text() const;
  // Nothing issued since the claimed mark (a lease) or the shared space's start.
  bool at_start(int64_t state) const noexcept;
  int64_t shared_start() const noexcept;
  std::string describe() const;
  void lease_status(Status* st, int64_t s, uint64_t token);
  std::string status_reason(const Status& st, uint64_t token, int64_t s, int64_t now) const;
  std::string clock_reason(int64_t s, int64_t now) const;
  void account(int64_t before, const Run& run, int64_t now) noexcept;
  uintptr_t settle_bias(uintptr_t me, bool claim) noexcept;
  bool enter_owned(uintptr_t me) noexcept;
  void point_at(std::atomic<int64_t>* state, bool ownable) noexcept;
  Run leave_owned(bool owned, int64_t want, const Reading& reading);
  void raise_state(int64_t value) noexcept;
  void close_leased() noexcept;
  void close_shared() noexcept;
  int64_t id_of(int64_t packed) const noexcept {
    return ((packed >> layout_.sequence_bits()) << layout_.timestamp_shift()) | node_part_ |
           (packed & seq_mask_);
  }

  Layout layout_;
  Mode mode_;
  int64_t node_id_;
  int64_t node_part_;  // node_id << node_shift
  int64_t seq_mask_;
  int64_t max_elapsed_;
  int64_t max_packed_;  // (max_elapsed << sequence_bits) | seq_mask: the window's last id
  double max_wait_ms_;
  int64_t max_wait_ns_;
  int64_t budget_ns_;  // max(max_wait_ns_, 1 ms): bounds every wait within a call
  int64_t max_drift_ms_;
  std::shared_ptr<Clock> clock_;
  bool system_clock_;
  bool virtual_time_;  // the clock's monotonic time is not real time (Clock::virtual_time)
  WaitHooks hooks_;
  std::string node_source_;                         // empty: node_id_ was given
  bool host_shared_ = false;  // the lease maps the word other processes mint on too
  bool leased_ = false;  // the source leases (local, etcd): a forked child claims its own
  std::shared_ptr<detail::NodeLease> lease_;        // null unless the node id is leased
  std::unique_ptr<detail::IdSpace> space_;          // our place in the id-space registry
  SharedIdSpace shared_;                            // or the caller's memory (state set)
  bool uuid7_ = false;                              // a Uuid7Generator's: UUID id space
  std::unique_ptr<detail::MarkKeeper> keeper_;      // leased: extends the mark ahead
  const std::atomic<int64_t>* deadline_ = nullptr;  // lease deadline (monotonic ns) or null
  int64_t initial_state_ = -1;             // state_ at construction (encodes the claimed mark)
  std::mutex close_mu_;                    // serialises close()
  std::atomic<int64_t> closed_state_{-1};  // state_ as close() found it

  // What the fast path reads, on one cache line that is written about once per ms: the
  // state word's address, the highest wall reading seen, the usability token, the mark
  // limit. The word itself (packed elapsed_ms << sequence_bits | sequence of the last
  // issued id in this id space, -1 before the first) lives in the process's id-space
  // registry, on a line of its own, shared by every generator of the space; the
  // issued-id counter, written by every call, sits on a third line: threads sharing the
  // generator then bounce those two lines, never the read-mostly one.
  alignas(64) std::atomic<int64_t>* state_ = nullptr;
  // The word's owner and in-call flag (registry/abi.h): a thread that owns the word mints
  // on it with a plain load and store instead of a compare-and-swap.
  std::atomic<uint64_t>* bias_ = nullptr;
  std::atomic<uint64_t>* busy_ = nullptr;
  // The mark limit minting compares against: &mark_limit_, or a shared space's.
  const std::atomic<int64_t>* limit_ = &mark_limit_;
  std::atomic<int64_t> wall_high_{INT64_MIN};
  std::atomic<uint64_t> usable_token_;  // == fork generation while open and unforked
  uint64_t created_token_;
  // Last packed value the persisted high-water mark covers (INT64_MAX without a lease,
  // INT64_MIN once the lease is lost): the fast path issues nothing above it. Written by
  // the mark keeper's thread.
  std::atomic<int64_t> mark_limit_{INT64_MAX};

  alignas(64) std::atomic<uint64_t> ids_issued_{0};  // by threads other than the owner
  std::atomic<uintptr_t> counter_owner_{0};          // thread pointer of the counter's owner
  std::atomic<uint64_t> owned_ids_issued_{0};        // by the owner: written by it alone

  alignas(64) std::atomic<uint64_t> rewinds_seen_{0};
  std::atomic<uint64_t> waits_{0}, waited_total_{0}, waited_max_{0}, refusals_{0}, ms_borrowed_{0},
      mark_writes_{0}, lease_refusals_{0}, mark_write_failures_{0}, lease_renewal_failures_{0};
};

}  // namespace detail

// The calls every id goes through, inline: one load and test on top of the core's call.
inline detail::GeneratorCore& Generator::core() const {
  if (!core_) throw_moved_from();
  return *core_;
}
inline int64_t Generator::next_id() { return core().next_id(); }
inline void Generator::next_ids(int64_t* out, size_t n) { core().next_ids(out, n); }
inline size_t Generator::batch_size(int64_t n) const { return core().batch_size(n); }

}  // namespace snowfleet
