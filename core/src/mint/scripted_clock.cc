// ScriptedClock: the test clock that replays a script of wall readings. Its monotonic
// time advances only when something sleeps on it, so a test's waits are exact and instant.
#include <mutex>
#include <string>
#include <vector>

#include "base/internal.hpp"
#include "id_space.hpp"
#include "snowfleet/snowfleet.hpp"

namespace snowfleet {

namespace {
void check_reading(int64_t ms) {
  if (ms < -ScriptedClock::kMaxAbsMs || ms > ScriptedClock::kMaxAbsMs)
    throw Error(ErrorKind::kInvalidArgument,
                "scripted clock reading must be in [-" + std::to_string(ScriptedClock::kMaxAbsMs) +
                    ", " + std::to_string(ScriptedClock::kMaxAbsMs) +
                    "] ms (nanoseconds in an int64), got " + std::to_string(ms));
}

// The reading `index` of segment `s`: ms + step_ms * (index / every), checked.
int64_t reading_of(const ScriptedClock::Segment& s, int64_t index) {
  int64_t offset, ms;
  if (__builtin_mul_overflow(s.step_ms, index / s.every, &offset) ||
      __builtin_add_overflow(s.ms, offset, &ms))
    throw Error(ErrorKind::kInvalidArgument,
                "scripted clock reading overflows: " + std::to_string(s.ms) + " + " +
                    std::to_string(s.step_ms) + " * " + std::to_string(index / s.every) + " ms");
  check_reading(ms);
  return ms;
}

void check_script(const std::vector<ScriptedClock::Segment>& script) {
  if (script.empty())
    throw Error(ErrorKind::kInvalidArgument, "a scripted clock needs at least one segment");
  for (const auto& s : script) {
    if (s.count < 1)
      throw Error(ErrorKind::kInvalidArgument,
                  "scripted clock segment count must be >= 1, got " + std::to_string(s.count));
    if (s.every < 1)
      throw Error(ErrorKind::kInvalidArgument,
                  "scripted clock segment every must be >= 1, got " + std::to_string(s.every));
    // The segment's own readings must be representable; the pattern continued after the
    // last segment is checked reading by reading.
    reading_of(s, 0);
    reading_of(s, s.count - 1);
  }
}
}  // namespace

ScriptedClock::ScriptedClock(int64_t ms) : script_{Segment{ms, 1, 0, 1}} { check_reading(ms); }

ScriptedClock::~ScriptedClock() { detail::IdSpace::forget(*this); }

ScriptedClock::ScriptedClock(std::vector<Segment> script) {
  check_script(script);
  script_ = std::move(script);
}

void ScriptedClock::set_script(std::vector<Segment> script) {
  check_script(script);
  std::lock_guard<std::mutex> lock(mu_);
  script_ = std::move(script);
  segment_ = 0;
  index_ = 0;
  tick_base_ns_ = mono_ns_;
}

void ScriptedClock::set_ticking(bool on) {
  std::lock_guard<std::mutex> lock(mu_);
  if (on && !ticking_) tick_base_ns_ = mono_ns_;
  ticking_ = on;
}

bool ScriptedClock::ticking() const {
  std::lock_guard<std::mutex> lock(mu_);
  return ticking_;
}

void ScriptedClock::append(int64_t ms, int64_t count, int64_t step_ms, int64_t every) {
  std::vector<Segment> one{Segment{ms, count, step_ms, every}};
  check_script(one);
  std::lock_guard<std::mutex> lock(mu_);
  script_.push_back(one[0]);
}

void ScriptedClock::set_wall_ms(int64_t ms) { set_script({Segment{ms, 1, 0, 1}}); }

void ScriptedClock::advance_wall_ms(int64_t delta_ms) {
  int64_t ms;
  if (__builtin_add_overflow(peek_wall_ms(), delta_ms, &ms)) ms = delta_ms > 0 ? INT64_MAX : INT64_MIN;
  set_wall_ms(ms);  // checks the range
}

// The script's reading in ms, plus the whole ms slept since ticking began (checked).
int64_t ScriptedClock::current_locked() const {
  const int64_t ms = reading_of(script_[segment_], index_);
  if (!ticking_) return ms;
  int64_t ticked;
  if (__builtin_add_overflow(ms, (mono_ns_ - tick_base_ns_) / detail::kNsPerMs, &ticked))
    ticked = INT64_MAX;
  check_reading(ticked);
  return ticked;
}

int64_t ScriptedClock::peek_wall_ms() const {
  std::lock_guard<std::mutex> lock(mu_);
  return current_locked();
}

int64_t ScriptedClock::wall_ns() {
  std::lock_guard<std::mutex> lock(mu_);
  const int64_t ms = current_locked();  // throws, consuming nothing, outside the range
  ++reads_;
  // Advance: the next segment once this one's count is used up, except after the last
  // segment, whose pattern continues for ever.
  if (++index_ >= script_[segment_].count && segment_ + 1 < script_.size()) {
    ++segment_;
    index_ = 0;
  }
  return ms * detail::kNsPerMs;
}

int64_t ScriptedClock::monotonic_ns() {
  std::lock_guard<std::mutex> lock(mu_);
  return mono_ns_;
}

void ScriptedClock::sleep_ns(int64_t ns) {
  std::lock_guard<std::mutex> lock(mu_);
  if (ns < 0) ns = 0;
  mono_ns_ = detail::saturating_add(mono_ns_, ns);
  if (sleeps_ == 0 || ns > max_sleep_) max_sleep_ = ns;
  if (sleeps_ == 0 || ns < min_sleep_) min_sleep_ = ns;
  ++sleeps_;
}

int64_t ScriptedClock::reads() const {
  std::lock_guard<std::mutex> lock(mu_);
  return reads_;
}
int64_t ScriptedClock::sleep_count() const {
  std::lock_guard<std::mutex> lock(mu_);
  return sleeps_;
}
int64_t ScriptedClock::slept_ns() const {
  std::lock_guard<std::mutex> lock(mu_);
  return mono_ns_;
}
int64_t ScriptedClock::max_sleep_ns() const {
  std::lock_guard<std::mutex> lock(mu_);
  return max_sleep_;
}
int64_t ScriptedClock::min_sleep_ns() const {
  std::lock_guard<std::mutex> lock(mu_);
  return min_sleep_;
}

}  // namespace snowfleet
