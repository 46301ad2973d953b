// Node-source specs and etcd replies as text (what tests/fuzz/node_source.cc and
// tests/fuzz/etcd_reply.cc explore): the regressions the fuzzers found, and the reply
// readers' contract on well-formed and malformed replies.
#include <catch2/catch.hpp>

#include <stdlib.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "lease/node_source.hpp"
#include "snowfleet/snowfleet.hpp"
#include "test_util.hpp"

#if SNOWFLEET_HAVE_ETCD
#include <nlohmann/json.hpp>

#include "lease/etcd/etcd_reply.hpp"
#endif

using namespace snowfleet;
using snowfleet_test::EnvSet;
using snowfleet_test::error_of;

namespace {

Error claim_error(const std::string& spec, const Layout& layout = Layout()) {
  return error_of([&] { detail::claim_node(spec, layout, system_clock()); });
}

}  // namespace

TEST_CASE("k8s: an ordinal plus an offset past int64 is refused with the true sum",
          "[node-source]") {
  // ordinal + offset overflowed int64 (undefined behaviour; the message named a negative
  // id). Found by tests/fuzz/node_source.cc.
  const EnvSet host("HOSTNAME", "ids-7");
  const Error e = claim_error("k8s:9223372036854775807");
  CHECK(e.kind() == ErrorKind::kNodeIdUnavailable);
  CHECK(std::string(e.what()).find("9223372036854775814") != std::string::npos);
  CHECK(claim_error("k8s:1017").kind() == ErrorKind::kNodeIdUnavailable);  // 1024
  CHECK(detail::claim_node("k8s:1016", Layout(), nullptr).node_id == 1023);
}

TEST_CASE("a node source with a NUL byte is refused before anything reads it", "[node-source]") {
  // The C calls behind env, local and etcd read a spec only up to a NUL byte: "env:VAR\0X"
  // read $VAR (found by tests/fuzz/node_source.cc), and "local:DIR\0X" probed slot paths
  // that all named DIR itself, then refused with NODE_ID_UNAVAILABLE and a message cut at
  // the NUL.
  setenv("SNOWFLEET_TEST_NUL", "12", 1);
  const std::string nul("\0", 1);
  Error e = claim_error("env:SNOWFLEET_TEST_NUL" + nul + "X");
  CHECK(e.kind() == ErrorKind::kInvalidArgument);
  CHECK(std::string(e.what()).find("NUL byte at byte 22") != std::string::npos);
  unsetenv("SNOWFLEET_TEST_NUL");

  char tmpl[] = "/tmp/snowfleet-nul-XXXXXX";
  REQUIRE(mkdtemp(tmpl) != nullptr);
  const std::string dir = tmpl;
  CHECK(claim_error("local:" + dir + nul + "/elsewhere").kind() == ErrorKind::kInvalidArgument);
  CHECK(std::filesystem::is_empty(dir));  // no slot file was created
  std::filesystem::remove_all(dir);

  CHECK(claim_error("etcd://127.0.0.1:1/x" + nul + "y").kind() == ErrorKind::kInvalidArgument);
  CHECK(claim_error("static:7" + nul).kind() == ErrorKind::kInvalidArgument);
}

TEST_CASE("env: a long variable name is quoted short", "[node-source]") {
  // The messages quoted the whole name (found by tests/fuzz/node_source.cc).
  const std::string name(5000, 'V');
  Error e = claim_error("env:" + name);  // not set
  CHECK(e.kind() == ErrorKind::kNodeIdUnavailable);
  CHECK(std::string(e.what()).size() < 600);
  setenv(name.c_str(), "twelve", 1);
  e = claim_error("env:" + name);  // not a number
  CHECK(e.kind() == ErrorKind::kNodeIdUnavailable);
  CHECK(std::string(e.what()).size() < 600);
  CHECK(std::string(e.what()).find("'twelve'") != std::string::npos);
  unsetenv(name.c_str());
}

