// The mark keeper's thread (see mark_keeper.hpp).
#include "mark_keeper.hpp"

#include <algorithm>
#include <chrono>

#include "base/internal.hpp"

namespace snowfleet {
namespace detail {
namespace {
// While the generator mints, the keeper looks every 10 ms (a monotonic burst can spend
// half a second of headroom in ~35 ms); idle, every 100 ms (the wall clock alone moves the
// need by 100 ms, a fifth of the headroom kept).
constexpr auto kActivePeriod = std::chrono::milliseconds(10);
constexpr auto kIdlePeriod = std::chrono::milliseconds(100);
}  // namespace

MarkKeeper::MarkKeeper(Inputs in) : in_(std::move(in)) {
  lead_ms_ = in_.lease->mark_lead_ms();
  seq_mask_ = (int64_t{1} << in_.sequence_bits) - 1;
  const int64_t claimed = in_.lease->claimed_mark_ms();
  if (claimed >= in_.epoch_ms)
    persisted_.store(std::min(claimed - in_.epoch_ms, in_.max_elapsed_ms),
                     std::memory_order_relaxed);
  in_.mark_limit->store(-1, std::memory_order_release);  // nothing before our own mark
}

MarkKeeper::~MarkKeeper() { stop(); }

int64_t MarkKeeper::limit_for(int64_t mark_ms) const noexcept {
  // The lead is kept in reserve while writes succeed: if the store becomes unreachable,
  // minting can go on up to the full mark, which (a TTL ahead with etcd) outlasts the
  // lease's local deadline.
  const int64_t ms = mark_ms >= in_.max_elapsed_ms ? in_.max_elapsed_ms : mark_ms - lead_ms_;
  return ms < 0 ? -1 : (ms << in_.sequence_bits) | seq_mask_;
}

void MarkKeeper::start(int64_t now_ms) {
  const int64_t base = std::max<int64_t>(
      std::clamp<int64_t>(now_ms, 0, in_.max_elapsed_ms) + in_.extra_ahead_ms,
      persisted_.load(std::memory_order_relaxed));
  if (!write(std::min(base + lead_ms_ + kAheadMs, in_.max_elapsed_ms)))
    throw Error(ErrorKind::kLeaseLost,
                in_.lease->where() + ": could not persist the first high-water mark: " + failure());
  thread_ = std::thread([this] { run(); });
}

std::string MarkKeeper::failure() const {
  std::lock_guard<std::mutex> lock(mu_);
  return failure_;
}

bool MarkKeeper::write(int64_t target_ms, bool urgent) {
  // What could be issued while this write was in flight (-1: nothing of our own yet).
  int64_t in_flight_ms = -1;
  if (own_mark_) {
    // A write may hang (an etcd member that stopped answering, a leader election: a
    // proposal in flight then waits out its timeout). Until it lands, issue what our
    // persisted mark covers, lead included, as after a failed write: the lead is the
    // reserve for a store that does not answer in time, whether it failed yet or not.
    std::lock_guard<std::mutex> lock(mu_);
    const int64_t p = persisted_.load(std::memory_order_relaxed);
    if (p >= 0 && in_.mark_limit->load(std::memory_order_relaxed) != INT64_MIN) {
      in_.mark_limit->store((p << in_.sequence_bits) | seq_mask_, std::memory_order_release);
      in_flight_ms = std::min(p, target_ms);
    }
  }
  bool ok = true;
  std::string why;
  try {
    if (urgent)
      in_.lease->write_mark(target_ms + in_.epoch_ms);
    else
      in_.lease->write_mark_batched(target_ms + in_.epoch_ms);
  } catch (const Error& e) {
    ok = false;
    why = e.what();
  }
  {
    std::lock_guard<std::mutex> lock(mu_);
    failure_ = std::move(why);
    if (!ok) in_.mark_write_failures->fetch_add(1, std::memory_order_relaxed);
    if (ok) {
      own_mark_ = true;
      persisted_.store(target_ms, std::memory_order_release);
      // A write that lands late (an election held it) may find the clock past its target
      // minus the lead; what could be issued while it was in flight stays issuable (both
      // are under the mark now persisted), and the next tick writes again.
      const int64_t kept =
          in_flight_ms < 0 ? -1 : (in_flight_ms << in_.sequence_bits) | seq_mask_;
      in_.mark_limit->store(std::max(limit_for(target_ms), kept), std::memory_order_release);
      in_.mark_writes->fetch_add(1, std::memory_order_relaxed);
    } else if (in_.lease->lost()) {
      in_.mark_limit->store(INT64_MIN, std::memory_order_release);
    } else {
      // Issue what the persisted mark covers, lead included; retried at the next tick.
      const int64_t p = persisted_.load(std::memory_order_relaxed);
      in_.mark_limit->store(p < 0 ? -1 : (p << in_.sequence_bits) | seq_mask_,
                            std::memory_order_release);
    }
    failing_.store(!ok, std::memory_order_release);
    ++outcomes_;
  }
  written_.notify_all();
  return ok;
}

void MarkKeeper::run() {
  int64_t seen = in_.state->load(std::memory_order_acquire);
  bool active = true;
  std::unique_lock<std::mutex> lock(mu_);
  while (!stop_) {
    wake_.wait_for(lock, active ? kActivePeriod : kIdlePeriod,
                   [this] { return stop_ || wanted_ >= 0; });
    if (stop_) break;
    const bool requested = wanted_ >= 0;
    lock.unlock();
    const int64_t s = in_.state->load(std::memory_order_acquire);
    active = s != seen;
    seen = s;
    tick(requested, active);
    lock.lock();
  }
}

void MarkKeeper::tick(bool requested, bool active) {
  try {
    in_.lease->maintain();
  } catch (const std::exception&) {
    // maintain() records its own problem; a check that could not run is retried next tick
  }
  const uint64_t renewal_failures = in_.lease->renewal_failures();
  if (renewal_failures != renewal_failures_seen_) {
    in_.renewal_failures->fetch_add(renewal_failures - renewal_failures_seen_,
                                    std::memory_order_relaxed);
    renewal_failures_seen_ = renewal_failures;
  }
  if (in_.lease->lost()) {
    {
      std::lock_guard<std::mutex> lock(mu_);
      in_.mark_limit->store(INT64_MIN, std::memory_order_release);
      wanted_ = -1;
      ++outcomes_;
    }
    written_.notify_all();
    return;
  }
  int64_t wanted;
  {
    std::lock_guard<std::mutex> lock(mu_);
    wanted = wanted_;
    wanted_ = -1;
  }
  // What has to be covered: the last id issued in the space, the wall clock (plus the
  // monotonic allowance), what a minting thread asked for. With an injected clock the
  // keeper does not read it (a scripted clock would see extra readings): it uses the
  // highest reading the minting calls saw.
  const int64_t s = in_.state->load(std::memory_order_acquire);
  int64_t base = s >= 0 ? s >> in_.sequence_bits : -1;
  int64_t now = in_.system_clock
                    ? floor_div(realtime_ns(), kNsPerMs) - in_.epoch_ms
                    : in_.wall_high->load(std::memory_order_acquire);
  if (now > INT64_MIN) base = std::max(base, std::min(now, in_.max_elapsed_ms) + in_.extra_ahead_ms);
  if (wanted >= 0) base = std::max(base, wanted >> in_.sequence_bits);
  if (base < 0) return;
  base = std::min(base, in_.max_elapsed_ms);
  const int64_t p = persisted_.load(std::memory_order_acquire);
  if (p >= in_.max_elapsed_ms) return;  // the whole window is reserved
  const int64_t headroom = p - lead_ms_ - base;
  // An idle generator's write may wait a little for company (the store then carries many
  // slots' marks in one request); one that mints, or is down to a quarter of the headroom
  // kept, or that a minting thread waits for, goes at once.
  if (requested || headroom < kAheadMs / 2 || failing())
    write(std::min(base + lead_ms_ + kAheadMs, in_.max_elapsed_ms),
          requested || active || headroom < kAheadMs / 4);
}

bool MarkKeeper::wait_for(int64_t packed, int64_t budget_ns) {
  const auto until = std::chrono::steady_clock::now() + std::chrono::nanoseconds(budget_ns);
  std::unique_lock<std::mutex> lock(mu_);
  if (stop_) return false;
  const uint64_t asked_at = outcomes_;
  wanted_ = std::max(wanted_, packed);
  wake_.notify_one();
  for (;;) {
    const int64_t limit = in_.mark_limit->load(std::memory_order_acquire);
    if (limit >= packed) return true;
    if (limit == INT64_MIN || stop_) return false;
    if (outcomes_ != asked_at && failing()) return false;  // a write failed after we asked
    if (written_.wait_until(lock, until) == std::cv_status::timeout)
      return in_.mark_limit->load(std::memory_order_acquire) >= packed;
  }
}

void MarkKeeper::stop() noexcept {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stop_ = true;
  }
  wake_.notify_all();
  written_.notify_all();
  if (thread_.joinable()) thread_.join();
}

void MarkKeeper::abandon_after_fork() noexcept {
  // The thread is the parent's; its mutex may have been copied locked. Leak both.
  if (thread_.joinable()) new std::thread(std::move(thread_));
  stop_ = true;
}

}  // namespace detail
}  // namespace snowfleet
