// One claim walk's steps over a "local:DIR" registry: opening the directory, and taking a
// slot's two locks (its abstract sockets, then its file's lock) with its mark checked.
// Used by the exclusive lease (node_source_local.cc) and the host-shared one
// (local_share.cc), which hold what a claim took in different ways. Internal.
#pragma once

#include <cstdint>
#include <string>

#include "local_claim_pick.hpp"
#include "mint/node_claim.hpp"
#include "snowfleet/layout.hpp"

namespace snowfleet {
namespace detail {

/// What taking one slot gave: its file (locked exclusively), its sockets (-1 when not
/// bound: no abstract namespace, or `sock2` when the directory has one spelling), and the
/// mark the slot had (-1: none).
struct SlotHold {
  int fd = -1, sock = -1, sock2 = -1;
  int64_t mark = -1;
};

/// strerror(err), for messages.
std::string errno_text(int err);
/// Throws Error(kNodeIdUnavailable, what): a local claim that cannot give a node id.
[[noreturn]] void unavailable(const std::string& what);

/// Closes `fd` if open and sets it to -1.
void close_fd(int& fd) noexcept;

/// A local lease whose descriptors a forked child drops at once (pthread_atfork), so that
/// what the parent holds stays the parent's alone: freed when the parent releases it or
/// dies, whatever its children do. A lease tracks itself while it lives.
class ForkDropped {
 public:
  /// In a forked child: close this process's copies without touching the parent's locks
  /// (they belong to open file descriptions the parent's descriptors keep). Must not take
  /// a lock a parent thread may have held at the fork.
  virtual void drop_inherited() noexcept = 0;

 protected:
  ForkDropped() = default;
  ~ForkDropped() = default;
  void track();
  void untrack() noexcept;
};

/// The registry directory (absolute: every process of the fleet must name the same one),
/// created and opened; refused on a network or shared filesystem. `*dir` "" is the
/// private default, replaced by its path.
int open_registry_dir(std::string* dir, bool private_dir, const std::string& quoted);

/// One claim walk over the registry directory `dir` (open as `dir_fd`).
class LocalClaim {
 public:
  LocalClaim(std::string dir, int dir_fd, const Layout& layout);

  LocalTally tally;

  /// Takes `slot` into `*hold`, or false when it is held or unusable (counted in `tally`;
  /// nothing kept).
  bool try_slot(int64_t slot, SlotHold* hold);

 private:
  bool bind_sockets(int64_t slot, int* sock, int* sock2);
  int lock_slot_file(const std::string& name, const std::string& path);
  bool usable_mark(int fd, const std::string& name, const std::string& path, int64_t* mark);

  const std::string dir_;
  const int dir_fd_;
  const Layout& layout_;
  const std::string key_, key2_;
};

/// How many slots a walk probes: 1 for a pinned slot, else the layout's node ids up to
/// 65536 (a layout with a huge node field does not create millions of files first).
int64_t claim_probes(int64_t pinned, const Layout& layout);

/// Walks the registry's slots (only `pinned` when >= 0, else the probe order) and takes
/// the first free one `usable` allows into `*hold`: its node id, or -1 (`claim.tally`
/// says why).
int64_t claim_walk(LocalClaim& claim, int64_t pinned, const Layout& layout,
                   const SlotFilter& usable, SlotHold* hold);

}  // namespace detail
}  // namespace snowfleet
