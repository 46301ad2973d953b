// The postgres:// node source's pure parts: the spec (snowfleet's options taken out of a
// libpq URI, refused by name and rule, passwords never shown), the lease table's replies,
// the fence a claim puts up on evidence of a rollback, and the local deadline. Claims
// against a real server are in tests/fleet/pg_lease_test.py.
#include <dlfcn.h>
#include <catch2/catch.hpp>

#include <cstdlib>
#include <string>

#include "lease/node_source.hpp"
#include "lease/postgres/libpq_loader.hpp"
#include "lease/postgres/pg_protocol.hpp"
#include "lease/postgres/pg_spec.hpp"
#include "snowfleet/snowfleet.hpp"
#include "test_util.hpp"

using namespace snowfleet;
using snowfleet::detail::pg::ClaimRow;
using snowfleet::detail::pg::Row;
using snowfleet_test::EnvSet;
using snowfleet_test::error_of;

namespace {

bool libpq_mapped() { return dlopen("libpq.so.5", RTLD_LAZY | RTLD_NOLOAD) != nullptr; }

// Read before main(), so no test that ran earlier in this process can have loaded it.
const bool libpq_mapped_at_start = libpq_mapped();

// The claims below get as far as libpq only where there is one (not under qemu for aarch64).
bool libpq_here() {
  static const bool here = dlopen("libpq.so.5", RTLD_LAZY | RTLD_LOCAL) != nullptr;
  return here;
}

// libpq's variables that a parse checks, unset: the parses below do not depend on the
// caller's environment.
struct NoLibpqEnvironment {
  EnvSet port{"PGPORT", nullptr}, mode{"PGSSLMODE", nullptr}, service{"PGSERVICE", nullptr};
};

detail::pg::PostgresConfig parse(const std::string& spec, const Layout& layout = Layout()) {
  const NoLibpqEnvironment none;
  return detail::pg::parse_postgres_spec(spec, layout);
}

// A parse in the environment as it is.
detail::pg::PostgresConfig parse_here(const std::string& spec) {
  return detail::pg::parse_postgres_spec(spec, Layout());
}

Error parse_error(const std::string& spec) {
  return error_of([&] { parse(spec); });
}

Row claim_reply() {
  return {"3", "1700000000000", "f", "2", "t", "1", "1", "1700000005000", "10000"};
}

}  // namespace

TEST_CASE("postgres: snowfleet's options leave the URI, libpq's stay as written",
          "[node-source][postgres]") {
  const auto c = parse(
      "postgres://ids@db1:5433/app?sslmode=verify-full&table=ids.slots&ttl=20"
      "&node=7&application_name=x");
  CHECK(c.conninfo == "postgres://ids@db1:5433/app?sslmode=verify-full&application_name=x");
  CHECK(c.table == "ids.slots");
  CHECK(c.ttl_s == 20);
  CHECK(c.node == 7);
  const auto d = parse("postgresql:///app");
  CHECK(d.conninfo == "postgresql:///app");
  CHECK(d.table == "snowfleet_slots");
  CHECK(d.ttl_s == 10);
  CHECK(d.node == -1);
  CHECK(parse("postgres://h/db?table=t").conninfo == "postgres://h/db");
}

TEST_CASE("postgres: a bad option is refused naming the value and the rule",
          "[node-source][postgres]") {
  Error e = parse_error("postgres://h/db?ttl=1");
  CHECK(e.kind() == ErrorKind::kInvalidArgument);
  CHECK_THAT(e.what(), Catch::Contains("ttl must be an integer number of seconds in [2, 3600], "
                                       "got '1'"));
  CHECK_THAT(parse_error("postgres://h/db?ttl=+5").what(), Catch::Contains("got '+5'"));
  CHECK_THAT(parse_error("postgres://h/db?node=1024").what(),
             Catch::Contains("node must be in [0, 1023]"));
  CHECK_THAT(parse_error("postgres://h/db?table=Slots").what(),
             Catch::Contains("table must be [schema.]name in lower-case"));
  CHECK_THAT(parse_error("postgres://h/db?table=a;drop").what(), Catch::Contains("'a;drop'"));
  CHECK_THAT(parse_error("postgres://h/db?table=1x").what(), Catch::Contains("'1x'"));
  CHECK_THAT(parse_error("postgres://h/db?table=a.b.c").what(), Catch::Contains("'a.b.c'"));
  CHECK_THAT(parse_error("postgres://h/db?table=").what(), Catch::Contains("got ''"));
  CHECK_THAT(parse_error("postgres://h/db?ttl=5&ttl=6").what(),
             Catch::Contains("option 'ttl' is given twice"));
  CHECK(detail::pg::valid_table_name(std::string(63, 'a')));
  CHECK_FALSE(detail::pg::valid_table_name(std::string(64, 'a')));
}

