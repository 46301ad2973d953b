// Reading the replies of etcd's v3 JSON gateway (etcd_reply.hpp). Only built with etcd
// support: it needs nlohmann-json.
#include "etcd_reply.hpp"

#include <cstdint>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <string_view>

#include "base/strict_int.hpp"
#include "etcd_base64.hpp"
#include "json_text.hpp"

namespace snowfleet {
namespace detail {
namespace etcd {

using nlohmann::json;

// A malformed value is never a guess: it refuses the reply.
int64_t i64(const json& obj, const char* field) {
  if (!obj.is_object() || !obj.contains(field)) return 0;
  const json& v = obj[field];
  int64_t out;
  if (v.is_string() && parse_int64(v.get<std::string>(), &out, true)) return out;
  if (v.is_number_integer() && !v.is_number_unsigned()) return v.get<int64_t>();
  if (v.is_number_unsigned() && v.get<uint64_t>() <= uint64_t{INT64_MAX})
    return static_cast<int64_t>(v.get<uint64_t>());
  throw Refused(std::string("malformed etcd reply: field ") + field + " is " +
                json_text(v).substr(0, 40) + ", not an int64");
}

const json& field(const json& j, const char* key) {
  static const json null;
  if (!j.is_object()) return null;
  const auto it = j.find(key);
  return it == j.end() ? null : *it;
}

const json& item(const json& j, size_t i) {
  static const json null;
  return j.is_array() && i < j.size() ? j[i] : null;
}

std::string slot_text(int64_t slot) {
  std::string n = std::to_string(slot);
  if (n.size() < 4) n.insert(0, 4 - n.size(), '0');
  return n;
}

std::set<int64_t> held_slots(const json& reply, const std::string& slots_dir, int64_t slots) {
  std::set<int64_t> held;
  const json& kvs = field(reply, "kvs");  // absent when no slot is held
  if (kvs.is_null()) return held;
  if (!kvs.is_array())
    throw Refused("malformed etcd reply: kvs is " + json_text(kvs).substr(0, 40));
  for (const json& kv : kvs) {
    const json& key = field(kv, "key");
    const std::string k = key.is_string() ? unb64(key.get<std::string>()) : "";
    if (k.compare(0, slots_dir.size(), slots_dir) != 0)
      throw Refused("malformed etcd reply: a range over " + slots_dir + " listed " +
                    json_text(kv).substr(0, 80));
    const std::string_view name = std::string_view(k).substr(slots_dir.size());
    int64_t n;
    if (parse_uint(name, &n) && n < slots && name == slot_text(n)) held.insert(n);
  }
  return held;
}

ClaimReply read_claim_reply(const json& reply) {
  ClaimReply r;
  const json& succeeded = field(reply, "succeeded");  // absent when false
  if (!succeeded.is_null() && !succeeded.is_boolean())
    throw Refused("malformed etcd reply: succeeded is " + json_text(succeeded).substr(0, 40));
  r.succeeded = succeeded.is_boolean() && succeeded.get<bool>();
  if (!r.succeeded) return r;
  r.revision = i64(field(reply, "header"), "revision");
  if (r.revision <= 0)
    throw Refused("malformed etcd reply: a claim that succeeded without a header revision");
  // responses[1] answers the range over the mark key; no kvs: the slot has no mark yet. A
  // reply without that range (another shape, a transcoder's camelCase) says nothing about
  // the slot's history, which must never be read as "none".
  const json& range = field(item(field(reply, "responses"), 1), "response_range");
  if (!range.is_object())
    throw Refused(
        "malformed etcd reply: the claim's answer has no responses[1].response_range "
        "(the slot's mark could not be read)");
  const json& kvs = field(range, "kvs");
  if (kvs.is_array() && !kvs.empty()) {
    r.mark_revision = i64(kvs[0], "mod_revision");
    const json& value = field(kvs[0], "value");
    const std::string v = value.is_string() ? unb64(value.get<std::string>()) : "";
    if (!parse_int64(v, &r.mark_ms, true) || r.mark_ms < -1) {
      r.mark_readable = false;
      r.mark_ms = -1;
      r.mark_text = v;
    }
  }
  return r;
}

MarkRecheck read_mark_failure(const json& reply,
                              const std::vector<std::pair<int64_t, int64_t>>& expected) {
  const json& responses = field(reply, "responses");
  const auto kv_at = [&](size_t i) -> const json& {
    return item(field(field(item(responses, i), "response_range"), "kvs"), 0);
  };
  MarkRecheck out;
  for (size_t i = 0; i < expected.size(); ++i) {
    const json& slot = kv_at(2 * i);
    const int64_t created = slot.is_object() ? i64(slot, "create_revision") : 0;
    if (created != expected[i].first) continue;
    const json& mark = kv_at(2 * i + 1);
    const int64_t modified = mark.is_object() ? i64(mark, "mod_revision") : 0;
    out.moved = out.moved || modified != expected[i].second;
    out.ours.emplace_back(i, modified);
  }
  return out;
}

}  // namespace etcd
}  // namespace detail
}  // namespace snowfleet
