#include "bridge.hpp"

#include <cstring>

#include "pg.hpp"
#include "sqlstate.hpp"

namespace snowfleet_pg {

void Failure::set(Source s, snowfleet::ErrorKind k, const char* text) noexcept {
  source = s;
  kind = k;
  size_t n = std::strlen(text);
  if (n >= sizeof message) {
    n = sizeof message - 1;
    // Never leave half a UTF-8 character: step back over continuation bytes.
    while (n > 0 && (static_cast<unsigned char>(text[n]) & 0xC0) == 0x80) --n;
  }
  std::memcpy(message, text, n);
  message[n] = '\0';
}

void raise(const Failure& f) {
  switch (f.source) {
    case Failure::Source::kOutOfMemory:
      ereport(ERROR, (errcode(ERRCODE_OUT_OF_MEMORY), errmsg("out of memory")));
      break;
    case Failure::Source::kUnexpected:
      ereport(ERROR,
              (errcode(ERRCODE_INTERNAL_ERROR),
               errmsg_internal("INTERNAL: unexpected C++ exception in snowfleet: %s", f.message)));
      break;
    case Failure::Source::kPostgres:
      rethrow_pending_error();
    case Failure::Source::kInterrupted:  // the caller serves interrupts first (mint.cc)
      ereport(ERROR, (errcode(ERRCODE_QUERY_CANCELED), errmsg("canceling statement")));
      break;
    case Failure::Source::kCore:
      raise(f.kind, f.message);
  }
  pg_unreachable();
}

namespace {
ErrorData* pending = nullptr;  // in TopMemoryContext
}  // namespace

void keep_pending_error() {
  MemoryContext old = MemoryContextSwitchTo(TopMemoryContext);
  ErrorData* e = CopyErrorData();
  MemoryContextSwitchTo(old);
  FlushErrorState();
  if (pending != nullptr) FreeErrorData(pending);
  pending = e;
}

void rethrow_pending_error() {
  ErrorData* e = pending;
  pending = nullptr;
  if (e == nullptr) raise(snowfleet::ErrorKind::kInternal, "a PostgreSQL error was lost");
  ReThrowError(e);
}

void raise(snowfleet::ErrorKind kind, const char* message) {
  ereport(ERROR, (errcode(sqlstate(kind)),
                  errmsg_internal("%s: %s", snowfleet::error_code(kind), message)));
  pg_unreachable();
}

}  // namespace snowfleet_pg