TEST_CASE("postgres: passwords never appear in a message", "[node-source][postgres]") {
  CHECK(detail::redact_node_source("postgres://ids:s3cret@db1/app?table=t") ==
        "postgres://ids:***@db1/app?table=t");
  CHECK(detail::redact_node_source("postgresql://db1/app?password=s3cret&ttl=5&sslpassword=x") ==
        "postgresql://db1/app?password=***&ttl=5&sslpassword=***");
  CHECK(detail::redact_node_source("postgres://ids@db1/app") == "postgres://ids@db1/app");
  CHECK(detail::redact_node_source("postgres://ids:s3?cret@db1/app?password=x") ==
        "postgres://ids:***@db1/app?password=***");
  // With no path, an '@' in the query reads as the end of a userinfo too: both readings
  // are masked.
  CHECK(detail::redact_node_source("postgres://db?user=me@corp&password=hunter2") ==
        "postgres://db?user=me@corp&password=***");
  CHECK(detail::redact_node_source("postgres://db?password=p@ss") == "postgres://db?password=***");
  CHECK(detail::redact_node_source("postgres://h:5432?password=p@ss") == "postgres://h:***");
  CHECK(detail::pg::mask_libpq_message("user \"db?password=p\" host \"ss\"",
                                       "postgres://db?password=p@ss") ==
        "user \"***\" host \"***\"");
  const Error e = parse_error("postgres://ids:s3cret@db1/app?ttl=0");
  CHECK_THAT(e.what(), !Catch::Contains("s3cret"));
  CHECK(parse("postgres://ids:s3cret@db1/app").conninfo == "postgres://ids:s3cret@db1/app");
}

TEST_CASE("libpq is not a dependency: nothing maps it before a postgres:// claim",
          "[node-source][postgres]") {
  CHECK_FALSE(libpq_mapped_at_start);
}

TEST_CASE("postgres: a URI libpq refuses is an invalid argument naming libpq's reason",
          "[node-source][postgres]") {
  const NoLibpqEnvironment none;  // claims read $PGPORT, $PGSSLMODE, $PGSERVICE
  if (!libpq_here()) return;
  const Error e = error_of([] {
    detail::claim_node("postgres://ids:s3cret@h/db?nosuchparameter=1", Layout(), system_clock());
  });
  CHECK(e.kind() == ErrorKind::kInvalidArgument);
  CHECK_THAT(e.what(), Catch::Contains("nosuchparameter"));
  CHECK_THAT(e.what(), !Catch::Contains("s3cret"));
}

TEST_CASE("postgres: a password in a URI libpq cannot read is not in the message",
          "[node-source][postgres]") {
  const NoLibpqEnvironment none;  // claims read $PGPORT, $PGSSLMODE, $PGSERVICE
  if (!libpq_here()) return;
  for (const char* spec :
       {"postgresql://u:secretpw@[::1/db", "postgres://u:secret%zzpw@h/db",
        "postgres://h/db?password=secret%zz", "postgres://u:secret%00pw@h/db?table=t"}) {
    INFO(spec);
    const Error e = error_of([&] { detail::claim_node(spec, Layout(), system_clock()); });
    CHECK(e.kind() == ErrorKind::kInvalidArgument);
    CHECK_THAT(e.what(), Catch::Contains("not a connection URI libpq accepts"));
    CHECK_THAT(e.what(), !Catch::Contains("secret"));
  }
  const Error e = error_of(
      [] { detail::claim_node("postgresql://u:secretpw@[::1/db", Layout(), system_clock()); });
  CHECK_THAT(e.what(), Catch::Contains("in URI: \"postgresql://u:***@[::1/db\""));
}

