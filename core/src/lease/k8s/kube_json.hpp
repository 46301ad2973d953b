// The JSON a kubeconfig may be written in (`kubectl config view -o json`) and the flow
// collections of its YAML: read into the tree kube_yaml.hpp's reader builds, nesting at most
// kMaxDepth levels, a key twice in one object refused, errors naming positions and keys,
// never values. Internal.
#pragma once

#include <cstddef>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "kube_yaml.hpp"

namespace snowfleet {
namespace detail {
namespace kube {

/// How deep mappings, sequences and flow collections may nest, together: a kubeconfig needs
/// 6; each level is a frame of the recursive descent, and a copy or dump of the tree recurses
/// once per level too.
constexpr size_t kMaxDepth = 64;
/// The error text for a document nested deeper than kMaxDepth.
std::string too_deep();

/// Where the JSON text `s` first nests deeper than `max` ('[' and '{' outside strings), or
/// npos. Exact for valid JSON; the parser refuses the rest.
size_t too_deep_at(std::string_view s, size_t max);

/// A JSON text read without recursion: the value, or why not (a syntax error at a byte, or
/// a key that appeared twice in one object, with how many times it was read as a key before).
struct JsonRead {
  bool ok = false;
  nlohmann::json value;
  bool syntax_error = false;
  size_t error_at = 0;  ///< the byte after the one the parser stopped at
  std::string duplicate;
  size_t duplicate_seen = 0;
};
JsonRead read_json(std::string_view text);

/// The error text for a key that appears twice (the key named when short).
std::string twice(const std::string& key);

/// A kubeconfig that is a JSON document, as the tree parse_yaml returns; throws YamlError
/// naming `file` and the line.
nlohmann::json json_document(const std::string& text, const std::string& file);

}  // namespace kube
}  // namespace detail
}  // namespace snowfleet
