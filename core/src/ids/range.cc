// min_id / max_id / id_range: the ids of a time, for range scans over an id column.
#include <string>

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

}  // namespace

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
  check_time(layout, "end_ms", end_ms, layout.epoch_ms() + 1, last_ms + 1);
  if (end_ms <= start_ms)
    throw Error(ErrorKind::kInvalidArgument,
                "end_ms must be after start_ms (the range [start_ms, end_ms) is half-open), got "
                "start_ms=" +
                    std::to_string(start_ms) + " and end_ms=" + std::to_string(end_ms));
  if (slack_ms < 0)
    throw Error(ErrorKind::kInvalidArgument,
                "slack_ms must be >= 0, got " + std::to_string(slack_ms));
  // Compared before adding: end_ms - 1 + slack_ms may pass int64 for a huge slack.
  const int64_t upper = slack_ms >= last_ms - (end_ms - 1) ? last_ms : end_ms - 1 + slack_ms;
  return {low(layout, start_ms), high(layout, upper)};
}

}  // namespace snowfleet