TEST_CASE("postgres: libpq's messages show a password only as ***", "[node-source][postgres]") {
  using detail::pg::mask_libpq_message;
  CHECK(mask_libpq_message("invalid percent-encoded token: \"secret%zzpw\"",
                           "postgres://u:secret%zzpw@h/db") ==
        "invalid percent-encoded token: \"***\"");
  CHECK(mask_libpq_message("bad \"s3cret pw\" and \"s3cret%20pw\"",
                           "postgres://u:s3cret%20pw@h/db") == "bad \"***\" and \"***\"");
  CHECK(mask_libpq_message("in URI: \"postgres://h/db?password=p%41ss&sslmode=x\" (pAss)",
                           "postgres://h/db?password=p%41ss&sslmode=x") ==
        "in URI: \"postgres://h/db?password=***&sslmode=x\" (***)");
  // The keyword=value form, as written and as libpq reads it.
  CHECK(mask_libpq_message("'it\\'s' it's", "host=h password = 'it\\'s' sslmode=x") == "*** ***");
  CHECK(mask_libpq_message("sec%zz", "host=h password=sec%zz") == "***");
  // Where libpq may split the userinfo at another '@', no quoted text is shown at all.
  CHECK(mask_libpq_message("could not translate host name \"b@h\" to address",
                           "postgres://u:a@b@h/db") ==
        "could not translate host name \"***\" to address");
  CHECK(mask_libpq_message("host \"h\" says no", "postgres://u:pw@h/db") == "host \"h\" says no");
  // A password of a few characters is masked where it stands alone, not inside words.
  CHECK(mask_libpq_message("is the server running on that host? token \"a\" (a)",
                           "postgres://u:a@h/db") ==
        "is the server running on that host? token \"***\" (***)");
  CHECK(mask_libpq_message("port 5432 failed: bad \"5\"", "postgres://h/db?password=5") ==
        "port 5432 failed: bad \"***\"");
  const EnvSet password("PGPASSWORD", "fromenv");
  CHECK(mask_libpq_message("token \"fromenv\"", "postgres://h/db") == "token \"***\"");
}

TEST_CASE("postgres: a bad port or sslmode is an invalid argument, not an unreachable server",
          "[node-source][postgres]") {
  const NoLibpqEnvironment none;  // claims read $PGPORT, $PGSSLMODE, $PGSERVICE
  for (const char* port : {"99999", "0", "abc", "-1", "5432x", "5432,x"}) {
    INFO(port);
    const Error e = parse_error(std::string("postgres://h/db?port=") + port);
    CHECK(e.kind() == ErrorKind::kInvalidArgument);
    CHECK_THAT(e.what(), Catch::Contains("port must be a decimal number in [1, 65535]"));
  }
  CHECK(parse("postgres://h1,h2/db?port=5432,5433").conninfo ==
        "postgres://h1,h2/db?port=5432,5433");
  CHECK(parse("postgres://h/db?port=65535").conninfo == "postgres://h/db?port=65535");
  // An empty port, or an empty item of the list, is libpq's default port.
  for (const char* port : {"", "5432,", ",5433"})
    CHECK(parse(std::string("postgres://h1,h2/db?port=") + port).conninfo ==
          std::string("postgres://h1,h2/db?port=") + port);
  for (const char* mode : {"bogus", "", "Require", "verify_full"}) {
    INFO(mode);
    const Error e = parse_error(std::string("postgres://h/db?sslmode=") + mode);
    CHECK(e.kind() == ErrorKind::kInvalidArgument);
    CHECK_THAT(e.what(), Catch::Contains("sslmode must be one of disable, allow, prefer, "
                                         "require, verify-ca, verify-full"));
  }
  for (const char* mode : {"disable", "allow", "prefer", "require", "verify-ca", "verify-full"})
    CHECK(parse(std::string("postgres://h/db?sslmode=") + mode).conninfo ==
          std::string("postgres://h/db?sslmode=") + mode);
  if (!libpq_here()) return;
  const Error e = error_of(
      [] { detail::claim_node("postgres://h/db?sslmode=bogus", Layout(), system_clock()); });
  CHECK(e.kind() == ErrorKind::kInvalidArgument);
}

