// "etcd://host:port[,host:port...]/<prefix>?ttl=10[&node=N][&cacert=..&cert=..&key=..]":
// node ids leased from etcd through its v3 JSON gateway (libcurl + nlohmann-json, both
// optional at build time: without them, this folder is not built and
// lease/node_source_no_etcd.cc says so).
//
//   lease:     one etcd lease per process and store, shared by its slots and kept alive by
//              one thread (etcd_process_lease.hpp): granted by the first claimant, revoked
//              when the last slot on it is released.
//   claim:     a range read of the held slots, then a compare-and-swap on a free slot that
//              puts it with the lease and reads its high-water mark and the prefix's
//              genesis in the same revision (etcd_claim.hpp); the claims of a process's
//              generators made at once share transactions (etcd_claim_batch.hpp). A prefix
//              without a genesis gets one (etcd_genesis.hpp: wiped prefixes fenced).
//   mark:      POST /v3/kv/txn: if create_revision(<prefix>/slots/N) is still ours and
//              <prefix>/marks/N is at the mod_revision our last write left, put it. A holder
//              that lost its slot can never move the mark, nor a write etcd applies late
//              lower it. The marks of a process's slots on one lease share transactions
//              (one compare and one put per slot; etcd_process_lease.hpp).
//   release:   POST /v3/kv/txn: delete the slot key if it is still ours (the mark key has
//              no lease and stays); the last slot's release revokes the lease.
// Keys and values are base64 in this API, int64 fields are JSON strings, and fields with
// default values are omitted from responses. The pieces live beside this file: the spec
// parser (lease/etcd_spec.cc), base64 (etcd_base64.hpp), the reply readers (etcd_reply.hpp), the
// HTTP transport (etcd_http.hpp) and the claim walk (etcd_claim.hpp); this file is the slot's
// lease: it claims once more on a new process lease when the old one is gone, then persists
// the slot's mark, hears the keepalive's verdicts and gives the slot back.
#include <algorithm>
#include <mutex>
#include <stdexcept>
#include <string>

#include "base/quote.hpp"
#include "etcd_claim.hpp"
#include "etcd_genesis.hpp"
#include "etcd_http.hpp"
#include "etcd_process_lease.hpp"
#include "lease/node_source.hpp"

namespace snowfleet {
namespace detail {

namespace {

using etcd::Http;
using etcd::ProcessLease;

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
        claim_on_lease(layout, usable, quoted);
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
        etcd::give_back(link(1000), slot_key_, create_revision_, true);
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
  // The claim walk on the current process lease (etcd_claim.hpp); the slot it won becomes
  // this lease's, and its deadline counts from when the winning claim went out.
  void claim_on_lease(const Layout& layout, const SlotFilter& usable, const std::string& quoted) {
    const etcd::ClaimedSlot won =
        etcd::claim_slot(cfg_, link(request_ms_), layout, usable, *clock_, quoted);
    node_id_ = won.slot;
    slot_key_ = won.key;
    mark_key_ = won.mark_key;
    create_revision_ = won.create_revision;
    mark_revision_ = won.mark_revision;
    claimed_mark_ms_ = won.mark_ms;
    mark_ms_.store(claimed_mark_ms_, std::memory_order_relaxed);
    where_ = cfg_.text + " slot " + std::to_string(won.slot) + " (lease " +
             std::to_string(shared_->id()) + ")";
    // No later than our claim's own confirmation of the genesis allows (a keepalive
    // confirmed before this claim adopted it confirms nothing for it).
    deadline_.store(std::min(shared_->attach(this), shared_->deadline_after(won.sent, cfg_.ttl_s)),
                    std::memory_order_release);
  }

  // This slot's requests: on the shared lease's turns, through our own handle.
  etcd::SlotLink link(long timeout_ms) { return {*shared_, http_, timeout_ms, &cancel_gen_}; }

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
    } catch (const std::exception& e) {   // cancelled
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

}  // namespace detail
}  // namespace snowfleet