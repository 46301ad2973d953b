// The C interface's boundary: every error kind of SNOWFLEET_ERROR_KINDS, and every other
// exception, becomes a result and a message in the caller's snowfleet_error (tests/c/errors.c
// provokes the kinds a C program can reach through real calls).
#include <catch2/catch.hpp>
#include <cstring>
#include <new>
#include <stdexcept>
#include <string>

#include "capi/capi_util.hpp"

using namespace snowfleet;

TEST_CASE("C interface: each error kind arrives as its result", "[capi]") {
  for (const ErrorKindInfo& k : error_kinds()) {
    snowfleet_error err;
    const snowfleet_result rc =
        capi::guard(&err, [&] { throw Error(k.kind, std::string("kind ") + k.code, 7); });
    CHECK(rc == static_cast<snowfleet_result>(k.kind) + 1);
    CHECK(std::string(snowfleet_result_code(rc)) == k.code);
    CHECK(std::string(snowfleet_result_name(rc)) == k.name);
    CHECK(err.result == rc);
    CHECK(err.drift_ms == 7);
    CHECK(std::string(err.message) == std::string("kind ") + k.code);
  }
}

TEST_CASE("C interface: any other exception is INTERNAL, and no error object is needed",
          "[capi]") {
  snowfleet_error err;
  CHECK(capi::guard(&err, [] { throw std::bad_alloc(); }) == SNOWFLEET_INTERNAL);
  CHECK(std::string(err.message) == "out of memory");
  CHECK(capi::guard(&err, [] { throw std::logic_error("broken"); }) == SNOWFLEET_INTERNAL);
  CHECK(std::string(err.message) == "broken");
  CHECK(capi::guard(&err, [] { throw 42; }) == SNOWFLEET_INTERNAL);
  CHECK(capi::guard(nullptr, [] { throw std::runtime_error("x"); }) == SNOWFLEET_INTERNAL);
}

TEST_CASE("C interface: a long message is cut at a UTF-8 character boundary", "[capi]") {
  std::string text(SNOWFLEET_MESSAGE_MAX - 2, 'a');
  text += "\xc3\xa9\xc3\xa9";  // "éé": the first straddles the buffer's end
  snowfleet_error err;
  capi::guard(&err, [&] { throw Error(ErrorKind::kInvalidArgument, text); });
  CHECK(std::strlen(err.message) == SNOWFLEET_MESSAGE_MAX - 2);
}

TEST_CASE("C interface: a message's bytes outside UTF-8 characters arrive as \\xNN", "[capi]") {
  snowfleet_error err;
  capi::guard(&err,
              [] { throw Error(ErrorKind::kInvalidArgument, "dir /a\xff\xc3\xa9\xed\xa0\x80"); });
  CHECK(std::string(err.message) == "dir /a\\xff\xc3\xa9\\xed\\xa0\\x80");
}