TEST_CASE("etcd specs parse without etcd support or a network", "[node-source]") {
  const detail::EtcdConfig c = detail::parse_etcd_spec(
      "etcd://a:1,b:2379/fleet/ids//?ttl=5&node=3&cacert=/ca.pem", Layout());
  CHECK(c.endpoints == std::vector<std::string>{"a:1", "b:2379"});
  CHECK(c.prefix == "fleet/ids");
  CHECK(c.ttl_s == 5);
  CHECK(c.node == 3);
  CHECK(c.tls);
  CHECK(c.cacert == "/ca.pem");
  CHECK(c.text == "etcd://a:1,b:2379/fleet/ids//");
  CHECK(detail::parse_etcd_spec("etcd://h:1", Layout()).prefix == "snowfleet");
  for (const char* bad :
       {"etcd://host/x", "etcd://h:99999/x", "etcd://h:0x10/x", "etcd://:1/x", "etcd://h:1,/x",
        "etcd://h:1/x?ttl=1", "etcd://h:1/x?ttl=-5", "etcd://h:1/x?color=red",
        "etcd://h:1/x?node=1024", "etcd://h:1/x?tls=2", "etcd://h:1/x?cert="}) {
    INFO(bad);
    CHECK(error_of([&] { detail::parse_etcd_spec(bad, Layout()); }).kind() ==
          ErrorKind::kInvalidArgument);
  }
  // The ttl, node and tls messages quoted the whole value (found by tests/fuzz/node_source.cc).
  const std::string long_value(5000, '9');
  for (const char* option : {"ttl", "node", "tls"}) {
    INFO(option);
    const Error e = error_of([&] {
      detail::parse_etcd_spec(std::string("etcd://h:1/x?") + option + "=" + long_value, Layout());
    });
    CHECK(e.kind() == ErrorKind::kInvalidArgument);
    CHECK(std::string(e.what()).size() < 600);
  }
}

TEST_CASE("etcd specs: max_ttl states the prefix's TTL bound, at least the spec's ttl",
          "[node-source]") {
  const Layout l;
  CHECK(detail::parse_etcd_spec("etcd://h:1/p", l).max_ttl_s == 0);  // not stated
  const detail::EtcdConfig c = detail::parse_etcd_spec("etcd://h:1/p?max_ttl=30&ttl=12", l);
  CHECK(c.max_ttl_s == 30);
  CHECK(c.ttl_s == 12);
  CHECK(detail::parse_etcd_spec("etcd://h:1/p?max_ttl=10", l).max_ttl_s == 10);  // ttl 10
  for (const auto& [spec, says] : std::vector<std::pair<std::string, std::string>>{
           {"etcd://h:1/p?max_ttl=1", "max_ttl must be an integer number of seconds in [2, 3600]"},
           {"etcd://h:1/p?max_ttl=3601", "got '3601'"},
           {"etcd://h:1/p?max_ttl=", "got ''"},
           {"etcd://h:1/p?ttl=20&max_ttl=12", "ttl=20 is above max_ttl=12"},
           {"etcd://h:1/p?max_ttl=5", "ttl=10 is above max_ttl=5"},  // the default ttl
           {"etcd://h:1/p?max_ttl=5&max_ttl=30", "option 'max_ttl' is given twice"}}) {
    INFO(spec);
    const Error e = error_of([&] { detail::parse_etcd_spec(spec, l); });
    CHECK(e.kind() == ErrorKind::kInvalidArgument);
    CHECK_THAT(e.what(), Catch::Contains(says));
  }
}

