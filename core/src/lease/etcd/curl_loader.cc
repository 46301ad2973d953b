// libcurl loaded at run time (curl_loader.hpp). Only built with etcd support.
#include "curl_loader.hpp"

#include <dlfcn.h>

#include <atomic>
#include <cstdarg>
#include <cstdlib>
#include <mutex>
#include <string>
#include <vector>

#include "base/quote.hpp"
#include "snowfleet/errors.hpp"

// The libcurl functions defined below are hidden: calls from etcd_http.cc bind to them when
// the core is linked, and a libcurl the host process loads itself keeps its own symbols.
#pragma GCC visibility push(hidden)
#include <curl/curl.h>
#pragma GCC visibility pop

namespace snowfleet {
namespace detail {
namespace etcd {
namespace {

// The libcurl functions etcd_http.cc calls. setopt and getinfo are variadic in C; each is
// resolved with the one argument type the forwarders below pass.
struct Api {
  CURLcode (*global_init)(long);
  CURL* (*easy_init)();
  void (*easy_cleanup)(CURL*);
  void (*easy_reset)(CURL*);
  CURLcode (*easy_perform)(CURL*);
  const char* (*easy_strerror)(CURLcode);
  curl_slist* (*slist_append)(curl_slist*, const char*);
  void (*slist_free_all)(curl_slist*);
  CURLcode (*setopt_long)(CURL*, CURLoption, long);
  CURLcode (*setopt_pointer)(CURL*, CURLoption, void*);
  CURLcode (*setopt_off_t)(CURL*, CURLoption, curl_off_t);
  CURLcode (*getinfo)(CURL*, CURLINFO, void*);
  curl_version_info_data* (*version_info)(CURLversion);
};

std::mutex g_mu;
std::string g_library = "libcurl.so.4";  // the SONAME of libcurl 7.x and 8.x
std::atomic<const Api*> g_api{nullptr};

const char kInstall[] =
    "install libcurl (Debian/Ubuntu: apt-get install libcurl4; Alpine: apk add libcurl; "
    "Fedora/RHEL: dnf install libcurl)";

template <class F>
void resolve(void* lib, const char* name, F& out, const std::string& spec) {
  void* sym = dlsym(lib, name);
  if (!sym)
    throw Error(ErrorKind::kNodeIdUnavailable,
                "node source " + quote(spec) + ": " + g_library + " has no " + name +
                    " (etcd:// needs libcurl 7.32 or later); " + kInstall);
  out = reinterpret_cast<F>(sym);
}

// CURLOPT_XFERINFOFUNCTION, the progress callback etcd_http.cc cancels requests in flight
// with (close(), deadlines), came with 7.32.0. An older libcurl (RHEL/CentOS 7 ship 7.29) has
// every function resolved here but answers that option with CURLE_UNKNOWN_OPTION, and then
// writes its own progress meter to stderr for every request: refused by version instead.
constexpr unsigned kMinVersionNum = 0x072000;

void check_version(const Api& api, const std::string& spec) {
  const curl_version_info_data* info = api.version_info(CURLVERSION_FIRST);
  if (info && info->version_num >= kMinVersionNum) return;
  const std::string found = info && info->version ? info->version : "of unknown version";
  throw Error(ErrorKind::kNodeIdUnavailable,
              "node source " + quote(spec) + ": " + g_library + " is libcurl " + found +
                  " and etcd:// needs libcurl 7.32 or later (older ones cannot cancel a "
                  "request and write a progress meter to stderr); install libcurl 7.32 or "
                  "later (RHEL/CentOS 7 ship 7.29, RHEL 8 ships 7.61), or put its "
                  "libcurl.so.4 on LD_LIBRARY_PATH");
}

// load_curl ran in the constructor of every Http handle before any of these calls.
const Api& api() {
  const Api* a = g_api.load(std::memory_order_acquire);
  if (!a) std::abort();
  return *a;
}

}  // namespace

void load_curl(const std::string& spec) {
  if (g_api.load(std::memory_order_acquire)) return;
  std::lock_guard<std::mutex> lock(g_mu);
  if (g_api.load(std::memory_order_relaxed)) return;
  void* lib = dlopen(g_library.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    const char* why = dlerror();
    throw Error(ErrorKind::kNodeIdUnavailable,
                "node source " + quote(spec) + ": etcd:// loads " + g_library +
                    " at run time and it is not there (" + (why ? why : "dlopen failed") +
                    "); " + kInstall);
  }
  Api api{};
  try {
    resolve(lib, "curl_version_info", api.version_info, spec);
    check_version(api, spec);
    resolve(lib, "curl_global_init", api.global_init, spec);
    resolve(lib, "curl_easy_init", api.easy_init, spec);
    resolve(lib, "curl_easy_cleanup", api.easy_cleanup, spec);
    resolve(lib, "curl_easy_reset", api.easy_reset, spec);
    resolve(lib, "curl_easy_perform", api.easy_perform, spec);
    resolve(lib, "curl_easy_strerror", api.easy_strerror, spec);
    resolve(lib, "curl_slist_append", api.slist_append, spec);
    resolve(lib, "curl_slist_free_all", api.slist_free_all, spec);
    resolve(lib, "curl_easy_setopt", api.setopt_long, spec);
    resolve(lib, "curl_easy_setopt", api.setopt_pointer, spec);
    resolve(lib, "curl_easy_setopt", api.setopt_off_t, spec);
    resolve(lib, "curl_easy_getinfo", api.getinfo, spec);
  } catch (...) {
    dlclose(lib);
    throw;
  }
  // Never freed: Http handles of any thread call through it until the process exits.
  g_api.store(new Api(api), std::memory_order_release);
}

std::string set_curl_library_for_test(std::string name) {
  std::lock_guard<std::mutex> lock(g_mu);
  // Handles may still call through the table: kept, and reachable (no leak report).
  static auto* retired = new std::vector<const Api*>;  // never destroyed, as the tables
  if (const Api* api = g_api.exchange(nullptr, std::memory_order_acq_rel)) retired->push_back(api);
  std::swap(g_library, name);
  return name;
}

}  // namespace etcd
}  // namespace detail
}  // namespace snowfleet