TEST_CASE("postgres: a bad $PGPORT or $PGSSLMODE libpq would read is an invalid argument",
          "[node-source][postgres]") {
  const NoLibpqEnvironment none;
  const auto refusal = [](const std::string& spec) { return error_of([&] { parse_here(spec); }); };
  {
    const EnvSet port("PGPORT", "54x32");
    for (const char* spec : {"postgres://h/db", "postgres:///db", "postgres://h:/db"}) {
      INFO(spec);
      const Error e = refusal(spec);
      CHECK(e.kind() == ErrorKind::kInvalidArgument);
      CHECK_THAT(e.what(), Catch::Contains("with $PGPORT: port must be a decimal number in "
                                           "[1, 65535]"));
      CHECK_THAT(e.what(), Catch::Contains("got '54x32'"));
    }
    // Where the spec gives libpq a port list, $PGPORT is not read: a port in the host list
    // or as port= (even empty), several hosts (their list of default ports), a service.
    for (const char* spec :
         {"postgres://h:5433/db", "postgres://h/db?port=5433",
          "postgres://h/db?port=", "postgres://h1,h2/db", "postgres://h/db?service=ids"})
      CHECK(parse_here(spec).conninfo == spec);
  }
  // libpq reads each item as an integer with blanks around it and an optional '+'.
  for (const char* good : {"", "5432", "5432,5433", "5432,", " 5432\r", "+5432", "1, 2"}) {
    INFO(good);
    const EnvSet port("PGPORT", good);
    CHECK(parse_here("postgres://h/db").conninfo == "postgres://h/db");
  }
  for (const char* bad : {"0", "65536", "-1", "5432x", "5432,x", "++1"}) {
    INFO(bad);
    const EnvSet port("PGPORT", bad);
    CHECK(refusal("postgres://h/db").kind() == ErrorKind::kInvalidArgument);
  }
  for (const char* bad : {"requir", "", "Require"}) {
    INFO(bad);
    const EnvSet mode("PGSSLMODE", bad);
    const Error e = refusal("postgres://h/db");
    CHECK(e.kind() == ErrorKind::kInvalidArgument);
    CHECK_THAT(e.what(), Catch::Contains("with $PGSSLMODE: sslmode must be one of disable, "
                                         "allow, prefer, require, verify-ca, verify-full, got "
                                         "'" +
                                         std::string(bad) + "'"));
    // libpq takes the sslmode from sslmode=, ssl=true or requiressl, or a service's file.
    for (const char* spec : {"postgres://h/db?sslmode=require", "postgres://h/db?ssl=true",
                             "postgres://h/db?requiressl=1", "postgres://h/db?service=ids"})
      CHECK(parse_here(spec).conninfo == spec);
    const EnvSet service("PGSERVICE", "ids");
    CHECK(parse_here("postgres://h/db").conninfo == "postgres://h/db");
  }
  const EnvSet mode("PGSSLMODE", "verify-full");
  CHECK(parse_here("postgres://h/db").conninfo == "postgres://h/db");
}

TEST_CASE("postgres: the statements quote the table's name, so a reserved word is a name",
          "[node-source][postgres]") {
  using detail::pg::sql_name;
  CHECK(sql_name("user") == "\"user\"");
  CHECK(sql_name("select.order") == "\"select\".\"order\"");
  CHECK_THAT(detail::pg::claim_sql("user"), Catch::Contains("INSERT INTO \"user\" AS s"));
  CHECK(parse("postgres://h/db?table=user").table == "user");
}

