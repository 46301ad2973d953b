// A slot held as a Kubernetes Lease (docs/lease-engines.md): claimed by a create (a slot
// never used) or a merge patch carrying the resourceVersion it was seen at (an expired or
// released Lease), renewed with the mark on a thread of the lease's own every TTL/3 by the
// same patch, the deadline kept locally (send time of the last confirmed renewal + TTL -
// margin). A slot re-created below the prefix's genesis count (its Lease was deleted, maybe
// under a live holder) starts above a fence: now + the largest TTL + margin. No I/O on a
// minting thread: marks come from the generator's mark keeper.
// Internal.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "k8s_spec.hpp"
#include "kube_http.hpp"
#include "kube_reply.hpp"
#include "lease/renewal_thread.hpp"
#include "mint/node_claim.hpp"

namespace snowfleet {
namespace detail {
namespace kube {

/// The margin taken off the TTL for the holder's deadline, and added to it when a
/// claimant judges a Lease expired by its wall clock: a fifth, at least 0.5 s.
int64_t deadline_margin_ns(int64_t ttl_s);

class K8sLease final : public NodeLease {
 public:
  K8sLease(K8sConfig cfg, Target target, std::shared_ptr<Clock> clock);
  ~K8sLease() override;

  /// Takes a slot (k8s_claim.cc); throws kNodeIdUnavailable when none can be had.
  void claim(const Layout& layout, const SlotFilter& usable);

  void write_mark(int64_t mark_ms) override;
  int64_t mark_lead_ms() const noexcept override { return cfg_.ttl_s * 1000; }
  const std::atomic<int64_t>* deadline() const noexcept override { return &deadline_; }
  void cancel_pending() noexcept override { cancel_gen_.fetch_add(1, std::memory_order_acq_rel); }
  void abandon_after_fork() noexcept override { abandoned_ = true; }
  void release() noexcept override;

 private:
  // Claim (k8s_claim.cc).
  [[noreturn]] void unavailable(const std::string& why) const;
  [[noreturn]] void forbidden(const std::string& verb, const Reply& r) const;
  Reply call(const std::string& verb, const std::string& method, const std::string& name,
             const nlohmann::json* body, int64_t* sent = nullptr);
  std::vector<LeaseView> list_slots();
  std::vector<int64_t> candidates(const Layout& layout, const SlotFilter& usable,
                                  std::vector<LeaseView>* seen);
  bool read_pinned(const std::string& name, LeaseView* got);
  bool try_slot(int64_t slot, const LeaseView* seen, const Layout& layout, std::string* skipped);
  bool adopt(int64_t slot, const Reply& r, int64_t sent, int64_t fence_ms, const Layout& layout,
             std::string* skipped);

  // The prefix's genesis Lease (k8s_claim.cc): the slots ever created and the largest TTL
  // any claim used.
  struct Genesis {
    std::vector<std::pair<int64_t, int64_t>> created;  // ranges of slots, ascending
    int64_t max_ttl_s = 0;
  };
  void read_genesis(const std::string& name, const nlohmann::json& lease, Genesis* g) const;
  bool genesis_round(const std::string& name, int64_t slot, Genesis* g, bool* wrote);
  Genesis raise_genesis(int64_t slot);
  int64_t fence_after_create(int64_t slot, const Genesis& g) const;
  int64_t slot_of(const std::string& name, const Layout& layout) const;
  std::string slot_name(int64_t slot) const { return cfg_.prefix + "-" + std::to_string(slot); }
  std::string path(const std::string& name) const;

  // Holding (node_source_k8s.cc).
  /// `exact`: carry `mark_ms` as it is (a mark write: the keeper raising it, or close()
  /// putting back the millisecond reached); otherwise never below the last confirmed mark.
  Renewal renew(int64_t mark_ms, std::string* why, bool exact = false);
  Renewal after_conflict(std::string* why);
  void start_renewing();
  void lease_lost(const std::string& why);
  int64_t wall_us() const { return clock_->wall_ns() / 1000; }

  K8sConfig cfg_;
  std::string namespace_;
  std::shared_ptr<Clock> clock_;
  std::mt19937_64 rng_;
  std::atomic<uint64_t> cancel_gen_{0};
  std::mutex http_mu_;  // one request at a time: the renewal thread, marks, release
  Http http_;
  long request_ms_;
  std::string holder_;
  std::string rv_;          // the resourceVersion of our last write
  int64_t sent_mark_ = -1;  // the mark our last confirmed write carried (under http_mu_)
  std::atomic<int64_t> deadline_{INT64_MIN};
  std::mutex fence_mu_;  // deadline_ against lost
  std::atomic<bool> released_{false};
  bool abandoned_ = false;
  RenewalThread renewer_;
};

}  // namespace kube
}  // namespace detail
}  // namespace snowfleet
