// The Lease protocol's texts (docs/lease-engines.md): reading a Lease, a list of them and a
// Status strictly; MicroTime; the request bodies for create, takeover, renewal and release.
// Pure functions, so they are tested without a server. Internal.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace snowfleet {
namespace detail {
namespace kube {

/// The annotation carrying a slot's high-water mark (decimal Unix ms) and the label that
/// groups a prefix's Leases.
inline constexpr const char* kMarkAnnotation = "snowfleet.dev/mark-ms";
inline constexpr const char* kPrefixLabel = "snowfleet.dev/prefix";

/// What the engine reads of a Lease.
struct LeaseView {
  std::string name;
  std::string resource_version;
  std::string holder;       ///< "" : nobody
  int64_t renew_us = -1;    ///< spec.renewTime, Unix µs; -1: absent
  int64_t duration_s = 0;   ///< spec.leaseDurationSeconds; 0: absent
  int64_t transitions = 0;  ///< spec.leaseTransitions
  int64_t mark_ms = -1;     ///< the mark annotation; -1: absent
  /// The mark annotation is there but not a decimal integer (a hand edit): the slot's
  /// history is unknown, so no claim takes it; its holder writes its own mark over it.
  bool mark_unreadable = false;
};

/// Reads one Lease object; false with *why naming the field when it is malformed.
bool parse_lease(const nlohmann::json& j, LeaseView* out, std::string* why);
/// Reads a LeaseList's items.
bool parse_lease_list(const nlohmann::json& j, std::vector<LeaseView>* out, std::string* why);

/// A Status reply's reason and message ("" when absent or not a Status); the message cut at
/// its first line and 300 bytes (a 422 echoes the whole object).
struct Status {
  std::string reason, message;
};
Status parse_status(const nlohmann::json& j);
/// "HTTP 409: <the Status's message>", for messages; a reply with no Status message (not an
/// API server's, such as plain HTTP sent to its HTTPS port) says so.
std::string status_text(long status, const nlohmann::json& body);
/// The user a 403's message names (User "x" cannot ...), "" if none.
std::string forbidden_user(const std::string& message);

/// Kubernetes MicroTime: RFC 3339 UTC with exactly six fractional digits.
std::string format_micro_time(int64_t unix_us);
/// Parses MicroTime (exactly the form format_micro_time writes; the server normalises
/// offsets to Z) or a whole-second Time; false for anything else.
bool parse_micro_time(const std::string& s, int64_t* unix_us);

/// Whether a claimant may take the Lease at `now_us` (its wall clock): nobody holds it, or
/// renewTime + leaseDurationSeconds + `margin_us` is past. A holder without a renewTime or a
/// duration is never free (not ours to judge).
bool lease_free(const LeaseView& l, int64_t now_us, int64_t margin_us);

/// The Lease a claim creates for a slot never used.
nlohmann::json create_body(const std::string& name, const std::string& prefix,
                           const std::string& holder, int64_t ttl_s, int64_t now_us);
/// The merge patch taking over an expired or released Lease seen at `l`.
nlohmann::json takeover_patch(const LeaseView& l, const std::string& holder, int64_t ttl_s,
                              int64_t now_us);
/// The merge patch renewing at `rv` for `ttl_s` (restated: a duration edited by hand lasts
/// until the next renewal) and writing `mark_ms` (none when < 0).
nlohmann::json renew_patch(const std::string& rv, int64_t now_us, int64_t ttl_s, int64_t mark_ms);
/// The merge patch releasing at `rv`: no holder, the final mark (none when < 0).
nlohmann::json release_patch(const std::string& rv, int64_t mark_ms);

}  // namespace kube
}  // namespace detail
}  // namespace snowfleet
