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
#include "etcd_genesis.hpp"
#include "etcd_reply.hpp"

namespace snowfleet {
namespace detail {
namespace etcd {

namespace {

using nlohmann::json;

constexpr int64_t kMaxAttempts = 4096;  // races lost before giving up

// A claim that lost its compare to itself: etcd applied an earlier try of this request but
// answered it "request timed out" (the outcome unknown), and the request moved on to
// another member, which found the slot key created. The failure branch read the key and
// the slot's mark: when the key holds this attempt's value, the slot is ours, created at
// its create_revision, with the mark it had then (only the slot's holder writes it). Else
// (someone else's key) the claim stays lost. Before, it picked another slot and left this
// one held by the process's lease, unused, until the last generator on it closed.
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
  return claim_genesis(reply, index, send, cfg.prefix, cfg.ttl_s,
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

// One range read of the held slots, then compare-and-swap on a free slot picked at
// random; a lost race answers, in the same request, with the slots created since the
// read it picked from.
ClaimedSlot claim_slot(const EtcdConfig& cfg, const SlotLink& link, const Layout& layout,
                       const SlotFilter& usable, Clock& clock, const std::string& quoted) {
  const std::string slots_dir = cfg.prefix + "/slots/";
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
  std::mutex& mu = link.lease.claim_state(&known);
  bool fresh = false;  // `known->held` was read during this claim
  const uint64_t read_failures = known->read_failures.load(std::memory_order_acquire);
  const auto read_held = [&] {  // under mu
    // A read that failed while we waited for mu fails this claim too (see HeldSlots).
    if (known->read_failures.load(std::memory_order_acquire) != read_failures)
      throw Unreachable(known->read_error);
    try {
      const json r =
          link.lease.send(link.http, "/v3/kv/range", held_range, link.timeout_ms, link.cancel);
      known->held = held_slots(r, slots_dir, slots);
      known->revision = i64(field(r, "header"), "revision");
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
                      static_cast<uint64_t>(clock.monotonic_ns()));
  char host[256] = {0};
  gethostname(host, sizeof host - 1);
  const std::string holder = std::string(host) + " pid " + std::to_string(getpid());
  int64_t seen = 0;        // known->revision when this attempt picked its slot
  std::string unreadable;  // why a free slot was skipped, for the refusal
  size_t held_count = 0;   // for the refusal
  for (int64_t attempt = 0; attempt < kMaxAttempts; ++attempt) {
    int64_t slot = -1;
    if (cfg.node >= 0) {
      if (attempt > 0) break;
      slot = cfg.node;
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
        return free.empty() ? -1
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
    const std::string key = slots_dir + slot_text(slot);
    const std::string mark_key = cfg.prefix + "/marks/" + slot_text(slot);
    // Unique to this attempt, so that an answer can tell our own key from anyone's.
    const std::string value = holder + " claim " + std::to_string(rng());
    // The genesis is read by both branches: success[2], failure[3] (etcd_genesis.hpp).
    const json txn = {{"compare", json::array({{{"key", b64(key)},
                                                {"target", "CREATE"},
                                                {"result", "EQUAL"},
                                                {"create_revision", "0"}}})},
                      {"success", json::array({{{"request_put",
                                                 {{"key", b64(key)},
                                                  {"value", b64(value)},
                                                  {"lease", std::to_string(link.lease.id())}}}},
                                               {{"request_range", {{"key", b64(mark_key)}}}},
                                               {{"request_range", genesis_range(cfg.prefix)}}})},
                      {"failure", json::array({{{"request_range", created_since(seen)}},
                                               {{"request_range", {{"key", b64(key)}}}},
                                               {{"request_range", {{"key", b64(mark_key)}}}},
                                               {{"request_range", genesis_range(cfg.prefix)}}})}};
    ClaimReply got;
    json reply;
    // When the claim went out, not when it queued for a turn: in a storm the wait can pass
    // TTL - margin, and a deadline from before it refused the slot's first ids.
    int64_t sent = 0;
    size_t genesis_at = 2;
    try {
      reply =
          link.lease.send(link.http, "/v3/kv/txn", txn, link.timeout_ms, link.cancel, false, &sent);
      got = read_claim_reply(reply);
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
      if (cfg.node < 0 && !got.succeeded) {
        // Someone else was faster: what is held now came with the answer.
        const json& range = field(item(field(reply, "responses"), 0), "response_range");
        // Only the slots created since the revision we picked from: a few keys, where
        // the whole list ran to 80 KB of JSON per lost race in a storm (the gateway's
        // CPU). Releases since are missed: a refusal reads the whole list first.
        if (range.is_object() && known->slots == slots) {
          for (const int64_t n : held_slots(range, slots_dir, slots)) known->held.insert(n);
          known->revision = std::max(known->revision, i64(field(reply, "header"), "revision"));
        }
      }
      if (known->slots == slots) known->held.insert(slot);
    }
    if (!got.succeeded) continue;
    if (!got.mark_readable || got.mark_ms > layout.max_timestamp_ms()) {
      // A history we cannot read is not an empty one, and a mark past the layout's
      // window blocks the slot for good: give it back, try another.
      if (unreadable.empty())
        unreadable =
            !got.mark_readable
                ? "the mark key " + mark_key + " holds " + quote(got.mark_text) + ", not a Unix ms"
                : "the mark key " + mark_key + " holds " + std::to_string(got.mark_ms) +
                      ", past the last millisecond of layout " + layout.to_string();
      give_back(link, key, got.revision);
      skipped.insert(slot);
      continue;
    }
    // The prefix's genesis; a fence above the slot's mark after a wipe.
    int64_t fence_ms = 0;
    try {
      fence_ms = genesis_of(cfg, link, clock, reply, genesis_at).fence_ms;
    } catch (...) {
      try {
        give_back(link, key, got.revision);
      } catch (...) {
      }
      throw;
    }
    if (fence_ms > layout.max_timestamp_ms()) {
      // Not a fence any claim writes (now + TTL + 2 s): started above it, the first mark
      // would persist the window's last millisecond and ruin the slot for good.
      try {
        give_back(link, key, got.revision);
      } catch (...) {
      }
      throw Error(ErrorKind::kNodeIdUnavailable,
                  quoted + ": the genesis key " + genesis_key(cfg.prefix) + " holds the fence " +
                      std::to_string(fence_ms) + ", past the last millisecond of layout " +
                      layout.to_string() +
                      ": no slot under it can mint (delete the key while no holder lives)");
    }
    ClaimedSlot won;
    won.slot = slot;
    won.key = key;
    won.mark_key = mark_key;
    won.create_revision = got.revision;
    won.mark_revision = got.mark_revision;
    won.mark_ms = std::max(got.mark_ms, fence_ms);
    won.sent = sent;
    return won;
  }
  std::string msg =
      cfg.node >= 0
          ? quoted + ": slot " + std::to_string(cfg.node) + " under " + slots_dir +
                (unreadable.empty() ? " is held by another process" : " is not available")
          : quoted + ": no free node id under " + slots_dir + " (" + std::to_string(held_count) +
                " of " + std::to_string(slots) + " slots held)";
  if (!unreadable.empty()) msg += "; skipped: " + unreadable;
  throw Error(ErrorKind::kNodeIdUnavailable, msg);
}

}  // namespace etcd
}  // namespace detail
}  // namespace snowfleet
