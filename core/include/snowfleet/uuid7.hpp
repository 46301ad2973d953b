// snowfleet public API: UUIDv7 (RFC 9562) from the same guarded core as Snowflake ids:
// the injectable RandomSource, the Uuid value and its text form, Uuid7Generator.
// Included by <snowfleet/snowfleet.hpp>.
#pragma once

#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "snowfleet/generator.hpp"
#include "snowfleet/options.hpp"

namespace snowfleet {
namespace detail {
struct ThreadState;  // a thread's random buffer and counter seed (random_internal.hpp)
}  // namespace detail

/// Where a UUID's random bits come from: an input like the Clock, so tests can script it.
class RandomSource {
 public:
  virtual ~RandomSource() = default;
  /// Fills out[0..n) with random 64-bit words.
  virtual void fill(uint64_t* out, size_t n) = 0;
};

/// The process's CSPRNG: a ChaCha20 stream per thread, keyed from getrandom(2) and
/// rekeyed as it goes (no system call per UUID); a forked child rekeys from getrandom(2)
/// before its first draw, so parent and child never share random bits.
std::shared_ptr<RandomSource> system_random();

/// A random source for tests: the splitmix64 sequence from `seed` (word i is
/// splitmix64's i-th output; conformance/model/uuid7_model.py computes the same), so
/// every UUID of a scripted clock and a scripted random source is known in advance.
/// Thread-safe. Not random: never use it outside tests.
class ScriptedRandom : public RandomSource {
 public:
  explicit ScriptedRandom(uint64_t seed = 0) : state_(seed) {}
  void fill(uint64_t* out, size_t n) override;
  int64_t draws() const;  ///< words handed out so far

 private:
  mutable std::mutex mu_;
  uint64_t state_;
  int64_t draws_ = 0;
};

/// A UUID as two big-endian halves: hi is bytes 0..7, lo bytes 8..15.
struct Uuid {
  uint64_t hi = 0;
  uint64_t lo = 0;
  friend bool operator==(const Uuid& a, const Uuid& b) { return a.hi == b.hi && a.lo == b.lo; }
  friend bool operator!=(const Uuid& a, const Uuid& b) { return !(a == b); }
  friend bool operator<(const Uuid& a, const Uuid& b) {
    return a.hi != b.hi ? a.hi < b.hi : a.lo < b.lo;
  }
  /// The 16 bytes in network order (RFC 9562 §4).
  std::array<uint8_t, 16> bytes() const noexcept;
  static Uuid from_bytes(const uint8_t* bytes16) noexcept;
};

/// Canonical text: 36 characters, 8-4-4-4-12 lowercase hex digits.
std::string format_uuid(const Uuid& u);
/// Writes the canonical text into out[0..36) (no terminator): the binding's fast path.
void format_uuid(const Uuid& u, char* out) noexcept;
/// Parses the canonical form (either case) or 32 hex digits without hyphens. Any version.
/// Throws kInvalidArgument quoting the text and naming the rule.
Uuid parse_uuid(std::string_view text);

/// What a UUIDv7 made by Uuid7Generator carries.
struct Uuid7Fields {
  int64_t timestamp_ms;  ///< unix_ts_ms: Unix ms, 48 bits
  int64_t counter;       ///< the 26-bit counter (rand_a and the top 14 bits of rand_b)
  int64_t random;        ///< the 48 random bits below it
};
/// Splits a UUIDv7. A UUID of another version or variant throws kInvalidArgument naming
/// it and its version (nothing else in snowfleet depends on the counter's width; any
/// RFC 9562 UUIDv7 decodes, its rand bits read as if they were this layout).
Uuid7Fields decode_uuid7(const Uuid& u);

/// Options of a Uuid7Generator: a Snowflake generator's minus the node and the layout.
struct Uuid7Options {
  Mode mode = Mode::kStrict;
  double max_wait_ms = 5.0;              ///< as GeneratorOptions::max_wait_ms
  int64_t max_drift_ms = 1000;           ///< as GeneratorOptions::max_drift_ms
  std::shared_ptr<Clock> clock;          ///< null: the system clock
  std::shared_ptr<RandomSource> random;  ///< null: system_random()
  WaitHooks wait_hooks;
};

/// Mints RFC 9562 UUIDv7s, thread-safe, with the Snowflake generator's guarantees: the
/// same rewind guard, wait budget, deadlines, strict and monotonic modes and batch form,
/// because it is one: a Generator of layout 48.0.15@0 (48-bit Unix ms, 15-bit sequence)
/// decides every (millisecond, sequence) pair, and this class only dresses it:
///
///   unix_ts_ms (48) | ver 7 (4) | counter (26, split 12 + 14 around the variant) | random (48)
///
/// Counter: RFC 9562 §6.2 Method 1 (fixed bit-length dedicated counter) with its seeding
/// and rollover guard: counter = seed(ms) + sequence, where seed(ms) is 25 bits of
/// SipHash-2-4 of the millisecond under a 128-bit key from the CSPRNG. The seed is random
/// to anyone without the key, but every thread computes the same one for a millisecond
/// without sharing state, so UUIDs sort exactly as the generator's (millisecond, sequence)
/// pairs: strictly increasing per generator and across its threads. seed < 2^25 and
/// sequence < 2^15, so the counter never rolls over.
///
/// Every Uuid7Generator of the process on one clock mints from one state word (an id
/// space, see Generator, of UUIDv7 generators only: no Snowflake generator shares it or is
/// refused for it, whatever its layout), and those on the system random source share one
/// key, drawn once per process: their UUIDs are strictly increasing across generators too.
/// With a scripted source the key is the source's first two words.
/// In a forked child the generator keeps minting (unlike a Snowflake generator with a
/// static node id): the child's random bits are fresh, so its UUIDs differ from the
/// parent's in the 48 random bits even where their (millisecond, counter) coincide.
class Uuid7Generator {
 public:
  /// Throws kInvalidArgument as Generator does (mode, max_wait_ms, max_drift_ms).
  explicit Uuid7Generator(Uuid7Options options);
  ~Uuid7Generator();
  Uuid7Generator(const Uuid7Generator&) = delete;
  Uuid7Generator& operator=(const Uuid7Generator&) = delete;
  /// Takes over `other`'s state and counters. `other` is left closed: its calls throw
  /// kGeneratorClosed saying it was moved from, stats() is all zero, status() names the move.
  Uuid7Generator(Uuid7Generator&& other) noexcept;
  /// Closes this generator and takes over `other`'s, which is left as by the move constructor.
  Uuid7Generator& operator=(Uuid7Generator&& other) noexcept;

