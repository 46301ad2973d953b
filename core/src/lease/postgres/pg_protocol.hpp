// The lease table's protocol (docs/fleet.md, "The PostgreSQL lease table"): the statements
// the engine sends, each a single statement judged on the server's clock, and the reading
// of their replies. Pure, so every rule here is tested without a server. Internal.
//
//   claim:    INSERT ... ON CONFLICT (slot) DO UPDATE ... WHERE expires_at < now(): one row
//             back when the slot is ours (its mark, and what the row was before), none when
//             it is held.
//   renew:    UPDATE ... WHERE slot, holder, epoch match and written_xid is the row's xmin
//             (the row is the one this holder's last statement wrote, not a restored copy),
//             moving expires_at and the mark (greatest: it only grows). No row: lost.
//   release:  the renewal with expires_at = '-infinity'; the row stays (it is the slot's
//             history).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace snowfleet {
namespace detail {
namespace pg {

/// One row of a reply, as libpq gives it in text format (nullopt: SQL NULL).
using Row = std::vector<std::optional<std::string>>;

/// `table` (a name pg_spec.hpp accepted) as the statements write it: each part in double
/// quotes, so that a reserved word (`user`) is a name; the parts are lower case already, so
/// the quotes name the same table as the bare name does.
std::string sql_name(const std::string& table);

/// The statements, for `table` (a name pg_spec.hpp accepted). Parameters: claim $1 slot,
/// $2 holder, $3 ttl_ms; renew and release $1 slot, $2 holder, $3 epoch, $4 mark_ms.
std::string create_sql(const std::string& table, int64_t slots);
/// $1 the highest slot: the slots held now, and those whose epoch cannot grow (a hand edit).
std::string held_sql(const std::string& table);
/// $1 a slot: one row when that slot's epoch cannot grow (a hand edit), none otherwise.
std::string worn_out_sql(const std::string& table);
std::string claim_sql(const std::string& table);
std::string renew_sql(const std::string& table);
std::string release_sql(const std::string& table);

/// The claim's reply row.
struct ClaimRow {
  int64_t epoch = 0;
  int64_t mark_ms = 0;
  bool inserted = false;  ///< the row was missing: deleted, or restored away
  std::optional<int64_t> prev_epoch;
  std::optional<bool> prev_intact;  ///< the row we replaced was written by snowfleet
  std::optional<int64_t> prev_timeline;
  int64_t timeline = 0;
  int64_t server_ms = 0;
  int64_t longest_ttl_ms = 0;  ///< the longest TTL any row of the table was claimed with
};

/// Reads the claim's reply row; false (and `why` says which column) when it is not one.
bool parse_claim_row(const Row& row, ClaimRow* out, std::string* why);

/// Reads a renewal's reply row (mark_ms); false when it is not one.
bool parse_renew_row(const Row& row, int64_t* mark_ms);

/// Why a claimed row shows the table was rolled back or edited under its holder ("" when
/// it does not): a missing row, a row snowfleet did not write (a dump restored), another
/// timeline (a promoted replica, a point-in-time recovery), or a claim that saw a row other
/// than the one it replaced.
std::string rollback_evidence(const ClaimRow& row);

/// The millisecond a claim starts above: the row's mark; on rollback evidence, at least
/// `wall_ms` (the later of the server's and our clock) + the longest TTL known + 2 s, past
/// every deadline a holder of the forgotten rows may still keep.
int64_t claim_start_ms(const ClaimRow& row, int64_t wall_ms, int64_t ttl_ms);

/// Why a claimant stating `max_ttl_s` (0: none) may not hold a slot of a table whose rows
/// show `row.longest_ttl_ms`: a member leasing for longer than the bound would outlive the
/// fence this claimant waits out after a restore. "" when it may.
std::string bound_refusal(const ClaimRow& row, int64_t max_ttl_s);

/// The margin subtracted from the TTL for the local deadline: a fifth of it, at least half
/// a second (as etcd's), for the request's flight and clock-rate differences.
int64_t deadline_margin_ns(int64_t ttl_s);

/// The local deadline after a confirmation whose statement went out at `sent_ns`
/// (Clock::monotonic_ns): sent + TTL - margin, saturating.
int64_t deadline_after(int64_t sent_ns, int64_t ttl_s);

/// How long one statement may take (ms): a third of the TTL, at most 2 s.
long request_timeout_ms(int64_t ttl_s);

}  // namespace pg
}  // namespace detail
}  // namespace snowfleet
