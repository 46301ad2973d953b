// The `snowfleet` command line, run by the core for every package: the C++ executable,
// `python -m snowfleet` (and the `snowfleet` console script) and `npx snowfleet` call
// run_cli() and copy what it writes to the host's stdout and stderr, so each prints the same
// text and exits with the same code.
#pragma once

#include <ostream>
#include <string>
#include <vector>

namespace snowfleet {

/// Runs one CLI invocation. `args` are the arguments after the program name (`next`,
/// `--node`, `37`, ...). Output goes to `out`, messages to `err`. Returns the exit status:
/// 0 success (also for `--help` after any command), 1 the generator refused (e.g. the clock
/// moved backwards, no node id available), 2 bad input (usage, malformed or out-of-range
/// values). Never throws for bad input: every error becomes a message and a status.
int run_cli(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

}  // namespace snowfleet
