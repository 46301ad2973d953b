// The claims of a process's generators on one etcd lease, in shared transactions
// (etcd_claim_batch.hpp). Only built with etcd support.
#include "etcd_claim_batch.hpp"

#include <algorithm>

#include "etcd_base64.hpp"
#include "etcd_http.hpp"
#include "etcd_reply.hpp"

namespace snowfleet {
namespace detail {
namespace etcd {

using nlohmann::json;

json batch_claim_txn(const std::vector<ClaimEntry>& entries, int64_t lease_id, const json& genesis,
                     const json& since) {
  json success = json::array();
  for (const ClaimEntry& e : entries) {
    const json compare = {
        {"key", b64(e.key)}, {"target", "CREATE"}, {"result", "EQUAL"}, {"create_revision", "0"}};
    const json put = {
        {"key", b64(e.key)}, {"value", b64(e.value)}, {"lease", std::to_string(lease_id)}};
    const json mark = {{"request_range", {{"key", b64(e.mark_key)}}}};
    success.push_back(
        {{"request_txn",
          {{"compare", json::array({compare})},
           {"success", json::array({{{"request_put", put}}, mark})},
           {"failure", json::array({{{"request_range", {{"key", b64(e.key)}}}}, mark})}}}});
  }
  success.push_back({{"request_range", genesis}});
  success.push_back({{"request_range", since}});
  return {{"compare", json::array()}, {"success", success}};
}

json entry_reply(const json& reply, size_t i, size_t n) {
  const json& responses = field(reply, "responses");
  const json& inner = field(item(responses, i), "response_txn");
  const json& genesis = item(responses, n);
  if (!inner.is_object() || !genesis.is_object())
    throw Refused("malformed etcd reply: the batch's answer has no responses[" + std::to_string(i) +
                  "].response_txn or no genesis read");
  const json& got = field(inner, "responses");
  const json& succeeded = field(inner, "succeeded");  // absent when false
  if (succeeded.is_boolean() && succeeded.get<bool>())
    return {{"succeeded", true},
            {"header", field(reply, "header")},
            {"responses", json::array({json::object(), item(got, 1), genesis})}};
  return {{"header", field(reply, "header")},
          {"responses", json::array({json::object(), item(got, 0), item(got, 1), genesis})}};
}

const json& since_reply(const json& reply, size_t n) {
  return field(item(field(reply, "responses"), n + 1), "response_range");
}

namespace {

bool cancelled(const ClaimRequest& r) {
  return r.cancel && r.cancel->load(std::memory_order_acquire) != r.gen;
}

void finish(ClaimRequest* r, std::exception_ptr error) {
  r->error = std::move(error);
  r->state = ClaimRequest::kDone;
}

// `mine` first, then the oldest waiting of the same slot count, up to mine.max_batch, taken
// off the queue.
std::vector<ClaimRequest*> take(ClaimQueue& q, ClaimRequest& mine) {
  std::vector<ClaimRequest*> batch{&mine};
  std::deque<ClaimRequest*> rest;
  for (ClaimRequest* r : q.waiting) {
    if (r == &mine) continue;
    if (batch.size() < std::min(mine.max_batch, kClaimsPerTxn) && r->slots == mine.slots)
      batch.push_back(r);
    else
      rest.push_back(r);
  }
  q.waiting.swap(rest);
  for (ClaimRequest* r : batch) r->state = ClaimRequest::kSent;
  return batch;
}

bool unanswered(const std::exception_ptr& error, std::string* why) {
  try {
    std::rethrow_exception(error);
  } catch (const Unreachable& e) {
    *why = e.what();
    return true;
  } catch (...) {
  }
  return false;
}

// The claims queued behind a request that got no answer (`why`) fail with it, as
// RequestTurn's do: they would only wait to get none either, and hold nothing in etcd.
void fail_queued(ClaimQueue& q, const std::string& why, BatchSender& sender) {
  const auto ahead =
      std::make_exception_ptr(Unreachable("a claim ahead of this one got no answer: " + why));
  for (ClaimRequest* r : q.waiting) {
    if (r->repeat) sender.unpick({r});
    r->repeat = false;
    finish(r, ahead);
  }
  q.waiting.clear();
}

// Answers `picked` with `error`. When the sender's own claim was cancelled (its generator
// closed), the others go back to the queue instead: nothing failed for them. When the
// request got no answer, the claims queued behind it fail too (fail_queued).
void fail(ClaimQueue& q, ClaimRequest& mine, const std::vector<ClaimRequest*>& picked,
          const std::exception_ptr& error, BatchSender& sender) {
  if (cancelled(mine)) {
    for (ClaimRequest* r : picked) {
      if (r == &mine) continue;
      r->state = ClaimRequest::kQueued;
      q.waiting.push_front(r);
    }
    if (mine.state != ClaimRequest::kDone) finish(&mine, error);
    return;
  }
  for (ClaimRequest* r : picked) finish(r, error);
  std::string why;
  if (unanswered(error, &why)) fail_queued(q, why, sender);
}

// The batch `picked` went out and got no answer (`error`): etcd may have applied it (a
// member applied it and answered "request timed out", or its answer was lost, and no other
// member answered in time). Its claims go out once more with their slots and values
// (ClaimRequest::repeat): a key the first request created then reads as its claim's own
// (etcd_claim.cc) instead of staying held by the process's lease with no holder. A claim
// asked again already fails, as do the claims queued behind (fail_queued). False: the
// request was answered (with an error), there is nothing to ask again.
bool ask_again(ClaimQueue& q, const std::vector<ClaimRequest*>& picked,
               const std::exception_ptr& error, BatchSender& sender) {
  std::string why;
  if (!unanswered(error, &why)) return false;
  fail_queued(q, why, sender);
  for (auto it = picked.rbegin(); it != picked.rend(); ++it) {
    ClaimRequest* r = *it;
    if (r->asked_again) {
      sender.unpick({r});
      finish(r, error);
      continue;
    }
    r->repeat = r->asked_again = true;
    r->state = ClaimRequest::kQueued;
    q.waiting.push_front(r);
  }
  return true;
}

// `mine`, the sender, gives up on the batch `picked` it sent (its generator closed, or its
// thread was cancelled, mid-request): etcd may have applied it. The others go back to the
// queue with their slots and values, to try the same again (ClaimRequest::repeat).
void requeue(ClaimQueue& q, ClaimRequest& mine, const std::vector<ClaimRequest*>& picked,
             BatchSender& sender, const std::exception_ptr& error) {
  sender.unpick({&mine});
  for (auto it = picked.rbegin(); it != picked.rend(); ++it) {
    ClaimRequest* r = *it;
    if (r == &mine) continue;
    r->repeat = true;
    r->state = ClaimRequest::kQueued;
    q.waiting.push_front(r);
  }
  finish(&mine, error);
}

// A slot for each claim of `batch`; those without one are answered (slot -1). When a pick
// throws (a read of the held slots failed), the claims not answered fail with it (fail()).
std::vector<ClaimRequest*> pick_all(ClaimQueue& q, ClaimRequest& mine,
                                    const std::vector<ClaimRequest*>& batch, BatchSender& sender) {
  std::vector<ClaimRequest*> picked;
  try {
    for (ClaimRequest* r : batch) {
      if (r->repeat) {  // its slot is still being claimed (see ClaimRequest::repeat)
        r->repeat = false;
        picked.push_back(r);
        continue;
      }
      r->value.clear();
      r->asked_again = false;
      r->slot = sender.pick(*r);
      if (r->slot < 0)
        finish(r, nullptr);
      else
        picked.push_back(r);
    }
  } catch (const std::exception&) {
    sender.unpick(picked);
    std::vector<ClaimRequest*> open;
    for (ClaimRequest* r : batch)
      if (r->state != ClaimRequest::kDone) open.push_back(r);
    fail(q, mine, open, std::current_exception(), sender);
    return {};
  } catch (...) {
    // Not an error of the request: a forced unwind (pthread_cancel in the read of the held
    // slots) must go on. The claims not answered go back to the queue, `mine` leaves.
    sender.unpick(picked);
    for (auto it = batch.rbegin(); it != batch.rend(); ++it) {
      ClaimRequest* r = *it;
      if (r == &mine || r->state == ClaimRequest::kDone) continue;
      r->repeat = false;
      r->state = ClaimRequest::kQueued;
      q.waiting.push_front(r);
    }
    finish(&mine, nullptr);
    throw;
  }
  return picked;
}

void send_batch(std::unique_lock<std::mutex>& lock, ClaimQueue& q, ClaimRequest& mine,
                const std::vector<ClaimRequest*>& picked, BatchSender& sender) {
  const json txn = sender.txn(picked);
  lock.unlock();
  json reply;
  std::exception_ptr error;
  constexpr int64_t kNotSent = INT64_MIN;  // no turn came: the request never went out
  int64_t sent = kNotSent;
  try {
    reply = sender.send(txn, &sent);
  } catch (const std::exception&) {
    error = std::current_exception();
  } catch (...) {
    // A forced unwind (pthread_cancel: curl's poll is a cancellation point) must go on: a
    // handler that swallows it aborts the process. The batch goes back as on a close().
    lock.lock();
    requeue(q, mine, picked, sender, nullptr);
    throw;
  }
  lock.lock();
  if (error && cancelled(mine)) {  // its sender closed mid-request
    requeue(q, mine, picked, sender, error);
    return;
  }
  if (error && sent != kNotSent && ask_again(q, picked, error, sender)) return;
  sender.unpick(picked);
  if (!error) {
    try {
      sender.settle(reply, picked);
    } catch (...) {
      error = std::current_exception();
    }
  }
  if (error) {
    fail(q, mine, picked, error, sender);
    return;
  }
  for (ClaimRequest* r : picked) {
    r->sent = sent;
    finish(r, nullptr);
  }
}

void lead(std::unique_lock<std::mutex>& lock, ClaimQueue& q, ClaimRequest& mine,
          BatchSender& sender) {
  q.sending = true;
  try {
    const std::vector<ClaimRequest*> picked = pick_all(q, mine, take(q, mine), sender);
    if (!picked.empty()) send_batch(lock, q, mine, picked, sender);
  } catch (...) {  // the sender's thread is cancelled (the lock is held again)
    q.sending = false;
    q.cv.notify_all();
    throw;
  }
  q.sending = false;
  q.cv.notify_all();
}

}  // namespace

void claim_in_batch(std::unique_lock<std::mutex>& lock, ClaimQueue& queue, ClaimRequest& mine,
                    BatchSender& sender) {
  queue.waiting.push_back(&mine);
  for (;;) {
    // In flight (kSent), a claim waits for its batch's answer: the request has a timeout,
    // and a slot it won must be known to be ours to be given back.
    try {
      queue.cv.wait(lock, [&] {
        return mine.state == ClaimRequest::kDone ||
               (mine.state == ClaimRequest::kQueued && (!queue.sending || cancelled(mine)));
      });
    } catch (...) {
      // The thread is cancelled (pthread_cancel: the wait is a cancellation point, and a
      // forced unwind passes through it with the lock held again). `mine` lives on its
      // stack: out of the queue, or, in a batch in flight, answered first (the sender
      // writes to it; the request has a timeout).
      if (mine.state == ClaimRequest::kQueued) {
        queue.waiting.erase(std::remove(queue.waiting.begin(), queue.waiting.end(), &mine),
                            queue.waiting.end());
        if (mine.repeat) sender.unpick({&mine});
      }
      while (mine.state == ClaimRequest::kSent) queue.cv.wait(lock);
      throw;
    }
    if (mine.state == ClaimRequest::kDone) break;
    if (cancelled(mine)) {
      queue.waiting.erase(std::remove(queue.waiting.begin(), queue.waiting.end(), &mine),
                          queue.waiting.end());
      if (mine.repeat) sender.unpick({&mine});  // its slot, perhaps taken: closing with it
      mine.repeat = false;
      throw Unreachable("request cancelled (closing)");
    }
    lead(lock, queue, mine, sender);
  }
  if (mine.error) std::rethrow_exception(mine.error);
}

}  // namespace etcd
}  // namespace detail
}  // namespace snowfleet
