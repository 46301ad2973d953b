// The k8s-lease:// source's pure parts: the spec, MicroTime, reading Leases and Status
// replies strictly, expiry as a claimant judges it, and the request bodies. Claims against
// a real kube-apiserver are in tests/fleet/k8s_lease_test.py.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "lease/k8s/k8s_spec.hpp"
#include "lease/k8s/kube_reply.hpp"
#include "snowfleet/snowfleet.hpp"
#include "test_util.hpp"

using nlohmann::json;
using namespace snowfleet::detail::kube;
using snowfleet::Layout;
using snowfleet_test::error_of;

TEST_CASE("k8s-lease spec: options, and refusals naming value and rule", "[k8s]") {
  const K8sConfig c = parse_k8s_spec(
      "k8s-lease://ids?ttl=5&node=7&namespace=prod&kubeconfig=/k&context=c", Layout());
  CHECK(c.prefix == "ids");
  CHECK(c.ttl_s == 5);
  CHECK(c.node == 7);
  CHECK(c.namespace_ == "prod");
  CHECK(c.kubeconfig == "/k");
  CHECK(c.context == "c");
  CHECK(c.text == "k8s-lease://ids");
  CHECK(parse_k8s_spec("k8s-lease://a-1", Layout()).ttl_s == 10);
  const auto msg = [](const std::string& s) {
    return std::string(error_of([&] { parse_k8s_spec(s, Layout()); }).what());
  };
  CHECK_THAT(msg("k8s-lease://Ids"), Catch::Contains("the prefix must be 1 to 63"));
  CHECK_THAT(msg("k8s-lease://ids-"), Catch::Contains("got 'ids-'"));
  CHECK_THAT(msg("k8s-lease://" + std::string(64, 'a')), Catch::Contains("1 to 63"));
  CHECK_THAT(msg("k8s-lease://ids?ttl=1"), Catch::Contains("ttl must be an integer number of "
                                                           "seconds in [2, 3600], got '1'"));
  CHECK_THAT(msg("k8s-lease://ids?ttl=+5"), Catch::Contains("got '+5'"));
  CHECK_THAT(msg("k8s-lease://ids?node=99999"), Catch::Contains("node must be in [0, 1023]"));
  CHECK_THAT(msg("k8s-lease://ids?namespace=A"), Catch::Contains("namespace must be"));
  CHECK_THAT(msg("k8s-lease://ids?ttl=5&ttl=6"), Catch::Contains("'ttl' is given twice"));
  CHECK_THAT(msg("k8s-lease://ids?user=x"), Catch::Contains("unknown option 'user'"));
  CHECK_THAT(msg("k8s-lease://ids?ttl"), Catch::Contains("key=value"));
  CHECK(error_of([] { parse_k8s_spec("k8s-lease://ids?ttl=x", Layout()); }).kind() ==
        snowfleet::ErrorKind::kInvalidArgument);
}

TEST_CASE("MicroTime: six fractional digits, UTC", "[k8s]") {
  CHECK(format_micro_time(0) == "1970-01-01T00:00:00.000000Z");
  const int64_t t = 1'796'402'134'681'362;  // 2026-12-04T16:35:34.681362Z
  CHECK(format_micro_time(t) == "2026-12-04T16:35:34.681362Z");
  int64_t back = 0;
  REQUIRE(parse_micro_time("2026-12-04T16:35:34.681362Z", &back));
  CHECK(back == t);
  REQUIRE(parse_micro_time("2026-12-04T16:35:34Z", &back));
  CHECK(back == t / 1'000'000 * 1'000'000);
  for (const char* bad : {"2026-12-04T16:35:34.681Z", "2026-12-04T16:35:34.681362+01:00",
                          "2026-13-04T16:35:34.681362Z", "2026-12-04 16:35:34.681362Z", ""})
    CHECK_FALSE(parse_micro_time(bad, &back));
}

