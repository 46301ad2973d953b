// The genesis of an etcd prefix: what lets a holder notice that the prefix it claimed under
// was wiped (`etcdctl del --prefix`) or replaced (a restore from another snapshot), and
// lets the claim that re-creates it tell a new prefix from a wiped one. "A missing mark is
// not an empty history": after a wipe, old holders mint until they notice, and the slots
// they held have no marks. Only built with etcd support. Internal.
//
//   <prefix>/genesis  unleased: "<nonce, 16 hex digits> <created Unix ms> <fence Unix ms>"
//                     [" <max_ttl s>"], created by the first lease grant on the prefix (or
//                     a claim after a wipe; compare create_revision == 0), never written
//                     again.
//   holder lease:     the process lease (etcd_process_lease.hpp) is granted with an ID of
//                     our own choosing that carries a tag of the prefix (holder_lease_id),
//                     and only after its process read the genesis or created it: so etcd
//                     lists a lease tagged with the prefix only once the prefix has had a
//                     genesis. Leases survive a wipe of keys: they say "a holder of this
//                     prefix may be minting". A claim's transaction, sent on that lease after
//                     the grant, reads the genesis its slot is under: a wipe is either seen
//                     there or happens while etcd lists the lease.
//   holders:          the process lease's deadline moves only when, after its keepalive, a
//                     read of the genesis (one range per process and store per keepalive
//                     period, not per generator) finds the value its claims adopted; a
//                     genesis changed or gone makes every slot of the process lost at once.
//                     So after a wipe at t_w no holder mints past t_w + TTL - margin, most
//                     stop within TTL/3.
//   claims:           a claim reads the genesis in its claim transaction; finding none, it
//                     creates one, with a fence of now + TTL + 2 s when etcd lists a holder
//                     lease of the prefix (the old holders' deadline, plus how far their
//                     persisted marks ran ahead of their clocks while writes succeeded), 0
//                     otherwise: a new prefix costs nothing, even to a fleet starting at
//                     once (no tagged lease exists before a genesis does). A claim starts
//                     above its genesis's fence when its slot's mark is lower.
//   the TTL bound:    a restore from a snapshot older than a holder's lease takes the
//                     lease with the keys, so no list shows that holder, and a partitioned
//                     holder learns nothing: a store that looks new may be one emptied
//                     under a live holder. A spec stating max_ttl=S records S in the
//                     genesis it creates and fences that genesis past now + S + 2 s even
//                     when no holder is listed; every claim under a genesis stating S
//                     refuses a TTL above S and a spec stating a lower bound (or none), so
//                     every member's deadline lies within the fence any member's re-created
//                     genesis waits out.
#pragma once

#include <cstdint>
#include <functional>
#include <mutex>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>

#include "etcd_http.hpp"

namespace snowfleet {
namespace detail {
namespace etcd {

/// A prefix's genesis record, as read from `<prefix>/genesis`.
struct Genesis {
  std::string value;  ///< the stored text, what holders compare
  int64_t created_ms = 0;
  int64_t fence_ms = 0;   ///< a claim under this genesis starts above it; 0: no fence
  int64_t max_ttl_s = 0;  ///< the longest TTL the prefix's members may use; 0: not stated
};

/// "<prefix>/genesis".
std::string genesis_key(const std::string& prefix);

/// Parses a genesis value ("<16 lowercase hex> <ms> <ms>", both ms >= 0, optionally followed
/// by " <max_ttl s>" in [2, 3600]); false when it is anything else.
bool parse_genesis(const std::string& value, Genesis* out);

/// The request_range op that reads the genesis (claim transactions add it).
nlohmann::json genesis_range(const std::string& prefix);

/// A holder lease ID for `prefix` (the ID a process lease asks etcd for): a 31-bit tag of
/// the prefix in the high half; in the low one the lease's TTL (12 bits: the spec allows
/// 2..3600 s) above 20 bits of `random`. Positive, never 0. The TTL is in the ID so that a
/// claim re-creating a wiped prefix's genesis fences past the longest holder's deadline
/// from the lease list alone (one request, whatever the holders' TTLs).
int64_t holder_lease_id(const std::string& prefix, int64_t ttl_s, uint32_t random);
/// True when `id` carries the holder tag of `prefix`.
bool is_holder_lease(int64_t id, const std::string& prefix);
/// The TTL (s) a holder lease ID carries.
int64_t holder_lease_ttl_s(int64_t id);

/// A claim saw a genesis other than the one its process's lease holds under: the prefix
/// was wiped or restored since; every slot on that lease is lost.
struct GenesisMoved : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// What a claimant's spec says about TTLs: its own, and the bound it states (0: none).
struct Ttls {
  int64_t ttl_s = 0;
  int64_t max_ttl_s = 0;
};

/// Throws Refused when a claimant with `ttls` may not hold a slot under `g`: its TTL above
/// the bound `g` states, or its own bound lower than that one (a genesis it re-created
/// after a restore would fence short of the other members' deadlines).
void check_bound(const Genesis& g, const std::string& prefix, const Ttls& ttls);

/// One request of the claim protocol (ProcessLease::send in a claim turn).
using Send = std::function<nlohmann::json(const std::string& path, const nlohmann::json& body)>;

/// The genesis the slots of one process lease were claimed under.
class GenesisWatch {
 public:
  /// Makes `g` (read or created by a claim sent on the lease) the genesis of this process
  /// lease's slots. Throws GenesisMoved when they are under another one.
  void adopt(const Genesis& g, const std::string& prefix);
  /// The adopted value ("" before the first claim).
  std::string adopted() const;

  /// The outcome of check().
  struct Check {
    enum Outcome { kConfirmed, kLost, kUnreadable } outcome = kConfirmed;
    std::string checked;  ///< the adopted value confirmed ("" when none was adopted)
    std::string why;      ///< kLost, kUnreadable: for the holders' reason
  };
  /// After the process lease's keepalive: reads the genesis (no request before the first
  /// adoption). Transport and reply errors give kUnreadable, never kConfirmed.
  Check check(Http& http, const std::string& prefix, long timeout_ms) const;
  /// True while the adopted value is still `checked`: a check made before the first claim
  /// adopted its genesis confirms nothing for that claim.
  bool still(const std::string& checked) const;

 private:
  mutable std::mutex mu_;  // adopted_
  std::string adopted_;
};

/// The prefix's genesis as read, or created when there is none (fenced when etcd lists a
/// holder lease of the prefix, or when `ttls` states a bound): a process lease is granted
/// only after this, so a prefix never had a tagged lease before it had a genesis. Throws
/// Refused for a genesis that is not one or whose bound refuses `ttls` (check_bound), and
/// what `send` throws.
Genesis ensure_genesis(const Send& send, const std::string& prefix, const Ttls& ttls,
                       int64_t now_ms);

/// The genesis a successful claim is under: read from `claim_reply.responses[index]`, or,
/// when the reply shows none, created (fenced as ensure_genesis fences) or read from the
/// faster claimant that created it; then adopted into `watch`. Throws Refused for a
/// genesis that is not one or whose bound refuses `ttls`, GenesisMoved (see adopt), and
/// what `send` throws.
Genesis claim_genesis(const nlohmann::json& claim_reply, size_t index, const Send& send,
                      const std::string& prefix, const Ttls& ttls, int64_t now_ms,
                      GenesisWatch& watch);

}  // namespace etcd
}  // namespace detail
}  // namespace snowfleet
