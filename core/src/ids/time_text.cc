// parse_iso8601: the one reader of time text (RFC 3339 date-times) in snowfleet. The CLI's
// --time and every language's parse_time call it; conformance/vectors/time.json pins what it
// accepts and refuses, from the independent model in conformance/model/time_model.py.
//
// It reads left to right and stops at the first field that breaks the grammar or its range,
// so the message names that one rule.
#include <string>

#include "base/quote.hpp"
#include "base/strict_int.hpp"
#include "ids/civil.hpp"
#include "snowfleet/snowfleet.hpp"

namespace snowfleet {
namespace {

using detail::quote;

std::string two(int64_t v) {
  std::string s = std::to_string(v);
  return s.size() < 2 ? "0" + s : s;
}

std::string four(int64_t v) {
  std::string s = std::to_string(v);
  return std::string(4 - s.size(), '0') + s;
}

bool is_leap(int64_t year) { return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0); }

int64_t days_in_month(int64_t year, int64_t month) {
  static constexpr int64_t kDays[12] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  return month == 2 && is_leap(year) ? 29 : kDays[month - 1];
}

class Reader {
 public:
  explicit Reader(std::string_view text) : text_(text) {}

  [[noreturn]] void fail(const std::string& rule) const {
    throw Error(ErrorKind::kInvalidArgument,
                "time must be RFC 3339 (YYYY-MM-DDTHH:MM:SS[.mmm] then Z, +HH:MM or -HH:MM), "
                "got " +
                    quote(text_) + ": " + rule);
  }

  bool at_end() const { return pos_ >= text_.size(); }
  char peek() const { return at_end() ? '\0' : text_[pos_]; }
  bool peek_digit() const { return !at_end() && text_[pos_] >= '0' && text_[pos_] <= '9'; }

  // Consumes `c` (or its lower-case form when `lower` is set) if it is next.
  bool take(char c, char lower = '\0') {
    if (at_end() || (text_[pos_] != c && (lower == '\0' || text_[pos_] != lower))) return false;
    ++pos_;
    return true;
  }

  // Exactly `n` ASCII digits, or fail(rule).
  int64_t digits(size_t n, const std::string& rule) {
    int64_t v = 0;
    if (text_.size() - pos_ < n || !detail::parse_uint(text_.substr(pos_, n), &v)) fail(rule);
    pos_ += n;
    return v;
  }

  // A two-digit field in [lo, hi]: `name` names it in both rules.
  int64_t field2(const std::string& name, int64_t lo, int64_t hi) {
    const int64_t v = digits(2, "the " + name + " must be 2 ASCII digits");
    if (v < lo || v > hi) fail(name + " " + two(v) + " is outside " + two(lo) + "-" + two(hi));
    return v;
  }

  // The fraction's value in ms after the '.': 1 to 3 digits, then only zeros.
  int64_t fraction_ms() {
    if (!peek_digit()) fail("a fraction '.' must be followed by ASCII digits");
    int64_t ms = 0;
    for (int i = 0; i < 3; ++i) ms = ms * 10 + (peek_digit() ? text_[pos_++] - '0' : 0);
    while (peek_digit())
      if (text_[pos_++] != '0')
        fail(
            "the fraction has a non-zero digit past the millisecond, and an id's timestamp is "
            "whole milliseconds");
    return ms;
  }

 private:
  std::string_view text_;
  size_t pos_ = 0;
};

struct Date {
  int64_t year, month, day;
};

Date read_date(Reader& r) {
  const std::string year_rule = "the year must be 4 ASCII digits (0000-9999, no sign)";
  const int64_t year = r.digits(4, year_rule);
  if (r.peek_digit()) r.fail(year_rule);
  if (!r.take('-')) r.fail("expected '-' between the year and the month");
  const int64_t month = r.field2("month", 1, 12);
  if (!r.take('-')) r.fail("expected '-' between the month and the day");
  const int64_t day = r.digits(2, "the day must be 2 ASCII digits");
  const int64_t last_day = days_in_month(year, month);
  if (day < 1 || day > last_day)
    r.fail("day " + two(day) + " is outside 01-" + two(last_day) + " for " + four(year) + "-" +
           two(month));
  return {year, month, day};
}

void read_t(Reader& r) {
  if (r.take('T', 't')) return;
  if (r.at_end()) r.fail("a time is required after the date (THH:MM:SS and an offset)");
  if (r.peek() == ' ') r.fail("the date and the time must be separated by 'T', not a space");
  r.fail("expected 'T' between the date and the time");
}

// HH:MM:SS[.fff] as ms of the day.
int64_t read_time_of_day(Reader& r) {
  const int64_t hour = r.field2("hour", 0, 23);
  if (!r.take(':')) r.fail("expected ':' between the hour and the minute");
  const int64_t minute = r.field2("minute", 0, 59);
  if (!r.take(':')) r.fail("expected ':' and the seconds after the minute (HH:MM:SS)");
  const int64_t second = r.digits(2, "the second must be 2 ASCII digits");
  if (second == 60)
    r.fail("second 60 is a leap second, which Unix milliseconds (and so ids) cannot represent");
  if (second > 59) r.fail("second " + two(second) + " is outside 00-59");
  const int64_t ms = r.take('.') ? r.fraction_ms() : 0;
  return ((hour * 60 + minute) * 60 + second) * 1000 + ms;
}

// Z or +HH:MM / -HH:MM, as minutes east of UTC; then the end of the text.
int64_t read_offset_min(Reader& r) {
  int64_t offset_min = 0;
  if (r.at_end()) r.fail("an offset is required: Z, +HH:MM or -HH:MM (a local time is ambiguous)");
  if (!r.take('Z', 'z')) {
    const bool east = r.take('+');
    if (!east && !r.take('-')) r.fail("expected Z, +HH:MM or -HH:MM after the time");
    const int64_t oh = r.field2("offset hour", 0, 23);
    if (!r.take(':')) r.fail("the offset must be +HH:MM or -HH:MM");
    const int64_t om = r.field2("offset minute", 0, 59);
    offset_min = (east ? 1 : -1) * (oh * 60 + om);
  }
  if (!r.at_end()) r.fail("unexpected text after the offset");
  return offset_min;
}

}  // namespace

int64_t parse_iso8601(std::string_view text) {
  Reader r(text);
  if (text.empty()) r.fail("the text is empty");
  const Date d = read_date(r);
  read_t(r);
  const int64_t ms_of_day = read_time_of_day(r);
  const int64_t offset_min = read_offset_min(r);
  const int64_t local_ms = detail::days_from_civil(d.year, d.month, d.day) * 86400000 + ms_of_day;
  return local_ms - offset_min * 60000;  // local = UTC + offset
}

}  // namespace snowfleet
