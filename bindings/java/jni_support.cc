// JNI plumbing for the Java facade: strings (UTF-8 <-> UTF-16) and errors (core error kinds
// -> Java exception classes, any other C++ exception -> InternalErrorException).
#include <new>
#include <stdexcept>
#include <vector>

#include "snowfleet_java.hpp"

namespace snowfleet_java {
namespace {

const snowfleet::ErrorKindInfo& kind_at(int index) {
  const auto& kinds = snowfleet::error_kinds();
  if (index < 0 || static_cast<size_t>(index) >= kinds.size())
    throw snowfleet::Error(snowfleet::ErrorKind::kInvalidArgument,
                           "error kind index must be in [0, " + std::to_string(kinds.size() - 1) +
                               "], got " + std::to_string(index));
  return kinds[static_cast<size_t>(index)];
}

int index_of(snowfleet::ErrorKind kind) {
  const auto& kinds = snowfleet::error_kinds();
  for (size_t i = 0; i < kinds.size(); ++i)
    if (kinds[i].kind == kind) return static_cast<int>(i);
  return -1;
}

// Core messages may quote user text cut at a byte limit, so they are not always valid
// UTF-8, and NewStringUTF wants *modified* UTF-8. Decode to UTF-16 ourselves, replacing
// anything malformed with U+FFFD.
jstring utf8_to_jstring(JNIEnv* env, const std::string& s) {
  std::vector<jchar> out;
  out.reserve(s.size());
  const auto* p = reinterpret_cast<const unsigned char*>(s.data());
  const size_t n = s.size();
  for (size_t i = 0; i < n;) {
    const uint32_t c = p[i];
    int extra = -1;
    uint32_t cp = 0;
    if (c < 0x80) {
      extra = 0, cp = c;
    } else if ((c & 0xE0) == 0xC0) {
      extra = 1, cp = c & 0x1F;
    } else if ((c & 0xF0) == 0xE0) {
      extra = 2, cp = c & 0x0F;
    } else if ((c & 0xF8) == 0xF0) {
      extra = 3, cp = c & 0x07;
    }
    bool ok = extra >= 0 && i + static_cast<size_t>(extra) < n;
    for (int k = 1; ok && k <= extra; ++k) {
      if ((p[i + k] & 0xC0) != 0x80) ok = false;
      cp = (cp << 6) | (p[i + k] & 0x3F);
    }
    static const uint32_t kMin[] = {0, 0x80, 0x800, 0x10000};
    if (ok && (cp < kMin[extra] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))) ok = false;
    if (!ok) {
      out.push_back(0xFFFD);
      ++i;
      continue;
    }
    if (cp >= 0x10000) {
      cp -= 0x10000;
      out.push_back(static_cast<jchar>(0xD800 + (cp >> 10)));
      out.push_back(static_cast<jchar>(0xDC00 + (cp & 0x3FF)));
    } else {
      out.push_back(static_cast<jchar>(cp));
    }
    i += static_cast<size_t>(extra) + 1;
  }
  return env->NewString(out.data(), static_cast<jsize>(out.size()));
}

// Constructs `class_name` with (String) or (String, long) and throws it. False when the
// class or constructor is missing (any pending lookup error is cleared).
bool throw_named(JNIEnv* env, const std::string& class_name, const std::string& message,
                 int64_t drift_ms) {
  jclass cls = env->FindClass(class_name.c_str());
  if (cls == nullptr) {
    env->ExceptionClear();
    return false;
  }
  jobject ex = nullptr;
  jstring msg = to_jstring(env, message);
  if (msg == nullptr) {  // OutOfMemoryError is pending: let it propagate
    env->DeleteLocalRef(cls);
    return true;
  }
  if (jmethodID two = env->GetMethodID(cls, "<init>", "(Ljava/lang/String;J)V")) {
    ex = env->NewObject(cls, two, msg, static_cast<jlong>(drift_ms));
  } else {
    env->ExceptionClear();
    if (jmethodID one = env->GetMethodID(cls, "<init>", "(Ljava/lang/String;)V"))
      ex = env->NewObject(cls, one, msg);
  }
  if (ex == nullptr) env->ExceptionClear();
  bool thrown = ex != nullptr && env->Throw(static_cast<jthrowable>(ex)) == 0;
  env->DeleteLocalRef(msg);
  env->DeleteLocalRef(cls);
  if (ex != nullptr) env->DeleteLocalRef(ex);
  return thrown;
}

// Out of memory while building an exception: throw a preallocated-size error, or stop.
void last_resort(JNIEnv* env) noexcept {
  if (env->ExceptionCheck()) return;
  jclass oom = env->FindClass("java/lang/OutOfMemoryError");
  if (oom == nullptr || env->ThrowNew(oom, "snowfleet: out of memory reporting an error") != 0)
    env->FatalError("snowfleet: cannot throw a Java exception");
}

}  // namespace