TEST_CASE("postgres: a '?' or ',' in the password is the password's, as libpq reads the URI",
          "[node-source][postgres]") {
  // libpq ends the userinfo at the first '@' before the first '/': the query starts after it.
  const auto c = parse("postgres://u:pa?ss,w@h:5433/db?ttl=7&application_name=x");
  CHECK(c.conninfo == "postgres://u:pa?ss,w@h:5433/db?application_name=x");
  CHECK(c.ttl_s == 7);
  CHECK(parse("postgres://u:p?w@h?ttl=3").ttl_s == 3);
  CHECK(parse("postgres://h/db?ttl=4&options=a@b").ttl_s == 4);
}

TEST_CASE("postgres: a bad port in the host list is an invalid argument naming it",
          "[node-source][postgres]") {
  for (const char* uri : {"postgres://h:99999/db", "postgres://h:0", "postgres://h1:5432,h2:x/db",
                          "postgres://[::1]:70000/db", "postgres://u:pw@h:5432x?ttl=5"}) {
    INFO(uri);
    const Error e = parse_error(uri);
    CHECK(e.kind() == ErrorKind::kInvalidArgument);
    CHECK_THAT(e.what(), Catch::Contains("port must be a decimal number in [1, 65535]"));
  }
  CHECK_THAT(parse_error("postgres://h1,h2:99999/db").what(), Catch::Contains("got '99999'"));
  for (const char* uri :
       {"postgres://h:5432/db", "postgres://[::1]:5432,h2:,h3/db", "postgres://u:pw@[::1]/db",
        "postgres://u:p:w@h:1/db", "postgres:///db", "postgres://h:%35432/db"}) {
    INFO(uri);
    CHECK(parse(uri).conninfo == uri);
  }
}

TEST_CASE("postgres: a port libpq would read out of a password is not shown",
          "[node-source][postgres]") {
  // An unencoded '@' after a '/': libpq finds no userinfo and reads "u:secret" as host:port.
  const Error e = parse_error("postgres://u:secret/x@h/db?password=p2");
  CHECK(e.kind() == ErrorKind::kInvalidArgument);
  CHECK_THAT(e.what(), !Catch::Contains("secret") && !Catch::Contains("p2"));
}

TEST_CASE("postgres: a password with an unencoded '/' is masked in every reading",
          "[node-source][postgres]") {
  // libpq finds no userinfo before the first '/': the password's parts become a host, a
  // port or a query parameter in its messages; the spec's text masks them all.
  for (const char* uri :
       {"postgres://u:1?SE/CRET@h:1/db?ttl=x", "postgres://u:SE@CRET/x@h/db?ttl=x",
        "postgres://u:1?SECRET=x/y@h:1/db?ttl=x"}) {
    INFO(uri);
    const std::string text = detail::redact_node_source(uri);
    CHECK_THAT(text, !Catch::Contains("SE") && !Catch::Contains("CRET"));
  }
  // An '@' in a query's value is no userinfo's: the rest of the spec stays readable.
  CHECK(detail::redact_node_source("postgres://h:1/db?application_name=a@b") ==
        "postgres://h:1/db?application_name=a@b");
  CHECK_THAT(parse_error("postgres://h:99999/db?application_name=a@b").what(),
             Catch::Contains("got '99999'"));
}

TEST_CASE("postgres: percent-encoded query keys read as libpq reads them",
          "[node-source][postgres]") {
  CHECK(detail::redact_node_source("postgres://h/db?%70assword=SECRET&p%61ss=x") ==
        "postgres://h/db?%70assword=***&p%61ss=***");
  CHECK_THAT(parse_error("postgres://h/db?p%6Frt=0").what(), Catch::Contains("port must be"));
  CHECK(parse("postgres://h/db?t%74l=7").ttl_s == 7);
}

TEST_CASE("postgres: a bracketed IPv6 host list may hold a comma", "[node-source][postgres]") {
  CHECK(parse("postgres://[::1,::2]/db?port=1").conninfo == "postgres://[::1,::2]/db?port=1");
  CHECK(parse("postgres://[::1]:5432,[::2]:5433/db").conninfo ==
        "postgres://[::1]:5432,[::2]:5433/db");
}

