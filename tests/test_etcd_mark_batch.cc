// Mark writes of one process go to etcd together: every held generator's keeper keeps its slot's
// mark ahead, even idle, and one transaction per process carries the marks due at once, each slot
// with its own compare. White-box (node_source.hpp) for the stolen-slot case. Hidden tests:
// scripts/test/fleet.sh runs them (tag [fleet]) against $SNOWFLEET_TEST_ETCD; [.etcd-plaintext]
// because they read etcd's metrics and keys with plain curl and etcdctl.
#include <catch2/catch.hpp>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <regex>
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
// Txn requests etcd has received so far (its gRPC counter: the JSON gateway forwards each
// POST as one gRPC message).
int64_t txns_received() {
  const std::string metrics = run("curl -s --noproxy '*' http://" + endpoint() + "/metrics");
  const std::regex line(R"(grpc_server_msg_received_total\{[^}]*grpc_method="Txn"[^}]*\} (\S+))");
  std::smatch m;
  REQUIRE(std::regex_search(metrics, m, line));
  return static_cast<int64_t>(std::stod(m[1].str()));
}

uint64_t mark_writes(const std::vector<std::unique_ptr<Generator>>& gens) {
  uint64_t n = 0;
  for (const auto& g : gens) n += g->stats().mark_writes;
  return n;
}
}  // namespace

TEST_CASE("etcd: idle generators of one process share their mark transactions",
          "[.etcd-plaintext][fleet]") {
  GeneratorOptions o;
  o.node_source = "etcd://" + endpoint() + "/" + fresh_prefix("batched") + "?ttl=3";
  std::vector<std::unique_ptr<Generator>> gens;
  for (int i = 0; i < 32; ++i) gens.push_back(std::make_unique<Generator>(o));
  for (auto& g : gens) g->next_id();
  const uint64_t writes_before = mark_writes(gens);
  const int64_t txns_before = txns_received();
  std::this_thread::sleep_for(std::chrono::seconds(3));
  const uint64_t writes = mark_writes(gens) - writes_before;
  const int64_t txns = txns_received() - txns_before;
  INFO(writes << " mark writes by 32 idle generators in 3 s, " << txns << " etcd transactions");
  // Idle, each keeper still keeps its mark ahead of the clock: a count of its work.
  CHECK(writes >= 32 * 2);
  // Before: one transaction per write (64 generators' worth of load on etcd per 32).
  CHECK(txns * 3 <= static_cast<int64_t>(writes));
  for (auto& g : gens) {
    const Status s = g->status();
    CHECK(s.lease_state == LeaseState::kHeld);
    CHECK(s.mark_headroom_ms > 0);
    CHECK(g->stats().mark_write_failures == 0);
    g->close();
  }
}

TEST_CASE("etcd: a slot taken away in a shared mark transaction is lost, the others written",
          "[.etcd-plaintext][fleet]") {
  const std::string prefix = fresh_prefix("batched-stolen");
  const std::string src = "etcd://" + endpoint() + "/" + prefix + "?ttl=3";
  std::vector<std::shared_ptr<detail::NodeLease>> leases;
  for (int i = 0; i < 4; ++i) leases.push_back(detail::claim_etcd(src, Layout(), system_clock()));
  // Slot of leases[1] deleted and re-created behind its back (another holder now).
  char slot[16];
  std::snprintf(slot, sizeof slot, "%04lld", static_cast<long long>(leases[1]->node_id()));
  const std::string ctl = etcdctl();
  REQUIRE(std::system((ctl + "del " + prefix + "/slots/" + slot + " >/dev/null").c_str()) == 0);
  REQUIRE(std::system((ctl + "put " + prefix + "/slots/" + slot + " thief >/dev/null").c_str()) ==
          0);
  const int64_t mark = 1'800'000'000'000;
  std::vector<std::thread> writers;
  std::vector<std::string> errors(leases.size());
  for (size_t i = 0; i < leases.size(); ++i)
    writers.emplace_back([&, i] {
      try {
        leases[i]->write_mark_batched(mark + static_cast<int64_t>(i));
      } catch (const Error& e) {
        errors[i] = e.what();
      }
    });
  for (auto& t : writers) t.join();
  for (size_t i = 0; i < leases.size(); ++i) {
    INFO("slot " << leases[i]->node_id() << ": " << errors[i]);
    if (i == 1) {
      CHECK(leases[i]->lost());
      CHECK(errors[i].find("no longer ours") != std::string::npos);
      CHECK(leases[i]->mark_ms() != mark + 1);
    } else {
      CHECK(errors[i].empty());
      CHECK_FALSE(leases[i]->lost());
      CHECK(leases[i]->mark_ms() == mark + static_cast<int64_t>(i));
      char other[16];
      std::snprintf(other, sizeof other, "%04lld", static_cast<long long>(leases[i]->node_id()));
      CHECK(run(ctl + "get --print-value-only " + prefix + "/marks/" + other) ==
            std::to_string(mark + static_cast<int64_t>(i)) + "\n");
    }
  }
  // The thief's key and the mark of its slot are untouched by the lost holder.
  CHECK(run(ctl + "get --print-value-only " + prefix + "/slots/" + slot) == "thief\n");
  CHECK(run(ctl + "get --print-value-only " + prefix + "/marks/" + slot) !=
        std::to_string(mark + 1) + "\n");
  for (auto& l : leases) l->release();
}

TEST_CASE("etcd: a full mark transaction (64 slots, two compares each) is one etcd accepts",
          "[.etcd-plaintext][fleet]") {
  // etcd refuses a transaction with more than --max-txn-ops (default 128) compares or ops
  // in a branch: 64 slots' compares on slot and mark keys are 128.
  const std::string src = "etcd://" + endpoint() + "/" + fresh_prefix("batched-full") + "?ttl=3";
  std::vector<std::shared_ptr<detail::NodeLease>> leases;
  for (int i = 0; i < 70; ++i) leases.push_back(detail::claim_etcd(src, Layout(), system_clock()));
  const int64_t mark = 1'800'000'000'000;
  std::vector<std::thread> writers;
  std::vector<std::string> errors(leases.size());
  for (int round = 0; round < 2; ++round) {  // the second at the revision the first left
    for (size_t i = 0; i < leases.size(); ++i)
      writers.emplace_back([&, i, round] {
        try {
          leases[i]->write_mark_batched(mark + round);
        } catch (const Error& e) {
          errors[i] = e.what();
        }
      });
    for (auto& t : writers) t.join();
    writers.clear();
    for (size_t i = 0; i < leases.size(); ++i) {
      INFO("slot " << leases[i]->node_id() << ", round " << round << ": " << errors[i]);
      CHECK(errors[i].empty());
      CHECK(leases[i]->mark_ms() == mark + round);
    }
  }
  for (auto& l : leases) l->release();
}
#endif
