// The local registry claim's decisions (core/src/lease/local_claim_pick.hpp), without a
// registry: what a "local" spec asks for, whether a slot's mark is usable, the refusal.
#include <catch2/catch.hpp>

#include "lease/local_claim_pick.hpp"

using snowfleet::Error;
using snowfleet::Layout;
using namespace snowfleet::detail;
using registry::MarkFile;

TEST_CASE("a local spec names its directory and pinned slot", "[local-claim]") {
  const Layout layout = Layout::parse("41.10.12@0");
  CHECK(parse_local_spec("local", layout, "q").dir.empty());
  CHECK(parse_local_spec("local", layout, "q").pinned == -1);
  CHECK(parse_local_spec("local:/r/x", layout, "q").dir == "/r/x");
  const LocalSpec pinned = parse_local_spec("local:/r?node=1023", layout, "q");
  CHECK(pinned.dir == "/r");
  CHECK(pinned.pinned == 1023);
  CHECK(parse_local_spec("local?node=0", layout, "q").dir.empty());
  CHECK_THROWS_WITH(
      parse_local_spec("local:/r?node=1024", layout, "q"),
      "q: node must be in [0, 1023] for layout " + layout.to_string() + ", got '1024'");
  CHECK_THROWS_WITH(parse_local_spec("local:/r?x=1", layout, "q"),
                    "q: unknown option 'x' (known: node, share)");
  CHECK_THROWS_AS(parse_local_spec("local?node=-1", layout, "q"), Error);
}

TEST_CASE("a local slot's mark is usable unless unreadable or past the window", "[local-claim]") {
  const Layout layout = Layout::parse("41.10.12@0");
  CHECK(local_mark_problem(MarkFile::kAbsent, -1, "", "/r/slot-0001", layout).empty());
  CHECK(local_mark_problem(MarkFile::kValue, 5, "", "/r/slot-0001", layout).empty());
  CHECK(local_mark_problem(MarkFile::kUnusable, -1, "garbage", "/r/s", layout) == "garbage");
  const std::string past =
      local_mark_problem(MarkFile::kValue, layout.max_timestamp_ms() + 1, "", "/r/s", layout);
  CHECK(past.rfind("/r/s.mark: mark ", 0) == 0);
  CHECK(past.find("can never issue ids") != std::string::npos);
}

TEST_CASE("a local claim that found no slot says what it counted", "[local-claim]") {
  LocalTally t;
  t.held = 3;
  t.used_here = 1;
  CHECK(local_refusal("q", "/r", -1, 4, t) ==
        "q: no free node id in registry directory /r (3 of 4 slots probed are held by live "
        "processes, 1 used by open generators of this process)");
  t.note("why");
  t.note("later");
  CHECK(t.problem == "why");
  CHECK(local_refusal("q", "/r", 2, 1, t) ==
        "q: slot 2 of registry directory /r is held by a live process (why)");
  CHECK(local_refusal("q", "/r", 2, 1, LocalTally{}) ==
        "q: slot 2 of registry directory /r cannot be used");
}
