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
/// moved backwards, no node id available) or `out` failed (one line names the reason, from
/// errno), 2 bad input (usage, malformed or out-of-range values), kExitClosedPipe when
/// a write to `out` failed with EPIPE (nothing more is said). Never throws for bad input:
/// every error becomes a message and a status. `next -n` and `uuid7 -n` write `out` a
/// chunk at a time and stop at the first failed write.
int run_cli(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

/// The status of a command whose reader closed the pipe (`snowfleet next -n 1000 | head`):
/// 128 + SIGPIPE, what a shell reports for a process that signal ended, in every package.
inline constexpr int kExitClosedPipe = 141;

/// run_cli on this process's stdout and stderr, as the `snowfleet` executable, `python -m
/// snowfleet` and `npx snowfleet` run it: stdout is file descriptor 1 written in 64 KiB
/// blocks whatever the host did to C stdio's buffering (C stdio's stdout is flushed first;
/// a host that buffers its own streams flushes them before the call). SIGPIPE must be
/// ignored (Python and Node ignore it; the executable does) so that a closed pipe is the
/// status above.
int run_cli_stdio(const std::vector<std::string>& args);

}  // namespace snowfleet