TEST_CASE("postgres: without libpq, one error names what to install", "[node-source][postgres]") {
  const NoLibpqEnvironment none;  // claims read $PGPORT, $PGSSLMODE, $PGSERVICE
  const std::string real = detail::pg::set_libpq_library_for_test("libsnowfleet-no-pq.so.5");
  const Error e =
      error_of([] { detail::claim_node("postgres://127.0.0.1:1/db", Layout(), system_clock()); });
  detail::pg::set_libpq_library_for_test(real);
  CHECK(e.kind() == ErrorKind::kNodeIdUnavailable);
  CHECK_THAT(e.what(), Catch::Contains("libsnowfleet-no-pq.so.5"));
  CHECK_THAT(e.what(), Catch::Contains("apt-get install libpq5"));
}

TEST_CASE("postgres: a server that is not there is NODE_ID_UNAVAILABLE, not a hang",
          "[node-source][postgres]") {
  const NoLibpqEnvironment none;  // claims read $PGPORT, $PGSSLMODE, $PGSERVICE
  if (!libpq_here()) return;
  const Error e = error_of([] {
    detail::claim_node("postgres://127.0.0.1:1/db?connect_timeout=2", Layout(), system_clock());
  });
  CHECK(e.kind() == ErrorKind::kNodeIdUnavailable);
  CHECK_THAT(e.what(), Catch::Contains("cannot connect"));
}

TEST_CASE("postgres: the claim's reply is read strictly", "[node-source][postgres]") {
  ClaimRow r;
  std::string why;
  REQUIRE(detail::pg::parse_claim_row(claim_reply(), &r, &why));
  CHECK(r.epoch == 3);
  CHECK(r.mark_ms == 1700000000000);
  CHECK_FALSE(r.inserted);
  CHECK(r.prev_epoch == 2);
  CHECK(r.prev_intact == true);
  CHECK(r.longest_ttl_ms == 10000);
  Row fresh = {"1", "0", "t", std::nullopt, std::nullopt, std::nullopt, "1", "5", "0"};
  REQUIRE(detail::pg::parse_claim_row(fresh, &r, &why));
  CHECK(r.inserted);
  CHECK_FALSE(r.prev_epoch.has_value());
  for (size_t i = 0; i < 9; ++i) {
    for (const char* bad : {"x", "", " 1", "0x1", "99999999999999999999"}) {
      Row row = claim_reply();
      row[i] = std::string(bad);
      CHECK_FALSE(detail::pg::parse_claim_row(row, &r, &why));
    }
  }
  Row nulled = claim_reply();
  nulled[0] = std::nullopt;
  CHECK_FALSE(detail::pg::parse_claim_row(nulled, &r, &why));
  CHECK(why == "the claim's reply has no valid epoch");
  CHECK_FALSE(detail::pg::parse_claim_row({"1"}, &r, &why));
  int64_t mark = 0;
  CHECK(detail::pg::parse_renew_row({"42"}, &mark));
  CHECK(mark == 42);
  CHECK_FALSE(detail::pg::parse_renew_row({"-1"}, &mark));
  CHECK_FALSE(detail::pg::parse_renew_row({std::nullopt}, &mark));
  CHECK_FALSE(detail::pg::parse_renew_row({"1", "2"}, &mark));
}

