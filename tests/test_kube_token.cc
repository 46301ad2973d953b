// The k8s-lease:// source's bearer token from a token file the kubelet rotates: read again
// a minute after the last read and at once after a 401; a re-read that fails keeps the
// token read last until the server refuses it.
#include <catch2/catch.hpp>

#include <cstdio>
#include <fstream>
#include <string>

#include "lease/k8s/kube_token.hpp"
#include "snowfleet/snowfleet.hpp"
#include "test_util.hpp"

using snowfleet::ErrorKind;
using snowfleet::detail::kube::TokenFile;
using snowfleet_test::error_of;
using snowfleet_test::temp_dir;

namespace {

constexpr int64_t kSecond = 1'000'000'000;

void write(const std::string& path, const std::string& text) {
  std::ofstream(path, std::ios::trunc) << text;
}

}  // namespace

TEST_CASE("a token file is read again a minute after its last read and at once after a 401",
          "[k8s]") {
  const std::string path = temp_dir() + "/token";
  write(path, "first\n");
  TokenFile t(path, "k8s-lease://ids", "in-cluster");
  CHECK(t.get(5 * kSecond, false) == "first");
  write(path, "second");
  CHECK(t.get(64 * kSecond, false) == "first");
  CHECK(t.get(65 * kSecond, false) == "second");
  write(path, "third");
  CHECK(t.get(66 * kSecond, true) == "third");
}

TEST_CASE("a token file that cannot be read again keeps the token read last until a 401", "[k8s]") {
  const std::string path = temp_dir() + "/token";
  write(path, "first");
  TokenFile t(path, "k8s-lease://ids", "in-cluster");
  CHECK(t.get(0, false) == "first");
  std::remove(path.c_str());  // the kubelet swaps the file's directory link
  CHECK(t.get(61 * kSecond, false) == "first");
  write(path, "");
  CHECK(t.get(62 * kSecond, false) == "first");
  write(path, "bad\r\nX-Injected: 1");
  CHECK(t.get(63 * kSecond, false) == "first");
  // A failed read is tried again at the next request, not a minute later.
  write(path, "second");
  CHECK(t.get(64 * kSecond, false) == "second");
  std::remove(path.c_str());
  const snowfleet::Error e = error_of([&] { t.get(65 * kSecond, true); });
  CHECK(e.kind() == ErrorKind::kNodeIdUnavailable);
  CHECK_THAT(e.what(),
             Catch::Contains("k8s-lease://ids: the token file '" + path + "' cannot be read") &&
                 Catch::Contains("(in-cluster)"));
}

TEST_CASE("a token file that cannot be read at first is an error naming the file and why",
          "[k8s]") {
  const std::string path = temp_dir() + "/token";
  const auto message = [&] {
    TokenFile t(path, "k8s-lease://ids", "kubeconfig '/k', user 'u'");
    const snowfleet::Error e = error_of([&] { t.get(0, false); });
    CHECK(e.kind() == ErrorKind::kNodeIdUnavailable);
    return std::string(e.what());
  };
  CHECK_THAT(message(), Catch::Contains("the token file '" + path + "' cannot be read") &&
                            Catch::Contains("(kubeconfig '/k', user 'u')"));
  write(path, " \n");
  CHECK_THAT(message(), Catch::Contains("the token file '" + path + "' is empty"));
  write(path, "a\nb");
  CHECK_THAT(message(), Catch::Contains("control character (byte 0x0a at offset 1)") &&
                            !Catch::Contains("a\nb"));
}

TEST_CASE("a token the server refused is not sent again before the file gives another", "[k8s]") {
  const std::string path = temp_dir() + "/token";
  write(path, "first");
  TokenFile t(path, "k8s-lease://ids", "in-cluster");
  CHECK(t.get(0, false) == "first");
  std::remove(path.c_str());  // being swapped when the 401 came
  const snowfleet::Error e = error_of([&] { t.get(10 * kSecond, true); });
  CHECK(e.kind() == ErrorKind::kNodeIdUnavailable);
  CHECK_THAT(e.what(), Catch::Contains("cannot be read") &&
                           Catch::Contains("the API server refused the token read before it"));
  // Within the minute, the next request still reads the file first.
  CHECK(error_of([&] { t.get(11 * kSecond, false); }).kind() == ErrorKind::kNodeIdUnavailable);
  write(path, "second");
  CHECK(t.get(12 * kSecond, false) == "second");
  CHECK(t.get(13 * kSecond, false) == "second");
}
