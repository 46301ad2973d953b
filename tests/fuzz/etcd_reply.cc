// The etcd JSON gateway's replies as the lease protocol reads them (etcd_reply.hpp):
// i64 fields, the range reply listing held slots, and the claim transaction's reply (its
// outcome, header revision and the slot's mark). Any JSON document is a possible reply.
// Properties: nothing crashes or reads out of bounds (ASan, UBSan); a reply is read or
// refused with etcd::Refused, never another exception; an int64 given as a string is read
// exactly when it is -?[0-9]{1,19} within int64; a mark is -1 or more.
#include <nlohmann/json.hpp>
#include <string>

#include "base/strict_int.hpp"
#include "fuzz_check.hpp"
#include "lease/etcd/etcd_reply.hpp"

using nlohmann::json;
namespace etcd = snowfleet::detail::etcd;

namespace {

// i64 against its contract for one field of obj.
void check_i64(const json& obj, const char* key) {
  const bool present = obj.is_object() && obj.contains(key);
  const json& v = etcd::field(obj, key);
  int64_t got;
  try {
    got = etcd::i64(obj, key);
  } catch (const etcd::Refused&) {
    FUZZ_CHECK(present);
    FUZZ_CHECK(!v.is_number_integer() || v.is_number_unsigned());
    return;
  }
  if (!present) {
    FUZZ_CHECK(got == 0);  // absent: the default value
  } else if (v.is_string()) {
    int64_t want;
    FUZZ_CHECK(snowfleet::detail::parse_int64(v.get<std::string>(), &want, true));
    FUZZ_CHECK(got == want);
  } else {
    FUZZ_CHECK(v.is_number_integer());
    FUZZ_CHECK(v.is_number_unsigned() ? got >= 0 && static_cast<uint64_t>(got) == v.get<uint64_t>()
                                      : got == v.get<int64_t>());
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const json reply = json::parse(fuzz::text_of(data, size), nullptr, /*allow_exceptions=*/false);
  if (reply.is_discarded()) return 0;  // not JSON: Http::post refuses it before any reader

  // The int64 fields the lease code reads (grant: ID, TTL; header: revision; keepalive:
  // result.TTL) and whatever else the document holds.
  for (const char* key : {"ID", "TTL", "revision", "count"}) check_i64(reply, key);
  check_i64(etcd::field(reply, "header"), "revision");
  check_i64(etcd::field(reply, "result"), "TTL");
  if (reply.is_object())
    for (const auto& kv : reply.items()) check_i64(reply, kv.key().c_str());

  try {
    for (const int64_t slot : etcd::held_slots(reply, "snowfleet/slots/")) FUZZ_CHECK(slot >= 0);
  } catch (const etcd::Refused&) {
  }

  etcd::ClaimReply r;
  try {
    r = etcd::read_claim_reply(reply);
  } catch (const etcd::Refused&) {
    return 0;
  }
  if (!r.succeeded) {
    FUZZ_CHECK(r.revision == 0 && r.mark_ms == -1 && r.mark_readable);
    return 0;
  }
  FUZZ_CHECK(r.mark_ms >= -1);
  if (!r.mark_readable) FUZZ_CHECK(r.mark_ms == -1);
  return 0;
}
