// The kubeconfig YAML subset (kube_yaml.hpp): lines are read first (indentation, comments
// removed), then a recursive descent over them builds the JSON tree. A document that is a
// JSON object is read by kube_json.hpp instead.
#include "kube_yaml.hpp"

#include <cctype>
#include <cstddef>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "base/quote.hpp"
#include "kube_json.hpp"

namespace snowfleet {
namespace detail {
namespace kube {
namespace {

using nlohmann::json;

// What an error shows of a line: its key (" in 'key: ...'") when it is one a kubeconfig
// has, never a value, which may be a token or a private key (a token's continuation line
// can look like a key too).
std::string shown(const std::string& text) {
  static const std::set<std::string> keys = {"apiVersion",
                                             "args",
                                             "as",
                                             "as-groups",
                                             "as-uid",
                                             "as-user-extra",
                                             "auth-provider",
                                             "certificate-authority",
                                             "certificate-authority-data",
                                             "client-certificate",
                                             "client-certificate-data",
                                             "client-key",
                                             "client-key-data",
                                             "cluster",
                                             "clusters",
                                             "command",
                                             "config",
                                             "context",
                                             "contexts",
                                             "current-context",
                                             "disable-compression",
                                             "env",
                                             "exec",
                                             "extension",
                                             "extensions",
                                             "insecure-skip-tls-verify",
                                             "kind",
                                             "name",
                                             "namespace",
                                             "password",
                                             "preferences",
                                             "proxy-url",
                                             "server",
                                             "tls-server-name",
                                             "token",
                                             "tokenFile",
                                             "user",
                                             "username",
                                             "users"};
  size_t at = 0;
  while (text.compare(at, 2, "- ") == 0) at += 2;
  size_t colon = text.find(": ", at);
  if (colon == std::string::npos && !text.empty() && text.back() == ':') colon = text.size() - 1;
  if (colon == std::string::npos || !keys.count(text.substr(at, colon - at))) return "";
  return " in " + quote(text.substr(at, colon - at) + ": ...");
}

struct Line {
  size_t indent;
  std::string text;  // without indentation, comment and trailing spaces
  size_t no;         // 1-based
};

// Whether a quote at s[i] opens a quoted scalar (at the start or after a space or a flow
// indicator), rather than sitting inside a plain one ("it's").
bool opens_quote(std::string_view s, size_t i) {
  return i == 0 || s[i - 1] == ' ' || s[i - 1] == '[' || s[i - 1] == '{' || s[i - 1] == ',';
}

// Where a comment starts in `s` ('#' at the start or after a space, outside quotes), or npos.
size_t comment_at(const std::string& s) {
  char quote_char = 0;
  for (size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    if (quote_char) {
      if (c == '\\' && quote_char == '"')
        ++i;
      else if (c == quote_char)
        quote_char = 0;
    } else if ((c == '"' || c == '\'') && opens_quote(s, i)) {
      quote_char = c;
    } else if (c == '#' && (i == 0 || s[i - 1] == ' ')) {
      return i;
    }
  }
  return std::string::npos;
}

// Where the quoted scalar opening s (at s[0]) ends: the index after its closing quote, or
// npos.
size_t quoted_end(std::string_view s) {
  for (size_t i = 1; i < s.size(); ++i) {
    if (s[0] == '"' && s[i] == '\\') {
      ++i;
    } else if (s[i] == s[0]) {
      if (s[0] == '\'' && i + 1 < s.size() && s[i + 1] == '\'') {
        ++i;  // '' inside single quotes
        continue;
      }
      return i + 1;
    }
  }
  return std::string::npos;
}

// Whether a sequence item's text ("- <rest>") opens a block (a mapping or a nested
// sequence) rather than being a scalar.
bool item_is_block(std::string_view rest) {
  if (rest == "-" || rest.substr(0, 2) == "- ") return true;
  if (rest[0] == '{' || rest[0] == '[') return false;
  if (rest[0] == '"' || rest[0] == '\'') {
    const size_t end = quoted_end(rest);
    return end < rest.size() && rest[end] == ':' &&
           (end + 1 == rest.size() || rest[end + 1] == ' ');
  }
  return rest.find(": ") != std::string::npos || rest.back() == ':';
}

class Parser {
 public:
  Parser(const std::string& text, std::string file) : file_(std::move(file)) { split(text); }

  json document() {
    if (lines_.empty()) return json::object();
    json out = block(lines_[0].indent);
    if (pos_ < lines_.size()) fail(lines_[pos_], "unexpected indentation");
    return out;
  }

 private:
  [[noreturn]] void fail(size_t no, const std::string& what) const {
    throw YamlError(file_ + " line " + std::to_string(no) + ": " + what);
  }
  [[noreturn]] void fail(const Line& l, const std::string& what) const {
    fail(l.no, what + shown(l.text));
  }

