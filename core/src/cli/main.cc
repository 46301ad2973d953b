// The `snowfleet` executable: the core's CLI (cli.cc beside it, shared with the Python and Node
// packages) on this process's streams. Usage: `snowfleet --help`.
#include <iostream>
#include <string>
#include <vector>

#include "snowfleet/cli.hpp"

int main(int argc, char** argv) {
  const std::vector<std::string> args(argv + 1, argv + argc);
  return snowfleet::run_cli(args, std::cout, std::cerr);
}
