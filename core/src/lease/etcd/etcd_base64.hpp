// Base64, as etcd's v3 JSON gateway carries keys and values. Pure functions. Internal.
#pragma once

#include <string>

namespace snowfleet {
namespace detail {
namespace etcd {

/// Encodes `in` as base64 with '=' padding.
std::string b64(const std::string& in);

/// Decodes base64; bytes outside the alphabet ('=' padding) are skipped.
std::string unb64(const std::string& in);

}  // namespace etcd
}  // namespace detail
}  // namespace snowfleet
