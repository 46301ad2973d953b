// The claim walk of an etcd slot (etcd_claim.hpp). Only built with etcd support.
#include "etcd_claim.hpp"

#include <unistd.h>

#include <algorithm>
#include <mutex>
#include <random>
#include <set>
#include <vector>

#include "base/internal.hpp"
#include "base/quote.hpp"
#include "etcd_base64.hpp"
#include "etcd_claim_batch.hpp"
#include "etcd_claim_pick.hpp"
#include "etcd_genesis.hpp"
#include "etcd_reply.hpp"

namespace snowfleet {
namespace detail {
namespace etcd {

namespace {

using nlohmann::json;

constexpr int64_t kMaxAttempts = 4096;  // races lost before giving up

// A claim that lost its compare to itself: etcd applied an earlier try of this request but
// answered it "request timed out" or not at all (the outcome unknown), and the request
// moved on to another member, or its batch went out once more (etcd_claim_batch.hpp), and
// found the slot key created. The failure branch read the key and the slot's mark: when
// the key holds this attempt's value, the slot is ours, created at its create_revision,
// with the mark it had then (only the slot's holder writes it). Else (someone else's key)
// the claim stays lost. Read as lost, the claim would pick another slot and leave this one
// held by the process's lease, unused, until the last generator on it closed.
ClaimReply applied_before(const json& reply, const std::string& value) {
  const json& responses = field(reply, "responses");
  const json& kv = item(field(field(item(responses, 1), "response_range"), "kvs"), 0);
  const json& v = field(kv, "value");
  if (!v.is_string() || unb64(v.get<std::string>()) != value) return {};
  return read_claim_reply({{"succeeded", true},
                           {"header", {{"revision", std::to_string(i64(kv, "create_revision"))}}},
                           {"responses", json::array({json::object(), item(responses, 2)})}});
}

// The genesis of the prefix, from the claim's reply or created (etcd_genesis.hpp).
// `index`: where the reply's responses hold the genesis read.
Genesis genesis_of(const EtcdConfig& cfg, const SlotLink& link, Clock& clock, const json& reply,
                   size_t index) {
  const Send send = [&link](const std::string& path, const json& body) {
    return link.lease.send(link.http, path, body, link.timeout_ms, link.cancel);
  };
  return claim_genesis(reply, index, send, cfg.prefix, Ttls{cfg.ttl_s, cfg.max_ttl_s},
                       std::max<int64_t>(0, floor_div(clock.wall_ns(), kNsPerMs)),
                       link.lease.genesis());
}

}  // namespace

void give_back(const SlotLink& link, const std::string& key, int64_t revision, bool closing) {
  const json txn = {{"compare", json::array({{{"key", b64(key)},
                                              {"target", "CREATE"},
                                              {"result", "EQUAL"},
                                              {"create_revision", std::to_string(revision)}}})},
                    {"success", json::array({{{"request_delete_range", {{"key", b64(key)}}}}})}};
  link.lease.send(link.http, "/v3/kv/txn", txn, link.timeout_ms, link.cancel, closing);
}

namespace {

// One claim walk: what this process knows of the held slots (shared by its claims on this
// store), and what this walk learned (slots given back, why). Only reads of the held
// slots happen under the lock (so a storm of this process's claims reads once); the
// compare-and-swaps of a node=N claim run in parallel, and the claims of any free slot go
// in this process's batches (etcd_claim_batch.hpp), each on a slot no other claim of this
// process has picked.
class ClaimWalk final : private BatchSender {
 public:
  ClaimWalk(const EtcdConfig& cfg, const SlotLink& link, const Layout& layout,
            const SlotFilter& usable, Clock& clock, const std::string& quoted)
      : cfg_(cfg),
        link_(link),
        layout_(layout),
        usable_(usable),
        clock_(clock),
        quoted_(quoted),
        slots_dir_(cfg.prefix + "/slots/"),
        slots_(layout.max_node_id() + 1),
        mu_(link.lease.claim_state(&known_, &queue_)),
        read_failures_(known_->read_failures.load(std::memory_order_acquire)),
        rng_(std::random_device{}() ^ (static_cast<uint64_t>(getpid()) << 32) ^
             static_cast<uint64_t>(clock.monotonic_ns())) {
    std::string end = slots_dir_;
    end.back() = static_cast<char>(end.back() + 1);  // range end: "<prefix>/slots0"
    held_range_ = {{"key", b64(slots_dir_)}, {"range_end", b64(end)}, {"keys_only", true}};
    char host[256] = {0};
    gethostname(host, sizeof host - 1);
    holder_ = std::string(host) + " pid " + std::to_string(getpid());
  }

