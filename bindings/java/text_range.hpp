// JNI facade of the time-range helpers and the id text forms (wrapped by SWIG through
// snowfleet_java.i; dev.snowfleet.IdRange and IdText call it). A layout crosses as its
// canonical text, which the core parses; every rule is the core's.
#pragma once

#include <jni.h>

#include <cstdint>
#include <string>

namespace snowfleet_java {

/// snowfleet::min_id / max_id of Unix ms `ms` under the layout `layout` (its text form).
int64_t min_id(const std::string& layout, int64_t ms);
int64_t max_id(const std::string& layout, int64_t ms);
/// snowfleet::whole_ms: Unix ms of an Instant (seconds, nanos), refusing a sub-millisecond part.
int64_t whole_ms(const std::string& name, int64_t seconds, int64_t nanos);
/// long[2]: first, last of snowfleet::id_range(layout, start_ms, end_ms, slack_ms).
jlongArray id_range(JNIEnv* env, const std::string& layout, int64_t start_ms, int64_t end_ms,
                    int64_t slack_ms);
/// snowfleet::format_id_as / parse_id_as with the format by name ("base32", "base62",
/// "decimal").
std::string format_id_as(int64_t id, const std::string& format);
int64_t parse_id_as(const std::string& text, const std::string& format);

}  // namespace snowfleet_java
