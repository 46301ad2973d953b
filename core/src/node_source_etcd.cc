// "etcd://host:port[,host:port...]/<prefix>?ttl=10[&node=N][&cacert=..&cert=..&key=..]":
// node ids leased from etcd through its v3 JSON gateway (libcurl + nlohmann-json, both
// optional at build time: without them, SNOWFLEET_HAVE_ETCD is undefined and this source
// says so).
//
//   lease:     one etcd lease per process and store, shared by its slots and kept alive by
//              one thread (etcd_process_lease.hpp): granted by the first claimant, revoked
//              when the last slot on it is released.
//   claim:     POST /v3/kv/range over <prefix>/slots/ (keys only) to learn which slots are
//              held; then POST /v3/kv/txn on a free slot picked at random: if
//              create_revision(<prefix>/slots/N) == 0, put it with the lease and read
//              <prefix>/marks/N (the high-water mark) and <prefix>/genesis in the same
//              revision; else read the held slots again, in the same request, and pick
//              again. O(1) requests per claim, however many slots and claimants. A prefix
//              without a genesis gets one (etcd_genesis.hpp: wiped prefixes fenced).
//   mark:      POST /v3/kv/txn: if create_revision(<prefix>/slots/N) is still ours and
//              <prefix>/marks/N is at the mod_revision our last write left, put it. A holder
//              that lost its slot can never move the mark, nor a write etcd applies late
//              lower it. The
//              marks of a process's slots on one lease share transactions (one compare
//              and one put per slot; etcd_process_lease.hpp).
//   release:   POST /v3/kv/txn: delete the slot key if it is still ours (the mark key has
//              no lease and stays); the last slot's release revokes the lease.
// Keys and values are base64 in this API, int64 fields are JSON strings, and fields with
// default values are omitted from responses. The pieces live beside this file: the spec
// parser (etcd_spec.cc), base64 (etcd_base64.hpp), the reply readers (etcd_reply.hpp) and
// the HTTP transport (etcd_http.hpp); this file is the lease protocol.
#include "node_source.hpp"

#include <string>

#include "quote.hpp"

#if SNOWFLEET_HAVE_ETCD
#include <unistd.h>

#include <algorithm>
#include <mutex>
#include <nlohmann/json.hpp>
#include <random>
#include <set>
#include <stdexcept>
#include <vector>

#include "etcd_base64.hpp"
#include "etcd_genesis.hpp"
#include "etcd_http.hpp"
#include "etcd_process_lease.hpp"
#include "etcd_reply.hpp"
#include "internal.hpp"
#endif

namespace snowfleet {
namespace detail {

#if !SNOWFLEET_HAVE_ETCD

std::shared_ptr<NodeLease> claim_etcd(const std::string& spec, const Layout&,
                                      const std::shared_ptr<Clock>&, const SlotFilter&) {
  throw Error(ErrorKind::kNodeIdUnavailable,
              "node source " + quote(redact_node_source(spec)) +
                  ": this snowfleet was built without etcd support (it needs libcurl and "
                  "nlohmann-json at build time)");
}

#else

namespace {

using etcd::b64;
using etcd::Http;
using etcd::ProcessLease;
using nlohmann::json;

class EtcdLease final : public NodeLease, private etcd::LeaseHolder {
 public:
  EtcdLease(EtcdConfig cfg, std::shared_ptr<Clock> clock)
      : cfg_(std::move(cfg)), clock_(std::move(clock)), http_(cfg_, &cancel_gen_) {
    request_ms_ = static_cast<long>(std::min<int64_t>(2000, cfg_.ttl_s * 1000 / 3));
  }

  ~EtcdLease() override {
    if (abandoned_) {
      // Forked child (normally the generator leaks the whole lease instead): the handle
      // may be mid-request in the parent, and the shared lease is the parent's. Leak both.
      http_.leak();
      new std::shared_ptr<ProcessLease>(std::move(shared_));
      return;
    }
    release();
  }

