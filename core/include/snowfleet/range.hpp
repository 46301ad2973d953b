// snowfleet public API: the ids of a time, for range scans over an id column.
// Included by <snowfleet/snowfleet.hpp>.
#pragma once

#include <cstdint>
#include <string_view>

#include "snowfleet/layout.hpp"

namespace snowfleet {

/// The lowest id any node can mint in Unix millisecond `timestamp_ms`: node 0, sequence 0.
/// A time outside [epoch_ms, max_timestamp_ms] throws kTimestampOutOfRange naming it.
int64_t min_id(const Layout& layout, int64_t timestamp_ms);
/// The highest id any node can mint in Unix millisecond `timestamp_ms`: every node and
/// sequence bit set. The same time rule as min_id().
int64_t max_id(const Layout& layout, int64_t timestamp_ms);

/// Unix ms of an instant a host holds as whole seconds since the Unix epoch plus a fraction
/// of `nanos` ns in [0, 10^9) (a Python datetime, a Java Instant). An id's timestamp is whole
/// milliseconds and nothing is rounded: a fraction finer than a millisecond throws
/// kInvalidArgument naming `name` and the instant; an instant past int64 Unix ms
/// kTimestampOutOfRange.
int64_t whole_ms(std::string_view name, int64_t seconds, int64_t nanos);

/// Inclusive bounds of an id range: `id BETWEEN first AND last` (SQL), `first <= id && id <= last`.
struct IdRange {
  int64_t first = 0;
  int64_t last = 0;
};

/// The ids stamped in the half-open time range [start_ms, end_ms), as inclusive bounds
/// (inclusive, so the last millisecond of a layout's window has an upper bound that fits in
/// an int64): first = min_id(start_ms), last = max_id(end_ms - 1 + slack_ms).
///
/// slack_ms: a strict generator stamps an id with the wall-clock millisecond it was minted
/// in, so [start, end) of stamps is [start, end) of minting time and slack_ms = 0 is exact.
/// A monotonic generator may stamp an id up to max_drift_ms *ahead* of the wall clock
/// (after a rewind, or a burst past 4,096 ids per ms), never behind: to find every id
/// *minted* between start and end, pass that generator's max_drift_ms as slack_ms. It
/// widens the upper bound only, and never past the layout's last millisecond.
///
/// Rules, checked in this order: start_ms in [epoch_ms, max_timestamp_ms] and end_ms in
/// [epoch_ms + 1, max_timestamp_ms + 1] (else kTimestampOutOfRange naming the value);
/// end_ms > start_ms (an empty range has no bounds) and slack_ms >= 0 (else
/// kInvalidArgument naming the values).
IdRange id_range(const Layout& layout, int64_t start_ms, int64_t end_ms, int64_t slack_ms = 0);

}  // namespace snowfleet
