// What both SWIG modules share (snowfleet_java.i, the shipped library, and
// snowfleet_java_test.i, the tests' hooks): type mappings, names and exception handling.

// int64_t -> long and int -> int. stdint.i without SWIGWORDSIZE64 maps int64_t to
// long long, hence to jlong; SWIGWORDSIZE64 would map it to `long` and so to Java int.
%include <stdint.i>
%include <std_string.i>

// Strings cross as UTF-8 byte[], encoded and decoded by Java's own UTF-8 charset.
// GetStringUTFChars / NewStringUTF would speak modified UTF-8 instead (NUL as C0 80, a
// supplementary character as two 3-byte surrogates), which is not what the core reads or
// writes; StringsTest shows the difference. A null String is Java's NullPointerException.
%typemap(jni) const std::string& "jbyteArray"
%typemap(jtype) const std::string& "byte[]"
%typemap(jstype) const std::string& "String"
%typemap(javain) const std::string& "$javainput.getBytes(java.nio.charset.StandardCharsets.UTF_8)"
%typemap(in) const std::string& (std::string temp) %{
  if (!snowfleet_java::from_bytes(jenv, $input, &temp)) return $null;
  $1 = &temp;
%}
%typemap(jni) std::string "jbyteArray"
%typemap(jtype) std::string "byte[]"
%typemap(jstype) std::string "String"
%typemap(javaout) std::string {
    return new String($jnicall, java.nio.charset.StandardCharsets.UTF_8);
  }
%typemap(out) std::string %{
  $result = snowfleet_java::to_bytes(jenv, $1);
%}

// The wrapper supplies the JNIEnv; Java never passes it.
%typemap(in, numinputs=0) JNIEnv* env "$1 = jenv;"

// Java names in lowerCamelCase; classes keep theirs.
%rename("%(lowercamelcase)s", %$isfunction) "";

// Every wrapped call: a C++ exception becomes a Java exception and never crosses JNI.
// If a Java exception is already pending (an OutOfMemoryError from NewLongArray), keep it.
%exception {
  try {
    $action
  } catch (const snowfleet::Error& e) {
    if (!jenv->ExceptionCheck()) snowfleet_java::throw_java_exception(jenv, e);
    return $null;
  } catch (const std::bad_alloc&) {
    if (!jenv->ExceptionCheck()) snowfleet_java::throw_java_out_of_memory(jenv);
    return $null;
  } catch (const std::exception& e) {
    if (!jenv->ExceptionCheck()) snowfleet_java::throw_java_internal(jenv, e.what());
    return $null;
  } catch (...) {
    if (!jenv->ExceptionCheck()) snowfleet_java::throw_java_internal(jenv, "unknown C++ exception");
    return $null;
  }
}