  // Runs the claim protocol; throws kNodeIdUnavailable when no slot can be had.
  void claim(const Layout& layout, const SlotFilter& usable) {
    const std::string quoted = "node source " + quote(cfg_.text);
    for (int round = 0;; ++round) {
      try {
        shared_ = ProcessLease::acquire(cfg_, clock_);
      } catch (const std::exception& e) {  // transport, etcd error, malformed JSON
        throw Error(ErrorKind::kNodeIdUnavailable, quoted + ": " + e.what());
      }
      try {
        claim_slot(layout, usable, quoted);
        return;
      } catch (const Error&) {
        shared_.reset();  // the last holder revokes the lease
        throw;
      } catch (const std::exception& e) {  // transport, etcd error, malformed JSON
        // The process's lease went away in etcd (expired while the process was paused
        // or cut off, revoked) before its keepalive noticed: tell its holders now, and
        // claim once more on a new lease instead of failing every claim until then.
        // The same when the prefix's genesis is not the one the lease's slots were claimed
        // under: the prefix was wiped or restored since.
        const bool moved = dynamic_cast<const etcd::GenesisMoved*>(&e) != nullptr;
        if (round == 0 && (moved || std::string(e.what()).find("requested lease not found") !=
                                        std::string::npos)) {
          shared_->mark_lost(moved ? std::string(e.what())
                                   : "etcd no longer has the lease " +
                                         std::to_string(shared_->id()) + " (" + e.what() +
                                         "); the slot may belong to another process now");
          shared_.reset();
          continue;
        }
        shared_.reset();
        throw Error(ErrorKind::kNodeIdUnavailable, quoted + ": " + e.what());
      }
    }
  }

  void write_mark(int64_t mark_ms) override { persist(mark_ms, true); }
  void write_mark_batched(int64_t mark_ms) override { persist(mark_ms, false); }

  int64_t mark_lead_ms() const noexcept override { return cfg_.ttl_s * 1000; }
  const std::atomic<int64_t>* deadline() const noexcept override { return &deadline_; }

  void release() noexcept override {
    {
      std::lock_guard<std::mutex> lock(fence_mu_);
      if (released_) return;
      released_ = true;
    }
    if (!shared_) return;
    shared_->detach(this);
    // The lease lives on for this process's other slots: delete our key, so the slot is
    // free at once. When the store failed our last request (keepalive or mark), it would
    // likely fail this too and close() would wait out its timeout: the key then goes with
    // the lease (revoked by the last release, or expired after the process ends).
    if (!slot_key_.empty() && problem().empty() && !lost()) {
      try {
        give_back(slot_key_, create_revision_, 1000, true);
      } catch (...) {
      }
    }
    shared_.reset();  // the last holder revokes the lease
  }

  void cancel_pending() noexcept override {
    cancel_gen_.fetch_add(1, std::memory_order_acq_rel);
    if (shared_) shared_->wake_turns();  // a request still waiting for its turn gives up too
  }

  void abandon_after_fork() noexcept override { abandoned_ = true; }

