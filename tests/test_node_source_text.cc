// Node-source specs and etcd replies as text (what tests/fuzz/node_source.cc and
// tests/fuzz/etcd_reply.cc explore): the etcd spec parser and the reply readers' contract
// on well-formed and malformed replies.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "node_source.hpp"
#include "snowfleet/snowfleet.hpp"
#include "test_util.hpp"

#if SNOWFLEET_HAVE_ETCD
#include <nlohmann/json.hpp>

#include "etcd_reply.hpp"
#endif

using namespace snowfleet;
using snowfleet_test::error_of;

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

TEST_CASE("etcd: a range reply lists the held slots; a key outside the range is refused",
          "[node-source][etcd-reply]") {
  const std::string dir = "snowfleet/slots/";
  // snowfleet/slots/0007, snowfleet/slots/0012, snowfleet/slots/junk
  const json r = {{"kvs", json::array({{{"key", "c25vd2ZsZWV0L3Nsb3RzLzAwMDc="}},
                                       {{"key", "c25vd2ZsZWV0L3Nsb3RzLzAwMTI="}},
                                       {{"key", "c25vd2ZsZWV0L3Nsb3RzL2p1bms="}}})}};
  CHECK(etcd::held_slots(r, dir) == std::set<int64_t>{7, 12});
  CHECK(etcd::held_slots(json::object(), dir).empty());
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
