// libcurl, loaded at run time: the etcd node source is the only user of libcurl, so the
// core does not link it. The first etcd:// claim dlopen()s libcurl.so.4 and resolves the
// few functions etcd_http.cc calls; curl_loader.cc defines those functions (hidden, so they
// never interpose on a libcurl the host process links itself) as calls through that table.
// Every artifact then needs only libc, and users who never touch etcd never map libcurl's
// dependency tree. Internal.
#pragma once

#include <string>

namespace snowfleet {
namespace detail {
namespace etcd {

/// Loads libcurl (once per process; a load that failed is tried again at the next claim).
/// Throws Error kNodeIdUnavailable naming `spec` (the node source's text), the library and
/// the packages that install it when the library or one of its functions is missing, or
/// when the library is older than 7.32 (it names the version found).
void load_curl(const std::string& spec);

/// Tests only: the library load_curl opens from now on (default "libcurl.so.4"). Forgets
/// a library already loaded, without closing it (handles made with it may still be in
/// use). Returns the previous name.
std::string set_curl_library_for_test(std::string name);

}  // namespace etcd
}  // namespace detail
}  // namespace snowfleet
