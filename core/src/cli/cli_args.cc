// The CLI's argument handling (cli_args.hpp).
#include "cli_args.hpp"

#include <locale>
#include <optional>
#include <sstream>

#include "base/quote.hpp"
#include "base/strict_int.hpp"

namespace snowfleet {
namespace detail {
namespace cli {

// Parses argv[1..] (argv[0] is the command).
Args parse_args(const Argv& argv, const std::vector<std::string>& valued,
                const std::vector<std::string>& flags) {
  Args a;
  const size_t argc = argv.size();
  for (size_t i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg.size() > 1 && arg[0] == '-' && !(arg[1] >= '0' && arg[1] <= '9')) {
      std::string value;
      const auto eq = arg.find('=');
      if (eq != std::string::npos) {
        value = arg.substr(eq + 1);
        arg = arg.substr(0, eq);
      }
      bool is_valued = false, is_flag = false;
      for (const auto& v : valued) is_valued = is_valued || v == arg;
      for (const auto& f : flags) is_flag = is_flag || f == arg;
      if (is_flag && eq == std::string::npos) {
        a.opts[arg] = "1";
      } else if (is_valued) {
        if (eq == std::string::npos) {
          if (i + 1 >= argc) throw Usage("option " + arg + " needs a value");
          value = argv[++i];
        }
        // -n and --count are one option, stored under each name it was given as.
        const std::string other = arg == "-n" ? "--count" : arg == "--count" ? "-n" : "";
        if (a.has(arg)) throw Usage("option " + arg + " is given twice");
        if (!other.empty() && a.has(other))
          throw Usage("option " + arg + " and " + other + " are the same option; give one");
        a.opts[arg] = value;
      } else {
        throw Usage("unknown option " + arg);
      }
    } else {
      a.positional.push_back(arg);
    }
  }
  return a;
}

int64_t to_int(const std::string& name, const std::string& text) {
  int64_t v;
  if (!parse_int64(text, &v, /*allow_negative=*/true))
    throw Error(ErrorKind::kInvalidArgument, name + " must be an integer, got " + quote(text));
  return v;
}

std::optional<int64_t> opt_int(const Args& a, const std::string& name) {
  if (!a.has(name)) return std::nullopt;
  return to_int(name, a.get(name));
}

// --node / --datacenter + --machine, as the core's NodeArgs: the core decides which
// combinations are valid, for the CLI as for every language.
NodeArgs node_args(const Args& a) {
  return {opt_int(a, "--node"), opt_int(a, "--datacenter"), opt_int(a, "--machine")};
}

Layout layout_of(const Args& a) {
  return a.has("--layout") ? Layout::parse(a.get("--layout")) : Layout();
}

namespace {

// A decimal number, all of `t`: digits, a '-', a point, an exponent. Not std::from_chars:
// libc++ (zig's, which builds the release artifacts) has no floating-point from_chars.
// Not strtod: it follows the host's LC_NUMERIC (a JVM sets it from the environment) and
// takes spaces, '+', hex, inf and nan; the classic-locale stream after the character
// check takes exactly what from_chars would, less "inf"/"nan".
std::optional<double> to_double(const std::string& t) {
  if (t.empty() || t[0] == '+' || t.find_first_not_of("0123456789.eE+-") != std::string::npos)
    return std::nullopt;
  std::istringstream in(t);
  in.imbue(std::locale::classic());
  double v = 0;
  in >> std::noskipws >> v;
  if (in.fail() || in.peek() != std::char_traits<char>::eof()) return std::nullopt;
  return v;
}

}  // namespace

// --max-wait-ms as a number (the generator checks its range).
std::optional<double> max_wait_of(const Args& a) {
  if (!a.has("--max-wait-ms")) return std::nullopt;
  const std::string& t = a.get("--max-wait-ms");
  const std::optional<double> ms = to_double(t);
  if (!ms)
    throw Error(ErrorKind::kInvalidArgument, "--max-wait-ms must be a number, got " + quote(t));
  return ms;
}

// -n / --count: how many to mint, 1 by default.
size_t count_of(const Args& a) {
  int64_t n = 1;
  if (a.has("-n")) n = to_int("-n", a.get("-n"));
  if (a.has("--count")) n = to_int("--count", a.get("--count"));
  if (n < 1 || n > static_cast<int64_t>(Generator::kMaxBatch))
    throw Error(ErrorKind::kInvalidArgument, "-n must be in [1, " +
                                                 std::to_string(Generator::kMaxBatch) + "], got " +
                                                 std::to_string(n));
  return static_cast<size_t>(n);
}

// --format, decimal when absent.
IdFormat format_of(const Args& a) {
  return a.has("--format") ? parse_id_format(a.get("--format")) : IdFormat::kDecimal;
}

// An id as decode reads it: in --format when given; else digits only are decimal, and
// 13 / 11 characters base32 / base62 (decimal ids of 11 or 13 digits stay decimal).
int64_t read_id(const Args& a, const std::string& text) {
  if (a.has("--format")) return parse_id_as(text, format_of(a));
  bool digits = !text.empty();
  for (char c : text) digits = digits && c >= '0' && c <= '9';
  if (!digits && text.size() == kBase32Length) return parse_base32(text);
  if (!digits && text.size() == kBase62Length) return parse_base62(text);
  return parse_id(text);
}

}  // namespace cli
}  // namespace detail
}  // namespace snowfleet
