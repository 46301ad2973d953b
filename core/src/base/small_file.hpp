// Reading a small file a user names (a kubeconfig, a token, a password file) without
// blocking on what is not a regular file.
#pragma once

#include <string>

namespace snowfleet {
namespace detail {

/// The whole of the regular file at `path` (links followed) into *out: true. False with
/// *why set ("No such file or directory", "is not a regular file", "is larger than 1 MiB")
/// otherwise. It opens without blocking and checks the type before reading, so a FIFO, a
/// terminal or a socket named by mistake is refused at once instead of hanging the claim
/// that reads it.
bool read_small_file(const std::string& path, std::string* out, std::string* why);

/// True when `path` names something that exists and is not a regular file (links
/// followed): a file another library opens itself (libcurl's certificates) is checked with
/// this first, since an open of a FIFO with no writer blocks for ever.
bool exists_but_not_regular(const std::string& path);

}  // namespace detail
}  // namespace snowfleet