  /// The next UUIDv7. Throws what Generator::next_id throws (kClockMovedBackwards,
  /// kTimestampOutOfRange before 1970 or after 10889, kGeneratorClosed), never kForkDetected.
  Uuid next();
  /// Fills out[0..n) with ascending UUIDs, n <= Generator::kMaxBatch; see
  /// Generator::next_ids for a batch that fails part-way.
  void next(Uuid* out, size_t n);
  std::vector<Uuid> next(size_t n);
  /// As Generator::batch_size: closed first, then n in [0, kMaxBatch].
  size_t batch_size(int64_t n);

  Stats stats() const noexcept;
  Status status();
  Mode mode() const noexcept { return options_.mode; }
  double max_wait_ms() const noexcept { return options_.max_wait_ms; }
  int64_t max_drift_ms() const noexcept { return options_.max_drift_ms; }
  /// Later calls throw kGeneratorClosed. Idempotent.
  void close() noexcept;
  bool closed() const noexcept;

  /// The layout of the Snowflake generator inside: 48.0.15@0.
  static Layout layout();

 private:
  Generator& current();
  Generator& replace_after_fork();
  uint64_t seed_of(int64_t ms, detail::ThreadState& t) noexcept;
  Uuid make(int64_t packed, uint64_t random, detail::ThreadState& t) noexcept;
  uint64_t draw(detail::ThreadState& t);
  std::unique_lock<std::mutex> lock() const;
  void take(Uuid7Generator& other) noexcept;

  Uuid7Options options_;
  bool system_random_;
  uint64_t key_[2];
  uint64_t uid_;  // tells generators apart in the per-thread seed cache
  std::atomic<Generator*> gen_{nullptr};  // null once moved from
  std::atomic<uint64_t> generation_{0};                 // the fork generation gen_ was made in
  mutable std::mutex mu_;                               // guards generators_ and a replacement
  mutable std::atomic<uint64_t> mu_generation_{0};      // the fork generation mu_ was built in
  std::vector<std::unique_ptr<Generator>> generators_;  // the current one last
  std::atomic<bool> closed_{false};
};

}  // namespace snowfleet
