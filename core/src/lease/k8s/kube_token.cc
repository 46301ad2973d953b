// A token file read again as it rotates (kube_token.hpp).
#include "kube_token.hpp"

#include <stdexcept>

#include "base/quote.hpp"
#include "base/small_file.hpp"
#include "kube_config.hpp"
#include "snowfleet/snowfleet.hpp"

namespace snowfleet {
namespace detail {
namespace kube {

TokenFile::TokenFile(std::string path, std::string where, std::string source)
    : path_(std::move(path)), where_(std::move(where)), source_(std::move(source)) {}

// The file's token in `token`, or false with the whole error message in `why`.
bool TokenFile::read(std::string* token, std::string* why) const {
  const std::string file = where_ + ": the token file " + quote(path_);
  std::string text;
  if (!read_small_file(path_, &text, why)) {
    *why = file + " cannot be read: " + *why + " (" + source_ + ")";
    return false;
  }
  text = trim_space(text);
  if (text.empty()) {
    *why = file + " is empty (" + source_ + ")";
    return false;
  }
  try {
    check_token(text, file);
  } catch (const std::exception& e) {
    *why = e.what();  // names the file and the byte, never the token
    return false;
  }
  *token = std::move(text);
  return true;
}

const std::string& TokenFile::get(int64_t now_ns, bool refused) {
  if (refused) refused_ = true;  // known bad until a read of the file replaces it
  const bool usable = !token_.empty() && !refused_;
  if (usable && now_ns - read_ns_ < kRereadNs) return token_;
  std::string token, why;
  if (read(&token, &why)) {
    token_ = std::move(token);
    read_ns_ = now_ns;
    refused_ = false;
    return token_;
  }
  // The token read last still serves until the server refuses it.
  if (usable) return token_;
  if (refused_) why += "; the API server refused the token read before it (HTTP 401)";
  throw Error(ErrorKind::kNodeIdUnavailable, why);
}

}  // namespace kube
}  // namespace detail
}  // namespace snowfleet
