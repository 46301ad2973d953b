// The marks of a process's slots on one etcd lease, sent in shared transactions
// (ProcessLease::write_mark, etcd_process_lease.hpp): one thread per lease sends up to
// kMarksPerTxn slots' marks in one POST /v3/kv/txn, each slot with its own compares
// (create_revision of its slot key, mod_revision of its mark key); the failure branch
// reads both, so a slot no longer ours is told so and the others are sent again.
// Only built with etcd support.
#include "etcd_process_lease.hpp"

#include <algorithm>
#include <chrono>

#include "base/internal.hpp"
#include "etcd_base64.hpp"
#include "etcd_reply.hpp"
#include "json_text.hpp"

namespace snowfleet {
namespace detail {
namespace etcd {

ProcessLease::MarkWrite::Outcome ProcessLease::write_mark(const std::shared_ptr<MarkWrite>& w,
                                                          const std::atomic<uint64_t>* cancel) {
  const uint64_t gen = cancel->load(std::memory_order_acquire);
  const auto cancelled = [&] { return cancel->load(std::memory_order_acquire) != gen; };
  std::unique_lock<std::mutex> lock(mark_mu_);
  if (mark_stop_ || !mark_thread_.joinable()) {
    w->why = "the lease is being revoked";
    return MarkWrite::kFailed;
  }
  w->outcome = MarkWrite::kPending;
  w->queued = std::chrono::steady_clock::now();
  mark_queue_.push_back(w);
  if (w->urgent) ++urgent_queued_;
  mark_cv_.notify_all();
  marked_cv_.wait(lock, [&] { return w->outcome != MarkWrite::kPending || cancelled(); });
  if (w->outcome != MarkWrite::kPending) return w->outcome;
  // Cancelled: withdraw it if it is still queued (in flight, the mark thread settles it).
  const auto at = std::find(mark_queue_.begin(), mark_queue_.end(), w);
  if (at != mark_queue_.end()) {
    if (w->urgent) --urgent_queued_;
    mark_queue_.erase(at);
  }
  throw Unreachable("request cancelled (closing)");
}

void ProcessLease::settle(const std::shared_ptr<MarkWrite>& w, MarkWrite::Outcome outcome,
                          const std::string& why) {
  w->outcome = outcome;
  w->why = why;
}

void ProcessLease::mark_loop() {
  std::unique_lock<std::mutex> lock(mark_mu_);
  for (;;) {
    mark_cv_.wait(lock, [this] { return mark_stop_ || !mark_queue_.empty(); });
    if (mark_stop_) break;
    if (urgent_queued_ == 0) {
      // Nobody waits yet: let the marks of the other slots due about now join this one.
      mark_cv_.wait_until(lock, mark_queue_.front()->queued + kMarkLinger, [this] {
        return mark_stop_ || urgent_queued_ > 0 || mark_queue_.empty() ||
               mark_queue_.size() >= kMarksPerTxn;
      });
      if (mark_stop_) break;
      if (mark_queue_.empty()) continue;  // withdrawn (cancelled)
    }
    // Oldest first; a second write for a slot already in the batch waits for the next one,
    // so one slot's writes land in the order they were asked for.
    std::vector<std::shared_ptr<MarkWrite>> batch;
    std::vector<std::shared_ptr<MarkWrite>> rest;
    for (const auto& w : mark_queue_) {
      const bool twice = std::any_of(batch.begin(), batch.end(),
                                     [&](const auto& b) { return b->slot_key == w->slot_key; });
      if (batch.size() < kMarksPerTxn && !twice) {
        batch.push_back(w);
        if (w->urgent) --urgent_queued_;
      } else {
        rest.push_back(w);
      }
    }
    mark_queue_.swap(rest);
    lock.unlock();
    send_marks(batch);
    lock.lock();
    marked_cv_.notify_all();
  }
  for (const auto& w : mark_queue_) settle(w, MarkWrite::kFailed, "the lease is being revoked");
  mark_queue_.clear();
  urgent_queued_ = 0;
  marked_cv_.notify_all();
}

namespace {

using Batch = std::vector<std::shared_ptr<ProcessLease::MarkWrite>>;

// One transaction for the marks of `batch`, each slot with its own compares; the failure
// branch reads each slot key and mark key.
nlohmann::json mark_txn(const Batch& batch) {
  using nlohmann::json;
  json compare = json::array(), success = json::array(), failure = json::array();
  for (const auto& w : batch) {
    compare.push_back({{"key", b64(w->slot_key)},
                       {"target", "CREATE"},
                       {"result", "EQUAL"},
                       {"create_revision", std::to_string(w->create_revision)}});
    // A copy of an earlier write that etcd applies after this one must not land: it would
    // put the mark back below ids issued since (the mark is what the slot's next holder
    // starts above).
    compare.push_back({{"key", b64(w->mark_key)},
                       {"target", "MOD"},
                       {"result", "EQUAL"},
                       {"mod_revision", std::to_string(w->mark_revision)}});
    success.push_back(
        {{"request_put", {{"key", b64(w->mark_key)}, {"value", b64(std::to_string(w->mark_ms))}}}});
    failure.push_back({{"request_range", {{"key", b64(w->slot_key)}, {"keys_only", true}}}});
    failure.push_back({{"request_range", {{"key", b64(w->mark_key)}, {"keys_only", true}}}});
  }
  return {{"compare", compare}, {"success", success}, {"failure", failure}};
}

// A failed mark transaction: the slots still ours go again (into `again`), with their mark
// key's revision now (a mark key that moved was moved by an earlier write of this slot
// that etcd applied after we stopped waiting: this later write goes again, over it).
// Returns why the batch fails, when nothing explains the failure.
std::string recheck(const nlohmann::json& reply, const Batch& batch, Batch* again) {
  std::vector<std::pair<int64_t, int64_t>> expected;
  for (const auto& w : batch) expected.emplace_back(w->create_revision, w->mark_revision);
  const MarkRecheck found = read_mark_failure(reply, expected);
  for (const auto& [i, modified] : found.ours) {
    batch[i]->mark_revision = modified;
    again->push_back(batch[i]);
  }
  if (again->size() == batch.size() && !found.moved)
    return "the mark transaction failed, yet every slot key and mark in it is as expected: " +
           json_text(reply).substr(0, 200);
  return "";
}

}  // namespace

void ProcessLease::send_marks(std::vector<std::shared_ptr<MarkWrite>> batch) {
  using nlohmann::json;
  while (!batch.empty()) {
    std::vector<std::shared_ptr<MarkWrite>> again;
    std::string failed;
    bool unanswered = false, succeeded = false;
    try {
      const json reply =
          send(mark_http_, "/v3/kv/txn", mark_txn(batch), request_ms_, &cancel_gen_, true);
      succeeded = reply.value("succeeded", false);
      if (succeeded) {
        const int64_t landed = i64(field(reply, "header"), "revision");
        for (const auto& w : batch) w->mark_revision = landed;
      } else {
        failed = recheck(reply, batch, &again);
      }
    } catch (const Unreachable& e) {
      failed = e.what();
      unanswered = true;
    } catch (const std::exception& e) {  // etcd error, malformed JSON
      failed = e.what();
    }
    std::lock_guard<std::mutex> lock(mark_mu_);
    if (!failed.empty()) {
      fail_marks(batch, failed, unanswered);
      return;
    }
    // Succeeded: every mark written. Else the slots not sent again are no longer ours.
    for (const auto& w : batch)
      if (std::find(again.begin(), again.end(), w) == again.end())
        settle(w, succeeded ? MarkWrite::kWritten : MarkWrite::kLost);
    batch.swap(again);
  }
}

void ProcessLease::fail_marks(const std::vector<std::shared_ptr<MarkWrite>>& batch,
                              const std::string& failed, bool unanswered) {
  for (const auto& w : batch) settle(w, MarkWrite::kFailed, failed);
  // The writes queued behind a request that got no answer would get none either.
  if (!unanswered) return;
  for (const auto& w : mark_queue_)
    settle(w, MarkWrite::kFailed, "a mark write ahead of this one got no answer: " + failed);
  mark_queue_.clear();
  urgent_queued_ = 0;
}

}  // namespace etcd
}  // namespace detail
}  // namespace snowfleet
