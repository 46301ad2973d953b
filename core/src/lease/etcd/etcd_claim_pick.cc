// The claim walk's decisions (etcd_claim_pick.hpp). Only built with etcd support.
#include "etcd_claim_pick.hpp"

#include <vector>

#include "base/quote.hpp"

namespace snowfleet {
namespace detail {
namespace etcd {

int64_t pick_free_slot(const SlotChoice& choice, std::mt19937_64& rng) {
  const auto in = [](const std::set<int64_t>* s, int64_t n) { return s && s->count(n) > 0; };
  std::vector<int64_t> free;
  for (int64_t n = 0; n < choice.slots; ++n) {
    if (in(choice.held, n) || in(choice.claiming, n) || in(choice.skipped, n)) continue;
    if (!choice.usable || choice.usable(n)) free.push_back(n);
  }
  if (free.empty()) return -1;
  return free[std::uniform_int_distribution<size_t>(0, free.size() - 1)(rng)];
}

size_t count_taken(const std::set<int64_t>& held, const std::set<int64_t>& claiming) {
  size_t n = held.size();
  for (const int64_t slot : claiming) n += held.count(slot) ? 0 : 1;
  return n;
}

std::string mark_problem(bool mark_readable, int64_t mark_ms, const std::string& mark_text,
                         const std::string& mark_key, const Layout& layout) {
  if (!mark_readable)
    return "the mark key " + mark_key + " holds " + quote(mark_text) + ", not a Unix ms";
  if (mark_ms > layout.max_timestamp_ms())
    return "the mark key " + mark_key + " holds " + std::to_string(mark_ms) +
           ", past the last millisecond of layout " + layout.to_string();
  return "";
}

std::string claim_refusal(const std::string& quoted, const std::string& slots_dir, int64_t node,
                          size_t held, int64_t slots, const std::string& skipped) {
  std::string msg =
      node >= 0 ? quoted + ": slot " + std::to_string(node) + " under " + slots_dir +
                      (skipped.empty() ? " is held by another process" : " is not available")
                : quoted + ": no free node id under " + slots_dir + " (" + std::to_string(held) +
                      " of " + std::to_string(slots) + " slots held)";
  if (!skipped.empty()) msg += "; skipped: " + skipped;
  return msg;
}

}  // namespace etcd
}  // namespace detail
}  // namespace snowfleet
