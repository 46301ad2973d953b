// run_cli on the process's stdout and stderr: the one way every package's CLI writes, so a
// failed write (a full disk, a closed stdout, a closed pipe) ends each the same way.
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <iostream>
#include <memory>
#include <streambuf>
#include <string>
#include <vector>

#include "snowfleet/cli.hpp"

namespace snowfleet {
namespace {

// File descriptor 1 through write(2) with a buffer of its own. C stdio's stdout will not do:
// the hosts make it unbuffered (Node always, Python under PYTHONUNBUFFERED), so every `<<`
// would be a write(2), and `snowfleet layout | grep -q X` would race the reader's exit.
// A failed write leaves errno as write(2) set it, for run_cli's message.
class FdOut : public std::streambuf {
 public:
  explicit FdOut(int fd) : fd_(fd), buf_(new char[kSize]) { setp(buf_.get(), buf_.get() + kSize); }

 protected:
  int_type overflow(int_type c) override {
    if (!drain()) return traits_type::eof();
    if (traits_type::eq_int_type(c, traits_type::eof())) return traits_type::not_eof(c);
    *pptr() = traits_type::to_char_type(c);
    pbump(1);
    return c;
  }
  int sync() override { return drain() ? 0 : -1; }

 private:
  static constexpr size_t kSize = size_t{1} << 16;

  // Writes what is buffered; false (errno from write(2)) when the descriptor refuses it.
  bool drain() {
    const char* p = pbase();
    bool ok = true;
    while (ok && p < pptr()) {
      const ssize_t n = ::write(fd_, p, static_cast<size_t>(pptr() - p));
      if (n > 0) p += n;
      ok = n > 0 || (n < 0 && errno == EINTR);
    }
    setp(buf_.get(), buf_.get() + kSize);
    return ok;
  }

  int fd_;
  std::unique_ptr<char[]> buf_;
};

}  // namespace

int run_cli_stdio(const std::vector<std::string>& args) {
  std::fflush(stdout);  // what the host wrote through C stdio goes first
  FdOut buf(STDOUT_FILENO);
  std::ostream out(&buf);
  const int code = run_cli(args, out, std::cerr);
  std::cerr.flush();
  return code;
}

}  // namespace snowfleet