TEST_CASE("etcd specs: user and password options, a password is never shown", "[node-source]") {
  const Layout l;
  detail::EtcdConfig c =
      detail::parse_etcd_spec("etcd://h:1/p?user=ids&password_file=/run/secrets/etcd", l);
  CHECK(c.user == "ids");
  CHECK(c.password_file == "/run/secrets/etcd");
  CHECK(c.password.empty());
  CHECK_FALSE(c.tls);  // authentication does not imply TLS
  c = detail::parse_etcd_spec("etcd://h:1/p?user=ids&password_env=ETCD_PW", l);
  CHECK(c.password_env == "ETCD_PW");
  c = detail::parse_etcd_spec("etcd://h:1/p?user=ids&password=hunter2&ttl=5", l);
  CHECK(c.password == "hunter2");
  CHECK(c.text.find("hunter2") == std::string::npos);
  for (const char* bad : {"etcd://h:1/p?user=ids",               // no password
                          "etcd://h:1/p?password_file=/x",       // no user
                          "etcd://h:1/p?user=&password=x",       // empty user
                          "etcd://h:1/p?user=u&password_file=",  // empty path
                          "etcd://h:1/p?user=u&password_env=",   // empty variable name
                          "etcd://h:1/p?user=u&password=",       // empty password
                          "etcd://h:1/p?user=u&password=a&password_env=B"}) {  // two sources
    INFO(bad);
    CHECK(error_of([&] { detail::parse_etcd_spec(bad, l); }).kind() == ErrorKind::kInvalidArgument);
  }
  // An inline password is redacted from every message that quotes the spec: the parser's,
  // claim_node's and the option rulebook's.
  const std::string secret = "s3cr3t-Pw";
  for (const std::string& spec :
       {"etcd://h:1/p?user=u&password=" + secret + "&ttl=1",
        "etcd://h:1/p?password=" + secret + "&color=red",
        "etcd://h:1/p?user=u&password=" + secret + "&password_env=X",
        "etcd://u:" + secret + "@h:1/p", "etcd://h:1,u:" + secret + "@h2:1/p?ttl=5",
        "etcd://h:1/p?user=u&password=" + secret + std::string("\0", 1)}) {
    INFO(spec);
    const Error e = claim_error(spec);
    CHECK(e.kind() == ErrorKind::kInvalidArgument);
    CHECK(std::string(e.what()).find(secret) == std::string::npos);
    CHECK(std::string(e.what()).find("***") != std::string::npos);
  }
  // An inline password holding '&' (which the query cannot carry): its tail reads as an
  // unknown option, and that option is part of the password: neither the redacted spec nor
  // the refusal may show it.
  for (const std::string& tail : {std::string("tail=s3cr3t-Pw"), std::string("s3cr3t-Pw")}) {
    const std::string spec = "etcd://h:1/p?user=u&password=x&" + tail + "&ttl=5";
    INFO(spec);
    const Error e = claim_error(spec);
    CHECK(e.kind() == ErrorKind::kInvalidArgument);
    CHECK(std::string(e.what()).find(secret) == std::string::npos);
    CHECK(std::string(e.what()).find("password_file") != std::string::npos);
    CHECK(detail::redact_node_source(spec).find(secret) == std::string::npos);
  }
  GeneratorArgs args;
  args.node_id = 1;
  args.node_source = "etcd://h:1/p?user=u&password=" + secret;
  const Error both = error_of([&] { resolve_options(args); });
  CHECK(both.kind() == ErrorKind::kInvalidArgument);
  CHECK(std::string(both.what()).find(secret) == std::string::npos);
  CHECK(detail::redact_node_source("etcd://h:1/p?password=x&user=u&password=yy") ==
        "etcd://h:1/p?password=***&user=u&password=***");
  CHECK(detail::redact_node_source("local:/a?password=x") == "local:/a?password=x");
}

TEST_CASE("a spec of no known scheme shows no userinfo password", "[node-source]") {
  for (const char* spec :
       {"postgres:u:s3cr3t@h/db", "POSTGRES://u:s3cr3t@h/db", "etcd:/u:s3cr3t@h/p"}) {
    INFO(spec);
    const Error e = claim_error(spec);
    CHECK(e.kind() == ErrorKind::kInvalidArgument);
    CHECK_THAT(e.what(), !Catch::Contains("s3cr3t") && Catch::Contains("is not one of"));
  }
  CHECK(detail::redact_node_source("local:/var/a@b") == "local:/var/a@b");
}

