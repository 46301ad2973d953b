// One connection to the lease table's server, driven through libpq's asynchronous API so
// that every connect and statement ends by the engine's own deadline (the server may be
// stopped, paused or cut off: a blocking libpq call could wait for TCP's timeouts). Past the
// deadline, or when cancel() is called, the connection is closed (the server's
// statement_timeout ends the statement there) and the next statement reconnects; so does
// the statement after a connection the server ended (pg_terminate_backend, a restart).
// Not thread-safe: one user at a time. Internal.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include "libpq_loader.hpp"
#include "pg_protocol.hpp"

namespace snowfleet {
namespace detail {
namespace pg {

/// The server could not be reached, or the statement's answer did not arrive in time: its
/// outcome is unknown.
struct Unreachable : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// cancel() was called while the statement was in flight (closing): no sign of a failure.
struct Cancelled : Unreachable {
  using Unreachable::Unreachable;
};

/// The server answered with an error (nothing was applied).
struct Refused : std::runtime_error {
  Refused(const std::string& what, std::string state)
      : std::runtime_error(what), sqlstate(std::move(state)) {}
  std::string sqlstate;  ///< five characters, "42P01" for a missing table
};

class Conn {
 public:
  /// `conninfo` as libpq reads it; `now_ns` the clock `sent` readings come from; requests
  /// in flight fail once `*cancel` moves.
  Conn(const Libpq& api, std::string conninfo, std::function<int64_t()> now_ns,
       const std::atomic<uint64_t>* cancel);
  ~Conn();
  Conn(const Conn&) = delete;
  Conn& operator=(const Conn&) = delete;

  /// Runs one statement with text parameters within `timeout_ms` (connecting first when
  /// needed) and returns its rows. `sent`: set to now_ns() just before the statement goes
  /// out. Throws Unreachable or Refused.
  std::vector<Row> exec(const std::string& sql, const std::vector<std::string>& params,
                        long timeout_ms, int64_t* sent = nullptr);
  /// Runs `sql` (several statements, one implicit transaction) without parameters.
  void exec_script(const std::string& sql, long timeout_ms);
  /// In a forked child: forget the connection without closing it (it is the parent's).
  void leak() noexcept { conn_ = nullptr; }

 private:
  void connect(int64_t deadline_ns);
  void close() noexcept;
  void wait_socket(bool write, int64_t deadline_ns, uint64_t gen);
  void flush(int64_t deadline_ns, uint64_t gen);
  PGresult* next_result(int64_t deadline_ns, uint64_t gen);
  void append_rows(PGresult* r, std::vector<Row>* rows) const;
  std::vector<Row> collect(int64_t deadline_ns, uint64_t gen);
  std::string libpq_error() const;
  [[noreturn]] void fail_connection(const std::string& why);

  const Libpq& api_;
  std::string conninfo_;
  std::function<int64_t()> now_ns_;
  const std::atomic<uint64_t>* cancel_;
  PGconn* conn_ = nullptr;
  long timeout_ms_ = 0;  // applied to the session as statement_timeout and lock_timeout
};

}  // namespace pg
}  // namespace detail
}  // namespace snowfleet