// The libcurl entry points etcd_http.cc calls, forwarded through the table.
using snowfleet::detail::etcd::api;

extern "C" {

CURLcode curl_global_init(long flags) { return api().global_init(flags); }
CURL* curl_easy_init() { return api().easy_init(); }
void curl_easy_cleanup(CURL* h) { api().easy_cleanup(h); }
void curl_easy_reset(CURL* h) { api().easy_reset(h); }
CURLcode curl_easy_perform(CURL* h) { return api().easy_perform(h); }
const char* curl_easy_strerror(CURLcode rc) { return api().easy_strerror(rc); }
curl_slist* curl_slist_append(curl_slist* l, const char* s) { return api().slist_append(l, s); }
void curl_slist_free_all(curl_slist* l) { api().slist_free_all(l); }

// libcurl reads the argument by the option's type range, as its own curl_easy_setopt does:
// long, then object and function pointers, then curl_off_t, then blob pointers.
CURLcode curl_easy_setopt(CURL* h, CURLoption option, ...) {
  va_list ap;
  // curl.h fixes this signature (an enum before the ...); its underlying type is int, which
  // default promotion leaves as it is, so va_start is well defined here (clang warns on
  // any enum: -Wvarargs).
#if defined(__clang__)
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wvarargs"
#endif
  va_start(ap, option);
#if defined(__clang__)
#pragma clang diagnostic pop
#endif
  CURLcode rc;
  if (option < CURLOPTTYPE_OBJECTPOINT)
    rc = api().setopt_long(h, option, va_arg(ap, long));
  else if (option < CURLOPTTYPE_OFF_T)
    rc = api().setopt_pointer(h, option, va_arg(ap, void*));
  else if (option < CURLOPTTYPE_BLOB)
    rc = api().setopt_off_t(h, option, va_arg(ap, curl_off_t));
  else
    rc = api().setopt_pointer(h, option, va_arg(ap, void*));
  va_end(ap);
  return rc;
}

// Every CURLINFO takes a pointer to where the value goes.
CURLcode curl_easy_getinfo(CURL* h, CURLINFO info, ...) {
  va_list ap;
#if defined(__clang__)
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wvarargs"
#endif
  va_start(ap, info);  // as in curl_easy_setopt
#if defined(__clang__)
#pragma clang diagnostic pop
#endif
  void* out = va_arg(ap, void*);
  va_end(ap);
  return api().getinfo(h, info, out);
}

}  // extern "C"
