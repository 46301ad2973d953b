// The local registry claim's decisions (local_claim_pick.hpp).
#include "local_claim_pick.hpp"

#include <algorithm>

#include "base/quote.hpp"
#include "base/strict_int.hpp"
#include "snowfleet/errors.hpp"
#include "spec_options.hpp"

namespace snowfleet {
namespace detail {

namespace {

// A share's name becomes a file name in the registry: a short, plain word.
std::string share_option(const std::string& quoted, const std::string& v) {
  bool plain = !v.empty() && v.size() <= 64 && v[0] != '.';
  for (char c : v)
    plain = plain && ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                      c == '-' || c == '_' || c == '.');
  if (!plain)
    throw Error(ErrorKind::kInvalidArgument,
                quoted + ": share must be 1 to 64 characters of A-Z a-z 0-9 . _ - (not starting "
                         "with '.'), got " + quote(v));
  return v;
}

}  // namespace

LocalSpec parse_local_spec(const std::string& spec, const Layout& layout,
                           const std::string& quoted) {
  LocalSpec out;
  out.dir = spec.size() > 6 && spec[5] == ':' ? spec.substr(6) : "";
  const auto q = spec.find('?');
  if (q == std::string::npos) return out;
  if (out.dir.size() >= spec.size() - q) out.dir.resize(out.dir.size() - (spec.size() - q));
  const std::string query = spec.substr(q + 1);
  bool seen_node = false, seen_share = false;
  for (size_t at = 0; at <= query.size();) {
    const size_t amp = std::min(query.find('&', at), query.size());
    const std::string option = query.substr(at, amp - at);
    at = amp + 1;
    const auto eq = option.find('=');
    const std::string k = option.substr(0, eq),
                      v = eq == std::string::npos ? "" : option.substr(eq + 1);
    bool& seen = k == "node" ? seen_node : seen_share;
    if (k != "node" && k != "share")
      throw Error(ErrorKind::kInvalidArgument,
                  quoted + ": unknown option " + quote(k) + " (known: node, share)");
    if (seen)
      throw Error(ErrorKind::kInvalidArgument, quoted + ": option " + quote(k) + " given twice");
    seen = true;
    if (k == "node")
      out.pinned = node_option(quoted, v, layout);
    else
      out.share = share_option(quoted, v);
  }
  return out;
}

std::string local_mark_problem(registry::MarkFile found, int64_t mark, const std::string& why,
                               const std::string& path, const Layout& layout) {
  if (found == registry::MarkFile::kValue && mark > layout.max_timestamp_ms())
    return path + ".mark: mark " + std::to_string(mark) +
           " is past the last millisecond of layout " + layout.to_string() +
           ": the slot can never issue ids under it";
  return found == registry::MarkFile::kUnusable ? why : "";
}

std::string local_refusal(const std::string& quoted, const std::string& dir, int64_t pinned,
                          int64_t probes, const LocalTally& t) {
  if (pinned >= 0)
    return quoted + ": slot " + std::to_string(pinned) + " of registry directory " + dir +
           (t.held        ? " is held by a live process"
            : t.used_here ? " is used by an open generator of this process"
                          : " cannot be used") +
           (t.problem.empty() ? std::string() : " (" + t.problem + ")");
  std::string msg = quoted + ": no free node id in registry directory " + dir + " (" +
                    std::to_string(t.held) + " of " + std::to_string(probes) +
                    " slots probed are held by live processes";
  if (t.used_here)
    msg += ", " + std::to_string(t.used_here) + " used by open generators of this process";
  if (!t.problem.empty()) msg += "; unusable: " + t.problem;
  return msg + ")";
}

}  // namespace detail
}  // namespace snowfleet