  ClaimedSlot run() {
    for (int64_t attempt = 0; attempt < kMaxAttempts; ++attempt) {
      Attempt a;
      if (cfg_.node < 0) {
        if (!claim_batched(&a)) break;  // any free slot: in this process's next batch
      } else {
        const int64_t slot = next_slot(attempt);
        if (slot < 0) break;
        a = send_claim(slot);
        learn_answer(a);
      }
      if (!a.got.succeeded) continue;
      const int64_t slot = a.slot;
      const std::string problem =
          mark_problem(a.got.mark_readable, a.got.mark_ms, a.got.mark_text, a.mark_key, layout_);
      if (!problem.empty()) {
        if (unreadable_.empty()) unreadable_ = problem;
        give_back(link_, a.key, a.got.revision);
        skipped_.insert(slot);
        continue;
      }
      return keep(a);
    }
    throw Error(ErrorKind::kNodeIdUnavailable,
                claim_refusal(quoted_, slots_dir_, cfg_.node, held_count_, slots_, unreadable_));
  }

 private:
  struct Attempt {
    int64_t slot = -1;
    std::string key, mark_key;
    json reply;
    ClaimReply got;
    // When the claim went out, not when it queued for a turn: in a storm the wait can pass
    // TTL - margin, and a deadline from before it refused the slot's first ids.
    int64_t sent = 0;
    size_t genesis_at = 2;  // where the reply's responses hold the genesis read
  };

  // A node=N claim tries slot N once (-1: no more).
  int64_t next_slot(int64_t attempt) const { return attempt > 0 ? -1 : cfg_.node; }

  // A claim of any free slot, queued for this process's next batch (etcd_claim_batch.hpp);
  // false: no free slot. The answer becomes `*a` as send_claim() makes it.
  bool claim_batched(Attempt* a) {
    ClaimRequest req;
    req.slots = slots_;
    req.usable = &usable_;
    req.skipped = &skipped_;
    req.cancel = link_.cancel;
    req.gen = link_.cancel->load(std::memory_order_acquire);
    if (!cfg_.user.empty() || !cfg_.cert.empty()) req.max_batch = 1;
    {
      std::unique_lock<std::mutex> lock(mu_);
      claim_in_batch(lock, *queue_, req, *this);
    }
    held_count_ = req.held_count;
    if (req.slot < 0) return false;
    a->slot = req.slot;
    a->key = slots_dir_ + slot_text(req.slot);
    a->mark_key = cfg_.prefix + "/marks/" + slot_text(req.slot);
    a->reply = std::move(req.reply);
    a->sent = req.sent;
    a->got = read_claim_reply(a->reply);
    if (!a->got.succeeded) {
      a->got = applied_before(a->reply, req.value);
      a->genesis_at = 3;
    }
    return true;
  }

  // BatchSender, when this walk sends its process's batch: the walk's pick for another
  // walk's claim (its filter, its skipped slots), under mu_. Skips slots held in etcd,
  // slots another claim of this process is trying and, without asking etcd, slots whose
  // ids an open generator of this process mints.
  int64_t pick(ClaimRequest& r) override {
    if (known_->slots != slots_) read_held();
    const SlotChoice choice{slots_, &known_->held, &known_->claiming, r.skipped, *r.usable};
    int64_t slot = pick_free_slot(choice, rng_);
    if (slot < 0 && !fresh_) {
      // What this process learned earlier may be stale (slots released since): read
      // again before refusing.
      read_held();
      slot = pick_free_slot(choice, rng_);
    }
    r.held_count = count_taken(known_->held, known_->claiming);
    if (slot >= 0) known_->claiming.insert(slot);
    return slot;
  }

