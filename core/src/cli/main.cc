// The `snowfleet` executable: the core's CLI (cli.cc beside it, shared with the Python and Node
// packages) on this process's streams. Usage: `snowfleet --help`.
#include <csignal>
#include <string>
#include <vector>

#include "snowfleet/cli.hpp"

int main(int argc, char** argv) {
  // A closed pipe is a failed write with EPIPE, which run_cli turns into its documented
  // status, as in Python and Node (which ignore SIGPIPE too).
  std::signal(SIGPIPE, SIG_IGN);
  const std::vector<std::string> args(argv + 1, argv + argc);
  return snowfleet::run_cli_stdio(args);
}
