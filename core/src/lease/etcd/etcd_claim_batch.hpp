// The claims of a process's generators on one etcd lease, sent in shared transactions, as
// their marks are (etcd_mark_batch.cc): the claims that wait while one batch is in flight
// go out together in the next. One of the waiting claimants sends the batch (nothing but
// its claim waits on it); the others wait for their answer, each still able to give up on
// its own cancellation (close()) while it is queued. Only built with etcd support. Internal.
//
//   claim txn: no compare; success holds, for each claim, a nested transaction with its own
//              compare (create_revision(<prefix>/slots/N) == 0): put the key with the lease
//              and read <prefix>/marks/N, else read the key and the mark; then one read of
//              <prefix>/genesis and one of the slots created since the revision the batch
//              picked from. So a race lost on one key loses only that claim, and a batch of
//              n claims costs one request where it cost n. A batch of one sends a single
//              claim's transaction (etcd_claim.hpp): a lone claim costs what it did.
//   no answer: etcd may have applied the batch; it goes out once more, each claim on the
//              same slot with the same value, and a key holding its value is its claim's.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <exception>
#include <mutex>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "mint/node_claim.hpp"

namespace snowfleet {
namespace detail {
namespace etcd {

/// Claims per transaction: one nested transaction each plus two reads, below etcd's default
/// --max-txn-ops (128) at both levels.
constexpr size_t kClaimsPerTxn = 64;

/// One slot a batch tries to create.
struct ClaimEntry {
  std::string key;       ///< "<prefix>/slots/NNNN"
  std::string mark_key;  ///< "<prefix>/marks/NNNN"
  std::string value;     ///< unique to this attempt: tells our own key from anyone's
};

/// The transaction that claims every slot of `entries` (each on its own compare) with the
/// lease `lease_id`, then reads `genesis` and `since` (range requests).
nlohmann::json batch_claim_txn(const std::vector<ClaimEntry>& entries, int64_t lease_id,
                               const nlohmann::json& genesis, const nlohmann::json& since);

/// Claim `i` of `n` in the reply to batch_claim_txn(), in the shape of a single claim's reply
/// (etcd_claim.hpp): won: {succeeded, header, responses: [{}, mark, genesis]}; lost:
/// {header, responses: [{}, slot key, mark, genesis]}. Throws Refused when the reply does not
/// answer claim `i` (a lost race must never be guessed from a reply that says nothing).
nlohmann::json entry_reply(const nlohmann::json& reply, size_t i, size_t n);

/// The range reply over the slots created since the batch's revision (the last response).
const nlohmann::json& since_reply(const nlohmann::json& reply, size_t n);

/// One generator's claim, queued for a batch.
struct ClaimRequest {
  /// The layout's slot count: a batch holds only claims of one (a generator of a narrower
  /// layout must never be handed a slot past its own).
  int64_t slots = 0;
  const SlotFilter* usable = nullptr;          ///< the slots this generator may take
  const std::set<int64_t>* skipped = nullptr;  ///< given back by its walk (unreadable marks)
  const std::atomic<uint64_t>* cancel = nullptr;
  uint64_t gen = 0;  ///< *cancel when it queued: moved means close() gives up on it
  /// The most claims its batch may hold: 1 (a single claim's transaction) for a user with
  /// credentials, since etcd before 3.4.24 / 3.5.8 does not check permissions on the
  /// operations of a nested transaction (GHSA-rfx7-8w68-q57q): a user allowed only to read
  /// the prefix could claim slots in a batch that its own single claim is refused.
  size_t max_batch = kClaimsPerTxn;
  enum State { kQueued, kSent, kDone };
  State state = kQueued;  ///< under the claim mutex
  int64_t slot = -1;      ///< the slot tried; -1 when done: no free slot
  size_t held_count = 0;  ///< slots taken when it was picked (for the refusal)
  std::string value;      ///< the attempt's unique value
  /// Requeued with its slot (still being claimed) and value: the batch it was in went out but
  /// got no answer, or its sender closed before the answer, so etcd may have applied it.
  /// Trying the same slot with the same value again tells (a key holding the value is ours);
  /// a new pick would leave the slot held by the process lease, used by no one, until the
  /// lease ends.
  bool repeat = false;
  /// Its batch went out and got no answer once already: a second silence fails the claim
  /// (against an etcd that hangs, a claim takes two request timeouts, not one per retry;
  /// three requests at most when the sender closes during the second, which cuts it short).
  bool asked_again = false;
  nlohmann::json reply;  ///< its answer, in a single claim's shape (entry_reply())
  int64_t sent = 0;      ///< Clock::monotonic_ns when the batch went out
  std::exception_ptr error;
};

/// This process's claims waiting for a batch on one lease. Guarded by the lease's claim
/// mutex (ProcessLease::claim_state).
struct ClaimQueue {
  std::deque<ClaimRequest*> waiting;
  bool sending = false;  ///< a batch is in flight
  std::condition_variable cv;
};

/// What the claimant that sends a batch does for the batch, apart from the queue.
class BatchSender {
 public:
  /// Under the claim mutex: a free slot for `r` (now being claimed), -1 when there is none;
  /// sets r.held_count. May throw (a read of the held slots failed).
  virtual int64_t pick(ClaimRequest& r) = 0;
  /// Under the claim mutex: the slots of `batch` are no longer being claimed.
  virtual void unpick(const std::vector<ClaimRequest*>& batch) = 0;
  /// Under the claim mutex: the transaction for `batch` (values set here, for the claims
  /// whose `value` is empty; a claim tried again keeps its own).
  virtual nlohmann::json txn(const std::vector<ClaimRequest*>& batch) = 0;
  /// Without the mutex: sends it; `*sent` as ProcessLease::send's turn_at.
  virtual nlohmann::json send(const nlohmann::json& txn, int64_t* sent) = 0;
  /// Under the claim mutex, after unpick(): each claim's answer (its `reply`, in a single
  /// claim's shape) and what the answer tells of the held slots. May throw (malformed).
  virtual void settle(const nlohmann::json& reply, const std::vector<ClaimRequest*>& batch) = 0;

 protected:
  ~BatchSender() = default;
};

/// Queues `mine` and returns once it is answered (state kDone: slot -1, or `reply` set),
/// sending a batch itself when none is in flight (with `sender`, of the calling walk). A
/// batch that went out and got no answer goes out once more with the same slots and values
/// (ClaimRequest::repeat). Throws what its batch's request threw (Unreachable: twice), and
/// Unreachable when `mine` is cancelled while queued, or a batch ahead of it got no answer.
/// `lock` holds the claim mutex. A thread cancelled (pthread_cancel) in it leaves the queue,
/// or waits for the answer of the batch in flight that holds its claim; a sender's batch
/// goes back to the queue.
void claim_in_batch(std::unique_lock<std::mutex>& lock, ClaimQueue& queue, ClaimRequest& mine,
                    BatchSender& sender);

}  // namespace etcd
}  // namespace detail
}  // namespace snowfleet
