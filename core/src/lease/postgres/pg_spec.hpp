// The "postgres://" node-source spec: snowfleet's own options (table, ttl, node) taken out
// of a libpq connection URI, which goes to libpq with every other part as written (host,
// port, user, database, sslmode and the other TLS options; what the URI leaves out libpq
// takes from the PG* environment variables and ~/.pgpass). Pure text handling, so it can be
// tested and fuzzed without a server. Internal.
#pragma once

#include <cstdint>
#include <string>

#include "snowfleet/snowfleet.hpp"

namespace snowfleet {
namespace detail {
namespace pg {

/// A "postgres://" spec, parsed.
struct PostgresConfig {
  std::string conninfo;                   ///< the URI for libpq, without table, ttl and node
  std::string table = "snowfleet_slots";  ///< [schema.]name, lower-case SQL identifiers
  int64_t ttl_s = 10;
  /// The longest TTL the table's members may use: what a claim that finds a rolled-back row
  /// fences for, whatever the table (perhaps restored) says; 0: not stated.
  int64_t max_ttl_s = 0;
  int64_t node = -1;  ///< pinned slot, -1: any free one
  std::string text;   ///< the spec as shown in messages (passwords redacted)
};

/// Parses "postgres[ql]://[user[:password]@][host][:port][/db][?table=T&ttl=S&max_ttl=S&node=N&
/// <libpq parameters>]" for `layout`. Throws kInvalidArgument naming the option, the value
/// and the rule.
PostgresConfig parse_postgres_spec(const std::string& spec, const Layout& layout);

/// `message`, an error libpq wrote about `conninfo`, with every password in it masked as the
/// spec's text masks it: the URI's userinfo password and the value of each secret query
/// parameter (as written and percent-decoded), a keyword=value string's password, and
/// $PGPASSWORD's value; a quoted URI reads as the masked URI. Where libpq may read the
/// userinfo otherwise (more than one '@' before the path), every quoted text
/// of the message is masked instead.
std::string mask_libpq_message(const std::string& message, const std::string& conninfo);

/// Whether `name` is a table name the engine accepts: one or two (schema.table) lower-case
/// SQL identifiers ([a-z_][a-z0-9_]*, at most 63 bytes each).
bool valid_table_name(const std::string& name);

}  // namespace pg
}  // namespace detail
}  // namespace snowfleet
