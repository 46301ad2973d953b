// Reading and writing the Lease protocol's texts (kube_reply.hpp).
#include "kube_reply.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "base/strict_int.hpp"
#include "ids/civil.hpp"

namespace snowfleet {
namespace detail {
namespace kube {
namespace {

using nlohmann::json;

bool optional_string(const json& obj, const char* key, std::string* out) {
  if (!obj.contains(key) || obj[key].is_null()) return true;
  if (!obj[key].is_string()) return false;
  *out = obj[key].get<std::string>();
  return true;
}

bool optional_int(const json& obj, const char* key, int64_t* out) {
  if (!obj.contains(key) || obj[key].is_null()) return true;
  if (!obj[key].is_number_integer()) return false;
  *out = obj[key].get<int64_t>();
  return *out >= 0;
}

bool digits(const std::string& s, size_t at, size_t n, int64_t* out) {
  return at + n <= s.size() && parse_uint(std::string_view(s).substr(at, n), out);
}

// The digits of "YYYY-MM-DDTHH:MM:SS[.ffffff]Z" into f[0..6]; false for any other shape.
bool micro_time_fields(const std::string& s, int64_t* f) {
  if (s.size() != 20 && s.size() != 27) return false;
  if (s[4] != '-' || s[7] != '-' || s[10] != 'T' || s[13] != ':' || s[16] != ':' || s.back() != 'Z')
    return false;
  const size_t at[6] = {0, 5, 8, 11, 14, 17}, len[6] = {4, 2, 2, 2, 2, 2};
  for (int i = 0; i < 6; ++i)
    if (!digits(s, at[i], len[i], &f[i])) return false;
  return s.size() == 20 || (s[19] == '.' && digits(s, 20, 6, &f[6]));
}

// The mark annotation, when the Lease has one: false when it is not a decimal integer.
bool parse_mark(const json& md, LeaseView* out) {
  if (!md.contains("annotations") || !md["annotations"].is_object()) return true;
  std::string mark;
  if (!optional_string(md["annotations"], kMarkAnnotation, &mark)) return false;
  return mark.empty() || parse_int64(mark, &out->mark_ms);
}

bool parse_spec(const json& spec, LeaseView* out, std::string* why) {
  std::string renew;
  if (!optional_string(spec, "holderIdentity", &out->holder))
    *why = "spec.holderIdentity";
  else if (!optional_int(spec, "leaseDurationSeconds", &out->duration_s))
    *why = "spec.leaseDurationSeconds";
  else if (!optional_int(spec, "leaseTransitions", &out->transitions))
    *why = "spec.leaseTransitions";
  else if (!optional_string(spec, "renewTime", &renew) ||
           (!renew.empty() && !parse_micro_time(renew, &out->renew_us)))
    *why = "spec.renewTime";
  return why->empty();
}

}  // namespace

bool parse_lease(const json& j, LeaseView* out, std::string* why) {
  why->clear();
  *out = LeaseView{};
  if (!j.is_object() || !j.contains("metadata") || !j["metadata"].is_object()) {
    *why = "a Lease without metadata";
    return false;
  }
  const json& md = j["metadata"];
  if (!optional_string(md, "name", &out->name) || out->name.empty() ||
      !optional_string(md, "resourceVersion", &out->resource_version) ||
      out->resource_version.empty()) {
    *why = "a Lease without metadata.name or metadata.resourceVersion";
    return false;
  }
  if (!parse_mark(md, out)) {
    out->mark_ms = -1;
    out->mark_unreadable = true;
  }
  if (j.contains("spec") && j["spec"].is_object() && !parse_spec(j["spec"], out, why)) {
    *why = "Lease " + out->name + ": malformed " + *why;
    return false;
  }
  return true;
}

bool parse_lease_list(const json& j, std::vector<LeaseView>* out, std::string* why) {
  out->clear();
  if (!j.is_object() || !j.contains("items") || !(j["items"].is_array() || j["items"].is_null())) {
    *why = "a LeaseList without items";
    return false;
  }
  if (j["items"].is_null()) return true;
  for (const json& item : j["items"]) {
    LeaseView v;
    if (!parse_lease(item, &v, why)) return false;
    out->push_back(v);
  }
  return true;
}

Status parse_status(const json& j) {
  Status s;
  if (!j.is_object()) return s;
  optional_string(j, "reason", &s.reason);
  optional_string(j, "message", &s.message);
  if (const size_t nl = s.message.find('\n'); nl != std::string::npos) s.message.resize(nl);
  if (s.message.size() > 300) s.message = s.message.substr(0, 300) + "...";
  return s;
}

std::string status_text(long status, const json& body) {
  const std::string message = parse_status(body).message;
  return "HTTP " + std::to_string(status) +
         (message.empty()
              ? " with no Kubernetes Status in the reply (is it the API server, over https?)"
              : ": " + message);
}

std::string forbidden_user(const std::string& message) {
  const std::string key = "User \"";
  const size_t at = message.find(key);
  if (at == std::string::npos) return "";
  const size_t end = message.find('"', at + key.size());
  return end == std::string::npos ? "" : message.substr(at + key.size(), end - at - key.size());
}

std::string format_micro_time(int64_t us) {
  const int64_t secs = us >= 0 ? us / 1'000'000 : (us - 999'999) / 1'000'000;
  const int64_t frac = us - secs * 1'000'000;
  const int64_t days = secs >= 0 ? secs / 86400 : (secs - 86399) / 86400;
  const int64_t sod = secs - days * 86400;
  const auto [y, m, d] = civil_from_days(days);
  char buf[160];  // room for any int64 fields, so the format is never cut
  std::snprintf(buf, sizeof buf, "%04lld-%02lld-%02lldT%02lld:%02lld:%02lld.%06lldZ",
                static_cast<long long>(y), static_cast<long long>(m), static_cast<long long>(d),
                static_cast<long long>(sod / 3600), static_cast<long long>(sod / 60 % 60),
                static_cast<long long>(sod % 60), static_cast<long long>(frac));
  return buf;
}

bool parse_micro_time(const std::string& s, int64_t* us) {
  int64_t f[7] = {0, 0, 0, 0, 0, 0, 0};  // year, month, day, hour, minute, second, µs
  if (!micro_time_fields(s, f)) return false;
  if (f[1] < 1 || f[1] > 12 || f[2] < 1 || f[2] > 31 || f[3] > 23 || f[4] > 59 || f[5] > 60)
    return false;
  *us = ((days_from_civil(f[0], f[1], f[2]) * 86400 + f[3] * 3600 + f[4] * 60 + f[5]) * 1'000'000) +
        f[6];
  return true;
}

bool lease_free(const LeaseView& l, int64_t now_us, int64_t margin_us) {
  if (l.holder.empty()) return true;
  if (l.renew_us < 0 || l.duration_s <= 0) return false;
  return l.renew_us + l.duration_s * 1'000'000 + margin_us < now_us;
}

json create_body(const std::string& name, const std::string& prefix, const std::string& holder,
                 int64_t ttl_s, int64_t now_us) {
  const std::string t = format_micro_time(now_us);
  return json{{"apiVersion", "coordination.k8s.io/v1"},
              {"kind", "Lease"},
              {"metadata", {{"name", name}, {"labels", {{kPrefixLabel, prefix}}}}},
              {"spec",
               {{"holderIdentity", holder},
                {"leaseDurationSeconds", ttl_s},
                {"acquireTime", t},
                {"renewTime", t},
                {"leaseTransitions", 0}}}};
}

json takeover_patch(const LeaseView& l, const std::string& holder, int64_t ttl_s, int64_t now_us) {
  const std::string t = format_micro_time(now_us);
  // The API server refuses (422) a count outside 0..2^31-1: one hand-edited Lease must not
  // make its slot impossible to take.
  const int64_t transitions = std::clamp<int64_t>(l.transitions, -1, INT32_MAX - 1) + 1;
  return json{{"metadata", {{"resourceVersion", l.resource_version}}},
              {"spec",
               {{"holderIdentity", holder},
                {"leaseDurationSeconds", ttl_s},
                {"acquireTime", t},
                {"renewTime", t},
                {"leaseTransitions", transitions}}}};
}

json renew_patch(const std::string& rv, int64_t now_us, int64_t ttl_s, int64_t mark_ms) {
  json p = {{"metadata", {{"resourceVersion", rv}}},
            {"spec", {{"renewTime", format_micro_time(now_us)}, {"leaseDurationSeconds", ttl_s}}}};
  if (mark_ms >= 0) p["metadata"]["annotations"] = {{kMarkAnnotation, std::to_string(mark_ms)}};
  return p;
}

json release_patch(const std::string& rv, int64_t mark_ms) {
  json p = {{"metadata", {{"resourceVersion", rv}}}, {"spec", {{"holderIdentity", nullptr}}}};
  if (mark_ms >= 0) p["metadata"]["annotations"] = {{kMarkAnnotation, std::to_string(mark_ms)}};
  return p;
}

}  // namespace kube
}  // namespace detail
}  // namespace snowfleet