  void unpick(const std::vector<ClaimRequest*>& batch) override {
    for (const ClaimRequest* r : batch) known_->claiming.erase(r->slot);
  }

  // A batch of one: a single claim's transaction (claim_txn), as a lone claim always sent.
  json txn(const std::vector<ClaimRequest*>& batch) override {
    std::vector<ClaimEntry> entries;
    for (ClaimRequest* r : batch) {
      if (r->value.empty()) r->value = holder_ + " claim " + std::to_string(rng_());
      entries.push_back({slots_dir_ + slot_text(r->slot),
                         cfg_.prefix + "/marks/" + slot_text(r->slot), r->value});
    }
    seen_ = known_->revision;
    if (batch.size() == 1) {
      Attempt a;
      a.key = entries[0].key;
      a.mark_key = entries[0].mark_key;
      return claim_txn(a, entries[0].value);
    }
    json since = held_range_;
    since["min_create_revision"] = std::to_string(known_->revision + 1);
    return batch_claim_txn(entries, link_.lease.id(), genesis_range(cfg_.prefix), since);
  }

  json send(const json& txn, int64_t* sent) override {
    return link_.lease.send(link_.http, "/v3/kv/txn", txn, link_.timeout_ms, link_.cancel, false,
                            sent);
  }

  // Each claim's answer. Every slot tried is held now (ours or a faster claimant's), and so
  // is every slot created since the revision the batch picked from (a single claim's
  // answer lists them first when it lost): a few keys, where the whole list ran to 80 KB
  // of JSON per lost race in a storm (the gateway's CPU). Releases since are missed: a
  // refusal reads the whole list first.
  void settle(const json& reply, const std::vector<ClaimRequest*>& batch) override {
    const size_t n = batch.size();
    for (size_t i = 0; i < n; ++i) batch[i]->reply = n == 1 ? reply : entry_reply(reply, i, n);
    if (known_->slots != slots_) return;
    const json& since = n == 1 ? field(item(field(reply, "responses"), 0), "response_range")
                               : since_reply(reply, n);
    if (since.is_object()) {  // not in a single claim's answer when it won
      for (const int64_t slot : held_slots(since, slots_dir_, slots_)) known_->held.insert(slot);
      known_->revision = std::max(known_->revision, i64(field(reply, "header"), "revision"));
    }
    for (const ClaimRequest* r : batch) known_->held.insert(r->slot);
  }

  void read_held() {  // under mu_
    // A read that failed while we waited for mu_ fails this claim too (see HeldSlots).
    if (known_->read_failures.load(std::memory_order_acquire) != read_failures_)
      throw Unreachable(known_->read_error);
    try {
      const json r =
          link_.lease.send(link_.http, "/v3/kv/range", held_range_, link_.timeout_ms, link_.cancel);
      known_->held = held_slots(r, slots_dir_, slots_);
      known_->revision = i64(field(r, "header"), "revision");
    } catch (const std::exception& e) {
      known_->read_error = e.what();
      known_->read_failures.fetch_add(1, std::memory_order_acq_rel);
      throw;
    }
    known_->slots = slots_;
    fresh_ = true;
  }

  // If create_revision(slot key) == 0, put it with the process lease and read its mark and
  // the genesis; else read the slots created since `seen_`, the key, its mark and the
  // genesis. The genesis is read by both branches: success[2], failure[3]
  // (etcd_genesis.hpp).
  json claim_txn(const Attempt& a, const std::string& value) const {
    json since = held_range_;
    since["min_create_revision"] = std::to_string(seen_ + 1);
    return {{"compare", json::array({{{"key", b64(a.key)},
                                      {"target", "CREATE"},
                                      {"result", "EQUAL"},
                                      {"create_revision", "0"}}})},
            {"success", json::array({{{"request_put",
                                       {{"key", b64(a.key)},
                                        {"value", b64(value)},
                                        {"lease", std::to_string(link_.lease.id())}}}},
                                     {{"request_range", {{"key", b64(a.mark_key)}}}},
                                     {{"request_range", genesis_range(cfg_.prefix)}}})},
            {"failure", json::array({{{"request_range", since}},
                                     {{"request_range", {{"key", b64(a.key)}}}},
                                     {{"request_range", {{"key", b64(a.mark_key)}}}},
                                     {{"request_range", genesis_range(cfg_.prefix)}}})}};
  }

