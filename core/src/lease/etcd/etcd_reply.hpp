// Reading the replies of etcd's v3 JSON gateway (the lease protocol in node_source_etcd.cc).
// Pure functions, no I/O, so tests and tests/fuzz/etcd_reply.cc can feed them any reply.
// Only built with etcd support (the snowfleet_lease_etcd target: libcurl and
// nlohmann-json). Internal (not installed).
#pragma once

#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <set>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "etcd_base64.hpp"

namespace snowfleet {
namespace detail {
namespace etcd {

/// etcd answered, but with an error or with a reply we cannot read.
struct Refused : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// An int64 field of `obj`. They arrive as JSON strings ("7587861231") and are absent when 0.
/// Anything else (a float, "12abc", "0x10", an out-of-range number) throws Refused.
int64_t i64(const nlohmann::json& obj, const char* field);

/// j[key], or null when j is not an object or has no such key: reply navigation that never
/// asserts on a reply of the wrong shape.
const nlohmann::json& field(const nlohmann::json& j, const char* key);
/// j[i], or null when j is not an array or is shorter.
const nlohmann::json& item(const nlohmann::json& j, size_t i);

/// A slot's name under "<prefix>/slots/" and "<prefix>/marks/": at least four digits,
/// zero-padded ("0007", "1023", "16383").
std::string slot_text(int64_t slot);

/// The slots below `slots` that a range reply over `slots_dir` ("<prefix>/slots/", keys
/// only) lists as held. Keys under it that are not spelled as slot_text() spells a slot
/// below `slots` ("junk", "7", "00007", "4096" on a 12-bit layout) are not our slots and are
/// ignored; a key outside it, or a reply of the wrong shape, throws Refused.
std::set<int64_t> held_slots(const nlohmann::json& reply, const std::string& slots_dir,
                             int64_t slots = INT64_MAX);

/// What the reply to a claim transaction says (EtcdLease::claim: if the slot key was never
/// created, put it with our lease and read the slot's mark key, in one revision).
struct ClaimReply {
  bool succeeded = false;     ///< false: another holder was faster (nothing else is read)
  int64_t revision = 0;       ///< the reply's header revision: our slot key's create_revision
  bool mark_readable = true;  ///< false: the mark key holds something that is not a Unix ms
  int64_t mark_ms = -1;       ///< the slot's high-water mark, -1 when it has none
  std::string mark_text;      ///< the mark key's decoded value, when unreadable
  int64_t mark_revision = 0;  ///< the mark key's mod_revision, 0 when it has none
};

/// Reads the reply to a claim transaction. A malformed reply throws Refused.
ClaimReply read_claim_reply(const nlohmann::json& reply);

/// What the failing reply to a mark transaction says of its batch, whose slot i expected
/// its slot key created at `expected[i].first` and its mark key modified at
/// `expected[i].second`. The failure branch reads each slot key and mark key as they are
/// in the failing revision.
struct MarkRecheck {
  /// The slots still ours (slot key as expected), each with its mark key's mod_revision now.
  std::vector<std::pair<size_t, int64_t>> ours;
  /// Some mark key still ours moved: an earlier write of this slot (only the slot key's
  /// holder writes it) that etcd applied after we stopped waiting.
  bool moved = false;
};
MarkRecheck read_mark_failure(const nlohmann::json& reply,
                              const std::vector<std::pair<int64_t, int64_t>>& expected);

}  // namespace etcd
}  // namespace detail
}  // namespace snowfleet
