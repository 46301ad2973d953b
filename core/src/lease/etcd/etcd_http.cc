// HTTP to etcd's v3 JSON gateway (etcd_http.hpp). Only built with etcd support.
#include "etcd_http.hpp"

#include <curl/curl.h>
#include <pthread.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>
#include <string>

#include "base/internal.hpp"
#include "base/quote.hpp"
#include "base/small_file.hpp"
#include "curl_loader.hpp"
#include "curl_transfer.hpp"
#include "etcd_reply.hpp"
#include "json_text.hpp"

namespace snowfleet {
namespace detail {
namespace etcd {
namespace {

using nlohmann::json;

// With several endpoints, an attempt gets 1/(kAttemptDivisor * endpoints) of the request's
// time, at least kMinAttemptMs: with three members a sixth (keepalives at TTL 5: 277 ms;
// a member that answers does so in a few ms on loopback, tens under load), so a request
// whose members all hang asks each of them about twice.
constexpr int64_t kAttemptDivisor = 2;
constexpr int64_t kMinAttemptMs = 100;

// etcd's gateway maps gRPC code 14 (Unavailable: "etcdserver: no leader", "not capable",
// "request timed out", "leader changed", a member without quorum) to HTTP 503, and code 8
// ("too many requests") to 429: the member cannot serve now, and the next may. The code
// rides as "code" or, on streaming calls (keepalive), as "error.grpc_code".
bool unavailable(long status, const json& j) {
  if (status == 503 || status == 429) return true;
  if (!j.is_object() || !j.contains("error")) return false;
  const json& e = j["error"];
  const json code = j.contains("code") ? j["code"]
                    : e.is_object()    ? e.value("grpc_code", json())
                                       : json();
  return code.is_number_integer() && (code.get<int64_t>() == 14 || code.get<int64_t>() == 8);
}

// The error message of an etcd reply, for the caller's exception.
std::string error_text(const json& j, const std::string& raw) {
  if (j.is_object() && j.contains("error") && j["error"].is_object() &&
      j["error"].contains("message"))
    return json_text(j["error"]["message"]);
  if (j.is_object() && j.contains("message") && j["message"].is_string())
    return j["message"].get<std::string>();
  return raw.substr(0, 200);
}

// etcd's answers when a token is not (or no longer) valid: a simple token expires after
// --auth-token-ttl without use, and every token dies when the auth store changes.
bool token_rejected(const std::string& msg) {
  return msg.find("invalid auth token") != std::string::npos ||
         msg.find("auth store is old") != std::string::npos ||
         msg.find("user name is empty") != std::string::npos;
}

// What a transport failure most likely means, for the ones a configuration causes.
std::string hint(CURLcode rc, const std::string& detail, const EtcdConfig& c) {
  if (rc == CURLE_PARTIAL_FILE) return " (the reply was cut short)";
  if (!c.tls)
    return rc == CURLE_GOT_NOTHING || rc == CURLE_RECV_ERROR
               ? " (a TLS endpoint? this spec speaks plaintext: add cacert=PATH, or tls=1 for "
                 "the system CAs)"
               : "";
  // A handshake the server breaks off without a TLS alert (reset, closed, garbage): it does
  // not speak TLS. With an alert it does, and refused us.
  const bool alert = detail.find("alert") != std::string::npos;
  if (rc == CURLE_SSL_CONNECT_ERROR && !alert)
    return " (a plaintext endpoint? drop tls, cacert, cert and key, or check the port)";
  if (rc == CURLE_PEER_FAILED_VERIFICATION)
    return " (the server's certificate does not verify against the CA: check cacert)";
  if (rc == CURLE_RECV_ERROR || rc == CURLE_SEND_ERROR || rc == CURLE_SSL_CONNECT_ERROR)
    return c.cert.empty() ? " (does this etcd require a client certificate "
                            "(--client-cert-auth)? give cert and key)"
                          : " (the server may have refused our client certificate: check cert "
                            "and key)";
  return "";
}

// The tokens of this process, by endpoints and credentials: every handle of every lease
// that authenticates the same way shares one, so a process authenticates once, not once per
// handle (etcd checks each password with bcrypt, a few hundred ms of a member's CPU), and
// one renewal serves them all. Never freed: keepalive threads may use it during exit.
struct Tokens {
  std::mutex mu;
  std::map<std::string, std::string> by_key;
};
Tokens& tokens() {
  // Held across fork() so that a child (which claims a lease of its own) never inherits
  // the mutex locked by a thread that does not exist there.
  static Tokens* t = [] {
    pthread_atfork([] { tokens().mu.lock(); }, [] { tokens().mu.unlock(); },
                   [] { tokens().mu.unlock(); });
    return new Tokens;
  }();
  return *t;
}
std::string token_key(const EtcdConfig& c) {
  std::string key;
  for (const std::string& e : c.endpoints) key += e + ",";
  return key + "\n" + c.user + "\n" + c.password + "\n" + c.password_file + "\n" + c.password_env;
}

// Every message of a call that handled the password passes through here, so that nothing
// an endpoint echoes can carry it into a log.
std::string scrub(std::string msg, const std::string& secret) {
  if (secret.empty()) return msg;
  // Search on after each "***" written: a password inside "***" would find itself there.
  for (size_t at = 0; (at = msg.find(secret, at)) != std::string::npos; at += 3)
    msg.replace(at, secret.size(), "***");
  return msg;
}

// Sets up `h` for one POST of `data` to `url` within `share_ms`, the reply into `out`.
void set_request(CURL* h, const EtcdConfig& cfg, const std::string& url, const std::string& data,
                 curl_slist* headers, long share_ms, std::string* out, Cancel* cancel,
                 char* error) {
  curl_easy_reset(h);
  curl_easy_setopt(h, CURLOPT_URL, url.c_str());
  curl_easy_setopt(h, CURLOPT_POSTFIELDS, data.c_str());
  curl_easy_setopt(h, CURLOPT_POSTFIELDSIZE, static_cast<long>(data.size()));
  curl_easy_setopt(h, CURLOPT_HTTPHEADER, headers);
  curl_easy_setopt(h, CURLOPT_ERRORBUFFER, error);
  error[0] = '\0';
  curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, collect_reply);
  curl_easy_setopt(h, CURLOPT_WRITEDATA, out);
  curl_easy_setopt(h, CURLOPT_TIMEOUT_MS, share_ms);
  curl_easy_setopt(h, CURLOPT_CONNECTTIMEOUT_MS, std::min(share_ms, 1000L));
  curl_easy_setopt(h, CURLOPT_NOPROGRESS, 0L);
  curl_easy_setopt(h, CURLOPT_XFERINFOFUNCTION, cancel_progress);
  curl_easy_setopt(h, CURLOPT_XFERINFODATA, cancel);
  curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L);  // no SIGALRM from a library thread
  curl_easy_setopt(h, CURLOPT_PROXY, "");     // loopback etcd must not go via $http_proxy
  if (!cfg.cacert.empty()) curl_easy_setopt(h, CURLOPT_CAINFO, cfg.cacert.c_str());
  if (!cfg.cert.empty()) curl_easy_setopt(h, CURLOPT_SSLCERT, cfg.cert.c_str());
  if (!cfg.key.empty()) curl_easy_setopt(h, CURLOPT_SSLKEY, cfg.key.c_str());
}

// Why a transfer to `endpoint` failed with `rc`. libcurl keeps the first failure of a
// transfer in `error`, which may be a symptom ("getpeername() failed"): its verdict is named
// too.
std::string transfer_failure(CURLcode rc, const char* error, const std::string& endpoint,
                             const EtcdConfig& cfg) {
  if (rc == CURLE_WRITE_ERROR)
    return endpoint + ": the reply is larger than " + std::to_string(kMaxReply >> 20) + " MiB";
  const std::string detail =
      std::string(curl_easy_strerror(rc)) + (error[0] ? std::string(": ") + error : "");
  return endpoint + ": " + detail + hint(rc, detail, cfg);
}

// A member's answer that is not a success (not JSON, not 200, an error field): refused,
// naming `where` (endpoint and path).
void check_answer(const json& j, long status, const std::string& raw, const std::string& where,
                  const EtcdConfig& cfg) {
  if (j.is_discarded())
    throw Refused(where + " answered HTTP " + std::to_string(status) +
                  " with something that is not JSON");
  if (status == 200 && !(j.is_object() && j.contains("error"))) return;
  std::string msg = error_text(j, raw);
  if (msg.find("permission denied") != std::string::npos)
    msg += " (" + (cfg.user.empty() ? std::string("this client") : "user " + quote(cfg.user)) +
           " needs read and write on the prefix " + quote(cfg.prefix + "/") + ")";
  throw Refused(where + ": HTTP " + std::to_string(status) + ": " + msg);
}

// A plaintext request answered by a TLS endpoint: refused, naming the option that fixes it.
void check_not_tls(const json& j, const std::string& raw, const std::string& endpoint) {
  if (j.is_discarded() && raw.find("HTTP request to an HTTPS server") != std::string::npos)
    throw Refused(endpoint +
                  " is a TLS endpoint and this spec speaks plaintext to it: add cacert=PATH "
                  "(or tls=1 for the system CAs)");
}

}  // namespace

int64_t attempt_share(int64_t n, int64_t budget_ms, int64_t slow_ms) {
  if (n == 1) return budget_ms;
  return std::min(budget_ms / n,
                  std::max({kMinAttemptMs, budget_ms / (kAttemptDivisor * n), 2 * slow_ms}));
}

long attempt_time(bool first, int64_t attempt_ms, int64_t pass_ms, int64_t left_ms) {
  const int64_t want = first ? std::max(attempt_ms, pass_ms) : attempt_ms;
  return static_cast<long>(left_ms < want + attempt_ms ? left_ms : want);
}

Http::Http(const EtcdConfig& c, const std::atomic<uint64_t>* cancel) : cfg_(c), cancel_(cancel) {
  load_curl(c.text);  // libcurl is opened at run time, on the first etcd:// claim
  static std::once_flag once;
  std::call_once(once, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
  h_ = curl_easy_init();
  headers_ = curl_slist_append(nullptr, "Content-Type: application/json");
  if (!h_ || !headers_) throw Error(ErrorKind::kInternal, "libcurl could not create a handle");
}

Http::~Http() {
  if (leak_) return;  // forked child: the handle's connection may be mid-use in the parent
  curl_easy_cleanup(h_);
  curl_slist_free_all(headers_);
  curl_slist_free_all(auth_headers_);
}

// libcurl's own message for an unreadable certificate ("could not load PEM client
// certificate") names neither the option nor why: say both, before any request.
void Http::check_files() {
  for (const auto& [what, path] :
       {std::pair<const char*, const std::string&>{"cacert file ", cfg_.cacert},
        {"cert file ", cfg_.cert},
        {"key file ", cfg_.key},
        {"password_file ", cfg_.password_file}}) {
    if (path.empty()) continue;
    if (access(path.c_str(), R_OK) != 0)
      throw Refused(what + quote(path) + " cannot be read: " + std::strerror(errno));
    if (exists_but_not_regular(path))
      throw Refused(what + quote(path) + " cannot be read: is not a regular file");
  }
  files_checked_ = true;
}

std::string Http::password() const {
  if (!cfg_.password.empty()) return cfg_.password;
  if (!cfg_.password_env.empty()) {
    const char* v = std::getenv(cfg_.password_env.c_str());
    if (v == nullptr || *v == '\0')
      throw Refused("password_env variable " + quote(cfg_.password_env) +
                    (v == nullptr ? " is not set" : " is empty"));
    return v;
  }
  std::string body, why;
  if (!read_small_file(cfg_.password_file, &body, &why))
    throw Refused("password_file " + quote(cfg_.password_file) + " cannot be read: " + why);
  std::string pw = body.substr(0, body.find('\n'));  // the first line, without its end
  if (!pw.empty() && pw.back() == '\r') pw.pop_back();
  if (pw.empty()) throw Refused("password_file " + quote(cfg_.password_file) + " is empty");
  return pw;
}

void Http::set_token(const std::string& token) {
  curl_slist* list = curl_slist_append(nullptr, "Content-Type: application/json");
  if (!list || !curl_slist_append(list, ("Authorization: " + token).c_str())) {
    curl_slist_free_all(list);
    throw Error(ErrorKind::kInternal, "libcurl could not build a header list");
  }
  curl_slist_free_all(auth_headers_);
  auth_headers_ = list;
  token_ = token;
}

void Http::authenticate(int64_t until_ns) {
  const std::string stale = token_, key = token_key(cfg_);
  token_.clear();
  {
    // Another handle may have renewed it already.
    std::lock_guard<std::mutex> lock(tokens().mu);
    const auto it = tokens().by_key.find(key);
    if (it != tokens().by_key.end() && it->second != stale) return set_token(it->second);
  }
  const std::string pw = password();
  const std::string who = "user " + quote(cfg_.user);
  // etcd's JSON gateway carries text: bytes that are not UTF-8 would reach it changed, and
  // the refusal would blame the password.
  if (valid_utf8(cfg_.user) != cfg_.user || valid_utf8(pw) != pw)
    throw Refused(who + ": the user name or the password is not valid UTF-8");
  json r;
  try {
    r = send("/v3/auth/authenticate", json_text(json{{"name", cfg_.user}, {"password", pw}}),
             until_ns);
  } catch (const Refused& e) {
    const std::string msg = scrub(e.what(), pw);
    if (msg.find("authentication failed") != std::string::npos)
      throw Refused(msg + " (" + who + ": wrong password or no such user)");
    if (msg.find("authentication is not enabled") != std::string::npos)
      throw Refused(msg + " (" + who + " given, but this etcd does not check users: " +
                    "enable auth or drop user and password)");
    throw Refused(msg);
  } catch (const Unreachable& e) {
    throw Unreachable(scrub(e.what(), pw));
  }
  const json& token = field(r, "token");
  if (!token.is_string() || token.get<std::string>().empty())
    throw Refused("malformed etcd reply: /v3/auth/authenticate for " + who +
                  " answered without a token");
  set_token(token.get<std::string>());
  std::lock_guard<std::mutex> lock(tokens().mu);
  tokens().by_key[key] = token_;
}

// Authenticating and the request each get `timeout_ms`: etcd checks a password with bcrypt,
// which on a loaded member can take most of a short request timeout by itself.
json Http::post(const std::string& path, const json& body, long timeout_ms) {
  const auto until = [timeout_ms] { return monotonic_ns() + int64_t{timeout_ms} * kNsPerMs; };
  if (!files_checked_) check_files();
  const std::string data = json_text(body);
  if (cfg_.user.empty()) {
    try {
      return send(path, data, until());
    } catch (const Refused& e) {
      if (std::string(e.what()).find("user name is empty") == std::string::npos) throw;
      throw Refused(std::string(e.what()) +
                    " (this etcd checks users: give user= and password_file= or password_env=)");
    }
  }
  if (token_.empty()) authenticate(until());
  try {
    return send(path, data, until());
  } catch (const Refused& e) {
    if (!token_rejected(e.what())) throw;
  }
  authenticate(until());
  return send(path, data, until());
}

// A request asks the endpoints in turn, starting with `current_`, and goes round again while
// its time lasts. With several endpoints an attempt gets a share of the request's time
// (kAttemptDivisor; more when answers have been slow lately, never more than a single pass
// over the members gave each), so a member that accepts connections but does not answer
// (stopped, or a follower forwarding a keepalive to a leader that is gone, until the next
// election) costs one attempt, not the request, and the members that could not answer are
// asked afresh later in the same request, when a new leader may be there. The member that
// answered the last request is asked first, with that single pass's share (a third of the
// time with three members), so a link that turns slow but stays alive keeps working there.
// A member that did not answer is not the next request's first: `current_` moves past
// every member that fails and stays on one that answers. A round in which every member
// failed at once (connection refused, 503) ends the request: nothing would change by
// asking again at once, and the caller retries later. Whatever the rounds, the request
// ends by `until`.
json Http::send(const std::string& path, const std::string& data, int64_t until) {
  std::string last;
  const bool authed = !token_.empty() && path != "/v3/auth/authenticate";
  Cancel cancel{cancel_, cancel_->load(std::memory_order_acquire)};
  const int64_t n = static_cast<int64_t>(cfg_.endpoints.size());
  const int64_t budget_ms = (until - monotonic_ns()) / kNsPerMs;
  const int64_t attempt_ms = attempt_share(n, budget_ms, slow_ms_);
  bool waited = false;  // an attempt in this round ran into its timeout
  for (int64_t i = 0;; ++i) {
    if (i > 0 && i % n == 0) {
      if (!waited) break;
      waited = false;
    }
    const size_t k = current_;
    const int64_t left_ms = (until - monotonic_ns()) / kNsPerMs;
    if (left_ms <= 0) break;
    const long share = attempt_time(i == 0 && answered_, attempt_ms, budget_ms / n, left_ms);
    current_ = (k + 1) % cfg_.endpoints.size();  // unless it answers (below)
    answered_ = false;
    const int64_t started = monotonic_ns();
    const std::string& endpoint = cfg_.endpoints[k];
    std::string out;
    set_request(h_, cfg_, std::string(cfg_.tls ? "https://" : "http://") + endpoint + path, data,
                authed ? auth_headers_ : headers_, share, &out, &cancel, error_);
    const CURLcode rc = curl_easy_perform(h_);
    if (rc == CURLE_ABORTED_BY_CALLBACK) throw Unreachable("request cancelled (closing)");
    if (rc != CURLE_OK) {
      if (rc == CURLE_OPERATION_TIMEDOUT) waited = true;
      last = transfer_failure(rc, error_, endpoint, cfg_);
      continue;
    }
    long status = 0;
    curl_easy_getinfo(h_, CURLINFO_RESPONSE_CODE, &status);
    json j = json::parse(out, nullptr, false);
    check_not_tls(j, out, endpoint);
    if (unavailable(status, j)) {  // this member cannot serve now; another may
      last = endpoint + ": HTTP " + std::to_string(status) + ": " + error_text(j, out);
      continue;
    }
    current_ = k;  // stick to an endpoint that answers
    answered_ = true;
    slow_ms_ = std::max((monotonic_ns() - started) / kNsPerMs, slow_ms_ - slow_ms_ / 8);
    check_answer(j, status, out, endpoint + path, cfg_);
    return j;
  }
  throw Unreachable("etcd unreachable (" + last + ")");
}

}  // namespace etcd
}  // namespace detail
}  // namespace snowfleet
