// "postgres://user@host/db?table=snowfleet_slots&ttl=10": node ids leased from a table in a
// PostgreSQL the team already runs (docs/fleet.md). The shape of the etcd source: one slot
// per generator, claimed with one statement the server arbitrates on its own clock
// (pg_protocol.hpp), the high-water mark written ahead of the ids it covers into the slot's
// row by the statement that renews it, renewals on a thread of the lease's own, and the
// deadline kept locally on the monotonic clock (send time of the last confirmed renewal +
// TTL - margin). No I/O on a minting thread: marks come from the generator's mark keeper.
// libpq is dlopen()ed at the first claim (libpq_loader.hpp).
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <limits>
#include <memory>
#include <mutex>
#include <random>
#include <set>
#include <vector>

#include "base/fail.hpp"
#include "base/quote.hpp"
#include "base/strict_int.hpp"
#include "lease/node_source.hpp"
#include "lease/renewal_thread.hpp"
#include "pg_conn.hpp"
#include "pg_spec.hpp"

namespace snowfleet {
namespace detail {
namespace {

using pg::Conn;
using pg::PostgresConfig;

constexpr int64_t kNsPerMs = 1'000'000;

std::string holder_identity(std::mt19937_64& rng) {
  char host[256] = {0};
  gethostname(host, sizeof host - 1);
  char hex[17];
  snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(rng()));
  return std::string(host) + " pid " + std::to_string(getpid()) + " " + hex;
}

class PostgresLease final : public NodeLease {
 public:
  PostgresLease(PostgresConfig cfg, std::shared_ptr<Clock> clock, const pg::Libpq& api)
      : cfg_(std::move(cfg)),
        clock_(std::move(clock)),
        rng_(std::random_device{}() ^ static_cast<uint64_t>(clock_->monotonic_ns())),
        conn_(
            api, cfg_.conninfo, [c = clock_] { return c->monotonic_ns(); }, &cancel_gen_),
        request_ms_(pg::request_timeout_ms(cfg_.ttl_s)) {
    holder_ = holder_identity(rng_);
  }

  ~PostgresLease() override {
    if (abandoned_) {
      // Forked child: the connection and the renewal thread are the parent's.
      conn_.leak();
      renewer_.abandon();
      return;
    }
    release();
  }

  void claim(const Layout& layout, const SlotFilter& usable);

  void write_mark(int64_t mark_ms) override {
    if (released_) throw Error(ErrorKind::kLeaseLost, where_ + " was released");
    if (lost()) throw Error(ErrorKind::kLeaseLost, problem());
    std::string why;
    const Renewal r = renew(mark_ms, &why);
    if (r == Renewal::kLost) throw Error(ErrorKind::kLeaseLost, problem());
    if (r == Renewal::kFailed)
      throw Error(ErrorKind::kLeaseLost,
                  where_ + ": could not persist the high-water mark: " + why);
    mark_ms_.store(mark_ms, std::memory_order_release);
  }

  int64_t mark_lead_ms() const noexcept override { return cfg_.ttl_s * 1000; }
  const std::atomic<int64_t>* deadline() const noexcept override { return &deadline_; }
  void cancel_pending() noexcept override { cancel_gen_.fetch_add(1, std::memory_order_acq_rel); }
  void abandon_after_fork() noexcept override { abandoned_ = true; }
  void release() noexcept override;

 private:
  std::string quoted() const { return "node source " + quote(cfg_.text); }
  [[noreturn]] void unavailable(const std::string& why) const {
    throw Error(ErrorKind::kNodeIdUnavailable, quoted() + ": " + why);
  }
  void ensure_table(const Layout& layout);
  std::set<int64_t> held_slots(int64_t max_slot);
  std::string pinned_refusal(const std::string& skipped);
  std::vector<int64_t> candidates(const Layout& layout, const SlotFilter& usable);
  bool try_slot(int64_t slot, const Layout& layout, std::string* skipped);
  void give_back(int64_t slot);
  void adopt(int64_t slot, const pg::ClaimRow& row, int64_t start_ms, int64_t sent);
  Renewal renew(int64_t mark_ms, std::string* why);
  void lease_lost(const std::string& why) {
    std::lock_guard<std::mutex> lock(fence_mu_);
    deadline_.store(INT64_MIN, std::memory_order_release);
    set_lost(where_ + ": " + why);
  }

