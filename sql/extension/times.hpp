// Unix milliseconds and PostgreSQL's timestamptz (microseconds since 2000-01-01 UTC).
#pragma once

#include <cstdint>

#include "pg.hpp"

namespace snowfleet_pg {

/// The first and last Unix ms a timestamptz holds (4714-11-24T00:00:00Z BC and
/// 294276-12-31T23:59:59.999Z); every layout's window lies inside.
constexpr int64_t kMinTimestampMs = MIN_TIMESTAMP / 1000 + 946684800000;
constexpr int64_t kMaxTimestampMs = (END_TIMESTAMP - 1) / 1000 + 946684800000;

/// The timestamptz of Unix ms; precondition: ms in [kMinTimestampMs, kMaxTimestampMs].
inline TimestampTz timestamptz_of_ms(int64_t ms) noexcept { return (ms - 946684800000) * 1000; }

/// The Unix ms of a timestamptz that must be finite (else TIMESTAMP_OUT_OF_RANGE) and a
/// whole millisecond (else INVALID_ARGUMENT naming it): nothing is rounded silently.
int64_t ms_of_timestamptz(TimestampTz t);

}  // namespace snowfleet_pg