  Attempt send_claim(int64_t slot) {
    Attempt a;
    a.slot = slot;
    a.key = slots_dir_ + slot_text(slot);
    a.mark_key = cfg_.prefix + "/marks/" + slot_text(slot);
    // Unique to this attempt, so that an answer can tell our own key from anyone's.
    const std::string value = holder_ + " claim " + std::to_string(rng_());
    try {
      a.reply = link_.lease.send(link_.http, "/v3/kv/txn", claim_txn(a, value), link_.timeout_ms,
                                 link_.cancel, false, &a.sent);
      a.got = read_claim_reply(a.reply);
      if (!a.got.succeeded) {
        a.got = applied_before(a.reply, value);
        a.genesis_at = 3;
      }
    } catch (...) {
      std::lock_guard<std::mutex> lock(mu_);
      known_->claiming.erase(slot);
      throw;
    }
    return a;
  }

  // A node=N claim's answer: the slot is held now (by us or by another process).
  void learn_answer(const Attempt& a) {
    std::lock_guard<std::mutex> lock(mu_);
    if (known_->slots == slots_) known_->held.insert(a.slot);
  }

  void give_back_quietly(const Attempt& a) {
    try {
      give_back(link_, a.key, a.got.revision);
    } catch (...) {
    }
  }

  // The won slot, started above its mark or the prefix's genesis fence (after a wipe).
  ClaimedSlot keep(const Attempt& a) {
    int64_t fence_ms = 0;
    try {
      fence_ms = genesis_of(cfg_, link_, clock_, a.reply, a.genesis_at).fence_ms;
    } catch (...) {
      give_back_quietly(a);
      throw;
    }
    if (fence_ms > layout_.max_timestamp_ms()) {
      // Not a fence any claim writes (now + TTL + 2 s): started above it, the first mark
      // would persist the window's last millisecond and ruin the slot for good.
      give_back_quietly(a);
      throw Error(ErrorKind::kNodeIdUnavailable,
                  quoted_ + ": the genesis key " + genesis_key(cfg_.prefix) + " holds the fence " +
                      std::to_string(fence_ms) + ", past the last millisecond of layout " +
                      layout_.to_string() +
                      ": no slot under it can mint (delete the key while no holder lives)");
    }
    ClaimedSlot won;
    won.slot = a.slot;
    won.key = a.key;
    won.mark_key = a.mark_key;
    won.create_revision = a.got.revision;
    won.mark_revision = a.got.mark_revision;
    won.mark_ms = std::max(a.got.mark_ms, fence_ms);
    won.sent = a.sent;
    return won;
  }

  const EtcdConfig& cfg_;
  const SlotLink& link_;
  const Layout& layout_;
  const SlotFilter& usable_;
  Clock& clock_;
  const std::string& quoted_;
  const std::string slots_dir_;
  const int64_t slots_;
  ProcessLease::HeldSlots* known_ = nullptr;
  ClaimQueue* queue_ = nullptr;
  std::mutex& mu_;
  const uint64_t read_failures_;
  std::mt19937_64 rng_;
  json held_range_;
  std::string holder_;
  bool fresh_ = false;         // `known_->held` was read during this claim
  std::set<int64_t> skipped_;  // given back: a mark we cannot read
  int64_t seen_ = 0;           // known_->revision when this attempt picked its slot
  std::string unreadable_;     // why a free slot was skipped, for the refusal
  size_t held_count_ = 0;      // for the refusal
};

}  // namespace

// One range read of the held slots, then compare-and-swap on a free slot picked at
// random; a lost race answers, in the same request, with the slots created since the
// read it picked from.
ClaimedSlot claim_slot(const EtcdConfig& cfg, const SlotLink& link, const Layout& layout,
                       const SlotFilter& usable, Clock& clock, const std::string& quoted) {
  return ClaimWalk(cfg, link, layout, usable, clock, quoted).run();
}

}  // namespace etcd
}  // namespace detail
}  // namespace snowfleet