// ---- strings ---------------------------------------------------------------------------

jstring to_jstring(JNIEnv* env, const std::string& s) noexcept {
  try {
    return utf8_to_jstring(env, s);
  } catch (...) {
    if (!env->ExceptionCheck()) env->ThrowNew(env->FindClass("java/lang/OutOfMemoryError"), "");
    return nullptr;
  }
}

bool from_jstring(JNIEnv* env, jstring in, std::string* out) noexcept {
  if (in == nullptr) {
    if (jclass npe = env->FindClass("java/lang/NullPointerException"))
      env->ThrowNew(npe, "snowfleet: a string argument is null");
    return false;
  }
  try {
    const jsize n = env->GetStringLength(in);
    std::vector<jchar> u(static_cast<size_t>(n));
    env->GetStringRegion(in, 0, n, u.data());
    out->clear();
    out->reserve(static_cast<size_t>(n));
    for (jsize i = 0; i < n; ++i) {
      uint32_t c = u[i];
      if (c >= 0xD800 && c <= 0xDBFF && i + 1 < n && u[i + 1] >= 0xDC00 && u[i + 1] <= 0xDFFF)
        c = 0x10000 + ((c - 0xD800) << 10) + (u[++i] - 0xDC00);
      else if (c >= 0xD800 && c <= 0xDFFF)
        c = 0xFFFD;  // a lone surrogate has no UTF-8 form
      if (c < 0x80) {
        out->push_back(static_cast<char>(c));
      } else if (c < 0x800) {
        out->push_back(static_cast<char>(0xC0 | (c >> 6)));
        out->push_back(static_cast<char>(0x80 | (c & 0x3F)));
      } else if (c < 0x10000) {
        out->push_back(static_cast<char>(0xE0 | (c >> 12)));
        out->push_back(static_cast<char>(0x80 | ((c >> 6) & 0x3F)));
        out->push_back(static_cast<char>(0x80 | (c & 0x3F)));
      } else {
        out->push_back(static_cast<char>(0xF0 | (c >> 18)));
        out->push_back(static_cast<char>(0x80 | ((c >> 12) & 0x3F)));
        out->push_back(static_cast<char>(0x80 | ((c >> 6) & 0x3F)));
        out->push_back(static_cast<char>(0x80 | (c & 0x3F)));
      }
    }
    return true;
  } catch (...) {
    if (!env->ExceptionCheck()) env->ThrowNew(env->FindClass("java/lang/OutOfMemoryError"), "");
    return false;
  }
}

// ---- errors ----------------------------------------------------------------------------

int error_kind_count() { return static_cast<int>(snowfleet::error_kinds().size()); }
std::string error_kind_code(int index) { return kind_at(index).code; }
std::string error_kind_name(int index) { return kind_at(index).name; }
std::string error_kind_category(int index) { return kind_at(index).category; }
std::string exception_class_name(int index) {
  return std::string("dev/snowfleet/") + kind_at(index).name + "Exception";
}

void throw_java_exception(JNIEnv* env, const snowfleet::Error& error) noexcept {
  try {
    const int index = index_of(error.kind());
    if (index >= 0 && throw_named(env, exception_class_name(index), error.what(), error.drift_ms()))
      return;
    // A kind without a Java class is a build defect the tests catch; still never crash.
    throw_java_internal(env, (std::string(error.code()) + ": " + error.what()).c_str());
  } catch (...) {
    last_resort(env);
  }
}

void throw_java_internal(JNIEnv* env, const char* what) noexcept {
  try {
    const int index = index_of(snowfleet::ErrorKind::kInternal);
    const std::string message = what != nullptr ? what : "unknown C++ exception";
    if (index >= 0 && throw_named(env, exception_class_name(index), message, 0)) return;
    if (throw_named(env, "java/lang/RuntimeException", message, 0)) return;
  } catch (...) {
  }
  last_resort(env);
}

void throw_java_out_of_memory(JNIEnv* env) noexcept {
  jclass oom = env->FindClass("java/lang/OutOfMemoryError");
  if (oom == nullptr || env->ThrowNew(oom, "snowfleet: out of native memory") != 0)
    last_resort(env);
}

void throw_error_for_test(int index, const std::string& message, int64_t drift_ms) {
  throw snowfleet::Error(kind_at(index).kind, message, drift_ms);
}
void throw_std_exception_for_test(const std::string& message) { throw std::runtime_error(message); }
void throw_bad_alloc_for_test() { throw std::bad_alloc(); }
void throw_unknown_for_test() { throw 42; }

}  // namespace snowfleet_java
