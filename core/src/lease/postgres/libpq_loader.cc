// libpq loaded at run time (libpq_loader.hpp).
#include "libpq_loader.hpp"

#include <dlfcn.h>

#include <atomic>
#include <mutex>
#include <string>
#include <vector>

#include "base/quote.hpp"
#include "snowfleet/errors.hpp"

namespace snowfleet {
namespace detail {
namespace pg {
namespace {

std::mutex g_mu;
std::string g_library = "libpq.so.5";  // the SONAME of every libpq since PostgreSQL 8.2
std::atomic<const Libpq*> g_api{nullptr};

const char kInstall[] =
    "install libpq (Debian/Ubuntu: apt-get install libpq5; Alpine: apk add libpq; "
    "Fedora/RHEL: dnf install libpq)";

template <class F>
void resolve(void* lib, const char* name, F& out, const std::string& spec) {
  void* sym = dlsym(lib, name);
  if (!sym)
    throw Error(ErrorKind::kNodeIdUnavailable, "node source " + quote(spec) + ": " + g_library +
                                                   " has no " + name + "; " + kInstall);
  out = reinterpret_cast<F>(sym);
}

void resolve_all(void* lib, Libpq& a, const std::string& spec) {
  resolve(lib, "PQconnectStart", a.connect_start, spec);
  resolve(lib, "PQconnectPoll", a.connect_poll, spec);
  resolve(lib, "PQstatus", a.status, spec);
  resolve(lib, "PQerrorMessage", a.error_message, spec);
  resolve(lib, "PQsocket", a.socket, spec);
  resolve(lib, "PQfinish", a.finish, spec);
  resolve(lib, "PQsetnonblocking", a.set_nonblocking, spec);
  resolve(lib, "PQflush", a.flush, spec);
  resolve(lib, "PQsendQuery", a.send_query, spec);
  resolve(lib, "PQsendQueryParams", a.send_query_params, spec);
  resolve(lib, "PQconsumeInput", a.consume_input, spec);
  resolve(lib, "PQisBusy", a.is_busy, spec);
  resolve(lib, "PQgetResult", a.get_result, spec);
  resolve(lib, "PQresultStatus", a.result_status, spec);
  resolve(lib, "PQresultErrorMessage", a.result_error_message, spec);
  resolve(lib, "PQresultErrorField", a.result_error_field, spec);
  resolve(lib, "PQntuples", a.ntuples, spec);
  resolve(lib, "PQnfields", a.nfields, spec);
  resolve(lib, "PQgetvalue", a.get_value, spec);
  resolve(lib, "PQgetisnull", a.get_is_null, spec);
  resolve(lib, "PQclear", a.clear, spec);
  resolve(lib, "PQconninfoParse", a.conninfo_parse, spec);
  resolve(lib, "PQconninfoFree", a.conninfo_free, spec);
  resolve(lib, "PQfreemem", a.freemem, spec);
  resolve(lib, "PQsetNoticeProcessor", a.set_notice_processor, spec);
}

}  // namespace

const Libpq& load_libpq(const std::string& spec) {
  if (const Libpq* a = g_api.load(std::memory_order_acquire)) return *a;
  std::lock_guard<std::mutex> lock(g_mu);
  if (const Libpq* a = g_api.load(std::memory_order_relaxed)) return *a;
  void* lib = dlopen(g_library.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    const char* why = dlerror();
    throw Error(ErrorKind::kNodeIdUnavailable,
                "node source " + quote(spec) + ": postgres:// loads " + g_library +
                    " at run time and it is not there (" + (why ? why : "dlopen failed") + "); " +
                    kInstall);
  }
  Libpq api{};
  try {
    resolve_all(lib, api, spec);
  } catch (...) {
    dlclose(lib);
    throw;
  }
  // Never freed: connections of any thread call through it until the process exits.
  const Libpq* loaded = new Libpq(api);
  g_api.store(loaded, std::memory_order_release);
  return *loaded;
}

std::string set_libpq_library_for_test(std::string name) {
  std::lock_guard<std::mutex> lock(g_mu);
  // Connections may still call through the table: kept, and reachable (no leak report).
  static auto* retired = new std::vector<const Libpq*>;  // never destroyed, as the tables
  if (const Libpq* api = g_api.exchange(nullptr, std::memory_order_acq_rel))
    retired->push_back(api);
  std::swap(g_library, name);
  return name;
}

}  // namespace pg
}  // namespace detail
}  // namespace snowfleet
