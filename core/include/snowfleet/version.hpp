// The release this core was built as: the VERSION file at the repository root, the one place
// the version is written (CMake, binding.gyp, pyproject.toml and the Java build read it).
#pragma once

namespace snowfleet {

/// The core's version, "MAJOR.MINOR.PATCH" as written in VERSION. A binding compares it with
/// its own package version, so a package layer paired with a native module from another
/// release fails on load with both versions named instead of misbehaving later.
const char* version() noexcept;

}  // namespace snowfleet
