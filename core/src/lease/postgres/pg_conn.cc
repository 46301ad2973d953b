// A connection to the lease table's server (pg_conn.hpp).
#include "pg_conn.hpp"

#include <poll.h>

#include <algorithm>
#include <chrono>

#include "pg_spec.hpp"

namespace snowfleet {
namespace detail {
namespace pg {
namespace {

constexpr int64_t kNsPerMs = 1'000'000;
constexpr int kPollSliceMs = 50;  // how often a wait looks at cancel()

void quiet(void*, const char*) {}  // notices ("already exists, skipping") are not ours to print

std::string trimmed(std::string out) {
  while (!out.empty() && (out.back() == '\n' || out.back() == ' ')) out.pop_back();
  const auto nl = out.find('\n');
  return nl == std::string::npos ? out : out.substr(0, nl);
}

}  // namespace

Conn::Conn(const Libpq& api, std::string conninfo, std::function<int64_t()> now_ns,
           const std::atomic<uint64_t>* cancel)
    : api_(api), conninfo_(std::move(conninfo)), now_ns_(std::move(now_ns)), cancel_(cancel) {}

Conn::~Conn() { close(); }

void Conn::close() noexcept {
  if (conn_) api_.finish(conn_);
  conn_ = nullptr;
}

// libpq's message about the connection, first line, passwords masked.
std::string Conn::libpq_error() const {
  const char* m = api_.error_message(conn_);
  return trimmed(mask_libpq_message(m ? m : "", conninfo_));
}

void Conn::fail_connection(const std::string& why) {
  close();
  throw Unreachable(why);
}

void Conn::wait_socket(bool write, int64_t deadline_ns, uint64_t gen) {
  for (;;) {
    if (cancel_ && cancel_->load(std::memory_order_acquire) != gen) {
      close();
      throw Cancelled("request cancelled (closing)");
    }
    const int64_t left_ms = (deadline_ns - now_ns_()) / kNsPerMs;
    if (left_ms <= 0) fail_connection("no answer from the server in time");
    pollfd p{api_.socket(conn_), static_cast<short>(write ? POLLOUT : POLLIN), 0};
    if (p.fd < 0) fail_connection("the connection has no socket");
    const int n = poll(&p, 1, static_cast<int>(std::min<int64_t>(left_ms, kPollSliceMs)));
    if (n > 0) return;
  }
}

void Conn::connect(int64_t deadline_ns) {
  const uint64_t gen = cancel_ ? cancel_->load(std::memory_order_acquire) : 0;
  conn_ = api_.connect_start(conninfo_.c_str());
  if (!conn_) throw Unreachable("libpq could not allocate a connection");
  if (api_.status(conn_) == 1) fail_connection(libpq_error());
  api_.set_notice_processor(conn_, quiet, nullptr);
  int state = kPollingWriting;
  while (state != kPollingOk) {
    if (state == kPollingFailed) fail_connection("cannot connect: " + libpq_error());
    wait_socket(state == kPollingWriting, deadline_ns, gen);
    state = api_.connect_poll(conn_);
  }
  api_.set_nonblocking(conn_, 1);
  timeout_ms_ = 0;
}

void Conn::flush(int64_t deadline_ns, uint64_t gen) {
  for (int f; (f = api_.flush(conn_)) != 0;) {
    if (f < 0) fail_connection("lost the connection: " + libpq_error());
    wait_socket(true, deadline_ns, gen);
  }
}

// The next result of the statement in flight (null: none left), waiting for it.
PGresult* Conn::next_result(int64_t deadline_ns, uint64_t gen) {
  while (api_.is_busy(conn_)) {
    wait_socket(false, deadline_ns, gen);
    if (!api_.consume_input(conn_)) fail_connection("lost the connection: " + libpq_error());
  }
  return api_.get_result(conn_);
}

void Conn::append_rows(PGresult* r, std::vector<Row>* rows) const {
  for (int i = 0; i < api_.ntuples(r); ++i) {
    Row row;
    for (int j = 0; j < api_.nfields(r); ++j)
      row.push_back(api_.get_is_null(r, i, j)
                        ? std::nullopt
                        : std::optional<std::string>(api_.get_value(r, i, j)));
    rows->push_back(std::move(row));
  }
}

std::vector<Row> Conn::collect(int64_t deadline_ns, uint64_t gen) {
  flush(deadline_ns, gen);
  std::vector<Row> rows;
  std::string error, sqlstate;
  while (PGresult* r = next_result(deadline_ns, gen)) {
    const int st = api_.result_status(r);
    if (st == kTuplesOk) {
      append_rows(r, &rows);
    } else if (st != kCommandOk && error.empty()) {
      const char* m = api_.result_error_message(r);
      error = trimmed(mask_libpq_message(m ? m : "", conninfo_));
      const char* s = api_.result_error_field(r, kDiagSqlstate);
      sqlstate = s ? s : "";
    }
    api_.clear(r);
  }
  if (api_.status(conn_) != kConnectionOk)
    fail_connection("lost the connection: " + (error.empty() ? libpq_error() : error));
  if (!error.empty()) throw Refused(error, sqlstate);
  return rows;
}

std::vector<Row> Conn::exec(const std::string& sql, const std::vector<std::string>& params,
                            long timeout_ms, int64_t* sent) {
  const uint64_t gen = cancel_ ? cancel_->load(std::memory_order_acquire) : 0;
  const int64_t deadline = now_ns_() + timeout_ms * kNsPerMs;
  if (conn_ && api_.status(conn_) != kConnectionOk) close();
  if (!conn_) connect(deadline);
  if (timeout_ms_ != timeout_ms) {
    // The server ends a statement we stopped waiting for (a lock wait, a stalled disk).
    const std::string ms = std::to_string(timeout_ms) + "ms";
    const std::string set =
        "SELECT set_config('statement_timeout', $1, false), "
        "set_config('lock_timeout', $1, false), "
        "set_config('client_min_messages', 'warning', false)";
    const char* v[] = {ms.c_str()};
    if (!api_.send_query_params(conn_, set.c_str(), 1, nullptr, v, nullptr, nullptr, 0))
      fail_connection("cannot send: " + libpq_error());
    collect(deadline, gen);
    timeout_ms_ = timeout_ms;
  }
  std::vector<const char*> values;
  for (const auto& p : params) values.push_back(p.c_str());
  if (sent) *sent = now_ns_();
  if (!api_.send_query_params(conn_, sql.c_str(), static_cast<int>(values.size()), nullptr,
                              values.data(), nullptr, nullptr, 0))
    fail_connection("cannot send: " + libpq_error());
  return collect(deadline, gen);
}

void Conn::exec_script(const std::string& sql, long timeout_ms) {
  const uint64_t gen = cancel_ ? cancel_->load(std::memory_order_acquire) : 0;
  const int64_t deadline = now_ns_() + timeout_ms * kNsPerMs;
  if (conn_ && api_.status(conn_) != kConnectionOk) close();
  if (!conn_) connect(deadline);
  if (!api_.send_query(conn_, sql.c_str())) fail_connection("cannot send: " + libpq_error());
  collect(deadline, gen);
}

}  // namespace pg
}  // namespace detail
}  // namespace snowfleet
