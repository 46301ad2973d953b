// JNI plumbing for the Java facade: strings (UTF-8 bytes <-> Java byte[] and String) and
// errors (core error kinds -> Java exception classes, any other C++ exception ->
// InternalErrorException).
#include <new>
#include <stdexcept>

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

bool from_bytes(JNIEnv* env, jbyteArray in, std::string* out) noexcept {
  if (in == nullptr) {  // the Java side encodes a String first, so only a defect gets here
    if (jclass npe = env->FindClass("java/lang/NullPointerException"))
      env->ThrowNew(npe, "snowfleet: a string argument is null");
    return false;
  }
  try {
    const jsize n = env->GetArrayLength(in);
    out->resize(static_cast<size_t>(n));
    env->GetByteArrayRegion(in, 0, n, reinterpret_cast<jbyte*>(&(*out)[0]));
    return true;
  } catch (...) {
    if (!env->ExceptionCheck()) throw_java_out_of_memory(env);
    return false;
  }
}

jbyteArray to_bytes(JNIEnv* env, const std::string& s) noexcept {
  const jsize n = static_cast<jsize>(s.size());
  jbyteArray out = env->NewByteArray(n);
  if (out == nullptr) return nullptr;  // OutOfMemoryError is pending
  env->SetByteArrayRegion(out, 0, n, reinterpret_cast<const jbyte*>(s.data()));
  return out;
}

jstring to_jstring(JNIEnv* env, const std::string& s) noexcept {
  jbyteArray bytes = to_bytes(env, s);
  if (bytes == nullptr) return nullptr;
  jstring out = nullptr;
  jclass string_class = env->FindClass("java/lang/String");
  jstring charset = env->NewStringUTF("UTF-8");  // ASCII: modified UTF-8 is UTF-8 here
  if (string_class != nullptr && charset != nullptr) {
    // new String(bytes, "UTF-8"): Java's decoder, which replaces malformed input.
    if (jmethodID init = env->GetMethodID(string_class, "<init>", "([BLjava/lang/String;)V"))
      out = static_cast<jstring>(env->NewObject(string_class, init, bytes, charset));
  }
  if (charset != nullptr) env->DeleteLocalRef(charset);
  if (string_class != nullptr) env->DeleteLocalRef(string_class);
  env->DeleteLocalRef(bytes);
  return out;  // null: an exception is pending
}

// ---- errors ----------------------------------------------------------------------------

std::string core_version() { return snowfleet::version(); }

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

}  // namespace snowfleet_java
