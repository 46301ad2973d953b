// Helpers shared by the Catch2 tests.
#pragma once

#include <catch2/catch.hpp>

#include <functional>

#include "snowfleet/snowfleet.hpp"

namespace snowfleet_test {

/// Runs fn, which must throw snowfleet::Error, and returns that error (fails the test if
/// fn returns normally).
inline snowfleet::Error error_of(const std::function<void()>& fn) {
  try {
    fn();
  } catch (const snowfleet::Error& e) {
    return e;
  }
  FAIL("expected snowfleet::Error");
  return snowfleet::Error(snowfleet::ErrorKind::kInternal, "unreachable");
}

/// The kind of the snowfleet::Error fn throws.
inline snowfleet::ErrorKind kind_of(const std::function<void()>& fn) { return error_of(fn).kind(); }

}  // namespace snowfleet_test