TEST_CASE("etcd specs: a misspelled option's value is shown nowhere", "[node-source]") {
  // A misspelled password option (`Password=`, `passwd=`) is an unknown option, and every
  // message that quoted the spec showed its value: the parser's (whichever option it
  // refused), claim_node's, the option rulebook's and the generator's.
  const std::string secret = "s3cr3t-Pw";
  const std::string nul("\0", 1);
  for (const std::string& spec :
       {"etcd://h:1/p?user=u&Password=" + secret, "etcd://h:1/p?passwd=" + secret + "&ttl=5",
        "etcd://h:1/p?ttl=1&passwd=" + secret, "etcd://h:1/p?ttl=5&password:" + secret,
        "etcd://h:1/p?" + secret, "etcd://h:1/p?passwd=" + secret + nul}) {
    INFO(spec);
    const auto hidden = [&](const Error& e) {
      INFO(e.what());
      CHECK(e.kind() == ErrorKind::kInvalidArgument);
      CHECK(std::string(e.what()).find(secret) == std::string::npos);
      CHECK(std::string(e.what()).find("***") != std::string::npos);
    };
    hidden(claim_error(spec));
    CHECK(detail::redact_node_source(spec).find(secret) == std::string::npos);
    GeneratorArgs args;
    args.node_id = 1;
    args.node_source = spec;
    hidden(error_of([&] { resolve_options(args); }));
    GeneratorOptions o;
    o.node_id = 1;
    o.node_source = spec;
    hidden(error_of([&] { Generator g(o); }));
  }
  // The key is named when it reads as one, so the typo can be found.
  const std::string e = claim_error("etcd://h:1/p?ttl=5&Password=" + secret).what();
  CHECK(e.find("unknown option 'Password' (its value is not shown") != std::string::npos);
  CHECK(detail::redact_node_source("etcd://h:1/p?ttl=5&passwd=x&tls=1&a:b&c") ==
        "etcd://h:1/p?ttl=5&passwd=***&tls=1&***&***");
  CHECK(detail::redact_node_source("etcd://h:1/p?ttl=5&cacert=/c.pem&node=3&tls=1") ==
        "etcd://h:1/p?ttl=5&cacert=/c.pem&node=3&tls=1");
#if SNOWFLEET_HAVE_ETCD
  // A claim that gets as far as etcd (nothing listens on port 1) names the spec without its
  // query, so no option's value reaches the claim's refusal, the lease's `where` or status.
  const Error unreachable = claim_error("etcd://127.0.0.1:1/p?user=u&password=" + secret);
  INFO(unreachable.what());
  CHECK(unreachable.kind() == ErrorKind::kNodeIdUnavailable);
  CHECK(std::string(unreachable.what()).find("etcd://127.0.0.1:1/p") != std::string::npos);
  CHECK(std::string(unreachable.what()).find(secret) == std::string::npos);
#endif
}

TEST_CASE("etcd specs: an option given twice is refused, naming it", "[node-source]") {
  // Each was accepted, the last value silently winning: `node=3&node=5` claimed slot 5.
  for (const std::string q : {"ttl=2&ttl=30", "node=3&node=5", "tls=1&tls=0", "cacert=/a&cacert=/b",
                              "cert=/a&key=/k&cert=/b", "user=a&password_file=/p&user=b"}) {
    INFO(q);
    const Error e = error_of([&] { detail::parse_etcd_spec("etcd://h:1/p?" + q, Layout()); });
    CHECK(e.kind() == ErrorKind::kInvalidArgument);
    const std::string k = q.substr(q.rfind('&') + 1, q.rfind('=') - q.rfind('&') - 1);
    CHECK(std::string(e.what()).find("option '" + k + "' is given twice") != std::string::npos);
  }
}