 private:
  // One range read of the held slots, then compare-and-swap on a free slot picked at
  // random; a lost race answers, in the same request, with the slots created since the
  // read it picked from.
  // So a claim costs two requests plus one per race lost, whatever the number of slots.
  void claim_slot(const Layout& layout, const SlotFilter& usable, const std::string& quoted) {
    const std::string slots_dir = cfg_.prefix + "/slots/";
    const int64_t slots = layout.max_node_id() + 1;
    std::string end = slots_dir;
    end.back() = static_cast<char>(end.back() + 1);  // range end: "<prefix>/slots0"
    const json held_range = {{"key", b64(slots_dir)}, {"range_end", b64(end)}, {"keys_only", true}};
    const auto created_since = [&](int64_t revision) {
      json r = held_range;
      r["min_create_revision"] = std::to_string(revision + 1);
      return r;
    };
    // What this process knows of the held slots, shared by its claims on this store. Only
    // reads of the held slots happen under the lock (so a storm of this process's claims
    // reads once); the compare-and-swaps run in parallel, each on a slot no other claim of
    // this process has picked.
    ProcessLease::HeldSlots* known = nullptr;
    std::mutex& mu = shared_->claim_state(&known);
    bool fresh = false;  // `known->held` was read during this claim
    const uint64_t read_failures = known->read_failures.load(std::memory_order_acquire);
    const auto read_held = [&] {  // under mu
      // A read that failed while we waited for mu fails this claim too (see HeldSlots).
      if (known->read_failures.load(std::memory_order_acquire) != read_failures)
        throw etcd::Unreachable(known->read_error);
      try {
        const json r = shared_->send(http_, "/v3/kv/range", held_range, request_ms_, &cancel_gen_);
        known->held = etcd::held_slots(r, slots_dir, slots);
        known->revision = etcd::i64(etcd::field(r, "header"), "revision");
      } catch (const std::exception& e) {
        known->read_error = e.what();
        known->read_failures.fetch_add(1, std::memory_order_acq_rel);
        throw;
      }
      known->slots = slots;
      fresh = true;
    };
    std::set<int64_t> skipped;  // given back: a mark we cannot read
    std::mt19937_64 rng(std::random_device{}() ^ (static_cast<uint64_t>(getpid()) << 32) ^
                        static_cast<uint64_t>(clock_->monotonic_ns()));
    char host[256] = {0};
    gethostname(host, sizeof host - 1);
    const std::string holder = std::string(host) + " pid " + std::to_string(getpid());
    int64_t seen = 0;        // known->revision when this attempt picked its slot
    std::string unreadable;  // why a free slot was skipped, for the refusal
    size_t held_count = 0;   // for the refusal
    for (int64_t attempt = 0; attempt < kMaxAttempts; ++attempt) {
      int64_t slot = -1;
      if (cfg_.node >= 0) {
        if (attempt > 0) break;
        slot = cfg_.node;
      } else {
        std::lock_guard<std::mutex> lock(mu);
        if (known->slots != slots) read_held();
        // Skip slots held in etcd, slots another claim of this process is trying and,
        // without asking etcd, slots whose ids an open generator of this process mints.
        const auto pick = [&] {
          std::vector<int64_t> free;
          for (int64_t n = 0; n < slots; ++n)
            if (!known->held.count(n) && !known->claiming.count(n) && !skipped.count(n) &&
                (!usable || usable(n)))
              free.push_back(n);
          return free.empty()
                     ? -1
                     : free[std::uniform_int_distribution<size_t>(0, free.size() - 1)(rng)];
        };
        slot = pick();
        if (slot < 0 && !fresh) {
          // What this process learned earlier may be stale (slots released since): read
          // again before refusing.
          read_held();
          slot = pick();
        }
        // Held in etcd, and being claimed by this process now (not in `held` yet).
        held_count = known->held.size();
        for (const int64_t n : known->claiming) held_count += known->held.count(n) ? 0 : 1;
        if (slot < 0) break;
        known->claiming.insert(slot);
        seen = known->revision;
      }
      const std::string key = slots_dir + etcd::slot_text(slot);
      const std::string mark_key = cfg_.prefix + "/marks/" + etcd::slot_text(slot);
      // Unique to this attempt, so that an answer can tell our own key from anyone's.
      const std::string value = holder + " claim " + std::to_string(rng());
      // The genesis is read by both branches: success[2], failure[3] (etcd_genesis.hpp).
      const json txn = {
          {"compare", json::array({{{"key", b64(key)},
                                    {"target", "CREATE"},
                                    {"result", "EQUAL"},
                                    {"create_revision", "0"}}})},
          {"success", json::array({{{"request_put",
                                     {{"key", b64(key)},
                                      {"value", b64(value)},
                                      {"lease", std::to_string(shared_->id())}}}},
                                   {{"request_range", {{"key", b64(mark_key)}}}},
                                   {{"request_range", etcd::genesis_range(cfg_.prefix)}}})},
          {"failure", json::array({{{"request_range", created_since(seen)}},
                                   {{"request_range", {{"key", b64(key)}}}},
                                   {{"request_range", {{"key", b64(mark_key)}}}},
                                   {{"request_range", etcd::genesis_range(cfg_.prefix)}}})}};
      etcd::ClaimReply got;
      json reply;
      // When the claim went out, not when it queued for a turn: in a storm the wait can pass
      // TTL - margin, and a deadline from before it refused the slot's first ids.
      int64_t sent = 0;
      size_t genesis_at = 2;
      try {
        reply = shared_->send(http_, "/v3/kv/txn", txn, request_ms_, &cancel_gen_, false, &sent);
        got = etcd::read_claim_reply(reply);
        if (!got.succeeded) {
          got = applied_before(reply, value);
          genesis_at = 3;
        }
      } catch (...) {
        std::lock_guard<std::mutex> lock(mu);
        known->claiming.erase(slot);
        throw;
      }
      {
        std::lock_guard<std::mutex> lock(mu);
        known->claiming.erase(slot);
        if (cfg_.node < 0 && !got.succeeded) {
          // Someone else was faster: what is held now came with the answer.
          const json& range =
              etcd::field(etcd::item(etcd::field(reply, "responses"), 0), "response_range");
          // Only the slots created since the revision we picked from: a few keys, where
          // the whole list ran to 80 KB of JSON per lost race in a storm (the gateway's
          // CPU). Releases since are missed: a refusal reads the whole list first.
          if (range.is_object() && known->slots == slots) {
            for (const int64_t n : etcd::held_slots(range, slots_dir, slots)) known->held.insert(n);
            known->revision =
                std::max(known->revision, etcd::i64(etcd::field(reply, "header"), "revision"));
          }
        }
        if (known->slots == slots) known->held.insert(slot);
      }
      if (!got.succeeded) continue;
      if (!got.mark_readable || got.mark_ms > layout.max_timestamp_ms()) {
        // A history we cannot read is not an empty one, and a mark past the layout's
        // window blocks the slot for good: give it back, try another.
        if (unreadable.empty())
          unreadable = !got.mark_readable
                           ? "the mark key " + mark_key + " holds " + quote(got.mark_text) +
                                 ", not a Unix ms"
                           : "the mark key " + mark_key + " holds " + std::to_string(got.mark_ms) +
                                 ", past the last millisecond of layout " + layout.to_string();
        give_back(key, got.revision);
        skipped.insert(slot);
        continue;
      }
      // The prefix's genesis; a fence above the slot's mark after a wipe.
      int64_t fence_ms = 0;
      try {
        fence_ms = claim_genesis(reply, genesis_at).fence_ms;
      } catch (...) {
        try {
          give_back(key, got.revision);
        } catch (...) {
        }
        throw;
      }
      if (fence_ms > layout.max_timestamp_ms()) {
        // Not a fence any claim writes (now + TTL + 2 s): started above it, the first mark
        // would persist the window's last millisecond and ruin the slot for good.
        try {
          give_back(key, got.revision);
        } catch (...) {
        }
        throw Error(ErrorKind::kNodeIdUnavailable,
                    quoted + ": the genesis key " + etcd::genesis_key(cfg_.prefix) +
                        " holds the fence " + std::to_string(fence_ms) +
                        ", past the last millisecond of layout " + layout.to_string() +
                        ": no slot under it can mint (delete the key while no holder lives)");
      }
      node_id_ = slot;
      slot_key_ = key;
      mark_key_ = mark_key;
      create_revision_ = got.revision;
      mark_revision_ = got.mark_revision;
      claimed_mark_ms_ = std::max(got.mark_ms, fence_ms);
      mark_ms_.store(claimed_mark_ms_, std::memory_order_relaxed);
      where_ = cfg_.text + " slot " + std::to_string(slot) + " (lease " +
               std::to_string(shared_->id()) + ")";
      // No later than our claim's own confirmation of the genesis allows (a keepalive
      // confirmed before this claim adopted it confirms nothing for it).
      deadline_.store(std::min(shared_->attach(this), shared_->deadline_after(sent, cfg_.ttl_s)),
                      std::memory_order_release);
      return;
    }
    std::string msg =
        cfg_.node >= 0
            ? quoted + ": slot " + std::to_string(cfg_.node) + " under " + slots_dir +
                  (unreadable.empty() ? " is held by another process" : " is not available")
            : quoted + ": no free node id under " + slots_dir + " (" + std::to_string(held_count) +
                  " of " + std::to_string(slots) + " slots held)";
    if (!unreadable.empty()) msg += "; skipped: " + unreadable;
    throw Error(ErrorKind::kNodeIdUnavailable, msg);
  }