  PostgresConfig cfg_;
  std::shared_ptr<Clock> clock_;
  std::mt19937_64 rng_;
  std::atomic<uint64_t> cancel_gen_{0};
  std::mutex conn_mu_;  // one statement at a time: the renewal thread, marks, release
  Conn conn_;
  long request_ms_;
  std::string holder_;
  int64_t epoch_ = 0;
  std::atomic<int64_t> deadline_{INT64_MIN};
  std::mutex fence_mu_;  // deadline_ against lost
  std::atomic<bool> released_{false};
  bool abandoned_ = false;
  RenewalThread renewer_;
};

void PostgresLease::ensure_table(const Layout& layout) {
  const auto exists = [&] {
    const auto rows =
        conn_.exec("SELECT to_regclass($1) IS NOT NULL", {pg::sql_name(cfg_.table)}, request_ms_);
    return !rows.empty() && rows[0].size() == 1 && rows[0][0] == std::string("t");
  };
  if (exists()) return;
  try {
    // Every slot of the layout gets its row now, in the table's own transaction: a row
    // missing later was deleted or restored away (pg_protocol.hpp, rollback_evidence).
    // Wide node fields get their first 65,536 rows; a slot above claims through the insert
    // branch and fences (a wait, never a duplicate).
    const int64_t rows = std::min<int64_t>(layout.max_node_id() + 1, int64_t{1} << 16);
    conn_.exec_script(pg::create_sql(cfg_.table, rows), request_ms_ * 3);
  } catch (const pg::Refused& e) {
    if (exists()) return;  // another process created it meanwhile
    if (e.sqlstate == "42501")
      unavailable("the table " + cfg_.table + " does not exist and this user may not create it (" +
                  e.what() + "); create it with the statements in docs/fleet.md");
    throw;
  }
}

std::set<int64_t> PostgresLease::held_slots(int64_t max_slot) {
  std::set<int64_t> held;
  for (const auto& row :
       conn_.exec(pg::held_sql(cfg_.table), {std::to_string(max_slot)}, request_ms_)) {
    int64_t n;
    if (row.size() == 1 && row[0] && parse_int64(*row[0], &n)) held.insert(n);
  }
  return held;
}

// Why the pinned slot was not ours: passed over for its mark (`skipped`, not held), held,
// or a row whose epoch cannot grow, which no claim will ever take (the claim passes it
// over as it passes over a held one).
std::string PostgresLease::pinned_refusal(const std::string& skipped) {
  const std::string slot = "slot " + std::to_string(cfg_.node) + " of table " + cfg_.table;
  if (!skipped.empty()) return slot + " cannot be claimed: " + skipped;
  try {
    if (!conn_.exec(pg::worn_out_sql(cfg_.table), {std::to_string(cfg_.node)}, request_ms_).empty())
      return slot + " cannot be claimed: its epoch is " +
             std::to_string(std::numeric_limits<int64_t>::max()) +
             ", the largest, and every claim raises it: pin another slot";
  } catch (const std::exception&) {
    // the server went away since the claim: say what the claim saw
  }
  return slot + " is held by another process";
}

std::vector<int64_t> PostgresLease::candidates(const Layout& layout, const SlotFilter& usable) {
  if (cfg_.node >= 0) return {cfg_.node};
  const std::set<int64_t> held = held_slots(layout.max_node_id());
  std::vector<int64_t> free;
  for (int64_t n = 0; n <= layout.max_node_id(); ++n)
    if (!held.count(n) && (!usable || usable(n))) free.push_back(n);
  std::shuffle(free.begin(), free.end(), rng_);
  return free;
}

void PostgresLease::adopt(int64_t slot, const pg::ClaimRow& row, int64_t start_ms, int64_t sent) {
  node_id_ = slot;
  epoch_ = row.epoch;
  claimed_mark_ms_ = start_ms;
  mark_ms_.store(row.mark_ms, std::memory_order_relaxed);
  where_ = cfg_.text + " table " + cfg_.table + " slot " + std::to_string(slot) + " (epoch " +
           std::to_string(row.epoch) + ")";
  deadline_.store(pg::deadline_after(sent, cfg_.ttl_s), std::memory_order_release);
}

// One claim statement on `slot`: true when it is ours (adopted), false when held or not
// usable (`skipped` says why, for the refusal).
bool PostgresLease::try_slot(int64_t slot, const Layout& layout, std::string* skipped) {
  int64_t sent = 0;
  const auto rows = conn_.exec(pg::claim_sql(cfg_.table),
                               {std::to_string(slot), holder_, std::to_string(cfg_.ttl_s * 1000)},
                               request_ms_, &sent);
  if (rows.empty()) return false;
  pg::ClaimRow row;
  std::string why;
  if (!pg::parse_claim_row(rows[0], &row, &why)) unavailable(why);
  const int64_t wall_ms = clock_->wall_ns() / kNsPerMs;
  // A stated bound covers holders the table (restored, perhaps) no longer shows.
  const int64_t start =
      pg::claim_start_ms(row, wall_ms, std::max(cfg_.ttl_s, cfg_.max_ttl_s) * 1000);
  node_id_ = slot;
  epoch_ = row.epoch;
  if (const std::string refusal = pg::bound_refusal(row, cfg_.max_ttl_s); !refusal.empty()) {
    give_back(slot);
    unavailable(refusal);
  }
  if (start > layout.max_timestamp_ms()) {
    // A mark past the window blocks the slot for good: give it back, try another.
    *skipped = "slot " + std::to_string(slot) + " has the mark " + std::to_string(row.mark_ms) +
               ", past the last millisecond of layout " + layout.to_string();
    give_back(slot);
    return false;
  }
  adopt(slot, row, start, sent);
  return true;
}

// Releases the row just claimed on `slot` (mark unchanged), best effort.
void PostgresLease::give_back(int64_t slot) {
  where_ = cfg_.text + " slot " + std::to_string(slot);
  try {
    conn_.exec(pg::release_sql(cfg_.table),
               {std::to_string(slot), holder_, std::to_string(epoch_), "0"}, request_ms_);
  } catch (const std::exception&) {
  }
  node_id_ = -1;
}

void PostgresLease::claim(const Layout& layout, const SlotFilter& usable) {
  std::string skipped;
  std::vector<int64_t> slots;
  try {
    ensure_table(layout);
    slots = candidates(layout, usable);
    for (const int64_t slot : slots) {
      if (!try_slot(slot, layout, &skipped)) continue;
      renewer_.start(cfg_.ttl_s, [this] {
        std::string why;
        return renew(mark_ms_.load(std::memory_order_acquire), &why);
      });
      return;
    }
  } catch (const pg::Unreachable& e) {
    unavailable(e.what());
  } catch (const pg::Refused& e) {
    unavailable(std::string(e.what()) + " (SQLSTATE " + e.sqlstate + ")");
  }
  if (cfg_.node >= 0) unavailable(pinned_refusal(skipped));
  std::string msg = "no free node id in table " + cfg_.table + " (" +
                    std::to_string(layout.max_node_id() + 1 - slots.size()) + " of " +
                    std::to_string(layout.max_node_id() + 1) + " slots held when read)";
  if (!skipped.empty()) msg += "; skipped: " + skipped;
  unavailable(msg);
}

// One renewal, carrying `mark_ms` (the mark only grows in the row). Confirmed: the deadline
// moves to this statement's send time + TTL - margin.
Renewal PostgresLease::renew(int64_t mark_ms, std::string* why) {
  std::lock_guard<std::mutex> lock(conn_mu_);
  if (lost()) return Renewal::kLost;
  const std::vector<std::string> params = {std::to_string(node_id_), holder_,
                                           std::to_string(epoch_),
                                           std::to_string(std::max<int64_t>(mark_ms, 0))};
  try {
    int64_t sent = 0;
    const auto rows = conn_.exec(pg::renew_sql(cfg_.table), params, request_ms_, &sent);
    int64_t stored;
    if (rows.empty() || !pg::parse_renew_row(rows[0], &stored)) {
      lease_lost(
          "its row is no longer ours (taken over after our deadline, deleted, or "
          "restored from a dump); another process may hold the slot");
      return Renewal::kLost;
    }
    std::lock_guard<std::mutex> fence(fence_mu_);
    if (lost()) return Renewal::kLost;
    deadline_.store(pg::deadline_after(sent, cfg_.ttl_s), std::memory_order_release);
    set_problem("");
    return Renewal::kConfirmed;
  } catch (const pg::Refused& e) {
    if (e.sqlstate == "42P01") {  // undefined_table: dropped under us
      lease_lost(std::string("the table is gone (") + e.what() + ")");
      return Renewal::kLost;
    }
    *why = e.what();
  } catch (const pg::Cancelled& e) {
    // close() cut it short: a problem recorded here would keep release() from giving the
    // row back.
    *why = e.what();
    return Renewal::kFailed;
  } catch (const std::exception& e) {
    *why = e.what();
  }
  set_problem(where_ + ": renewal unconfirmed: " + *why);
  count_renewal_failure();
  return Renewal::kFailed;
}

void PostgresLease::release() noexcept {
  if (released_.exchange(true)) return;
  renewer_.stop();
  if (node_id_ < 0 || lost() || !problem().empty()) return;  // the row expires by itself
  std::lock_guard<std::mutex> lock(conn_mu_);
  try {
    conn_.exec(pg::release_sql(cfg_.table),
               {std::to_string(node_id_), holder_, std::to_string(epoch_),
                std::to_string(std::max<int64_t>(mark_ms_.load(std::memory_order_acquire), 0))},
               std::min<long>(request_ms_, 1000));
  } catch (...) {
  }
}

}  // namespace

std::shared_ptr<NodeLease> claim_postgres(const std::string& spec, const Layout& layout,
                                          const std::shared_ptr<Clock>& clock,
                                          const SlotFilter& usable) {
  PostgresConfig cfg = pg::parse_postgres_spec(spec, layout);
  const pg::Libpq& api = pg::load_libpq(cfg.text);
  char* err = nullptr;
  void* options = api.conninfo_parse(cfg.conninfo.c_str(), &err);
  if (!options) {
    std::string why = err ? pg::mask_libpq_message(err, cfg.conninfo) : "libpq cannot read it";
    if (err) api.freemem(err);
    while (!why.empty() && why.back() == '\n') why.pop_back();
    bad("node source " + quote(cfg.text) + ": not a connection URI libpq accepts: " + why);
  }
  api.conninfo_free(options);
  auto lease = std::make_shared<PostgresLease>(std::move(cfg), clock, api);
  lease->claim(layout, usable);
  return lease;
}

}  // namespace detail
}  // namespace snowfleet