TEST_CASE("etcd specs: malformed endpoint lists name the endpoint", "[node-source]") {
  const auto message = [](const std::string& spec) {
    const Error e = error_of([&] { detail::parse_etcd_spec(spec, Layout()); });
    CHECK(e.kind() == ErrorKind::kInvalidArgument);
    return std::string(e.what());
  };
  // Each of these was accepted and reached libcurl: userinfo (libcurl would send it as
  // HTTP basic auth, and the messages showed the password), a space, a path character, a
  // repeated endpoint, an unbracketed IPv6 address.
  CHECK(message("etcd://u:pw@h:1/p").find("no credentials") != std::string::npos);
  CHECK(message("etcd://h :1/p").find("endpoint 'h :1'") != std::string::npos);
  CHECK(message("etcd://h\\x:1/p").find("not a name or an address") != std::string::npos);
  CHECK(message("etcd://h:1,h:1/p").find("listed twice") != std::string::npos);
  CHECK(message("etcd://::1:2379/p").find("not a name or an address") != std::string::npos);
  CHECK(message("etcd://h:1,,h:2/p").find("got endpoint ''") != std::string::npos);
  CHECK(message("etcd://,h:1/p").find("got endpoint ''") != std::string::npos);
  CHECK(detail::parse_etcd_spec("etcd://[::1]:2379,etcd-0.etcd_svc.local:2379/p", Layout())
            .endpoints == std::vector<std::string>{"[::1]:2379", "etcd-0.etcd_svc.local:2379"});
}

namespace {
// A message built from outside text: control bytes and bytes that are not UTF-8 appear as
// \xNN (never raw), so a log line stays one line and every host reads valid UTF-8.
void check_quoted(const Error& e, const std::string& expected) {
  const std::string msg = e.what();
  INFO(msg);
  CHECK(msg.find(expected) != std::string::npos);
  for (const char raw : {'\n', '\x1b', '\xff'}) CHECK(msg.find(raw) == std::string::npos);
}
}  // namespace

TEST_CASE("node-source messages quote outside text as every message does", "[node-source]") {
  // Each of these once showed the bytes raw.
  check_quoted(claim_error("static:\n1"), "'static:\\x0a1'");
  check_quoted(claim_error(std::string("static:\n\0", 9)), "'static:\\x0a\\x00'");
  setenv("SNOWFLEET_TEST_CTRL", "1\n\x1b[2J\xff", 1);
  check_quoted(claim_error("env:SNOWFLEET_TEST_CTRL"), "'1\\x0a\\x1b[2J\\xff'");
  unsetenv("SNOWFLEET_TEST_CTRL");
  check_quoted(claim_error("env:NO\nSUCH"), "NO\\x0aSUCH");
  const char* old_host = std::getenv("HOSTNAME");
  const std::string saved = old_host ? old_host : "";
  setenv("HOSTNAME", "pod\n\xff", 1);
  check_quoted(claim_error("k8s"), "'pod\\x0a\\xff'");
  old_host ? setenv("HOSTNAME", saved.c_str(), 1) : unsetenv("HOSTNAME");
  const auto spec_error = [](const std::string& spec) {
    return error_of([&] { detail::parse_etcd_spec(spec, Layout()); });
  };
  check_quoted(spec_error("etcd://h\n:x/p"), "endpoint 'h\\x0a:x'");
  check_quoted(spec_error("etcd://h:1/p?ttl=\n"), "got '\\x0a'");
  check_quoted(spec_error("etcd://h:1/p?node=\xff"), "got '\\xff'");
  check_quoted(spec_error("etcd://h:1/p?tls=\x1b"), "got '\\x1b'");
  check_quoted(spec_error("etcd://h:1/p?\n=1"), "an unknown option (not shown");
  check_quoted(spec_error("etcd://h:1/\n?ttl=1"), "node source 'etcd://h:1/\\x0a?ttl=1'");
  check_quoted(claim_error("local:/nonexistent?\n=1"), "unknown option '\\x0a'");
  check_quoted(claim_error("local:/nonexistent?node=\xff"), "got '\\xff'");
}

