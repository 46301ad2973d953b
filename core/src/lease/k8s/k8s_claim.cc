// Claiming a slot Lease (k8s_lease.hpp): one list finds the prefix's Leases; a slot never
// created is taken by a create (a lost race: 409 AlreadyExists), an expired or released one
// by a merge patch with the resourceVersion it was listed at (a lost race: 409 Conflict, or
// 404 when deleted meanwhile). A lost race moves on to another slot: nothing is overwritten.
// Before either, the claim raises the prefix's genesis Lease (<prefix>-genesis, unlabelled;
// its annotations count the slots ever created and keep the largest TTL) with a
// resourceVersion precondition. A slot created below that count was deleted, maybe under a
// live holder that learns it only at its next renewal (up to TTL/3 later): its first id
// comes after a fence, now + the largest TTL + margin.
#include <algorithm>
#include <chrono>
#include <map>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "base/internal.hpp"
#include "base/quote.hpp"
#include "base/strict_int.hpp"
#include "k8s_lease.hpp"
#include "lease/spec_options.hpp"

namespace snowfleet {
namespace detail {
namespace kube {

using nlohmann::json;

void K8sLease::unavailable(const std::string& why) const {
  throw Error(ErrorKind::kNodeIdUnavailable, cfg_.text + ": " + why);
}

// The refusal docs/lease-engines.md words for a missing RBAC permission.
void K8sLease::forbidden(const std::string& verb, const Reply& r) const {
  const Status s = parse_status(r.body);
  std::string user = forbidden_user(s.message);
  if (user.empty()) user = "(unknown)";
  unavailable("user \"" + user + "\" may not " + verb +
              " leases (coordination.k8s.io) in namespace \"" + namespace_ +
              "\" (HTTP 403); grant the Role in docs/fleet.md");
}

std::string K8sLease::path(const std::string& name) const {
  std::string p = "/apis/coordination.k8s.io/v1/namespaces/" + namespace_ + "/leases";
  return name.empty() ? p : p + "/" + name;
}

// One claim-time request. A 403 is retried for one request timeout (an API server that
// has just started answers 403 until its RBAC informer has synced), then refused; a 401
// is refused at once; no answer is refused.
Reply K8sLease::call(const std::string& verb, const std::string& method, const std::string& name,
                     const json* body, int64_t* sent) {
  std::string p = path(name);
  if (verb == "list") p += "?labelSelector=snowfleet.dev%2Fprefix%3D" + cfg_.prefix;
  const int64_t until = clock_->monotonic_ns() + int64_t{request_ms_} * 1'000'000;
  // A 403 is sent again with the same body: `sent` is the first sending's (kube_http.hpp).
  int64_t* first_sent = sent;
  for (;;) {
    Reply r;
    try {
      r = http_.request(method, p, body, request_ms_, first_sent);
      first_sent = nullptr;
    } catch (const Unreachable& e) {
      unavailable(std::string("the API server did not answer (") + e.what() + ") (" +
                  http_.target().source + ")");
    }
    if (r.status == 403 && clock_->monotonic_ns() < until) {
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
      continue;
    }
    if (r.status == 403) forbidden(verb, r);
    if (r.status == 401)
      unavailable("HTTP 401 Unauthorized: the API server refused the credentials of " +
                  http_.target().source);
    return r;
  }
}

std::vector<LeaseView> K8sLease::list_slots() {
  const Reply r = call("list", "GET", "", nullptr);
  std::vector<LeaseView> out;
  std::string why;
  if (r.status != 200) unavailable("listing the Leases answered " + status_text(r.status, r.body));
  if (!parse_lease_list(r.body, &out, &why)) unavailable("malformed Lease list: " + why);
  return out;
}

// The slot a listed Lease's name stands for, -1 when it is not one of this prefix's slots
// of `layout` (<prefix>-<N>, N written as slot_name writes it).
int64_t K8sLease::slot_of(const std::string& name, const Layout& layout) const {
  const std::string head = cfg_.prefix + "-";
  int64_t n;
  if (name.rfind(head, 0) != 0 || !parse_uint(name.substr(head.size()), &n)) return -1;
  return n <= layout.max_node_id() && name == slot_name(n) ? n : -1;
}

// The slots to try, in order: Leases free now (released or expired) in random order, then
// slots never created, lowest first (so the prefix's Leases stay few), at most kFresh of
// them (each lost race costs one; a wide node field is not walked whole). `seen`: the listed
// Lease of each candidate (name empty for one never created), by the same index.
std::vector<int64_t> K8sLease::candidates(const Layout& layout, const SlotFilter& usable,
                                          std::vector<LeaseView>* seen) {
  constexpr size_t kFresh = 1024;
  std::map<int64_t, LeaseView> by_slot;
  for (const LeaseView& l : list_slots())
    if (const int64_t n = slot_of(l.name, layout); n >= 0) by_slot[n] = l;
  const int64_t now = wall_us(), margin = deadline_margin_ns(cfg_.ttl_s) / 1000;
  std::vector<int64_t> free, fresh;
  for (const auto& [n, l] : by_slot)
    if ((!usable || usable(n)) && !l.mark_unreadable && lease_free(l, now, margin))
      free.push_back(n);
  for (int64_t n = 0; n <= layout.max_node_id() && fresh.size() < kFresh; ++n)
    if (!by_slot.count(n) && (!usable || usable(n))) fresh.push_back(n);
  std::shuffle(free.begin(), free.end(), rng_);
  for (const int64_t n : free) seen->push_back(by_slot[n]);
  seen->resize(seen->size() + fresh.size());
  free.insert(free.end(), fresh.begin(), fresh.end());
  return free;
}

namespace {

constexpr const char* kCreated = "snowfleet.dev/slots-created";
constexpr const char* kMaxTtl = "snowfleet.dev/max-ttl-s";
using Ranges = std::vector<std::pair<int64_t, int64_t>>;

// The genesis Lease's annotation `key`; false when it is absent or not a string.
bool annotation(const json& lease, const char* key, std::string* out) {
  if (!lease.is_object() || !lease.contains("metadata")) return false;
  const json& m = lease["metadata"];
  if (!m.is_object() || !m.contains("annotations") || !m["annotations"].is_object()) return false;
  const json& a = m["annotations"];
  if (!a.contains(key) || !a[key].is_string()) return false;
  *out = a[key].get<std::string>();
  return true;
}

// "0-3,7,9-12": ascending, disjoint, not adjacent; "" is none. False when malformed.
bool parse_ranges(const std::string& text, Ranges* out) {
  size_t at = 0;
  while (at < text.size()) {
    const size_t comma = std::min(text.find(',', at), text.size());
    const std::string item = text.substr(at, comma - at);
    const size_t dash = item.find('-');
    int64_t lo, hi;
    if (!parse_uint(item.substr(0, dash), &lo)) return false;
    hi = lo;
    if (dash != std::string::npos && !parse_uint(item.substr(dash + 1), &hi)) return false;
    if (hi < lo || (!out->empty() && lo <= out->back().second + 1)) return false;
    out->emplace_back(lo, hi);
    at = comma + 1;
  }
  return text.empty() || text.back() != ',';
}

bool has_slot(const Ranges& r, int64_t n) {
  for (const auto& [lo, hi] : r)
    if (lo <= n && n <= hi) return true;
  return false;
}

// `r` with `n` added, as parse_ranges reads it.
std::string with_slot(Ranges r, int64_t n) {
  if (n >= 0 && !has_slot(r, n)) r.emplace_back(n, n);
  std::sort(r.begin(), r.end());
  std::string out;
  for (size_t i = 0; i < r.size();) {
    const int64_t lo = r[i].first;
    int64_t hi = r[i].second;
    for (++i; i < r.size() && r[i].first <= hi + 1; ++i) hi = std::max(hi, r[i].second);
    out += (out.empty() ? "" : ",") + std::to_string(lo);
    if (hi != lo) out += "-" + std::to_string(hi);
  }
  return out;
}

}  // namespace

// The genesis Lease `name` as read (`lease`) into *g; refuses one whose annotations are
// missing, malformed or edited past what any holder could have written.
void K8sLease::read_genesis(const std::string& name, const json& lease, Genesis* g) const {
  std::string created, ttl;
  if (!annotation(lease, kCreated, &created) || !parse_ranges(created, &g->created) ||
      !annotation(lease, kMaxTtl, &ttl) || !parse_uint(ttl, &g->max_ttl_s))
    unavailable("the genesis Lease " + name + " in namespace " + namespace_ +
                " lacks valid annotations " + kCreated + " and " + kMaxTtl);
  // No holder's TTL is longer (the spec's rule): a larger value was written by hand, and
  // the fence it would set is no time anyone waited for.
  if (g->max_ttl_s > kMaxTtlS)
    unavailable("the genesis Lease " + name + " in namespace " + namespace_ + ": annotation " +
                kMaxTtl + " is " + ttl + ", above the longest TTL a holder may take (" +
                std::to_string(kMaxTtlS) +
                " s); set it to the longest ttl of the prefix's holders");
}

// Reads the genesis Lease into *g and returns true when it already covers `slot` (-1: none)
// and this claim's TTL; else writes them in (a PATCH carrying the resourceVersion read, or
// the POST of a prefix's first genesis) and returns false when that write won, *g as read
// before it. A lost race (409; 404) reads again.
bool K8sLease::genesis_round(const std::string& name, int64_t slot, Genesis* g, bool* wrote) {
  const Reply r = call("get", "GET", name, nullptr);
  json body;
  *g = Genesis{};
  *wrote = false;
  if (r.status == 404) {
    body["apiVersion"] = "coordination.k8s.io/v1";
    body["kind"] = "Lease";
    body["metadata"]["name"] = name;
    body["metadata"]["annotations"][kCreated] = with_slot({}, slot);
    body["metadata"]["annotations"][kMaxTtl] = std::to_string(cfg_.ttl_s);
    const Reply c = call("create", "POST", "", &body);
    if (c.status != 201 && c.status != 409)
      unavailable("creating the genesis Lease " + name + " answered " +
                  status_text(c.status, c.body));
    return *wrote = c.status == 201;
  }
  if (r.status != 200)
    unavailable("reading the genesis Lease " + name + " answered " + status_text(r.status, r.body));
  read_genesis(name, r.body, g);
  if ((slot < 0 || has_slot(g->created, slot)) && g->max_ttl_s >= cfg_.ttl_s) return true;
  body["metadata"]["resourceVersion"] = r.body["metadata"].value("resourceVersion", "");
  body["metadata"]["annotations"][kCreated] = with_slot(g->created, slot);
  body["metadata"]["annotations"][kMaxTtl] = std::to_string(std::max(g->max_ttl_s, cfg_.ttl_s));
  const Reply p = call("patch", "PATCH", name, &body);
  if (p.status != 200 && p.status != 409 && p.status != 404)
    unavailable("updating the genesis Lease " + name + " answered " +
                status_text(p.status, p.body));
  return *wrote = p.status == 200;
}

// The genesis as read before this claim put `slot` (-1: none) and its TTL in.
K8sLease::Genesis K8sLease::raise_genesis(int64_t slot) {
  const std::string name = cfg_.prefix + "-genesis";
  Genesis g;
  for (int attempt = 0; attempt < 16; ++attempt) {
    bool wrote;
    if (genesis_round(name, slot, &g, &wrote) || wrote) return g;
  }
  unavailable("the genesis Lease " + name + " changed under 16 updates in a row");
}

// The millisecond a slot this claim created starts above: 0 when the genesis did not list
// it (never created before); else past any deadline the holder of its deleted Lease may
// still keep (its last renewal, before now, + its TTL - margin): now + the largest TTL
// (every holder's, raised before its claim) + margin.
int64_t K8sLease::fence_after_create(int64_t slot, const Genesis& g) const {
  if (!has_slot(g.created, slot)) return 0;
  const int64_t ttl_s = std::max(g.max_ttl_s, cfg_.ttl_s);
  return wall_us() / 1000 + ttl_s * 1000 + deadline_margin_ns(ttl_s) / 1'000'000;
}

// Takes the Lease a claim request answered with: true when it is ours now.
// `fence_ms`: the millisecond its ids start above when higher than its mark.
bool K8sLease::adopt(int64_t slot, const Reply& r, int64_t sent, int64_t fence_ms,
                     const Layout& layout, std::string* skipped) {
  LeaseView mine;
  std::string why;
  if (!parse_lease(r.body, &mine, &why)) unavailable("malformed Lease in a claim reply: " + why);
  node_id_ = slot;
  rv_ = mine.resource_version;
  where_ = cfg_.text + " namespace " + namespace_ + " Lease " + mine.name;
  claimed_mark_ms_ = std::max(mine.mark_ms, fence_ms);
  mark_ms_.store(claimed_mark_ms_, std::memory_order_relaxed);
  deadline_.store(saturating_add(sent, cfg_.ttl_s * 1'000'000'000 - deadline_margin_ns(cfg_.ttl_s)),
                  std::memory_order_release);
  if (!mine.mark_unreadable && claimed_mark_ms_ <= layout.max_timestamp_ms()) return true;
  // A mark past the window blocks the slot for good, an unreadable one hides its history:
  // give it back, try another.
  *skipped =
      mine.mark_unreadable
          ? "Lease " + mine.name + ": annotation " + kMarkAnnotation +
                " is not a whole number of milliseconds, 0 or more (the slot's history is unknown)"
          : "slot " + std::to_string(slot) + " starts above " + std::to_string(claimed_mark_ms_) +
                " (its mark, or the fence of a re-created Lease), past the last millisecond "
                "of layout " +
                layout.to_string();
  const json back = release_patch(rv_, -1);
  try {
    http_.request("PATCH", path(mine.name), &back, request_ms_);
  } catch (const std::exception&) {  // no answer, or a token file gone after a 401
  }
  node_id_ = -1;
  deadline_.store(INT64_MIN, std::memory_order_release);
  return false;
}

// A pinned slot's Lease as it is now (`got` left unnamed when it was never created): false
// when it is held.
bool K8sLease::read_pinned(const std::string& name, LeaseView* got) {
  const Reply r = call("get", "GET", name, nullptr);
  std::string why;
  if (r.status == 404) return true;
  if (r.status != 200)
    unavailable("reading Lease " + name + " answered " + status_text(r.status, r.body));
  if (!parse_lease(r.body, got, &why)) unavailable("malformed Lease: " + why);
  return lease_free(*got, wall_us(), deadline_margin_ns(cfg_.ttl_s) / 1000);
}

// One claim request on `slot` (`seen`: its listed Lease, null when pinned and not read yet).
// The genesis gets this claim's TTL before it, the slot after it (before any id).
bool K8sLease::try_slot(int64_t slot, const LeaseView* seen, const Layout& layout,
                        std::string* skipped) {
  const std::string name = slot_name(slot);
  LeaseView got;
  if (!seen) {
    if (!read_pinned(name, &got)) return false;
    seen = &got;
  }
  const Genesis before = raise_genesis(-1);  // the TTL in before the slot is held
  int64_t sent = 0;
  const bool create = seen->name.empty();
  const json body = create ? create_body(name, cfg_.prefix, holder_, cfg_.ttl_s, wall_us())
                           : takeover_patch(*seen, holder_, cfg_.ttl_s, wall_us());
  const Reply r = create ? call("create", "POST", "", &body, &sent)
                         : call("patch", "PATCH", name, &body, &sent);
  if (r.status == 409 || r.status == 404) return false;  // another claimant was first
  if (r.status == 422 && !create) {  // a Lease edited into one no takeover can make valid
    *skipped = "Lease " + name + ": the API server refused the takeover as invalid (" +
               status_text(r.status, r.body) + ")";
    return false;
  }
  if (r.status != 200 && r.status != 201)
    unavailable((create ? "creating" : "taking over") + std::string(" Lease ") + name +
                " answered " + status_text(r.status, r.body));
  if (!create && has_slot(before.created, slot)) return adopt(slot, r, sent, 0, layout, skipped);
  // Listed once held: whichever of two creates of the slot puts it in second is fenced.
  const Genesis g = raise_genesis(slot);
  return adopt(slot, r, sent, create ? fence_after_create(slot, g) : 0, layout, skipped);
}

void K8sLease::claim(const Layout& layout, const SlotFilter& usable) {
  std::string skipped;
  std::vector<LeaseView> seen;
  std::vector<int64_t> slots;
  if (cfg_.node >= 0) {
    if (try_slot(cfg_.node, nullptr, layout, &skipped)) {
      start_renewing();
      return;
    }
  } else {
    slots = candidates(layout, usable, &seen);
    for (size_t i = 0; i < slots.size(); ++i) {
      if (!try_slot(slots[i], &seen[i], layout, &skipped)) continue;
      start_renewing();
      return;
    }
  }
  const std::string pinned = "Lease " + slot_name(cfg_.node) + " in namespace " + namespace_;
  std::string msg = cfg_.node >= 0
                        ? pinned + (skipped.empty() ? " is held by another process"
                                                    : " cannot be taken: " + skipped)
                        : "no free node id among the Leases " + cfg_.prefix + "-N in namespace " +
                              namespace_ + " (" + std::to_string(slots.size()) +
                              " looked free when listed and were taken first)";
  if (!skipped.empty() && cfg_.node < 0) msg += "; skipped: " + skipped;
  unavailable(msg);
}

}  // namespace kube
}  // namespace detail
}  // namespace snowfleet
