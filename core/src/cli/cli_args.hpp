// The CLI's argument handling: "--name value" options, positional arguments, and the
// readers of the options several commands share. Internal to cli.cc (split for size).
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "snowfleet/snowfleet.hpp"

namespace snowfleet {
namespace detail {
namespace cli {

/// A command line that is wrong as such (unknown option, missing value): exit 2 + usage.
struct Usage : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Options: "--name value" pairs plus positional arguments. Flags without a value are
// listed in `flags`. An option given twice is refused: which one counts would be a guess.
struct Args {
  std::map<std::string, std::string> opts;
  std::vector<std::string> positional;
  bool has(const std::string& k) const { return opts.count(k) != 0; }
  const std::string& get(const std::string& k) const { return opts.at(k); }
};

using Argv = std::vector<std::string>;

/// Parses argv[1..] (argv[0] is the command).
Args parse_args(const Argv& argv, const std::vector<std::string>& valued,
                const std::vector<std::string>& flags);
/// `text` as a signed decimal integer, or kInvalidArgument naming option `name`.
int64_t to_int(const std::string& name, const std::string& text);
/// Option `name` as an integer when given.
std::optional<int64_t> opt_int(const Args& a, const std::string& name);
/// --node / --datacenter + --machine, as the core's NodeArgs.
NodeArgs node_args(const Args& a);
/// --layout, the default layout when absent.
Layout layout_of(const Args& a);
/// --max-wait-ms as a number (the generator checks its range).
std::optional<double> max_wait_of(const Args& a);
/// -n / --count: how many to mint, 1 by default.
size_t count_of(const Args& a);
/// --format, `absent` when not given.
IdFormat format_of(const Args& a, IdFormat absent);
/// --format for ids written (decimal when absent; "any" refused).
IdFormat output_format_of(const Args& a);
/// An id as decode reads it (see read_id in cli_args.cc).
int64_t read_id(const Args& a, const std::string& text);

}  // namespace cli
}  // namespace detail
}  // namespace snowfleet
