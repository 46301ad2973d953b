// snowfleet.node_source: the mark writer's hold on a leased node id (node_lease.cc).
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "mint.hpp"
#include "snowfleet/layout.hpp"

namespace snowfleet {
namespace detail {
class NodeLease;
}
}  // namespace snowfleet

namespace snowfleet_pg {

/// Held by the background worker only: a backend never claims, so no claim (a connection,
/// a file lock) happens inside a transaction. Backends read the node id, the deadline and
/// the refusal from shared memory. Never throws: failures are returned or published.
class LeaseHolder {
 public:
  /// Tries one claim of `spec` for `layout`. Held: the space's state starts after the
  /// slot's mark, the limit waits for this server's first mark in the slot, and then the
  /// node id is published. Not held: the reason is published for backends and logged.
  bool claim(SharedMint* m, const char* spec, const snowfleet::Layout& layout);
  bool held() const noexcept { return lease_ != nullptr; }
  /// Persists `mark_ms` in the slot (before the limit may move up to it); false with *why.
  bool write_mark(int64_t mark_ms, std::string* why) noexcept;
  /// Each turn of the worker: copies the deadline to shared memory, maintains the lease
  /// (about every 100 ms). False when the lease is lost: backends refuse from then on.
  bool keep(SharedMint* m) noexcept;
  /// Unpublishes the node id, then gives the slot back.
  void release(SharedMint* m) noexcept;

 private:
  std::shared_ptr<snowfleet::detail::NodeLease> lease_;
  int64_t maintained_ns_ = 0;
};

/// Publishes why a backend gets no node id ("" clears it).
void set_lease_problem(SharedMint* m, const char* why) noexcept;
/// Copies it into `out`.
void lease_problem(SharedMint* m, char* out, size_t size) noexcept;

}  // namespace snowfleet_pg
