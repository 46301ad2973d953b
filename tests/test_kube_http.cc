// The k8s-lease:// source's HTTP requests against a loopback server that answers from a
// script: a request sent again after a 429 carries the same body, so the time it reports
// as sent (a lease deadline's base) is its first sending's.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <catch2/catch.hpp>
#include <fstream>
#include <functional>
#include <string>
#include <thread>
#include <vector>

#include "base/internal.hpp"
#include "lease/k8s/kube_http.hpp"
#include "test_util.hpp"

using snowfleet::detail::monotonic_ns;
using snowfleet::detail::kube::Http;
using snowfleet::detail::kube::Reply;
using snowfleet::detail::kube::Target;

namespace {

// Answers the i-th connection with replies[i] (one request each, then closes), calling
// `before_reply(i)` first.
class ScriptedServer {
 public:
  explicit ScriptedServer(std::vector<std::string> replies,
                          std::function<void(int)> before_reply = nullptr)
      : replies_(std::move(replies)), before_reply_(std::move(before_reply)) {
    fd_ = socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof a;
    REQUIRE(bind(fd_, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0);
    REQUIRE(listen(fd_, 8) == 0);
    REQUIRE(getsockname(fd_, reinterpret_cast<sockaddr*>(&a), &len) == 0);
    port_ = ntohs(a.sin_port);
    thread_ = std::thread([this] { serve(); });
  }
  ~ScriptedServer() {
    shutdown(fd_, SHUT_RDWR);
    thread_.join();
    close(fd_);
  }
  int port() const { return port_; }
  int served() const { return served_.load(); }

 private:
  void serve() {
    for (const std::string& reply : replies_) {
      const int c = accept(fd_, nullptr, nullptr);
      if (c < 0) return;
      read_request(c);
      if (before_reply_) before_reply_(served_.load());
      ++served_;  // before the reply: the client may check as soon as it has it
      (void)!write(c, reply.data(), reply.size());
      close(c);
    }
  }
  // Reads up to the end of the headers and the body they announce.
  static void read_request(int c) {
    std::string in;
    char buf[4096];
    size_t end = std::string::npos;
    while (end == std::string::npos) {
      const ssize_t n = read(c, buf, sizeof buf);
      if (n <= 0) return;
      in.append(buf, static_cast<size_t>(n));
      end = in.find("\r\n\r\n");
    }
    const size_t cl = in.find("Content-Length: ");
    const size_t body = cl == std::string::npos ? 0 : std::stoul(in.substr(cl + 16));
    while (in.size() < end + 4 + body) {
      const ssize_t n = read(c, buf, sizeof buf);
      if (n <= 0) return;
      in.append(buf, static_cast<size_t>(n));
    }
  }

  std::vector<std::string> replies_;
  std::function<void(int)> before_reply_;
  int fd_ = -1, port_ = 0;
  std::atomic<int> served_{0};
  std::thread thread_;
};

std::string reply(int status, const std::string& extra_header) {
  return "HTTP/1.1 " + std::to_string(status) + " X\r\nContent-Type: application/json\r\n" +
         extra_header + "Content-Length: 2\r\nConnection: close\r\n\r\n{}";
}

// A renewal's PATCH to `server` within `timeout_ms`: its status, and when it was sent
// relative to the call (ns).
struct Sent {
  long status;
  int64_t after_call_ns;
};
Sent renew_through(const ScriptedServer& server, long timeout_ms,
                   const std::string& token_file = "") {
  Target target;
  target.server = "http://127.0.0.1:" + std::to_string(server.port());
  target.token_file = token_file;
  target.source = "a test server";
  std::atomic<uint64_t> cancel{0};
  Http http(target, "k8s-lease://ids", &cancel);
  const nlohmann::json body = {{"spec", {{"renewTime", "2026-12-07T00:00:00.000000Z"}}}};
  const int64_t before = monotonic_ns();
  int64_t sent = 0;
  const Reply r = http.request("PATCH", "/leases/ids-0", &body, timeout_ms, &sent);
  return {r.status, sent - before};
}

}  // namespace

TEST_CASE("a request sent again after a 429 reports its first sending as sent",
          "[k8s][etcd-offline]") {
  const std::string turned_away = reply(429, "Retry-After: 1\r\n");
  ScriptedServer server({turned_away, turned_away, reply(200, "")});
  const int64_t before = monotonic_ns();
  const Sent r = renew_through(server, 2000);
  CHECK(r.status == 200);
  CHECK(server.served() == 3);
  CHECK(monotonic_ns() - before >= 2'000'000'000);  // two waits of Retry-After's second
  CHECK(r.after_call_ns >= 0);
  CHECK(r.after_call_ns < 1'000'000'000);  // the first sending, before the first wait
}

TEST_CASE("a request sent again after a 401 with a rotated token reports its first sending",
          "[k8s][etcd-offline]") {
  const std::string token = snowfleet_test::temp_dir() + "/token";
  std::ofstream(token) << "first";
  // The kubelet rotates the token while the first request is on its way: refused (401),
  // then sent again with the new one after a pause.
  ScriptedServer server({reply(401, ""), reply(200, "")}, [&token](int i) {
    if (i > 0) return;
    std::ofstream(token, std::ios::trunc) << "second";
    std::this_thread::sleep_for(std::chrono::milliseconds(1200));
  });
  const Sent r = renew_through(server, 3000, token);
  CHECK(r.status == 200);
  CHECK(server.served() == 2);
  CHECK(r.after_call_ns < 1'000'000'000);  // the first sending, before the server's pause
}
