// The lease table's statements and replies (pg_protocol.hpp).
#include "pg_protocol.hpp"

#include <algorithm>
#include <limits>

#include "base/strict_int.hpp"
#include "lease/spec_options.hpp"

namespace snowfleet {
namespace detail {
namespace pg {
namespace {

// The timeline of the WAL the server writes now: the first 8 hex digits of its file name.
const char kTimeline[] = "('x' || left(pg_walfile_name(pg_current_wal_lsn()), 8))::bit(32)::bigint";

bool int_at(const Row& row, size_t i, int64_t* out) {
  return i < row.size() && row[i] && parse_int64(*row[i], out, true);
}

bool bool_at(const Row& row, size_t i, bool* out) {
  if (i >= row.size() || !row[i] || (*row[i] != "t" && *row[i] != "f")) return false;
  *out = *row[i] == "t";
  return true;
}

// A column that may be NULL (the prev_ ones: no row before the claim).
template <class T, class Read>
bool nullable_at(const Row& row, size_t i, std::optional<T>* out, Read read) {
  if (i >= row.size()) return false;
  if (!row[i]) {
    out->reset();
    return true;
  }
  T v{};
  if (!read(row, i, &v)) return false;
  *out = v;
  return true;
}

}  // namespace

std::string sql_name(const std::string& table) {
  const auto dot = table.find('.');
  if (dot == std::string::npos) return '"' + table + '"';
  return '"' + table.substr(0, dot) + "\".\"" + table.substr(dot + 1) + '"';
}

std::string create_sql(const std::string& table, int64_t slots) {
  const std::string t = sql_name(table);
  return "CREATE TABLE IF NOT EXISTS " + t +
         " (\n"
         "  slot        integer     PRIMARY KEY CHECK (slot >= 0),\n"
         "  holder      text        NOT NULL DEFAULT '',\n"
         "  expires_at  timestamptz NOT NULL DEFAULT '-infinity',\n"
         "  ttl_ms      integer     NOT NULL DEFAULT 0 CHECK (ttl_ms >= 0),\n"
         "  mark_ms     bigint      NOT NULL DEFAULT 0 CHECK (mark_ms >= 0),\n"
         "  epoch       bigint      NOT NULL DEFAULT 0 CHECK (epoch >= 0),\n"
         "  written_xid xid8        NOT NULL DEFAULT pg_current_xact_id(),\n"
         "  timeline    bigint      NOT NULL DEFAULT 0\n"
         ");\n"
         "INSERT INTO " +
         t + " (slot) SELECT generate_series(0, " + std::to_string(slots - 1) +
         ") ON CONFLICT (slot) DO NOTHING;";
}

std::string held_sql(const std::string& table) {
  const std::string t = sql_name(table);
  // A row whose epoch cannot grow (set to the largest by hand) cannot be claimed: as held.
  return "SELECT slot FROM " + t +
         " WHERE slot <= $1::integer AND (expires_at >= now() OR epoch = " +
         std::to_string(std::numeric_limits<int64_t>::max()) + ")";
}

std::string worn_out_sql(const std::string& table) {
  const std::string t = sql_name(table);
  return "SELECT slot FROM " + t + " WHERE slot = $1::integer AND epoch = " +
         std::to_string(std::numeric_limits<int64_t>::max());
}

std::string claim_sql(const std::string& table) {
  const std::string t = sql_name(table);
  return "WITH prev AS (\n"
         "  SELECT epoch, written_xid::xid = xmin AS intact, timeline FROM " +
         t +
         " WHERE slot = $1::integer)\n"
         "INSERT INTO " +
         t +
         " AS s (slot, holder, expires_at, ttl_ms, epoch, written_xid, timeline)\n"
         "VALUES ($1::integer, $2::text, now() + $3::integer * interval '1 millisecond', "
         "$3::integer, 1, pg_current_xact_id(), " +
         kTimeline +
         ")\n"
         "ON CONFLICT (slot) DO UPDATE\n"
         "   SET holder = excluded.holder, expires_at = excluded.expires_at, "
         "ttl_ms = excluded.ttl_ms,\n"
         "       epoch = s.epoch + 1, written_xid = excluded.written_xid, "
         "timeline = excluded.timeline\n"
         " WHERE s.expires_at < now() AND s.epoch < " +
         std::to_string(std::numeric_limits<int64_t>::max()) +
         "\n"
         "RETURNING s.epoch, s.mark_ms, s.xmax = 0 AS inserted,\n"
         "          (SELECT epoch FROM prev) AS prev_epoch, (SELECT intact FROM prev) AS "
         "prev_intact,\n"
         "          (SELECT timeline FROM prev) AS prev_timeline, s.timeline,\n"
         "          (extract(epoch FROM now()) * 1000)::bigint AS server_ms,\n"
         "          (SELECT coalesce(max(ttl_ms), 0) FROM " +
         t + ") AS longest_ttl_ms";
}

std::string renew_sql(const std::string& table) {
  const std::string t = sql_name(table);
  return "UPDATE " + t +
         "\n"
         "   SET expires_at = now() + ttl_ms * interval '1 millisecond', "
         "mark_ms = greatest(mark_ms, $4::bigint),\n"
         "       written_xid = pg_current_xact_id(), timeline = " +
         kTimeline +
         "\n"
         " WHERE slot = $1::integer AND holder = $2::text AND epoch = $3::bigint "
         "AND written_xid::xid = xmin\n"
         "RETURNING mark_ms";
}

std::string release_sql(const std::string& table) {
  const std::string t = sql_name(table);
  return "UPDATE " + t +
         "\n"
         "   SET expires_at = '-infinity', mark_ms = greatest(mark_ms, $4::bigint),\n"
         "       written_xid = pg_current_xact_id(), timeline = " +
         kTimeline +
         "\n"
         " WHERE slot = $1::integer AND holder = $2::text AND epoch = $3::bigint "
         "AND written_xid::xid = xmin\n"
         "RETURNING mark_ms";
}

bool parse_claim_row(const Row& row, ClaimRow* out, std::string* why) {
  static const char* const kColumns[] = {"epoch",      "mark_ms",     "inserted",
                                         "prev_epoch", "prev_intact", "prev_timeline",
                                         "timeline",   "server_ms",   "longest_ttl_ms"};
  if (row.size() != 9) {
    *why = "the claim's reply has " + std::to_string(row.size()) + " columns, not 9";
    return false;
  }
  ClaimRow r;
  const bool ok[] = {int_at(row, 0, &r.epoch) && r.epoch >= 1,
                     int_at(row, 1, &r.mark_ms) && r.mark_ms >= 0,
                     bool_at(row, 2, &r.inserted),
                     nullable_at(row, 3, &r.prev_epoch, int_at),
                     nullable_at(row, 4, &r.prev_intact, bool_at),
                     nullable_at(row, 5, &r.prev_timeline, int_at),
                     int_at(row, 6, &r.timeline),
                     int_at(row, 7, &r.server_ms) && r.server_ms >= 0,
                     int_at(row, 8, &r.longest_ttl_ms) && r.longest_ttl_ms >= 0};
  for (size_t i = 0; i < 9; ++i) {
    if (!ok[i]) {
      *why = std::string("the claim's reply has no valid ") + kColumns[i];
      return false;
    }
  }
  *out = r;
  return true;
}

bool parse_renew_row(const Row& row, int64_t* mark_ms) {
  int64_t v;
  if (row.size() != 1 || !int_at(row, 0, &v) || v < 0) return false;
  *mark_ms = v;
  return true;
}

std::string rollback_evidence(const ClaimRow& r) {
  if (r.inserted) return "its row was missing (deleted, or the table restored without it)";
  if (!r.prev_epoch || *r.prev_epoch + 1 != r.epoch)
    return "the row changed while the claim replaced it";
  if (r.prev_intact && !*r.prev_intact)
    return "its row was not written by snowfleet (a restored dump, or an edit by hand)";
  if (r.prev_timeline && *r.prev_timeline != 0 && *r.prev_timeline != r.timeline)
    return "its row was written on timeline " + std::to_string(*r.prev_timeline) +
           " and the server is on " + std::to_string(r.timeline) +
           " (a promoted replica or a point-in-time recovery)";
  return "";
}

int64_t claim_start_ms(const ClaimRow& r, int64_t wall_ms, int64_t ttl_ms) {
  if (rollback_evidence(r).empty()) return r.mark_ms;
  // No member leases for longer than kMaxTtlS: a ttl_ms above it (a hand edit) fences
  // nobody's deadline, and would write a mark days ahead as the slot's.
  const int64_t longest = std::min(std::max(ttl_ms, r.longest_ttl_ms), kMaxTtlS * 1000);
  return std::max(r.mark_ms, std::max(wall_ms, r.server_ms) + longest + 2000);
}

std::string bound_refusal(const ClaimRow& r, int64_t max_ttl_s) {
  if (max_ttl_s == 0 || r.longest_ttl_ms <= max_ttl_s * 1000) return "";
  return "a row of the table is leased with ttl_ms " + std::to_string(r.longest_ttl_ms) +
         ", above this spec's max_ttl=" + std::to_string(max_ttl_s) +
         ": a claim after a restore would fence short of that holder's deadline; give every "
         "member the same max_ttl, at least its ttl";
}

int64_t deadline_margin_ns(int64_t ttl_s) {
  return std::max<int64_t>(ttl_s * 1'000'000'000 / 5, 500'000'000);
}

int64_t deadline_after(int64_t sent_ns, int64_t ttl_s) {
  const int64_t add = ttl_s * 1'000'000'000 - deadline_margin_ns(ttl_s);
  if (sent_ns > std::numeric_limits<int64_t>::max() - add)
    return std::numeric_limits<int64_t>::max();
  return sent_ns + add;
}

long request_timeout_ms(int64_t ttl_s) {
  return static_cast<long>(std::min<int64_t>(2000, ttl_s * 1000 / 3));
}

}  // namespace pg
}  // namespace detail
}  // namespace snowfleet
