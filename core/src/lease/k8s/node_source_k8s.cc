// "k8s-lease://ids?ttl=10": node ids leased as Kubernetes Leases (k8s_lease.hpp,
// docs/lease-engines.md). This file holds a claimed slot: renewals with the mark, the
// reading of a 409 on a renewal (a write answered 504 may have been applied), release, and
// the entry point. libcurl is dlopen()ed at the first claim (lease/etcd/curl_loader.hpp).
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <memory>
#include <random>
#include <string>
#include <thread>

#include "base/internal.hpp"
#include "base/quote.hpp"
#include "k8s_lease.hpp"
#include "lease/node_source.hpp"

namespace snowfleet {
namespace detail {
namespace kube {
namespace {

std::string holder_identity(std::mt19937_64& rng) {
  char host[256] = {0};
  gethostname(host, sizeof host - 1);
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(rng()));
  return std::string(host) + " pid " + std::to_string(getpid()) + " " + hex;
}

}  // namespace

int64_t deadline_margin_ns(int64_t ttl_s) {
  return std::max<int64_t>(ttl_s * 1'000'000'000 / 5, 500'000'000);
}

K8sLease::K8sLease(K8sConfig cfg, Target target, std::shared_ptr<Clock> clock)
    : cfg_(std::move(cfg)),
      clock_(std::move(clock)),
      rng_(std::random_device{}() ^ static_cast<uint64_t>(clock_->monotonic_ns())),
      http_(std::move(target), cfg_.text, &cancel_gen_),
      request_ms_(static_cast<long>(std::min<int64_t>(2000, cfg_.ttl_s * 1000 / 3))) {
  try {
    namespace_ = chosen_namespace(cfg_.namespace_, http_.target());
  } catch (const Error& e) {
    throw Error(ErrorKind::kNodeIdUnavailable, cfg_.text + ": " + e.what());
  }
  holder_ = holder_identity(rng_);
  where_ = cfg_.text;
}

K8sLease::~K8sLease() {
  if (abandoned_) {
    // Forked child: the handle and the renewal thread are the parent's.
    http_.leak();
    renewer_.abandon();
    return;
  }
  release();
}

void K8sLease::lease_lost(const std::string& why) {
  std::lock_guard<std::mutex> lock(fence_mu_);
  deadline_.store(INT64_MIN, std::memory_order_release);
  set_lost(where_ + ": " + why);
}

void K8sLease::write_mark(int64_t mark_ms) {
  if (released_) throw Error(ErrorKind::kLeaseLost, where_ + " was released");
  if (lost()) throw Error(ErrorKind::kLeaseLost, problem());
  std::string why;
  const Renewal r = renew(mark_ms, &why, true);
  if (r == Renewal::kLost) throw Error(ErrorKind::kLeaseLost, problem());
  if (r == Renewal::kFailed)
    throw Error(ErrorKind::kLeaseLost, where_ + ": could not persist the high-water mark: " + why);
  mark_ms_.store(mark_ms, std::memory_order_release);
}

// A renewal answered 409: someone wrote the Lease after our last confirmed write. If the
// holder is still ours it was our own write answered late or not at all (a 504 that was
// applied): adopt its resourceVersion, unconfirmed (the next renewal confirms). Otherwise
// the slot was taken over (after our deadline) or released by hand: lost.
Renewal K8sLease::after_conflict(std::string* why) {
  Reply r;
  try {
    r = http_.request("GET", path(slot_name(node_id_)), nullptr, request_ms_);
  } catch (const Unreachable& e) {
    *why = std::string("409 Conflict, then no answer to reading the Lease: ") + e.what();
    return Renewal::kFailed;
  }
  LeaseView now;
  std::string bad_reply;
  if (r.status == 404) {
    lease_lost("the Lease was deleted; another process may hold the slot");
    return Renewal::kLost;
  }
  if (r.status != 200 || !parse_lease(r.body, &now, &bad_reply)) {
    *why = "409 Conflict, then reading the Lease answered HTTP " + std::to_string(r.status);
    return Renewal::kFailed;
  }
  if (now.holder != holder_) {
    lease_lost("the Lease is now held by " + quote(now.holder) +
               " (taken over after our deadline, or released by hand)");
    return Renewal::kLost;
  }
  rv_ = now.resource_version;
  *why = "409 Conflict on a write of ours answered late; resourceVersion " + rv_ + " adopted";
  return Renewal::kFailed;
}

// One renewal, carrying `mark_ms`. Confirmed: the deadline moves to this request's send
// time + TTL - margin. A 5xx, a 403 (an API server restarting), a 401 or no answer is
// unconfirmed until the deadline, never lost; a 404 (deleted) or a Lease held by another is.
Renewal K8sLease::renew(int64_t mark_ms, std::string* why, bool exact) {
  std::lock_guard<std::mutex> lock(http_mu_);
  if (lost()) return Renewal::kLost;
  // A merge patch overwrites the annotation: a renewal never sends a mark below one already
  // confirmed (it read mark_ms_ before a mark write that took the lock first). A mark
  // write is exact: close() lowers the mark to the millisecond reached, so that the next
  // holder need not wait out the lead written ahead.
  if (!exact) mark_ms = std::max(mark_ms, sent_mark_);
  const nlohmann::json body = renew_patch(rv_, wall_us(), cfg_.ttl_s, mark_ms);
  Renewal result = Renewal::kFailed;
  try {
    int64_t sent = 0;
    const Reply r = http_.request("PATCH", path(slot_name(node_id_)), &body, request_ms_, &sent);
    LeaseView now;
    std::string bad_reply;
    if (r.status == 200 && parse_lease(r.body, &now, &bad_reply) && now.holder == holder_) {
      std::lock_guard<std::mutex> fence(fence_mu_);
      if (lost()) return Renewal::kLost;
      rv_ = now.resource_version;
      sent_mark_ = mark_ms;
      deadline_.store(
          saturating_add(sent, cfg_.ttl_s * 1'000'000'000 - deadline_margin_ns(cfg_.ttl_s)),
          std::memory_order_release);
      set_problem("");
      return Renewal::kConfirmed;
    }
    if (r.status == 404) {
      lease_lost("the Lease was deleted; another process may hold the slot");
      return Renewal::kLost;
    }
    if (r.status == 409) {
      result = after_conflict(why);
      if (result == Renewal::kLost) return result;
    } else {
      *why = status_text(r.status, r.body);
    }
  } catch (const Unreachable& e) {
    *why = e.what();
  } catch (const Error& e) {  // a token file gone
    *why = e.what();
  }
  set_problem(where_ + ": renewal unconfirmed: " + *why);
  count_renewal_failure();
  return result;
}

void K8sLease::start_renewing() {
  renewer_.start(cfg_.ttl_s, [this] {
    std::string why;
    return renew(mark_ms_.load(std::memory_order_acquire), &why);
  });
}

void K8sLease::release() noexcept {
  if (released_.exchange(true)) return;
  renewer_.stop();
  if (node_id_ < 0 || lost() || !problem().empty()) return;  // the Lease expires by itself
  std::lock_guard<std::mutex> lock(http_mu_);
  try {
    const nlohmann::json body =
        release_patch(rv_, std::max(mark_ms_.load(std::memory_order_acquire), sent_mark_));
    http_.request("PATCH", path(slot_name(node_id_)), &body, std::min<long>(request_ms_, 1000));
  } catch (...) {
  }
}

}  // namespace kube

std::shared_ptr<NodeLease> claim_k8s_lease(const std::string& spec, const Layout& layout,
                                           const std::shared_ptr<Clock>& clock,
                                           const SlotFilter& usable) {
  kube::K8sConfig cfg = kube::parse_k8s_spec(spec, layout);
  kube::Target target;
  try {
    target = kube::find_target({cfg.kubeconfig, cfg.context});
  } catch (const Error& e) {
    throw Error(ErrorKind::kNodeIdUnavailable, cfg.text + ": " + e.what());
  }
  auto lease = std::make_shared<kube::K8sLease>(std::move(cfg), std::move(target), clock);
  lease->claim(layout, usable);
  return lease;
}

}  // namespace detail
}  // namespace snowfleet
