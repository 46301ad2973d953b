// The genesis of an etcd prefix (etcd_genesis.hpp). Only built with etcd support.
#include "etcd_genesis.hpp"

#include <algorithm>
#include <cstdio>
#include <string_view>

#include "base/quote.hpp"
#include "base/strict_int.hpp"
#include "etcd_base64.hpp"
#include "etcd_reply.hpp"
#include "mint/mark_keeper.hpp"
#include "uuid/random_internal.hpp"
#include "json_text.hpp"

namespace snowfleet {
namespace detail {
namespace etcd {

using nlohmann::json;

namespace {

// The longest TTL etcd_spec.cc accepts, in every build.
constexpr int64_t kMaxHolderTtlS = 3600;

// FNV-1a: the tag must be the same in every process and version that shares a prefix.
uint64_t fnv1a(const std::string& s) {
  uint64_t h = 0xcbf29ce484222325ULL;
  for (unsigned char c : s) h = (h ^ c) * 0x100000001b3ULL;
  return h;
}

// 31 bits, the top one set: the ID is positive and never 0 whatever the low half.
uint64_t prefix_tag(const std::string& prefix) {
  return (fnv1a(prefix) >> 34) | (uint64_t{1} << 30);
}

uint64_t random_u64() { return (system_random_u48() << 16) ^ system_random_u48(); }

// The value of the first kv of a range response, or false when it lists none.
bool first_value(const json& range, std::string* out) {
  const json& kvs = field(range, "kvs");
  if (!kvs.is_array() || kvs.empty()) return false;
  const json& v = field(kvs[0], "value");
  *out = v.is_string() ? unb64(v.get<std::string>()) : "";
  return true;
}

Genesis parsed(const std::string& prefix, const std::string& value) {
  Genesis g;
  if (!parse_genesis(value, &g))
    throw Refused("the genesis key " + genesis_key(prefix) + " holds " + quote(value) +
                  ", not \"<16 hex digits> <Unix ms> <Unix ms>\"");
  return g;
}

// Whether etcd lists a holder lease of `prefix` (a process lease tagged with it, granted
// only after its process saw a genesis: one whose slots were claimed under an earlier
// genesis may be minting until its TTL runs out), and the longest TTL (s) such IDs carry.
// A tagged ID whose TTL bits read 0 (an ID etcd chose that matches the tag, a process of
// a build before the TTL was in the ID) still counts as a holder. A list or an entry that
// cannot be read or understood throws: fencing by a guessed TTL would either miss a holder
// or stall the prefix for the longest TTL allowed.
bool holder_listed(const Send& send, const std::string& prefix, int64_t* longest_ttl_s) {
  const json reply = send("/v3/lease/leases", json::object());
  const json& leases = field(reply, "leases");
  *longest_ttl_s = 0;
  if (leases.is_null()) return false;  // etcd omits an empty list
  if (!leases.is_array())
    throw Refused(
        "the lease list (/v3/lease/leases) is not a list: cannot tell whether the "
        "prefix " +
        prefix + " has live holders");
  bool listed = false;
  for (const json& l : leases) {
    if (!field(l, "ID").is_string() && !field(l, "ID").is_number_integer())
      throw Refused("the lease list (/v3/lease/leases) has the entry " +
                    json_text(l).substr(0, 80) +
                    ", without a lease ID: cannot tell whether the prefix " + prefix +
                    " has live holders");
    const int64_t id = i64(l, "ID");
    if (!is_holder_lease(id, prefix)) continue;
    listed = true;
    // No build grants a TTL above kMaxHolderTtlS: higher bits are not a holder's TTL.
    *longest_ttl_s = std::max(*longest_ttl_s, std::min(holder_lease_ttl_s(id), kMaxHolderTtlS));
  }
  return listed;
}

std::string moved_text(const std::string& prefix, const std::string& found, bool exists,
                       const std::string& want) {
  return "the genesis key " + genesis_key(prefix) +
         (exists ? " holds " + quote(found) + ", not " + quote(want) : " is gone") +
         ": the prefix was wiped or restored under this process's slots; they may belong to "
         "another process now";
}

}  // namespace

std::string genesis_key(const std::string& prefix) { return prefix + "/genesis"; }

namespace {

// "<16 lowercase hex digits> ", the nonce a genesis value starts with.
bool nonce_first(const std::string& value) {
  if (value.size() < 20 || value[16] != ' ') return false;
  for (size_t i = 0; i < 16; ++i) {
    const char c = value[i];
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
  }
  return true;
}

}  // namespace

bool parse_genesis(const std::string& value, Genesis* out) {
  if (!nonce_first(value)) return false;
  const size_t b = value.find(' ', 17);
  if (b == std::string::npos) return false;
  const size_t c = value.find(' ', b + 1);  // before the bound, when one is stated
  const std::string_view v(value);
  Genesis g;
  if (!parse_uint(v.substr(17, b - 17), &g.created_ms) ||
      !parse_uint(v.substr(b + 1, c == std::string::npos ? c : c - b - 1), &g.fence_ms))
    return false;
  if (c != std::string::npos && (!parse_uint(v.substr(c + 1), &g.max_ttl_s) || g.max_ttl_s < 2 ||
                                 g.max_ttl_s > kMaxHolderTtlS))
    return false;
  g.value = value;
  *out = g;
  return true;
}

json genesis_range(const std::string& prefix) { return {{"key", b64(genesis_key(prefix))}}; }

int64_t holder_lease_id(const std::string& prefix, int64_t ttl_s, uint32_t random) {
  const uint64_t ttl = static_cast<uint64_t>(std::clamp<int64_t>(ttl_s, 0, 0xfff));
  return static_cast<int64_t>((prefix_tag(prefix) << 32) | (ttl << 20) | (random & 0xfffffu));
}

int64_t holder_lease_ttl_s(int64_t id) { return (static_cast<uint64_t>(id) >> 20) & 0xfff; }

bool is_holder_lease(int64_t id, const std::string& prefix) {
  return id > 0 && (static_cast<uint64_t>(id) >> 32) == prefix_tag(prefix);
}

void GenesisWatch::adopt(const Genesis& g, const std::string& prefix) {
  std::lock_guard<std::mutex> lock(mu_);
  if (adopted_.empty()) adopted_ = g.value;
  if (adopted_ != g.value) throw GenesisMoved(moved_text(prefix, g.value, true, adopted_));
}

std::string GenesisWatch::adopted() const {
  std::lock_guard<std::mutex> lock(mu_);
  return adopted_;
}

bool GenesisWatch::still(const std::string& checked) const {
  std::lock_guard<std::mutex> lock(mu_);
  return adopted_ == checked;
}

GenesisWatch::Check GenesisWatch::check(Http& http, const std::string& prefix,
                                        long timeout_ms) const {
  Check c;
  const std::string want = adopted();
  if (want.empty()) return c;  // no slot claimed under any genesis yet
  std::string found;
  bool exists = false;
  try {
    exists = first_value(http.post("/v3/kv/range", genesis_range(prefix), timeout_ms), &found);
  } catch (const std::exception& e) {
    c.outcome = Check::kUnreadable;
    c.why = std::string("genesis read failed: ") + e.what();
    return c;
  }
  if (exists && found == want) {
    c.checked = want;
    return c;
  }
  c.outcome = Check::kLost;
  c.why = moved_text(prefix, found, exists, want);
  return c;
}

void check_bound(const Genesis& g, const std::string& prefix, const Ttls& ttls) {
  if (g.max_ttl_s == 0) return;
  const std::string states =
      "the genesis key " + genesis_key(prefix) + " states max_ttl=" + std::to_string(g.max_ttl_s);
  if (ttls.ttl_s > g.max_ttl_s)
    throw Refused(states + ", and this spec asks ttl=" + std::to_string(ttls.ttl_s) +
                  ": a holder past the bound could outlive the fence a claim waits out after "
                  "a restore; use a ttl of at most " +
                  std::to_string(g.max_ttl_s));
  if (ttls.max_ttl_s < g.max_ttl_s)
    throw Refused(states + ", and this spec states " +
                  (ttls.max_ttl_s ? "max_ttl=" + std::to_string(ttls.max_ttl_s) : "none") +
                  ": a genesis it re-created after a restore would fence short of the other "
                  "members' deadlines; give max_ttl=" +
                  std::to_string(g.max_ttl_s) + " (or more)");
}

namespace {

// The fence of a genesis created now: past the deadline of every holder that may be
// minting. A listed holder lease gives its TTL (ours if longer); a stated bound covers the
// holders no list can show (a restore took their leases), so it fences even when none is.
int64_t creation_fence_ms(const Send& send, const std::string& prefix, const Ttls& ttls,
                          int64_t now_ms) {
  int64_t held_ttl_s = 0;
  const bool held = holder_listed(send, prefix, &held_ttl_s);
  if (!held && ttls.max_ttl_s == 0) return 0;
  const int64_t ttl_s = std::max({held_ttl_s, ttls.ttl_s, ttls.max_ttl_s});
  return now_ms + ttl_s * 1000 + 2 * MarkKeeper::kAheadMs;
}

}  // namespace

Genesis create_genesis(const Send& send, const std::string& prefix, const Ttls& ttls,
                       int64_t now_ms) {
  const int64_t fence_ms = creation_fence_ms(send, prefix, ttls, now_ms);
  char nonce[17];
  std::snprintf(nonce, sizeof nonce, "%016llx", static_cast<unsigned long long>(random_u64()));
  std::string value =
      std::string(nonce) + " " + std::to_string(now_ms) + " " + std::to_string(fence_ms);
  if (ttls.max_ttl_s) value += " " + std::to_string(ttls.max_ttl_s);
  const std::string key = genesis_key(prefix);
  const json txn = {
      {"compare", json::array({{{"key", b64(key)},
                                {"target", "CREATE"},
                                {"result", "EQUAL"},
                                {"create_revision", "0"}}})},
      {"success", json::array({{{"request_put", {{"key", b64(key)}, {"value", b64(value)}}}}})},
      {"failure", json::array({{{"request_range", genesis_range(prefix)}}})}};
  const json reply = send("/v3/kv/txn", txn);
  const json& succeeded = field(reply, "succeeded");
  // Else another claimant created it first: theirs is the prefix's.
  if (!(succeeded.is_boolean() && succeeded.get<bool>()) &&
      !first_value(field(item(field(reply, "responses"), 0), "response_range"), &value))
    throw Refused("the genesis key " + key + " could neither be created nor read");
  return parsed(prefix, value);
}

Genesis ensure_genesis(const Send& send, const std::string& prefix, const Ttls& ttls,
                       int64_t now_ms) {
  std::string value;
  const Genesis g = first_value(send("/v3/kv/range", genesis_range(prefix)), &value)
                        ? parsed(prefix, value)
                        : create_genesis(send, prefix, ttls, now_ms);
  check_bound(g, prefix, ttls);
  return g;
}

Genesis claim_genesis(const json& claim_reply, size_t index, const Send& send,
                      const std::string& prefix, const Ttls& ttls, int64_t now_ms,
                      GenesisWatch& watch) {
  std::string value;
  // A reply that does not show the genesis is read as "none": creating it is a compare-
  // and-swap whose answer, unlike a reply that says nothing, is never a guess.
  const Genesis g =
      first_value(field(item(field(claim_reply, "responses"), index), "response_range"), &value)
          ? parsed(prefix, value)
          : create_genesis(send, prefix, ttls, now_ms);
  check_bound(g, prefix, ttls);
  watch.adopt(g, prefix);
  return g;
}

}  // namespace etcd
}  // namespace detail
}  // namespace snowfleet