  // One more level of nesting for the life of the object; refused past kMaxDepth.
  class Nest {
   public:
    Nest(Parser* p, const Line& l) : p_(p) {
      if (p->depth_ >= kMaxDepth) p->fail(l.no, too_deep());
      ++p->depth_;
    }
    ~Nest() { --p_->depth_; }
    Nest(const Nest&) = delete;
    Nest& operator=(const Nest&) = delete;

   private:
    Parser* p_;
  };

  void split(const std::string& text);
  std::string clean(std::string s, size_t no, size_t* indent) const;
  void refuse_indicator(char c, const Line& l) const;
  json block(size_t indent);
  json mapping(size_t indent);
  json sequence(size_t indent);
  json nested(size_t indent, const Line& owner);
  json scalar(const std::string& s, const Line& l) const;
  json flow(const std::string& s, const Line& l) const;
  std::string double_quoted(const std::string& s, size_t* end, const Line& l) const;
  std::string single_quoted(const std::string& s, size_t* end, const Line& l) const;
  size_t key_end(const Line& l, std::string* key) const;

  static bool is_item(const Line& l) {
    return l.text == "-" || (l.text.size() > 1 && l.text[0] == '-' && l.text[1] == ' ');
  }

  std::string file_;
  std::vector<Line> lines_;
  size_t pos_ = 0;
  size_t depth_ = 0;  // the collections open (Nest)
};

void Parser::split(const std::string& text) {
  size_t no = 0;
  for (size_t at = 0; at <= text.size();) {
    size_t end = text.find('\n', at);
    if (end == std::string::npos) end = text.size();
    std::string s = text.substr(at, end - at);
    at = end + 1;
    ++no;
    size_t indent = 0;
    s = clean(s, no, &indent);
    if (s.empty()) continue;
    if (s == "---" && indent == 0 && lines_.empty()) continue;  // one leading document marker
    if (s == "---" || s == "...") fail(no, "a second document (" + s + "); one is supported");
    if (s[0] == '%') fail(no, "a directive (a line starting with '%') is not supported");
    lines_.push_back({indent, s, no});
  }
}

// A line without its end, indentation (into *indent), comment and trailing blanks.
std::string Parser::clean(std::string s, size_t no, size_t* indent) const {
  if (!s.empty() && s.back() == '\r') s.pop_back();
  while (*indent < s.size() && s[*indent] == ' ') ++*indent;
  if (*indent < s.size() && s[*indent] == '\t')
    fail(no, "a tab in the indentation (YAML indents with spaces)");
  s = s.substr(*indent);
  if (const size_t c = comment_at(s); c != std::string::npos) s.resize(c);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.pop_back();
  return s;
}

json Parser::block(size_t indent) {
  const Line& l = lines_[pos_];
  if (l.indent != indent) fail(l, "unexpected indentation");
  return is_item(l) ? sequence(indent) : mapping(indent);
}

// The value of a key or item with nothing after it: the block below (deeper, or a sequence
// at the key's own indentation), else null.
json Parser::nested(size_t indent, const Line& owner) {
  if (pos_ >= lines_.size()) return nullptr;
  const Line& next = lines_[pos_];
  if (next.indent > indent) return block(next.indent);
  if (next.indent == indent && is_item(next) && !is_item(owner)) return sequence(indent);
  return nullptr;
}

// Where the key of a mapping line ends (its ':'), the key in *key.
size_t Parser::key_end(const Line& l, std::string* key) const {
  const std::string& s = l.text;
  if (s[0] == '?') fail(l, "a complex key ('?') is not supported");
  size_t end = 0;
  if (s[0] == '"' || s[0] == '\'') {
    *key = s[0] == '"' ? double_quoted(s, &end, l) : single_quoted(s, &end, l);
    if (end >= s.size() || s[end] != ':') fail(l, "expected ':' after the quoted key");
  } else {
    end = s.find(": ");
    if (end == std::string::npos && s.back() == ':') end = s.size() - 1;
    if (end == std::string::npos) fail(l, "expected 'key: value' or '- item'");
    *key = s.substr(0, end);
    const json k = scalar(*key, l);
    if (!k.is_string()) fail(l, "a key must be a plain or quoted scalar");
  }
  return end;
}

json Parser::mapping(size_t indent) {
  const Nest nest(this, lines_[pos_]);
  json out = json::object();
  while (pos_ < lines_.size() && lines_[pos_].indent == indent) {
    const Line l = lines_[pos_];
    if (is_item(l)) fail(l, "a sequence item where a mapping key was expected");
    std::string key;
    const size_t colon = key_end(l, &key);
    if (out.contains(key)) fail(l, "the key " + quote(key) + " appears twice");
    size_t v = colon + 1;
    while (v < l.text.size() && l.text[v] == ' ') ++v;
    ++pos_;
    out[key] = v < l.text.size() ? scalar(l.text.substr(v), l) : nested(indent, l);
    if (pos_ < lines_.size() && lines_[pos_].indent > indent)
      fail(lines_[pos_], "unexpected indentation (a multi-line scalar is not supported)");
  }
  if (pos_ < lines_.size() && lines_[pos_].indent > indent)
    fail(lines_[pos_], "unexpected indentation");
  return out;
}

json Parser::sequence(size_t indent) {
  const Nest nest(this, lines_[pos_]);
  json out = json::array();
  while (pos_ < lines_.size() && lines_[pos_].indent == indent && is_item(lines_[pos_])) {
    Line& l = lines_[pos_];
    size_t v = 1;
    while (v < l.text.size() && l.text[v] == ' ') ++v;
    if (v == l.text.size()) {
      const Line owner = l;
      ++pos_;
      out.push_back(nested(indent, owner));
      continue;
    }
    // "- key: value": the item's contents start a block at their own column (the line
    // shortened in place: "- - - x" is one level per "- ", up to kMaxDepth).
    if (item_is_block(std::string_view(l.text).substr(v))) {
      l.indent += v;
      l.text.erase(0, v);
      out.push_back(block(l.indent));
    } else {
      const Line item = l;
      ++pos_;
      out.push_back(scalar(item.text.substr(v), item));
    }
  }
  return out;
}

// A plain scalar's first character that YAML reserves for what this subset does not read.
void Parser::refuse_indicator(char c, const Line& l) const {
  if (c == '&' || c == '*') fail(l, "an anchor or alias is not supported");
  if (c == '!') fail(l, "a tag is not supported");
  if (c == '|' || c == '>') fail(l, "a block scalar ('|' or '>') is not supported");
  if (c == '@' || c == '`') fail(l, "a plain scalar cannot start with '@' or '`'");
}

json Parser::scalar(const std::string& s, const Line& l) const {
  const char c = s[0];
  size_t end = 0;
  if (c == '"' || c == '\'') {
    std::string v = c == '"' ? double_quoted(s, &end, l) : single_quoted(s, &end, l);
    if (end != s.size()) fail(l, "text after the closing quote");
    return v;
  }
  if (c == '{' || c == '[') return flow(s, l);
  refuse_indicator(c, l);
  if (s.find(": ") != std::string::npos) fail(l, "': ' inside a plain scalar (quote it)");
  if (s == "~" || s == "null") return nullptr;
  return s;
}

// A flow collection: JSON on one line, nesting no deeper than kMaxDepth with the blocks
// around it.
json Parser::flow(const std::string& s, const Line& l) const {
  if (too_deep_at(s, kMaxDepth - depth_) != std::string_view::npos) fail(l, too_deep());
  JsonRead r = read_json(s);
  if (r.ok) return std::move(r.value);
  if (!r.syntax_error) fail(l, twice(r.duplicate));
  fail(l, "a flow collection that is not JSON on one line (only JSON-style flow is read)");
}

std::string Parser::single_quoted(const std::string& s, size_t* end, const Line& l) const {
  std::string out;
  for (size_t i = 1; i < s.size(); ++i) {
    if (s[i] != '\'') {
      out += s[i];
    } else if (i + 1 < s.size() && s[i + 1] == '\'') {
      out += '\'';
      ++i;
    } else {
      *end = i + 1;
      return out;
    }
  }
  fail(l,
       "a single-quoted scalar without its closing quote (multi-line scalars are not "
       "supported)");
}

std::string Parser::double_quoted(const std::string& s, size_t* end, const Line& l) const {
  std::string out;
  for (size_t i = 1; i < s.size(); ++i) {
    if (s[i] == '"') {
      *end = i + 1;
      return out;
    }
    if (s[i] != '\\') {
      out += s[i];
      continue;
    }
    if (++i == s.size()) break;
    switch (s[i]) {
      case '\\':
        out += '\\';
        break;
      case '"':
        out += '"';
        break;
      case '/':
        out += '/';
        break;
      case 'n':
        out += '\n';
        break;
      case 't':
        out += '\t';
        break;
      case 'r':
        out += '\r';
        break;
      default:
        fail(l, "an escape other than \\\\ \\\" \\/ \\n \\t \\r is not supported");
    }
  }
  fail(l,
       "a double-quoted scalar without its closing quote (multi-line scalars are not "
       "supported)");
}

}  // namespace

json parse_yaml(const std::string& text, const std::string& file) {
  const size_t bom = text.compare(0, 3, "\xEF\xBB\xBF") == 0 ? 3 : 0;
  const size_t first = text.find_first_not_of(" \t\r\n", bom);
  if (first != std::string::npos && text[first] == '{')
    return json_document(text.substr(bom), file);
  Parser p(bom ? text.substr(bom) : text, file);
  return p.document();
}

}  // namespace kube
}  // namespace detail
}  // namespace snowfleet
