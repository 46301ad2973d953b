// The time-range helpers and the id text forms for Java: one core call each.
#include "text_range.hpp"

#include <new>

#include "snowfleet/snowfleet.hpp"

namespace snowfleet_java {

int64_t whole_ms(const std::string& name, int64_t seconds, int64_t nanos) {
  return snowfleet::whole_ms(name, seconds, nanos);
}

int64_t min_id(const std::string& layout, int64_t ms) {
  return snowfleet::min_id(snowfleet::Layout::parse(layout), ms);
}

int64_t max_id(const std::string& layout, int64_t ms) {
  return snowfleet::max_id(snowfleet::Layout::parse(layout), ms);
}

jlongArray id_range(JNIEnv* env, const std::string& layout, int64_t start_ms, int64_t end_ms,
                    int64_t slack_ms) {
  const snowfleet::IdRange r =
      snowfleet::id_range(snowfleet::Layout::parse(layout), start_ms, end_ms, slack_ms);
  const jlong v[2] = {r.first, r.last};
  jlongArray out = env->NewLongArray(2);
  if (out == nullptr) throw std::bad_alloc();  // an OutOfMemoryError is pending
  env->SetLongArrayRegion(out, 0, 2, v);
  return out;
}

std::string format_id_as(int64_t id, const std::string& format) {
  return snowfleet::format_id_as(id, snowfleet::parse_id_format(format));
}

int64_t parse_id_as(const std::string& text, const std::string& format) {
  return snowfleet::parse_id_as(text, snowfleet::parse_id_format(format));
}

}  // namespace snowfleet_java