TEST_CASE(
    "postgres: a claim starts above the mark, or fences past every deadline on evidence "
    "of a rollback",
    "[node-source][postgres]") {
  ClaimRow r;
  std::string why;
  REQUIRE(detail::pg::parse_claim_row(claim_reply(), &r, &why));
  const int64_t wall = 1700000006000;
  CHECK(detail::pg::rollback_evidence(r).empty());
  CHECK(detail::pg::claim_start_ms(r, wall, 5000) == r.mark_ms);
  const int64_t fenced = wall + 10000 + 2000;  // the longest TTL in the table: 10 s
  ClaimRow restored = r;
  restored.prev_intact = false;
  CHECK_THAT(detail::pg::rollback_evidence(restored), Catch::Contains("restored dump"));
  CHECK(detail::pg::claim_start_ms(restored, wall, 5000) == fenced);
  ClaimRow missing = r;
  missing.inserted = true;
  missing.prev_epoch.reset();
  CHECK(detail::pg::claim_start_ms(missing, wall, 5000) == fenced);
  ClaimRow other_timeline = r;
  other_timeline.timeline = 2;
  CHECK_THAT(detail::pg::rollback_evidence(other_timeline), Catch::Contains("timeline 1"));
  ClaimRow raced = r;
  raced.prev_epoch = 1;
  CHECK(detail::pg::claim_start_ms(raced, wall, 30000) == wall + 30000 + 2000);
  CHECK(detail::pg::claim_start_ms(restored, 1, 5000) == r.server_ms + 12000);
  // A ttl_ms set by hand past the longest TTL a member may take (3600 s) fences by that.
  ClaimRow edited = restored;
  edited.longest_ttl_ms = 2147483647;
  CHECK(detail::pg::claim_start_ms(edited, wall, 5000) == wall + 3600000 + 2000);
}

TEST_CASE("postgres: max_ttl states the table's TTL bound, at least the spec's ttl",
          "[node-source][postgres]") {
  CHECK(parse("postgres://h/db").max_ttl_s == 0);
  const auto c = parse("postgres://h/db?max_ttl=30&ttl=12&sslmode=require");
  CHECK(c.max_ttl_s == 30);
  CHECK(c.conninfo == "postgres://h/db?sslmode=require");  // not passed to libpq
  CHECK_THAT(parse_error("postgres://h/db?max_ttl=1").what(),
             Catch::Contains("max_ttl must be an integer number of seconds in [2, 3600], got '1'"));
  CHECK_THAT(parse_error("postgres://h/db?ttl=20&max_ttl=12").what(),
             Catch::Contains("ttl=20 is above max_ttl=12"));
  CHECK_THAT(parse_error("postgres://h/db?max_ttl=5").what(),  // the default ttl, 10
             Catch::Contains("ttl=10 is above max_ttl=5"));
  CHECK_THAT(parse_error("postgres://h/db?max_ttl=20&max_ttl=30").what(),
             Catch::Contains("option 'max_ttl' is given twice"));
}

TEST_CASE("postgres: a claim that finds a rolled-back row fences for the stated bound",
          "[node-source][postgres]") {
  // A table restored from a dump taken before a holder at TTL 12 claimed: the rows say 10 s
  // at most, and the holder, cut off, mints to its deadline. The caller passes the larger
  // of its ttl and its max_ttl; before, only its ttl (5 s): a fence 7 s short.
  ClaimRow r;
  std::string why;
  REQUIRE(detail::pg::parse_claim_row(claim_reply(), &r, &why));
  r.prev_intact = false;
  const int64_t wall = 1700000006000;
  CHECK(detail::pg::claim_start_ms(r, wall, 12000) == wall + 12000 + 2000);
  // A bound below a TTL the table shows (10 s) is refused, naming both; at or above, not.
  CHECK_THAT(detail::pg::bound_refusal(r, 6),
             Catch::Contains("leased with ttl_ms 10000, above this spec's max_ttl=6"));
  CHECK(detail::pg::bound_refusal(r, 10).empty());
  CHECK(detail::pg::bound_refusal(r, 0).empty());  // no bound stated
}

TEST_CASE("postgres: the local deadline is send time + TTL - margin", "[node-source][postgres]") {
  CHECK(detail::pg::deadline_after(1000, 10) == 1000 + 8'000'000'000);
  CHECK(detail::pg::deadline_after(0, 2) == 1'500'000'000);  // margin at least 0.5 s
  CHECK(detail::pg::deadline_after(INT64_MAX - 5, 10) == INT64_MAX);
  CHECK(detail::pg::request_timeout_ms(10) == 2000);
  CHECK(detail::pg::request_timeout_ms(3) == 1000);
}
