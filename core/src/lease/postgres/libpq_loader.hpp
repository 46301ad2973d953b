// libpq, loaded at run time: the postgres:// node source is its only user, so the core does
// not link it. The first postgres:// claim dlopen()s libpq.so.5 and resolves the functions
// pg_conn.cc calls into a table; users who never lease from PostgreSQL never map it. The
// types and constants are libpq's stable ABI (libpq-fe.h), declared here so that the build
// needs no PostgreSQL headers. Internal.
#pragma once

#include <string>

namespace snowfleet {
namespace detail {
namespace pg {

struct PGconn;
struct PGresult;
struct PGcancel;

// libpq-fe.h's enums, by value.
constexpr int kConnectionOk = 0;   // ConnStatusType CONNECTION_OK
constexpr int kPollingFailed = 0;  // PostgresPollingStatusType PGRES_POLLING_*
constexpr int kPollingReading = 1;
constexpr int kPollingWriting = 2;
constexpr int kPollingOk = 3;
constexpr int kCommandOk = 1;  // ExecStatusType PGRES_COMMAND_OK
constexpr int kTuplesOk = 2;   // PGRES_TUPLES_OK
constexpr int kDiagSqlstate = 'C';

/// The libpq functions the engine calls.
struct Libpq {
  PGconn* (*connect_start)(const char* conninfo);
  int (*connect_poll)(PGconn*);
  int (*status)(const PGconn*);
  char* (*error_message)(const PGconn*);
  int (*socket)(const PGconn*);
  void (*finish)(PGconn*);
  int (*set_nonblocking)(PGconn*, int);
  int (*flush)(PGconn*);
  int (*send_query)(PGconn*, const char*);
  int (*send_query_params)(PGconn*, const char*, int, const unsigned*, const char* const*,
                           const int*, const int*, int);
  int (*consume_input)(PGconn*);
  int (*is_busy)(PGconn*);
  PGresult* (*get_result)(PGconn*);
  int (*result_status)(const PGresult*);
  char* (*result_error_message)(const PGresult*);
  char* (*result_error_field)(const PGresult*, int);
  int (*ntuples)(const PGresult*);
  int (*nfields)(const PGresult*);
  char* (*get_value)(const PGresult*, int, int);
  int (*get_is_null)(const PGresult*, int, int);
  void (*clear)(PGresult*);
  void* (*conninfo_parse)(const char*, char**);
  void (*conninfo_free)(void*);
  void (*freemem)(void*);
  void* (*set_notice_processor)(PGconn*, void (*)(void*, const char*), void*);
};

/// Loads libpq (once per process; a load that failed is tried again at the next claim) and
/// returns its table. Throws Error kNodeIdUnavailable naming `spec` (the node source, as
/// shown), the library and the packages that install it when the library or one of its
/// functions is missing.
const Libpq& load_libpq(const std::string& spec);

/// Tests only: the library load_libpq opens from now on (default "libpq.so.5"). Forgets a
/// library already loaded, without closing it. Returns the previous name.
std::string set_libpq_library_for_test(std::string name);

}  // namespace pg
}  // namespace detail
}  // namespace snowfleet
