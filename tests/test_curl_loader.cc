// libcurl is loaded at run time, on the first etcd:// claim (core/src/lease/etcd/curl_loader.hpp):
// nothing maps it before, and a machine without it gets one error naming what to install.
#include <catch2/catch.hpp>
#include <dlfcn.h>

#include <string>

#include "lease/etcd/curl_loader.hpp"
#include "lease/node_source.hpp"
#include "snowfleet/snowfleet.hpp"
#include "test_util.hpp"

using namespace snowfleet;
using snowfleet_test::error_of;

namespace {

bool curl_mapped() { return dlopen("libcurl.so.4", RTLD_LAZY | RTLD_NOLOAD) != nullptr; }

// Read before main(), so no test that ran earlier in this process can have loaded it.
const bool curl_mapped_at_start = curl_mapped();

// Nothing listens on port 1 of loopback: a claim that gets as far as HTTP is refused
// quickly, after libcurl was loaded.
const std::string kSpec = "etcd://127.0.0.1:1/x";

Error claim_error() {
  return error_of([] { detail::claim_node(kSpec, Layout(), system_clock()); });
}

}  // namespace

TEST_CASE("libcurl is not a dependency: nothing maps it before an etcd:// claim",
          "[node-source][curl]") {
  CHECK_FALSE(curl_mapped_at_start);
}

TEST_CASE("etcd:// without libcurl names what to install, then works once it is there",
          "[node-source][curl]") {
  const std::string real = detail::etcd::set_curl_library_for_test("libsnowfleet-no-curl.so.4");
  const Error missing = claim_error();
  detail::etcd::set_curl_library_for_test(real);
  CHECK(missing.kind() == ErrorKind::kNodeIdUnavailable);
  const std::string what = missing.what();
  INFO(what);
  CHECK(what.find("node source '" + kSpec + "'") != std::string::npos);
  CHECK(what.find("libsnowfleet-no-curl.so.4") != std::string::npos);
  CHECK(what.find("apt-get install libcurl4") != std::string::npos);
  CHECK(what.find("apk add libcurl") != std::string::npos);

  // The failed load left nothing behind: the next claim loads libcurl and reaches HTTP.
  const Error unreachable = claim_error();
  CHECK(unreachable.kind() == ErrorKind::kNodeIdUnavailable);
  CHECK(std::string(unreachable.what()).find("unreachable") != std::string::npos);
  CHECK(curl_mapped());
}

#ifdef SNOWFLEET_CURL_7_29_SHIM
TEST_CASE("etcd:// refuses a libcurl older than 7.32, naming the version found",
          "[node-source][curl]") {
  // Before 7.32 libcurl has every function the loader resolves but not the progress callback
  // close() cancels requests with: it drew its own progress meter on stderr instead.
  const std::string real = detail::etcd::set_curl_library_for_test(SNOWFLEET_CURL_7_29_SHIM);
  const Error old = claim_error();
  detail::etcd::set_curl_library_for_test(real);
  CHECK(old.kind() == ErrorKind::kNodeIdUnavailable);
  const std::string what = old.what();
  INFO(what);
  CHECK(what.find("node source '" + kSpec + "'") != std::string::npos);
  CHECK(what.find("libcurl 7.29.0") != std::string::npos);
  CHECK(what.find("7.32 or later") != std::string::npos);
  CHECK(what.find("unreachable") == std::string::npos);

  // Refused before anything was kept: the machine's libcurl loads at the next claim.
  const Error unreachable = claim_error();
  CHECK(std::string(unreachable.what()).find("unreachable") != std::string::npos);
}
#endif
