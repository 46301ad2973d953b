// UUIDv7 generation: a Snowflake generator of layout 48.0.15@0 decides each (millisecond,
// sequence) pair, with every guard it has; this file turns the pair into RFC 9562 bits
// (see Uuid7Generator in uuid7.hpp) and keeps the generator minting across fork().
#include <algorithm>
#include <array>
#include <new>
#include <string>

#include "base/internal.hpp"
#include "mint/generator_internal.hpp"
#include "random_internal.hpp"
#include "siphash.hpp"
#include "snowfleet/snowfleet.hpp"

namespace snowfleet {
namespace {

constexpr int kSequenceBits = 15;
constexpr uint64_t kSequenceMask = (uint64_t{1} << kSequenceBits) - 1;
// The counter's seed: 25 bits, so seed + sequence < 2^26 (the rollover guard: the seed's
// leftmost counter bit is always 0).
constexpr int kSeedBits = 25;
constexpr uint64_t kRandomMask = (uint64_t{1} << 48) - 1;

std::atomic<uint64_t> g_next_uid{1};

// The key of every generator on the system random source: drawn once per process, because
// those generators share one (millisecond, sequence) word per clock (the id space of
// 48.0.15@0), and only one key keeps their UUIDs in that word's order. A forked child keeps
// it, as it keeps the word.
const uint64_t* process_key() {
  static const auto key = [] {
    std::array<uint64_t, 2> k;
    system_random()->fill(k.data(), k.size());
    return k;
  }();
  return key.data();
}

GeneratorOptions inner_options(const Uuid7Options& o) {
  GeneratorOptions g;
  g.layout = Uuid7Generator::layout();
  g.node_id = 0;
  g.mode = o.mode;
  g.max_wait_ms = o.max_wait_ms;
  g.max_drift_ms = o.max_drift_ms;
  g.clock = o.clock;
  g.wait_hooks = o.wait_hooks;
  return g;
}

}  // namespace

Layout Uuid7Generator::layout() { return Layout::create(0, 48, 0, kSequenceBits); }

Uuid7Generator::Uuid7Generator(Uuid7Options options) : options_(std::move(options)) {
  // The Generator checks the options (and throws) before anything is drawn.
  generators_.push_back(std::unique_ptr<Generator>(new Generator(inner_options(options_), true)));
  if (!options_.random) options_.random = system_random();
  system_random_ = options_.random == system_random();
  if (system_random_) {
    key_[0] = process_key()[0];
    key_[1] = process_key()[1];
  } else {
    options_.random->fill(key_, 2);  // scripted: the key is the source's first two words
  }
  uid_ = g_next_uid.fetch_add(1, std::memory_order_relaxed);
  generation_.store(detail::fork_generation(), std::memory_order_relaxed);
  mu_generation_.store(detail::fork_generation(), std::memory_order_relaxed);
  gen_.store(generators_.back().get(), std::memory_order_release);
}

// mu_, built anew the first time it is taken in a forked child: a parent thread may have
// held it at the fork (stats(), close(), a replacement), and that thread does not exist in
// the child to release it. The core's revive lock (itself rebuilt in every child) makes
// one thread do it, before any thread of the child takes mu_.
std::unique_lock<std::mutex> Uuid7Generator::lock() const {
  const uint64_t generation = detail::fork_generation();
  if (mu_generation_.load(std::memory_order_acquire) != generation) {
    const std::unique_lock<std::mutex> revive = detail::lock_revive(options_.wait_hooks);
    if (mu_generation_.load(std::memory_order_relaxed) != generation) {
      new (&mu_) std::mutex();  // the old one is leaked on purpose, never destroyed
      mu_generation_.store(generation, std::memory_order_release);
    }
  }
  return std::unique_lock<std::mutex>(mu_);
}

Uuid7Generator::~Uuid7Generator() = default;

Uuid7Generator::Uuid7Generator(Uuid7Generator&& other) noexcept : system_random_(false), uid_(0) {
  key_[0] = key_[1] = 0;
  mu_generation_.store(detail::fork_generation(), std::memory_order_relaxed);
  take(other);
}

Uuid7Generator& Uuid7Generator::operator=(Uuid7Generator&& other) noexcept {
  if (this != &other) {
    close();
    take(other);  // destroys the generators this one had
  }
  return *this;
}

// Moves other's generators here and leaves other closed, with none (gen_ null).
void Uuid7Generator::take(Uuid7Generator& other) noexcept {
  const std::unique_lock<std::mutex> held = other.lock();
  options_ = other.options_;
  // What a moved-from Generator reports: nothing of the state it gave away.
  other.options_.mode = Mode::kStrict;
  other.options_.max_wait_ms = 0;
  other.options_.max_drift_ms = 0;
  system_random_ = other.system_random_;
  key_[0] = other.key_[0];
  key_[1] = other.key_[1];
  uid_ = other.uid_;
  generators_ = std::move(other.generators_);
  other.generators_.clear();
  generation_.store(other.generation_.load(std::memory_order_relaxed), std::memory_order_relaxed);
  closed_.store(other.closed_.exchange(true, std::memory_order_acq_rel),
                std::memory_order_release);
  gen_.store(other.gen_.exchange(nullptr, std::memory_order_acq_rel), std::memory_order_release);
}

// SipHash once per millisecond, generator and thread, not once per UUID.
uint64_t Uuid7Generator::seed_of(int64_t ms, detail::ThreadState& t) noexcept {
  if (t.seed_uid != uid_ || t.seed_ms != ms) {
    t.seed = detail::siphash24_u64(key_[0], key_[1], static_cast<uint64_t>(ms)) >> (64 - kSeedBits);
    t.seed_uid = uid_;
    t.seed_ms = ms;
  }
  return t.seed;
}

// The packed (ms << 15 | sequence) of layout 48.0.15@0 is the Snowflake id itself.
inline Uuid Uuid7Generator::make(int64_t packed, uint64_t random, detail::ThreadState& t) noexcept {
  const int64_t ms = packed >> kSequenceBits;
  const uint64_t counter = seed_of(ms, t) + (static_cast<uint64_t>(packed) & kSequenceMask);
  Uuid u;
  u.hi = (static_cast<uint64_t>(ms) << 16) | 0x7000 | (counter >> 14);
  u.lo = (uint64_t{2} << 62) | ((counter & 0x3fff) << 48) | (random & kRandomMask);
  return u;
}

inline uint64_t Uuid7Generator::draw(detail::ThreadState& t) {
  if (system_random_) return detail::system_random_u48(t.random);
  uint64_t r;
  options_.random->fill(&r, 1);
  return r;
}

Generator& Uuid7Generator::current() {
  Generator* const g = gen_.load(std::memory_order_acquire);
  if (!g) throw Error(ErrorKind::kGeneratorClosed, "UUIDv7 generator is closed: it was moved from");
  return *g;
}

// The inner generator refused with kForkDetected: this process is a forked child. Its
// node is not the point of a UUID (the random bits are, and they are drawn afresh in the
// child), so a new inner generator takes over, once, whichever thread comes first. It
// shares the id space, so the child continues after the parent's last UUID. The old one
// stays in generators_: destroying it in the child would release nothing of its own.
Generator& Uuid7Generator::replace_after_fork() {
  const std::unique_lock<std::mutex> held = lock();
  if (closed()) throw Error(ErrorKind::kGeneratorClosed, "UUIDv7 generator is closed");
  const uint64_t generation = detail::fork_generation();
  if (generation_.load(std::memory_order_relaxed) != generation) {
    generators_.push_back(std::unique_ptr<Generator>(new Generator(inner_options(options_), true)));
    generation_.store(generation, std::memory_order_relaxed);
    gen_.store(generators_.back().get(), std::memory_order_release);
  }
  return *generators_.back();
}

Uuid Uuid7Generator::next() {
  int64_t packed;
  Generator& g = current();
  try {
    packed = g.next_id();
  } catch (const Error& e) {
    if (e.kind() == ErrorKind::kGeneratorClosed && closed())
      throw Error(ErrorKind::kGeneratorClosed, "UUIDv7 generator is closed");
    if (e.kind() != ErrorKind::kForkDetected) throw;
    packed = replace_after_fork().next_id();
  }
  detail::ThreadState& t = detail::thread_state();
  return make(packed, draw(t), t);
}

size_t Uuid7Generator::batch_size(int64_t n) {
  Generator& g = current();
  try {
    return g.batch_size(n);
  } catch (const Error& e) {
    if (e.kind() == ErrorKind::kGeneratorClosed && closed())
      throw Error(ErrorKind::kGeneratorClosed, "UUIDv7 generator is closed");
    if (e.kind() != ErrorKind::kForkDetected) throw;
    return replace_after_fork().batch_size(n);
  }
}

void Uuid7Generator::next(Uuid* out, size_t n) {
  batch_size(static_cast<int64_t>(n));
  // The ids go into the second half of out's words and each UUID is made in place from
  // the front: entry i writes words 2i and 2i + 1, which no later entry's id (word n + j,
  // j > i) occupies. Random words come in chunks through a buffer on the stack.
  static_assert(sizeof(Uuid) == 2 * sizeof(int64_t), "Uuid is two words");
  int64_t* const ids = reinterpret_cast<int64_t*>(out) + n;
  current().next_ids(ids, n);
  detail::ThreadState& t = detail::thread_state();
  uint64_t random[256];
  for (size_t done = 0; done < n;) {
    const size_t chunk = std::min(n - done, sizeof random / sizeof random[0]);
    if (system_random_) {
      for (size_t i = 0; i < chunk; ++i) random[i] = detail::system_random_u48(t.random);
    } else {
      options_.random->fill(random, chunk);
    }
    for (size_t i = 0; i < chunk; ++i) {
      const int64_t packed = ids[done + i];
      out[done + i] = make(packed, random[i], t);
    }
    done += chunk;
  }
}

std::vector<Uuid> Uuid7Generator::next(size_t n) {
  batch_size(static_cast<int64_t>(n));
  std::vector<Uuid> v(n);
  next(v.data(), n);
  return v;
}

Stats Uuid7Generator::stats() const noexcept {
  Stats total;
  const std::unique_lock<std::mutex> held = lock();
  for (const auto& g : generators_) {
    const Stats s = g->stats();
#define SNOWFLEET_X_SUM(name, camel, kind, init, doc) total.name += s.name;
    SNOWFLEET_STATS_FIELDS(SNOWFLEET_X_SUM)
#undef SNOWFLEET_X_SUM
  }
  return total;
}

Status Uuid7Generator::status() {
  if (!gen_.load(std::memory_order_acquire)) {
    Status st;
    st.node_id = -1;
    st.reason = "UUIDv7 generator is closed: it was moved from";
    return st;
  }
  if (generation_.load(std::memory_order_relaxed) != detail::fork_generation() && !closed())
    return replace_after_fork().status();
  return current().status();
}

void Uuid7Generator::close() noexcept {
  const std::unique_lock<std::mutex> held = lock();
  closed_.store(true, std::memory_order_release);
  for (auto& g : generators_) g->close();
}

bool Uuid7Generator::closed() const noexcept { return closed_.load(std::memory_order_acquire); }

}  // namespace snowfleet