  // One mark write, in a transaction shared with this process's other slots on the lease
  // (ProcessLease::write_mark): if create_revision(<prefix>/slots/N) is still ours, put
  // <prefix>/marks/N. `urgent`: someone waits for it, send it at once.
  void persist(int64_t mark_ms, bool urgent) {
    if (released_) throw Error(ErrorKind::kLeaseLost, where_ + " was released");
    if (lost()) throw Error(ErrorKind::kLeaseLost, problem());
    auto w = std::make_shared<ProcessLease::MarkWrite>();
    w->slot_key = slot_key_;
    w->mark_key = mark_key_;
    w->create_revision = create_revision_;
    w->mark_ms = mark_ms;
    w->mark_revision = mark_revision_;
    w->urgent = urgent;
    const uint64_t gen = cancel_gen_.load(std::memory_order_acquire);
    ProcessLease::MarkWrite::Outcome outcome = ProcessLease::MarkWrite::kFailed;
    std::string failure;
    try {
      outcome = shared_->write_mark(w, &cancel_gen_);
      failure = w->why;
      mark_revision_ = w->mark_revision;  // settled: the mark thread is done with it
    } catch (const std::exception& e) {  // cancelled
      outcome = ProcessLease::MarkWrite::kFailed;
      failure = e.what();
    }
    if (outcome == ProcessLease::MarkWrite::kLost) {
      lease_lost("the slot key " + slot_key_ +
                 " is no longer ours (our lease expired; another process may hold the slot)");
      throw Error(ErrorKind::kLeaseLost, problem());
    }
    if (outcome != ProcessLease::MarkWrite::kWritten) {
      const std::string why = where_ + ": could not persist the high-water mark: " + failure;
      // Cancelled by close(): no sign the store fails, and a problem recorded here would
      // keep release() from giving the slot key back (it would then stay, locked, with
      // the lease this process's other generators keep alive).
      if (cancel_gen_.load(std::memory_order_acquire) == gen) set_problem(why);
      throw Error(ErrorKind::kLeaseLost, why);
    }
    mark_ms_.store(mark_ms, std::memory_order_release);
  }

