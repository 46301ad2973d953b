// What every C entry point shares: running its body with no exception escaping, writing the
// caller's error, records with a size field, and text into caller buffers.
#pragma once

#include <snowfleet.h>

#include <cstddef>
#include <cstring>
#include <memory>
#include <new>
#include <string>
#include <string_view>

#include "base/quote.hpp"
#include "snowfleet/snowfleet.hpp"

struct snowfleet_clock {
  std::shared_ptr<snowfleet::ScriptedClock> clock;
};
struct snowfleet_generator {
  std::unique_ptr<snowfleet::Generator> gen;
};
struct snowfleet_uuid7_generator {
  std::unique_ptr<snowfleet::Uuid7Generator> gen;
};

namespace snowfleet::capi {

// A failure found at the boundary itself (a NULL pointer, a short buffer).
[[noreturn]] inline void invalid(const std::string& message) {
  throw Error(ErrorKind::kInvalidArgument, message);
}

// Copies text into a fixed buffer, NUL-terminated, cut at a UTF-8 character boundary.
inline void copy_cut(char* dst, size_t cap, std::string_view text) {
  size_t n = text.size();
  if (n > cap - 1) {
    n = cap - 1;
    while (n > 0 && (static_cast<unsigned char>(text[n]) & 0xC0) == 0x80) --n;
  }
  std::memcpy(dst, text.data(), n);
  dst[n] = '\0';
}

// A message is UTF-8 whatever went into it (a path with other bytes, say).
inline void set_message(snowfleet_error* err, std::string_view text) noexcept {
  try {
    copy_cut(err->message, sizeof err->message, detail::valid_utf8(text));
  } catch (...) {  // out of memory: the text as it is
    copy_cut(err->message, sizeof err->message, text);
  }
}

inline snowfleet_result fail(snowfleet_error* err, snowfleet_result result, std::string_view text,
                             int64_t drift_ms = 0) noexcept {
  if (err) {
    err->result = result;
    err->reserved = 0;
    err->drift_ms = drift_ms;
    set_message(err, text);
  }
  return result;
}

// Runs body (which returns nothing and throws on failure); every exception becomes a result.
template <class F>
snowfleet_result guard(snowfleet_error* err, F&& body) noexcept {
  try {
    body();
    return SNOWFLEET_OK;
  } catch (const Error& e) {
    return fail(err, static_cast<snowfleet_result>(e.kind()) + 1, e.what(), e.drift_ms());
  } catch (const std::bad_alloc&) {
    return fail(err, SNOWFLEET_INTERNAL, "out of memory");
  } catch (const std::exception& e) {
    return fail(err, SNOWFLEET_INTERNAL, e.what());
  } catch (...) {
    return fail(err, SNOWFLEET_INTERNAL, "an unknown exception inside snowfleet");
  }
}

template <class T>
T* need(T* p, const char* what) {
  if (!p) invalid(std::string(what) + " is NULL");
  return p;
}

// A struct the caller sized: its size field must at least cover itself.
template <class T>
uint32_t sized(const T* p, const char* what) {
  const uint32_t size = need(p, what)->size;
  if (size < sizeof(uint32_t) || size > (1u << 20))
    invalid(std::string(what) + "->size is " + std::to_string(size) +
            ": set it to sizeof the struct (its *_init function does)");
  return size;
}

// A struct the library reads. A newer caller's struct may be larger: its later fields are
// fine while they are zero (unset), and refused once set, since this library would drop them.
template <class T>
uint32_t read_sized(const T* p, const char* what) {
  const uint32_t size = sized(p, what);
  const auto* bytes = reinterpret_cast<const unsigned char*>(p);
  for (size_t i = sizeof(T); i < size; ++i)
    if (bytes[i] != 0)
      invalid(std::string(what) + "->size is " + std::to_string(size) + ", larger than the " +
              std::to_string(sizeof(T)) + " bytes of snowfleet " + version() +
              "'s struct, and byte " + std::to_string(i) +
              " past them is set: a field this library does not know");
  return size;
}

// Whether a caller's struct, of the size it says, holds the member at this offset.
inline bool holds(uint32_t size, size_t offset, size_t width) { return offset + width <= size; }
#define SNOWFLEET_CAPI_HOLDS(type, p, member) \
  ::snowfleet::capi::holds((p)->size, offsetof(type, member), sizeof((p)->member))

// Writes a record into the caller's struct, as much of it as the caller's size covers; its
// size then says how many bytes were written (less than a newer caller's struct).
template <class T>
void deliver(T* out, T full, const char* what) {
  const uint32_t size = sized(out, what);
  const uint32_t written = size < sizeof(T) ? size : static_cast<uint32_t>(sizeof(T));
  full.size = written;
  std::memcpy(out, &full, written);
}

// Copies text into a caller buffer, NUL-terminated; too small: nothing written.
inline void put_text(std::string_view text, char* buf, size_t cap, const char* what) {
  need(buf, what);
  if (text.size() + 1 > cap)
    invalid(std::string(what) + " holds " + std::to_string(cap) + " bytes; " +
            std::to_string(text.size() + 1) + " are needed");
  std::memcpy(buf, text.data(), text.size());
  buf[text.size()] = '\0';
}

// A fixed char array in a record.
template <size_t N>
void copy_text(char (&dst)[N], std::string_view text) {
  copy_cut(dst, N, text);
}

// (text, len) as the caller gave it; NULL is allowed only when empty.
inline std::string_view text_of(const char* text, size_t len) {
  if (!text && len > 0) invalid("text is NULL with len " + std::to_string(len));
  return text ? std::string_view(text, len) : std::string_view();
}

// NULL: the default layout; anything else is parsed.
inline Layout layout_of(const char* text) { return text ? Layout::parse(text) : Layout::kDefault; }

Mode mode_of(const char* text);
void fill_stats(const Stats& s, snowfleet_stats* out);
void fill_status(const Status& s, snowfleet_status* out);

}  // namespace snowfleet::capi