#if SNOWFLEET_HAVE_ETCD
namespace {
using nlohmann::json;
namespace etcd = detail::etcd;

// A claim transaction's reply as etcd 3.5's gateway writes it; mark_b64 absent: no mark key.
json claim_reply(const char* mark_b64, bool succeeded = true) {
  const json header = {{"revision", "12"}, {"raft_term", "2"}};
  json range = {{"header", header}};
  if (mark_b64) range["kvs"] = json::array({{{"key", "eA=="}, {"value", mark_b64}}});
  json reply = {{"header", header},
                {"responses", json::array({{{"response_put", {{"header", header}}}},
                                           {{"response_range", range}}})}};
  if (succeeded) reply["succeeded"] = true;
  return reply;
}
}  // namespace

TEST_CASE("etcd: a claim reply gives the outcome, the revision and the mark",
          "[node-source][etcd-reply]") {
  etcd::ClaimReply r = etcd::read_claim_reply(claim_reply("MTcwNDA2NzIwMDAwMA=="));
  CHECK(r.succeeded);
  CHECK(r.revision == 12);
  CHECK(r.mark_readable);
  CHECK(r.mark_ms == 1704067200000);
  r = etcd::read_claim_reply(claim_reply(nullptr));  // a slot that never had a holder
  CHECK((r.succeeded && r.mark_readable && r.mark_ms == -1));
  r = etcd::read_claim_reply(claim_reply("MQ==", false));  // another holder was faster
  CHECK((!r.succeeded && r.revision == 0 && r.mark_ms == -1));
  CHECK_FALSE(etcd::read_claim_reply(json::array()).succeeded);
  // Marks that are not a Unix ms: "123abc", "-5", "0x10", "" (no value), " 1".
  for (const char* v : {"MTIzYWJj", "LTU=", "MHgxMA==", "", "IDE="}) {
    INFO(v);
    r = etcd::read_claim_reply(claim_reply(v));
    CHECK((r.succeeded && !r.mark_readable && r.mark_ms == -1 && r.revision == 12));
  }
  CHECK(etcd::read_claim_reply(claim_reply("LTE=")).mark_ms == -1);  // "-1": readable
  json bad = claim_reply("MQ==");
  bad["header"]["revision"] = "12abc";
  CHECK_THROWS_AS(etcd::read_claim_reply(bad), etcd::Refused);
  bad["header"]["revision"] = 1.5;
  CHECK_THROWS_AS(etcd::read_claim_reply(bad), etcd::Refused);
  bad = claim_reply("MQ==");
  bad["succeeded"] = "true";
  CHECK_THROWS_AS(etcd::read_claim_reply(bad), etcd::Refused);
}

TEST_CASE("etcd: a failed mark write tells the slots still held and a mark that moved",
          "[node-source][etcd-reply]") {
  // The failure branch reads each slot key, then its mark key (keys only).
  const auto range = [](const char* field, const char* revision) {
    json r = {{"header", {{"revision", "40"}}}};
    if (revision) r["kvs"] = json::array({{{"key", "eA=="}, {field, revision}}});
    return json{{"response_range", r}};
  };
  const json reply = {
      {"header", {{"revision", "40"}}},
      {"responses", json::array({range("create_revision", "10"), range("mod_revision", "20"),
                                 range("create_revision", "15"), range("mod_revision", "21"),
                                 range(nullptr, nullptr), range(nullptr, nullptr),
                                 range("create_revision", "13"), range(nullptr, nullptr)})}};
  // Slot 0 as expected; slot 1 taken over since; slot 2's key gone; slot 3's mark deleted.
  etcd::MarkRecheck r = etcd::read_mark_failure(reply, {{10, 20}, {11, 21}, {12, 22}, {13, 23}});
  CHECK(r.ours == std::vector<std::pair<size_t, int64_t>>{{0, 20}, {3, 0}});
  CHECK(r.moved);  // slot 3's mark is not where our last write left it
  r = etcd::read_mark_failure(reply, {{10, 20}});
  CHECK(r.ours == std::vector<std::pair<size_t, int64_t>>{{0, 20}});
  CHECK_FALSE(r.moved);
  r = etcd::read_mark_failure(reply, {{10, 19}});  // an earlier write landed after we gave up
  CHECK(r.ours == std::vector<std::pair<size_t, int64_t>>{{0, 20}});
  CHECK(r.moved);
  // A reply with fewer responses than the batch: the missing slots are not ours.
  CHECK(etcd::read_mark_failure(json::object(), {{10, 20}}).ours.empty());
  json bad = reply;
  bad["responses"][0]["response_range"]["kvs"][0]["create_revision"] = "10x";
  CHECK_THROWS_AS(etcd::read_mark_failure(bad, {{10, 20}}), etcd::Refused);
}

