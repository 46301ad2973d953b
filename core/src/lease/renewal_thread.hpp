// The background renewal of a lease that expires unless renewed (a PostgreSQL lease row, a
// Kubernetes Lease): one thread that renews every TTL/3 and, after a failed renewal, again
// soon (the deadline leaves TTL - margin), until stopped or the lease is found lost. A
// member of the lease, not a base class, so the lease stops it in its own release() before
// anything the renewal uses is destroyed. Internal.
#pragma once

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <thread>
#include <utility>

namespace snowfleet {
namespace detail {

/// What one renewal found.
enum class Renewal { kConfirmed, kLost, kFailed };

class RenewalThread {
 public:
  RenewalThread() = default;
  RenewalThread(const RenewalThread&) = delete;
  RenewalThread& operator=(const RenewalThread&) = delete;
  /// The owner must have called stop() or abandon() first.
  ~RenewalThread() = default;

  /// Starts renewing a lease of `ttl_s` seconds with `renew`, from a thread of its own.
  void start(int64_t ttl_s, std::function<Renewal()> renew) {
    renew_ = std::move(renew);
    period_ = std::chrono::milliseconds(ttl_s * 1000 / 3);
    retry_ = std::chrono::milliseconds(std::min<int64_t>(ttl_s * 1000 / 10, 500));
    thread_ = std::thread([this] { run(); });
  }

  /// Stops the thread and joins it (a renewal in progress completes first). Idempotent.
  void stop() noexcept {
    {
      std::lock_guard<std::mutex> lock(mu_);
      stop_ = true;
    }
    wake_.notify_all();
    if (thread_.joinable()) thread_.join();
  }

  /// In a forked child the thread does not exist (it is the parent's): forget it without
  /// joining, and leak its handle on purpose (destroying a joinable std::thread aborts).
  void abandon() noexcept {
    if (thread_.joinable()) new std::thread(std::move(thread_));
  }

 private:
  void run() {
    auto wait = period_;
    for (;;) {
      {
        std::unique_lock<std::mutex> lock(mu_);
        if (wake_.wait_for(lock, wait, [this] { return stop_; })) return;
      }
      const Renewal r = renew_();
      if (r == Renewal::kLost) return;
      wait = r == Renewal::kConfirmed ? period_ : retry_;
    }
  }

  std::function<Renewal()> renew_;
  std::chrono::milliseconds period_{0}, retry_{0};
  std::mutex mu_;
  std::condition_variable wake_;
  bool stop_ = false;
  std::thread thread_;
};

}  // namespace detail
}  // namespace snowfleet