  // A claim that lost its compare to itself: etcd applied an earlier try of this request but
  // answered it "request timed out" (the outcome unknown), and the request moved on to
  // another member, which found the slot key created. The failure branch read the key and
  // the slot's mark: when the key holds this attempt's value, the slot is ours, created at
  // its create_revision, with the mark it had then (only the slot's holder writes it). Else
  // (someone else's key) the claim stays lost. Before, it picked another slot and left this
  // one held by the process's lease, unused, until the last generator on it closed.
  static etcd::ClaimReply applied_before(const json& reply, const std::string& value) {
    const json& responses = etcd::field(reply, "responses");
    const json& kv =
        etcd::item(etcd::field(etcd::field(etcd::item(responses, 1), "response_range"), "kvs"), 0);
    const json& v = etcd::field(kv, "value");
    if (!v.is_string() || etcd::unb64(v.get<std::string>()) != value) return {};
    return etcd::read_claim_reply(
        {{"succeeded", true},
         {"header", {{"revision", std::to_string(etcd::i64(kv, "create_revision"))}}},
         {"responses", json::array({json::object(), etcd::item(responses, 2)})}});
  }

  // The genesis of the prefix, from the claim's reply or created (etcd_genesis.hpp).
  // `index`: where the reply's responses hold the genesis read.
  etcd::Genesis claim_genesis(const json& reply, size_t index) {
    const etcd::Send send = [this](const std::string& path, const json& body) {
      return shared_->send(http_, path, body, request_ms_, &cancel_gen_);
    };
    return etcd::claim_genesis(reply, index, send, cfg_.prefix, cfg_.ttl_s,
                               std::max<int64_t>(0, floor_div(clock_->wall_ns(), kNsPerMs)),
                               shared_->genesis());
  }

