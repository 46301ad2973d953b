// The local registry claim's decisions (node_source_local.cc), apart from its files and
// sockets: what "local[:DIR][?node=N]" asks for, whether a slot's mark can be started
// above, and the refusal when no slot can be had. Pure. Internal.
#pragma once

#include <cstdint>
#include <string>

#include "local_registry.hpp"
#include "snowfleet/layout.hpp"

namespace snowfleet {
namespace detail {

/// "local[:DIR][?node=N&share=NAME]" (either option, or both, in any order): the directory as written
/// ("" for the private default), the pinned slot (-1: any) and the name of the host-shared
/// node id to join ("": an exclusive slot). `quoted` starts every refusal; throws
/// Error(kInvalidArgument) for an unknown or repeated option, a node outside `layout`, a
/// share name that is not a plain word.
struct LocalSpec {
  std::string dir;
  int64_t pinned = -1;
  std::string share;
};
LocalSpec parse_local_spec(const std::string& spec, const Layout& layout,
                           const std::string& quoted);

/// Why a locked slot whose mark file read as `found` cannot be used ("" when it can):
/// `why` as the read gave it (kUnusable), or a mark past `layout`'s window.
std::string local_mark_problem(registry::MarkFile found, int64_t mark, const std::string& why,
                               const std::string& path, const Layout& layout);

/// What a claim walk that found no slot counted.
struct LocalTally {
  int64_t held = 0;       ///< held by live processes
  int64_t used_here = 0;  ///< minted by an open generator of this process
  std::string problem;    ///< the first reason a free-looking slot was unusable
  void note(const std::string& why) {
    if (problem.empty()) problem = why;
  }
};

/// The refusal of a claim on `dir` that probed `probes` slots (`pinned` >= 0: that one).
std::string local_refusal(const std::string& quoted, const std::string& dir, int64_t pinned,
                          int64_t probes, const LocalTally& tally);

}  // namespace detail
}  // namespace snowfleet
