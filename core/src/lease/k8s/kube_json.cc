// The JSON half of the kubeconfig reader (kube_json.hpp): nlohmann's SAX parser builds the
// tree (no recursion), a scan bounds nesting first, and errors keep positions and keys,
// never values.
#include "kube_json.hpp"

#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "base/quote.hpp"

namespace snowfleet {
namespace detail {
namespace kube {
namespace {

using nlohmann::json;

// The tree of a JSON text, built as nlohmann's SAX parser reads it (neither recurses: the
// depth is bounded by too_deep_at for what comes after). A key that appears twice in an
// object stops the parse, as in the YAML. Errors keep positions and keys, never values.
class JsonTree : public nlohmann::json_sax<json> {
 public:
  json root;
  bool syntax_error = false;
  size_t error_at = 0;        // the byte after the one the parser stopped at
  std::string duplicate;      // the key that appeared twice
  size_t duplicate_seen = 0;  // how many times it had been read as a key, in any object

  bool null() override { return put(nullptr); }
  bool boolean(bool v) override { return put(v); }
  bool number_integer(number_integer_t v) override { return put(v); }
  bool number_unsigned(number_unsigned_t v) override { return put(v); }
  bool number_float(number_float_t v, const string_t&) override { return put(v); }
  bool string(string_t& v) override { return put(std::move(v)); }
  bool binary(binary_t&) override { return false; }
  bool start_object(std::size_t) override { return open(json::object()); }
  bool start_array(std::size_t) override { return open(json::array()); }
  bool end_object() override { return close(); }
  bool end_array() override { return close(); }
  bool key(string_t& k) override {
    const size_t seen = keys_seen_[k]++;
    if (stack_.back()->contains(k)) {
      duplicate = k;
      duplicate_seen = seen;
      return false;
    }
    key_ = std::move(k);
    return true;
  }
  bool parse_error(std::size_t at, const std::string&,
                   const nlohmann::detail::exception&) override {
    syntax_error = true;
    error_at = at;
    return false;
  }

 private:
  json* place(json v) {
    if (stack_.empty()) {
      root = std::move(v);
      return &root;
    }
    json& top = *stack_.back();
    if (top.is_array()) {
      top.push_back(std::move(v));
      return &top.back();
    }
    json& slot = top[key_];
    slot = std::move(v);
    return &slot;
  }
  bool put(json v) {
    place(std::move(v));
    return true;
  }
  bool open(json v) {
    stack_.push_back(place(std::move(v)));
    return true;
  }
  bool close() {
    stack_.pop_back();
    return true;
  }

  std::vector<json*> stack_;  // the collections open, innermost last
  std::string key_;           // the key of the value that comes next in an object
  std::map<std::string, size_t> keys_seen_;
};

// Where the key read `seen` times before, as "key" followed by ':' (SAX gives keys no
// position): the byte of its next such occurrence in `text`, 0 when it is written another
// way (escaped).
size_t key_at(const std::string& text, const std::string& key, size_t seen) {
  const std::string quoted = "\"" + key + "\"";
  for (size_t at = text.find(quoted); at != std::string::npos; at = text.find(quoted, at + 1)) {
    const size_t colon = text.find_first_not_of(" \t\r\n", at + quoted.size());
    if (colon < text.size() && text[colon] == ':' && seen-- == 0) return at;
  }
  return 0;
}

// The 1-based line of byte `at` of `text`.
size_t line_of(const std::string& text, size_t at) {
  size_t no = 1;
  for (size_t i = 0; i < at && i < text.size(); ++i) no += text[i] == '\n';
  return no;
}

}  // namespace

std::string too_deep() {
  return "collections nested deeper than " + std::to_string(kMaxDepth) +
         " levels (mappings, sequences and flow collections)";
}

// Where the JSON text `s` first nests deeper than `max` ('[' and '{' outside strings), or
// npos. Exact for valid JSON; the parser refuses the rest.
size_t too_deep_at(std::string_view s, size_t max) {
  size_t depth = 0;
  bool in_string = false;
  for (size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    if (in_string) {
      if (c == '\\')
        ++i;
      else if (c == '"')
        in_string = false;
    } else if (c == '"') {
      in_string = true;
    } else if ((c == '[' || c == '{') && ++depth > max) {
      return i;
    } else if ((c == ']' || c == '}') && depth > 0) {
      --depth;
    }
  }
  return std::string_view::npos;
}

JsonRead read_json(std::string_view text) {
  JsonTree tree;
  JsonRead r;
  r.ok = json::sax_parse(text, &tree);
  r.value = std::move(tree.root);
  r.syntax_error = tree.syntax_error;
  r.error_at = tree.error_at;
  r.duplicate = std::move(tree.duplicate);
  r.duplicate_seen = tree.duplicate_seen;
  return r;
}

// A duplicate key, named when it is short (a key of any length is valid JSON).
std::string twice(const std::string& key) {
  return key.size() <= 64 ? "the key " + quote(key) + " appears twice in one object"
                          : "a key appears twice in one object";
}

// A document that is a JSON object (as `kubectl config view -o json` writes it).
json json_document(const std::string& text, const std::string& file) {
  const auto at_line = [&](size_t at) {
    return file + " line " + std::to_string(line_of(text, at)) + ": ";
  };
  if (const size_t deep = too_deep_at(text, kMaxDepth); deep != std::string_view::npos)
    throw YamlError(at_line(deep) + too_deep());
  JsonRead r = read_json(text);
  if (r.ok) return std::move(r.value);
  if (!r.syntax_error)
    throw YamlError(at_line(key_at(text, r.duplicate, r.duplicate_seen)) + twice(r.duplicate));
  const size_t at = r.error_at > 0 ? r.error_at - 1 : 0;
  throw YamlError(at_line(at) + "not valid JSON (byte " + std::to_string(at + 1) +
                  "; a document starting with '{' is read as JSON)");
}

}  // namespace kube
}  // namespace detail
}  // namespace snowfleet
