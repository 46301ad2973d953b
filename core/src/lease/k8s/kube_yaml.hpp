// The YAML a kubeconfig is written in, as far as kubectl and client-go write it: block
// mappings and sequences (a sequence may sit at its key's indentation), plain, single- and
// double-quoted scalars on one line, comments, and JSON-style flow collections ({} and []
// with their contents on the same line). Everything else (anchors, aliases, tags, block and
// multi-line scalars, several documents, tabs in indentation, duplicate keys, complex keys)
// is refused with an error naming the file, the line and what was not understood, never a
// value (at most the key of the line: a value may be a token or a private key). Mappings,
// sequences and flow collections nest at most 64 levels, together. A document whose first
// character (after a byte order mark and whitespace) is '{' is read as JSON, as kubectl
// config view -o json writes it, into the same tree. Scalars come out as strings: a
// kubeconfig's fields are strings or booleans read as text. Pure text handling, so it can be
// tested and fuzzed. Internal.
#pragma once

#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>

namespace snowfleet {
namespace detail {
namespace kube {

/// A text the parser does not accept: what() is "FILE line N: what was not understood".
struct YamlError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// Parses `text` (the contents of `file`, named in errors). An empty document (nothing but
/// comments) is an empty object. Throws YamlError.
nlohmann::json parse_yaml(const std::string& text, const std::string& file);

}  // namespace kube
}  // namespace detail
}  // namespace snowfleet
