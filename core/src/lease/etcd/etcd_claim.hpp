// The claim walk of an etcd slot: which slot a new lease takes, and the transaction that
// takes it. Apart from the slot's lease (node_source_etcd.cc), which holds the slot once
// claimed (its marks, its release), because the walk is the part that reasons about other
// claimants: what this process knows of the held slots, a lost race, a claim etcd applied
// but answered "request timed out", a mark that cannot be read, the prefix's genesis.
// Only built with etcd support. Internal.
//
//   read:   POST /v3/kv/range over <prefix>/slots/ (keys only), once per process and store
//           while its claims' knowledge holds (ProcessLease::HeldSlots).
//   claim:  POST /v3/kv/txn on a free slot picked at random: if create_revision(<prefix>/
//           slots/N) == 0, put it with the process lease and read <prefix>/marks/N and
//           <prefix>/genesis in the same revision; else read the slot key and its mark, and
//           pick again. A claim of any free slot goes in this process's next batch
//           (etcd_claim_batch.hpp): the claims that wait while one batch is in flight share
//           one transaction, each on its own compare, which also reads the genesis and the
//           slots created since the batch picked. A node=N claim sends its own (it also
//           reads those slots when it loses). So a process's claims cost one read plus one
//           request per batch and per round of lost races, whatever their number (a lone
//           claim: two requests).
#pragma once

#include <atomic>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

#include "etcd_http.hpp"
#include "etcd_process_lease.hpp"
#include "lease/node_source.hpp"

namespace snowfleet {
namespace detail {
namespace etcd {

/// How one slot's lease talks to etcd: in turns of the process lease `lease`, through the
/// slot's own Http handle (not thread-safe: one per user thread), each request within
/// `timeout_ms` and given up once `*cancel` moves (close()).
struct SlotLink {
  ProcessLease& lease;
  Http& http;
  long timeout_ms;
  const std::atomic<uint64_t>* cancel;
};

/// A slot the claim walk won, with what its lease needs to hold it.
struct ClaimedSlot {
  int64_t slot = -1;
  std::string key;       ///< "<prefix>/slots/NNNN", created by the claim with the lease
  std::string mark_key;  ///< "<prefix>/marks/NNNN"
  /// The slot key's create_revision: mark writes and the release compare on it, so that a
  /// holder that lost the slot can touch neither the key nor the mark of its successor.
  int64_t create_revision = 0;
  int64_t mark_revision = 0;  ///< the mark key's mod_revision at the claim (0: none)
  /// The millisecond to start above: the slot's mark, or the genesis's fence when higher
  /// (a prefix wiped under live holders).
  int64_t mark_ms = -1;
  /// Clock::monotonic_ns when the winning claim went out: the lease's deadline counts from
  /// it (in a storm, the wait for a turn can pass the TTL's margin).
  int64_t sent = 0;
};

/// Claims a free slot below `layout`'s node count that `usable` accepts (`cfg.node`: that
/// slot only), on the process lease of `link`. `quoted` ("node source '...'") starts every
/// refusal. Throws Error(kNodeIdUnavailable) when no slot can be had (all held, or skipped
/// for a mark that cannot be read, or the genesis fences past the layout's window);
/// GenesisMoved, Unreachable and Refused as the requests throw them (the caller decides
/// whether a new process lease is worth one more walk).
ClaimedSlot claim_slot(const EtcdConfig& cfg, const SlotLink& link, const Layout& layout,
                       const SlotFilter& usable, Clock& clock, const std::string& quoted);

/// Deletes the slot key `key` if it is still the one created at `revision` (a slot not
/// kept, or released). `closing`: in a turn ahead of this process's waiting claims (close()
/// would otherwise wait for all of them). Throws what the request throws.
void give_back(const SlotLink& link, const std::string& key, int64_t revision,
               bool closing = false);

}  // namespace etcd
}  // namespace detail
}  // namespace snowfleet
