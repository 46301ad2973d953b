// min_id / max_id / id_range: the ids of a time, for range scans over an id column.
#include <string>

#include "base/fail.hpp"
#include "snowfleet/snowfleet.hpp"

namespace snowfleet {
namespace {

// `name` in [lo, hi] or kTimestampOutOfRange naming it, the layout and the window.
void check_time(const Layout& l, const char* name, int64_t ms, int64_t lo, int64_t hi) {
  if (ms < lo || ms > hi)
    throw Error(ErrorKind::kTimestampOutOfRange, std::string(name) + " must be in [" +
                                                     std::to_string(lo) + ", " +
                                                     std::to_string(hi) + "] for layout " +
                                                     l.to_string() + ", got " + std::to_string(ms));
}

int64_t low(const Layout& l, int64_t ms) { return (ms - l.epoch_ms()) << l.timestamp_shift(); }

int64_t high(const Layout& l, int64_t ms) {
  return low(l, ms) | ((int64_t{1} << l.timestamp_shift()) - 1);
}

// The instant at Unix ms `ms` plus the sub-millisecond part of `nanos`, as RFC 3339 with
// its whole fraction ("2026-12-01T00:00:00.0005Z").
std::string instant_text(int64_t nanos, int64_t ms) {
  std::string text = format_iso8601(ms);
  std::string fraction = std::to_string(1'000'000'000 + nanos).substr(1);
  fraction.erase(fraction.find_last_not_of('0') + 1);
  return text.substr(0, text.rfind('.')) + (fraction.empty() ? "" : "." + fraction) + "Z";
}

}  // namespace

int64_t whole_ms(std::string_view name, int64_t seconds, int64_t nanos) {
  constexpr int64_t kNsPerMs = 1'000'000;
  if (nanos < 0 || nanos >= 1000 * kNsPerMs)
    detail::bad(std::string(name) + " has a fraction of a second of " + std::to_string(nanos) +
                " ns, outside [0, 999999999]");
  int64_t ms;
  if (__builtin_mul_overflow(seconds, int64_t{1000}, &ms) ||
      __builtin_add_overflow(ms, nanos / kNsPerMs, &ms))
    throw Error(ErrorKind::kTimestampOutOfRange,
                std::string(name) + " is outside 64-bit Unix ms, got " + std::to_string(seconds) +
                    " s + " + std::to_string(nanos) + " ns after the Unix epoch");
  if (nanos % kNsPerMs != 0)
    detail::bad(std::string(name) +
                " must be a whole millisecond (an id's timestamp is whole ms), got " +
                instant_text(nanos, ms));
  return ms;
}

int64_t min_id(const Layout& layout, int64_t timestamp_ms) {
  check_time(layout, "timestamp_ms", timestamp_ms, layout.epoch_ms(), layout.max_timestamp_ms());
  return low(layout, timestamp_ms);
}

int64_t max_id(const Layout& layout, int64_t timestamp_ms) {
  check_time(layout, "timestamp_ms", timestamp_ms, layout.epoch_ms(), layout.max_timestamp_ms());
  return high(layout, timestamp_ms);
}

IdRange id_range(const Layout& layout, int64_t start_ms, int64_t end_ms, int64_t slack_ms) {
  const int64_t last_ms = layout.max_timestamp_ms();
  check_time(layout, "start_ms", start_ms, layout.epoch_ms(), last_ms);
  // An empty or reversed range is refused as such before end_ms's window: [epoch, epoch) is
  // empty, not out of range.
  if (end_ms <= start_ms)
    throw Error(ErrorKind::kInvalidArgument,
                "end_ms must be after start_ms (the range [start_ms, end_ms) is half-open), got "
                "start_ms=" +
                    std::to_string(start_ms) + " and end_ms=" + std::to_string(end_ms));
  check_time(layout, "end_ms", end_ms, layout.epoch_ms() + 1, last_ms + 1);
  if (slack_ms < 0)
    throw Error(ErrorKind::kInvalidArgument,
                "slack_ms must be >= 0, got " + std::to_string(slack_ms));
  // Compared before adding: end_ms - 1 + slack_ms may pass int64 for a huge slack.
  const int64_t upper = slack_ms >= last_ms - (end_ms - 1) ? last_ms : end_ms - 1 + slack_ms;
  return {low(layout, start_ms), high(layout, upper)};
}

}  // namespace snowfleet
