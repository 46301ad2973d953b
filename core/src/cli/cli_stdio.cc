// run_cli on the process's stdout and stderr: the one way every package's CLI writes, so a
// failed write (a full disk, a closed stdout, a closed pipe) ends each the same way.
#include <iostream>
#include <string>
#include <vector>

#include "snowfleet/cli.hpp"

namespace snowfleet {

int run_cli_stdio(const std::vector<std::string>& args) {
  // std::cout writes through C stdio's stdout (synced), whose buffer run_cli flushes, so a
  // write error reaches the stream's state with errno set by the failed write.
  const int code = run_cli(args, std::cout, std::cerr);
  std::cerr.flush();
  return code;
}

}  // namespace snowfleet
