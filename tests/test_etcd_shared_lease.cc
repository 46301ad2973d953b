// One etcd lease per process: the leases of one process for the same endpoints, prefix, TTL and
// credentials share one etcd lease and one keepalive thread; white-box (node_source.hpp) so that
// the test can see which etcd lease a slot is held by. Hidden tests: scripts/test/fleet.sh runs
// them (tag [fleet]) against $SNOWFLEET_TEST_ETCD. Tagged [.etcd-plaintext], not [.etcd]: they
// inspect etcd with plain curl and etcdctl (lease TTLs, keys), so
// tests/fleet/etcd_tls_auth_test.py, which reruns [.etcd] over TLS and with users, leaves them out.
#include <catch2/catch.hpp>

#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <functional>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "etcd_test_util.hpp"
#include "lease/node_source.hpp"
#include "snowfleet/snowfleet.hpp"

#if SNOWFLEET_HAVE_ETCD
using namespace snowfleet;
using namespace etcd_test;  // endpoint(), fresh_prefix(), run(), etcdctl()

namespace {
// The etcd lease id in a lease's where(): "etcd://... slot 7 (lease 123)".
std::string lease_of(const detail::NodeLease& l) {
  const std::string& w = l.where();
  const size_t at = w.rfind("(lease ");
  REQUIRE(at != std::string::npos);
  return w.substr(at + 7, w.size() - at - 8);
}

// etcd's remaining TTL for a lease id (decimal): -1 once it is revoked or expired.
int64_t ttl_of(const std::string& lease) {
  const std::string out = run("curl -s --noproxy '*' -X POST http://" + endpoint() +
                              "/v3/lease/timetolive -d '{\"ID\":\"" + lease + "\"}'");
  const size_t at = out.find("\"TTL\":\"");
  REQUIRE(at != std::string::npos);
  return std::atoll(out.c_str() + at + 7);
}

int64_t keys_under(const std::string& prefix) {
  return std::atoll(
      run(etcdctl() + "get --prefix --keys-only " + prefix + "/slots/ | grep -c /slots/").c_str());
}

bool eventually(const std::function<bool()>& done) {
  for (int i = 0; i < 500; ++i) {
    if (done()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return done();
}
}  // namespace

TEST_CASE("etcd: the slots of one process share one lease, the last release revokes it",
          "[.etcd-plaintext][fleet]") {
  const std::string prefix = fresh_prefix("shared");
  const std::string src = "etcd://" + endpoint() + "/" + prefix + "?ttl=3";
  const auto clock = system_clock();
  std::vector<std::shared_ptr<detail::NodeLease>> leases;
  std::vector<std::thread> claimers;
  std::mutex mu;
  std::vector<std::string> failures;
  for (int i = 0; i < 8; ++i)
    claimers.emplace_back([&] {
      try {
        auto l = detail::claim_etcd(src, Layout(), clock);
        std::lock_guard<std::mutex> lock(mu);
        leases.push_back(l);
      } catch (const std::exception& e) {
        std::lock_guard<std::mutex> lock(mu);
        failures.push_back(e.what());
      }
    });
  for (auto& t : claimers) t.join();
  REQUIRE(failures.empty());
  std::set<int64_t> nodes;
  std::set<std::string> ids;
  for (auto& l : leases) {
    nodes.insert(l->node_id());
    ids.insert(lease_of(*l));
  }
  CHECK(nodes.size() == 8);
  CHECK(ids.size() == 1);  // before: 8 leases, 8 keepalive threads
  const std::string id = *ids.begin();
  CHECK(keys_under(prefix) == 8);
  // A different TTL is a different lease (its keys must expire on their own schedule).
  auto other =
      detail::claim_etcd("etcd://" + endpoint() + "/" + prefix + "?ttl=4", Layout(), clock);
  CHECK(lease_of(*other) != id);
  other->release();

  // Releasing one slot deletes its key at once; the shared lease lives on for the others.
  leases[0]->release();
  CHECK(keys_under(prefix) == 7);
  CHECK(ttl_of(id) > 0);
  // It outlives its TTL: one keepalive thread renews it for everyone.
  std::this_thread::sleep_for(std::chrono::milliseconds(3500));
  CHECK(ttl_of(id) > 0);
  CHECK(keys_under(prefix) == 7);
  for (size_t i = 1; i < leases.size(); ++i) CHECK_FALSE(leases[i]->lost());
  for (size_t i = 1; i < leases.size(); ++i) leases[i]->release();
  CHECK(ttl_of(id) == -1);  // the last release revoked it
  CHECK(keys_under(prefix) == 0);
}

TEST_CASE("etcd: losing the shared lease fences every slot on it", "[.etcd-plaintext][fleet]") {
  const std::string prefix = fresh_prefix("shared-lost");
  const std::string src = "etcd://" + endpoint() + "/" + prefix + "?ttl=2";
  auto a = detail::claim_etcd(src, Layout(), system_clock());
  auto b = detail::claim_etcd(src, Layout(), system_clock());
  REQUIRE(lease_of(*a) == lease_of(*b));
  // Revoke it behind the process's back: the next keepalive (every TTL/3) learns it.
  run("curl -s --noproxy '*' -X POST http://" + endpoint() + "/v3/lease/revoke -d '{\"ID\":\"" +
      lease_of(*a) + "\"}'");
  CHECK(eventually([&] { return a->lost() && b->lost(); }));
  CHECK(a->deadline()->load() == INT64_MIN);
  CHECK(b->deadline()->load() == INT64_MIN);
  CHECK(a->problem().find("expired") != std::string::npos);
  // A new claimant of this process does not join the lost lease.
  auto c = detail::claim_etcd(src, Layout(), system_clock());
  CHECK(lease_of(*c) != lease_of(*a));
  CHECK_FALSE(c->lost());
  a->release();
  b->release();
  c->release();
}

TEST_CASE("etcd: a forked child claims with a lease of its own, the parent's is untouched",
          "[.etcd-plaintext][fleet]") {
  const std::string prefix = fresh_prefix("shared-fork");
  const std::string src = "etcd://" + endpoint() + "/" + prefix + "?ttl=2";
  auto parent = detail::claim_etcd(src, Layout(), system_clock());
  const std::string id = lease_of(*parent);
  const pid_t pid = fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    // No Catch2 here: exit codes. 1: no claim; 2: the parent's lease; 0: a lease of its own.
    int rc = 1;
    try {
      auto child = detail::claim_etcd(src, Layout(), system_clock());
      rc = lease_of(*child) == id ? 2 : 0;
      child->release();
    } catch (...) {
    }
    parent->abandon_after_fork();
    _exit(rc);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  REQUIRE(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 0);
  std::this_thread::sleep_for(std::chrono::milliseconds(2500));  // past the TTL
  CHECK(ttl_of(id) > 0);
  CHECK_FALSE(parent->lost());
  CHECK(keys_under(prefix) == 1);
  parent->release();
}

TEST_CASE("etcd: keys under the prefix that are not slots neither crash nor take a slot",
          "[.etcd-plaintext][fleet]") {
  const std::string prefix = fresh_prefix("unrelated");
  const std::string ctl = etcdctl() + "put " + prefix;
  for (const char* k : {"/slots/junk", "/slots/7", "/slots/00000", "/slots/", "/config", "/slots0"})
    REQUIRE(std::system((ctl + k + " x >/dev/null").c_str()) == 0);
  const std::string src = "etcd://" + endpoint() + "/" + prefix + "?ttl=3";
  const Layout one_slot = Layout::parse("41.0.22@1704067200000");
  auto a = detail::claim_etcd(src, one_slot, system_clock());
  CHECK(a->node_id() == 0);
  try {
    detail::claim_etcd(src, one_slot, system_clock());
    FAIL("a second claimant got the only slot");
  } catch (const Error& e) {
    CHECK(e.kind() == ErrorKind::kNodeIdUnavailable);
    CHECK(std::string(e.what()).find("no free node id under " + prefix +
                                     "/slots/ (1 of 1 slots held)") != std::string::npos);
  }
  a->release();
}
#endif
