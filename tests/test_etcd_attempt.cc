// How a request to etcd shares its time among the endpoints it asks
// (core/src/lease/etcd/etcd_http.hpp), without a network.
#include <catch2/catch.hpp>

#include "lease/etcd/etcd_http.hpp"

using namespace snowfleet::detail::etcd;

TEST_CASE("one endpoint gets the whole request's time", "[etcd-http]") {
  CHECK(attempt_share(1, 3000, 0) == 3000);
  CHECK(attempt_share(1, 3000, 5000) == 3000);
}

TEST_CASE("several endpoints: a share of the time, longer when answers were slow", "[etcd-http]") {
  CHECK(attempt_share(3, 3000, 0) == 500);      // a sixth with three members
  CHECK(attempt_share(3, 600, 0) == 100);       // never under 100 ms
  CHECK(attempt_share(3, 3000, 400) == 800);    // twice what answers took lately
  CHECK(attempt_share(3, 3000, 2000) == 1000);  // never more than a single pass gave each
  CHECK(attempt_share(3, 150, 0) == 50);        // nor, on a short budget, the 100 ms floor
}

TEST_CASE("the member that answered last gets a pass's share, the last attempt takes the rest",
          "[etcd-http]") {
  CHECK(attempt_time(true, 500, 1000, 3000) == 1000);
  CHECK(attempt_time(false, 500, 1000, 3000) == 500);
  CHECK(attempt_time(false, 500, 1000, 900) == 900);  // no stub of 400 ms left after it
  CHECK(attempt_time(true, 500, 1000, 1400) == 1400);
  CHECK(attempt_time(false, 500, 1000, 400) == 400);
}
