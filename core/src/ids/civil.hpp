// The proleptic Gregorian calendar in integer arithmetic (Howard Hinnant's days_from_civil
// and civil_from_days): exact for every date an int64 of milliseconds or microseconds since
// 1970 reaches, with no dependence on the C library's time zone state.
#pragma once

#include <cstdint>

namespace snowfleet {
namespace detail {

/// Days from 1970-01-01 to year-month-day (negative before it).
inline int64_t days_from_civil(int64_t year, int64_t month, int64_t day) noexcept {
  const int64_t y = year - (month <= 2);
  const int64_t era = (y >= 0 ? y : y - 399) / 400;
  const int64_t yoe = y - era * 400;
  const int64_t doy = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1;
  const int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + doe - 719468;
}

struct CivilDate {
  int64_t year, month, day;
};

/// The date `days` after 1970-01-01 (before it when negative).
inline CivilDate civil_from_days(int64_t days) noexcept {
  const int64_t z = days + 719468;
  const int64_t era = (z >= 0 ? z : z - 146096) / 146097;
  const int64_t doe = z - era * 146097;
  const int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  const int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const int64_t mp = (5 * doy + 2) / 153;
  const int64_t d = doy - (153 * mp + 2) / 5 + 1;
  const int64_t m = mp < 10 ? mp + 3 : mp - 9;
  return {yoe + era * 400 + (m <= 2), m, d};
}

}  // namespace detail
}  // namespace snowfleet
