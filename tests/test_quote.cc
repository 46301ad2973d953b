// Outside text inside error messages (detail::quote, reached through public entry points):
// every message is valid UTF-8 that names the exact bytes given, whatever those bytes are.
#include <catch2/catch.hpp>

#include <string>
#include <string_view>

#include "snowfleet/snowfleet.hpp"

using namespace snowfleet;

namespace {

std::string decode_message(std::string_view text) {
  try {
    decode(Layout(), text);
  } catch (const Error& e) {
    return e.what();
  }
  FAIL("decode accepted " << text);
  return "";
}

// RFC 3629 UTF-8: no overlongs, no surrogates, nothing past U+10FFFF.
bool valid_utf8(std::string_view s) {
  size_t i = 0;
  while (i < s.size()) {
    const auto c = static_cast<unsigned char>(s[i]);
    size_t len = c < 0x80           ? 1
                 : (c >> 5) == 0x6  ? 2
                 : (c >> 4) == 0xE  ? 3
                 : (c >> 3) == 0x1E ? 4
                                    : 0;
    if (len == 0 || i + len > s.size()) return false;
    uint32_t cp = len == 1 ? c : c & (0x7F >> len);
    for (size_t k = 1; k < len; ++k) {
      const auto cc = static_cast<unsigned char>(s[i + k]);
      if ((cc & 0xC0) != 0x80) return false;
      cp = (cp << 6) | (cc & 0x3F);
    }
    const uint32_t min[] = {0, 0, 0x80, 0x800, 0x10000};
    if (cp < min[len] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return false;
    i += len;
  }
  return true;
}

bool contains(const std::string& s, const std::string& part) {
  return s.find(part) != std::string::npos;
}

}  // namespace

TEST_CASE("quoted text that is not UTF-8 is written as \\xNN, byte for byte", "[quote]") {
  // A host decoding what() as UTF-8 would otherwise turn each of these into U+FFFD (losing
  // which byte was given) or, in JNI's NewStringUTF, worse.
  struct Case {
    std::string text, quoted;
  };
  const Case cases[] = {
      {"1\xff", "'1\\xff'"},  // never a UTF-8 byte
      {"\x80"
       "1",
       "'\\x801'"},           // a continuation byte without a lead
      {"1\xc3", "'1\\xc3'"},  // a lead byte at the end
      {"\xc3"
       "1",
       "'\\xc31'"},                                    // a lead byte without its continuation
      {"\xc0\xaf", "'\\xc0\\xaf'"},                    // an overlong '/'
      {"\xed\xa0\x80", "'\\xed\\xa0\\x80'"},           // a UTF-16 surrogate
      {"\xf4\x90\x80\x80", "'\\xf4\\x90\\x80\\x80'"},  // past U+10FFFF
      {"\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80", "'\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80'"},  // valid
  };
  for (const Case& c : cases) {
    const std::string msg = decode_message(c.text);
    INFO(msg);
    CHECK(contains(msg, c.quoted));
    CHECK(valid_utf8(msg));
  }
}

TEST_CASE("quoting cuts at 60 bytes on a character boundary, whatever the bytes", "[quote]") {
  const std::string sixty(60, 'a');
  CHECK(contains(decode_message(sixty), "'" + sixty + "'"));  // exactly 60: no cut
  CHECK(contains(decode_message(sixty + "b"), "'" + sixty + "...'"));
  // A 4-byte character across the cut is left out whole.
  const std::string msg = decode_message(std::string(58, 'a') + "\xf0\x9f\x98\x80");
  CHECK(contains(msg, "'" + std::string(58, 'a') + "...'"));
  // Sixty stray continuation bytes: each is escaped, and the message stays valid.
  const std::string stray = decode_message(std::string(70, '\x80'));
  CHECK(valid_utf8(stray));
  CHECK(contains(stray, "\\x80\\x80"));
  CHECK(contains(stray, "...'"));
}
