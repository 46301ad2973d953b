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

namespace {

bool listed(const std::vector<std::string>& names, const std::string& name) {
  for (const auto& n : names)
    if (n == name) return true;
  return false;
}

// An option's text, not a value: "-x" or "--x", but not a negative number ("-5").
bool is_option(const std::string& arg) {
  return arg.size() > 1 && arg[0] == '-' && !(arg[1] >= '0' && arg[1] <= '9');
}

// Stores option `name` = `value`, refusing one given twice: which would count is a guess.
void store(Args* a, const std::string& name, const std::string& value) {
  // -n and --count are one option, stored under each name it was given as.
  const std::string other = name == "-n" ? "--count" : name == "--count" ? "-n" : "";
  if (a->has(name)) throw Usage("option " + name + " is given twice");
  if (!other.empty() && a->has(other))
    throw Usage("option " + name + " and " + other + " are the same option; give one");
  a->opts[name] = value;
}

}  // namespace

// Parses argv[1..] (argv[0] is the command).
Args parse_args(const Argv& argv, const std::vector<std::string>& valued,
                const std::vector<std::string>& flags) {
  Args a;
  for (size_t i = 1; i < argv.size(); ++i) {
    if (!is_option(argv[i])) {
      a.positional.push_back(argv[i]);
      continue;
    }
    const auto eq = argv[i].find('=');
    const std::string name = argv[i].substr(0, eq);
    if (listed(flags, name) && eq == std::string::npos) {
      a.opts[name] = "1";
    } else if (!listed(valued, name)) {
      throw Usage("unknown option " + name);
    } else if (eq != std::string::npos) {
      store(&a, name, argv[i].substr(eq + 1));
    } else {
      if (i + 1 >= argv.size()) throw Usage("option " + name + " needs a value");
      store(&a, name, argv[++i]);
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

// --format, `absent` when not given.
IdFormat format_of(const Args& a, IdFormat absent) {
  return a.has("--format") ? parse_id_format(a.get("--format")) : absent;
}

// --format for ids written: decimal when absent; "any" is for reading only.
IdFormat output_format_of(const Args& a) {
  const IdFormat f = format_of(a, IdFormat::kDecimal);
  if (f == IdFormat::kAny)
    throw Error(ErrorKind::kInvalidArgument,
                "--format any reads ids (decode); ids are written as decimal, base32 or base62");
  return f;
}

// An id as decode reads it: in --format, any form (parse_id_any) when absent.
int64_t read_id(const Args& a, const std::string& text) {
  return parse_id_as(text, format_of(a, IdFormat::kAny));
}

}  // namespace cli
}  // namespace detail
}  // namespace snowfleet