TEST_CASE("etcd: a range reply lists the held slots, a key outside the range is refused",
          "[node-source][etcd-reply]") {
  const std::string dir = "snowfleet/slots/";
  // snowfleet/slots/0007, snowfleet/slots/0012, snowfleet/slots/junk
  const json r = {{"kvs", json::array({{{"key", "c25vd2ZsZWV0L3Nsb3RzLzAwMDc="}},
                                       {{"key", "c25vd2ZsZWV0L3Nsb3RzLzAwMTI="}},
                                       {{"key", "c25vd2ZsZWV0L3Nsb3RzL2p1bms="}}})}};
  CHECK(etcd::held_slots(r, dir) == std::set<int64_t>{7, 12});
  CHECK(etcd::held_slots(json::object(), dir).empty());
  // Only keys spelled as ours are our slots: "7" and "00012" are not slots 7 and 12 (before,
  // an unrelated "00000" beside a one-slot layout made it "2 of 1 slots held"), nor is a
  // slot past the layout.
  const auto key = [](const std::string& k) { return json{{"key", etcd::b64(k)}}; };
  const json others = {{"kvs", json::array({key(dir + "7"), key(dir + "00012"), key(dir + "0003"),
                                            key(dir + "1024"), key(dir + "16383")})}};
  CHECK(etcd::held_slots(others, dir, 1024) == std::set<int64_t>{3});
  CHECK(etcd::held_slots(others, dir, 16384) == std::set<int64_t>{3, 1024, 16383});
  CHECK(etcd::slot_text(7) == "0007");
  CHECK(etcd::slot_text(16383) == "16383");
  // "snow": the old reader took substr past its end and failed with std::out_of_range.
  const json outside = {{"kvs", json::array({{{"key", "c25vdw=="}}})}};
  const auto refused = [&](const json& reply) {
    try {
      etcd::held_slots(reply, dir);
    } catch (const etcd::Refused& e) {
      return std::string(e.what()).find("malformed etcd reply") != std::string::npos;
    }
    return false;
  };
  CHECK(refused(outside));
  CHECK(refused({{"kvs", json::array({5})}}));
  CHECK(refused({{"kvs", {{"key", "x"}}}}));
}

TEST_CASE("etcd: int64 fields are decimal strings or integers, nothing else",
          "[node-source][etcd-reply]") {
  const json j = {{"a", "7587861231"}, {"b", "-5"}, {"c", 12},   {"d", "123abc"},
                  {"e", "0x10"},       {"f", 1.5},  {"g", true}, {"h", 18446744073709551615ULL}};
  CHECK(etcd::i64(j, "a") == 7587861231);
  CHECK(etcd::i64(j, "b") == -5);
  CHECK(etcd::i64(j, "c") == 12);
  CHECK(etcd::i64(j, "absent") == 0);
  for (const char* k : {"d", "e", "f", "g", "h"}) {
    INFO(k);
    CHECK_THROWS_AS(etcd::i64(j, k), etcd::Refused);
  }
}
#endif