  // Deletes a slot key we created at `revision` (a slot we will not keep). `closing`: in a
  // turn ahead of this process's waiting claims (close() would wait for all of them).
  void give_back(const std::string& key, int64_t revision, long timeout_ms = -1,
                 bool closing = false) {
    const json txn = {{"compare", json::array({{{"key", b64(key)},
                                                {"target", "CREATE"},
                                                {"result", "EQUAL"},
                                                {"create_revision", std::to_string(revision)}}})},
                      {"success", json::array({{{"request_delete_range", {{"key", b64(key)}}}}})}};
    shared_->send(http_, "/v3/kv/txn", txn, timeout_ms < 0 ? request_ms_ : timeout_ms, &cancel_gen_,
                  closing);
  }

  // etcd::LeaseHolder: what the shared lease's keepalive thread tells this slot. The fence
  // mutex keeps a confirmation from reopening a fence that a loss has just closed.
  void lease_confirmed(int64_t deadline) override {
    std::lock_guard<std::mutex> lock(fence_mu_);
    if (lost()) return;
    deadline_.store(deadline, std::memory_order_release);
    set_problem("");
  }
  void lease_unconfirmed(const std::string& why) override {
    set_problem(why);
    count_renewal_failure();
  }
  void lease_lost(const std::string& why) override {
    std::lock_guard<std::mutex> lock(fence_mu_);
    deadline_.store(INT64_MIN, std::memory_order_release);
    set_lost(where_ + ": " + why);
  }

  static constexpr int64_t kMaxAttempts = 4096;  // races lost before giving up

  EtcdConfig cfg_;
  std::shared_ptr<Clock> clock_;
  Http http_;  // claim, marks (the mark keeper's thread, then close()), give back
  long request_ms_ = 1000;
  std::shared_ptr<ProcessLease> shared_;  // the etcd lease our slot key is attached to
  int64_t create_revision_ = 0;
  // The mark key's mod_revision as of our last write or the claim (ProcessLease::MarkWrite);
  // used by one mark write at a time (the keeper's thread, then close()).
  int64_t mark_revision_ = 0;
  std::string slot_key_, mark_key_;
  std::atomic<int64_t> deadline_{INT64_MIN};
  std::mutex fence_mu_;  // deadline_ against lost, released_
  bool released_ = false;
  std::atomic<uint64_t> cancel_gen_{0};  // see Cancel (the Http handle keeps its address)
  bool abandoned_ = false;
};

}  // namespace

std::shared_ptr<NodeLease> claim_etcd(const std::string& spec, const Layout& layout,
                                      const std::shared_ptr<Clock>& clock,
                                      const SlotFilter& usable) {
  auto lease = std::make_shared<EtcdLease>(parse_etcd_spec(spec, layout), clock);
  lease->claim(layout, usable);
  return lease;
}

#endif

}  // namespace detail
}  // namespace snowfleet