TEST_CASE("Lease replies are read strictly", "[k8s]") {
  const json lease = {{"metadata",
                       {{"name", "ids-7"},
                        {"resourceVersion", "42"},
                        {"annotations", {{"snowfleet.dev/mark-ms", "1796488534681"}}}}},
                      {"spec",
                       {{"holderIdentity", "h pid 1 ab"},
                        {"leaseDurationSeconds", 10},
                        {"leaseTransitions", 3},
                        {"renewTime", "2026-12-04T16:35:34.681362Z"}}}};
  LeaseView v;
  std::string why;
  REQUIRE(parse_lease(lease, &v, &why));
  CHECK(v.name == "ids-7");
  CHECK(v.resource_version == "42");
  CHECK(v.holder == "h pid 1 ab");
  CHECK(v.duration_s == 10);
  CHECK(v.transitions == 3);
  CHECK(v.mark_ms == 1796488534681);
  CHECK(v.renew_us == 1'796'402'134'681'362);
  json bad = lease;
  bad["metadata"]["annotations"]["snowfleet.dev/mark-ms"] = "12x";
  // A hand-edited mark is read as unknown history, not as a broken reply: the holder must
  // still adopt the Lease's resourceVersion and write its mark over it, and a list holding
  // such a Lease must still give the others.
  REQUIRE(parse_lease(bad, &v, &why));
  CHECK(v.mark_unreadable);
  CHECK(v.mark_ms == -1);
  std::vector<LeaseView> listed;
  REQUIRE(parse_lease_list(json{{"items", {lease, bad}}}, &listed, &why));
  CHECK_FALSE(listed[0].mark_unreadable);
  CHECK(listed[1].mark_unreadable);
  bad = lease;
  bad["spec"]["renewTime"] = "2026-12-04T16:35:34.681Z";
  CHECK_FALSE(parse_lease(bad, &v, &why));
  CHECK_THAT(why, Catch::Contains("spec.renewTime"));
  bad = lease;
  bad["metadata"].erase("resourceVersion");
  CHECK_FALSE(parse_lease(bad, &v, &why));
  std::vector<LeaseView> items;
  CHECK(parse_lease_list(json{{"items", {lease, lease}}}, &items, &why));
  CHECK(items.size() == 2);
  CHECK(parse_lease_list(json{{"items", nullptr}}, &items, &why));
  CHECK_FALSE(parse_lease_list(json{{"kind", "Status"}}, &items, &why));
}

TEST_CASE("Status replies and the user of a 403", "[k8s]") {
  const json forbidden = {
      {"kind", "Status"},
      {"reason", "Forbidden"},
      {"message",
       "leases.coordination.k8s.io \"ids-7\" is forbidden: User \"ids-norole\" cannot get "
       "resource \"leases\" in API group \"coordination.k8s.io\" in the namespace \"ids\""},
      {"code", 403}};
  const Status s = parse_status(forbidden);
  CHECK(s.reason == "Forbidden");
  CHECK(forbidden_user(s.message) == "ids-norole");
  CHECK(forbidden_user("Unauthorized").empty());
  CHECK(parse_status(json{{"message", "first\nsecond"}}).message == "first");
  CHECK(parse_status(json::array()).reason.empty());
}

TEST_CASE("expiry as a claimant judges it, and the request bodies", "[k8s]") {
  LeaseView l;
  l.resource_version = "9";
  CHECK(lease_free(l, 0, 0));  // nobody holds it
  l.holder = "h";
  CHECK_FALSE(lease_free(l, 1'000'000'000, 0));  // held, no renewTime: not ours to judge
  l.renew_us = 1'000'000;
  l.duration_s = 10;
  CHECK_FALSE(lease_free(l, 11'000'000, 500'000));
  CHECK(lease_free(l, 11'500'001, 500'000));
  l.transitions = 4;
  const json p = takeover_patch(l, "me", 5, 0);
  CHECK(p["metadata"]["resourceVersion"] == "9");
  CHECK(p["spec"]["leaseTransitions"] == 5);
  CHECK(p["spec"]["holderIdentity"] == "me");
  const json c = create_body("ids-0", "ids", "me", 5, 0);
  CHECK(c["metadata"]["labels"]["snowfleet.dev/prefix"] == "ids");
  CHECK(c["spec"]["renewTime"] == "1970-01-01T00:00:00.000000Z");
  CHECK(renew_patch("9", 0, 5, 77)["metadata"]["annotations"]["snowfleet.dev/mark-ms"] == "77");
  CHECK(renew_patch("9", 0, 5, 77)["spec"]["leaseDurationSeconds"] == 5);
  CHECK_FALSE(renew_patch("9", 0, 5, -1)["metadata"].contains("annotations"));
  CHECK(release_patch("9", 5)["spec"]["holderIdentity"].is_null());
}

TEST_CASE("a takeover keeps leaseTransitions within what the API server takes", "[k8s]") {
  LeaseView l;
  l.transitions = 2147483647;  // set by hand to the API's largest
  CHECK(takeover_patch(l, "me", 5, 0)["spec"]["leaseTransitions"] == 2147483647);
  l.transitions = int64_t{1} << 40;
  CHECK(takeover_patch(l, "me", 5, 0)["spec"]["leaseTransitions"] == 2147483647);
  l.transitions = -7;
  CHECK(takeover_patch(l, "me", 5, 0)["spec"]["leaseTransitions"] == 0);
}
