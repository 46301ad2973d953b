// The one way the extension calls the core: C++ exceptions end here, PostgreSQL's errors
// start here.
//
// PostgreSQL raises an ERROR by longjmp to the nearest sigsetjmp, skipping every C++ frame
// in between without running destructors; a C++ exception that reached PostgreSQL's C
// frames would terminate the backend. So every call into the core runs inside attempt(),
// which catches everything and copies the failure into a Failure (no destructor, so the
// longjmp may skip it); the caller then reports it with raise() after the C++ scope has
// ended:
//
//   Failure f;
//   if (!attempt(f, [&] { out = snowfleet::min_id(layout, ms); })) raise(f);
//
// Inside attempt's body, nothing may call PostgreSQL (palloc, ereport, detoasting): fetch
// the arguments before and build the result after.
#pragma once

#include <cstddef>
#include <exception>
#include <new>

#include "snowfleet/errors.hpp"

namespace snowfleet_pg {

/// Thrown by the extension's own C++ code inside attempt() when PostgreSQL has an
/// interrupt to serve (a query cancel, statement_timeout, a shutdown) during a wait: the
/// caller lets PostgreSQL serve it with CHECK_FOR_INTERRUPTS() once the C++ frames are
/// gone (mint.cc).
struct Interrupted {};

/// Thrown inside attempt() when a PostgreSQL call made there (WaitLatch) raised an ERROR,
/// caught where it was made (PG_TRY) and kept (pending_error); raise() re-throws it.
struct PostgresError {};

/// What went wrong inside attempt(): trivially destructible on purpose.
struct Failure {
  enum class Source { kCore, kOutOfMemory, kUnexpected, kInterrupted, kPostgres };
  Source source = Source::kUnexpected;
  snowfleet::ErrorKind kind = snowfleet::ErrorKind::kInternal;
  char message[1024];  // NUL-terminated, cut at a character boundary
  void set(Source s, snowfleet::ErrorKind k, const char* text) noexcept;
};

/// Runs body(); true when it returned, false (with *f filled) when it threw anything.
template <class Body>
bool attempt(Failure& f, Body&& body) noexcept {
  try {
    body();
    return true;
  } catch (const snowfleet::Error& e) {
    f.set(Failure::Source::kCore, e.kind(), e.what());
  } catch (const Interrupted&) {
    f.set(Failure::Source::kInterrupted, snowfleet::ErrorKind::kInternal, "interrupted");
  } catch (const PostgresError&) {
    f.set(Failure::Source::kPostgres, snowfleet::ErrorKind::kInternal, "PostgreSQL error");
  } catch (const std::bad_alloc&) {
    f.set(Failure::Source::kOutOfMemory, snowfleet::ErrorKind::kInternal, "out of memory");
  } catch (const std::exception& e) {
    f.set(Failure::Source::kUnexpected, snowfleet::ErrorKind::kInternal, e.what());
  } catch (...) {
    f.set(Failure::Source::kUnexpected, snowfleet::ErrorKind::kInternal, "unknown exception");
  }
  return false;
}

/// ereport(ERROR) for f: a kept PostgreSQL error as it was (kPostgres); the SQLSTATE of its kind (sqlstate.cc) and the message
/// "CODE: message", e.g. "INVALID_ARGUMENT: id must be non-negative, got -1".
[[noreturn]] void raise(const Failure& f);

/// Inside PG_CATCH, where a PostgreSQL call made in attempt()'s body failed: copies the
/// error out of ErrorContext and clears it, for raise() to re-throw (then throw
/// PostgresError).
void keep_pending_error();
/// Re-throws the error keep_pending_error() kept.
[[noreturn]] void rethrow_pending_error();

/// ereport(ERROR) for an error found by the glue itself, under the same scheme.
[[noreturn]] void raise(snowfleet::ErrorKind kind, const char* message);

}  // namespace snowfleet_pg
