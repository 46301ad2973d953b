// The host-shared node id (local_share.hpp). The share's file, DIR/share-NAME, holds the
// layout, the slot, the slot's marks and the state word, and carries three
// open-file-description locks, which die with their holder whatever kills it:
//  - byte 0, exclusive: joining or leaving (held for a claim's length, never waited on
//    for more than kJoinWaitMs);
//  - byte 1, shared by every sharer: a joiner that can lock it exclusively knows nobody
//    shares any more, and claims a slot afresh;
//  - byte 2, exclusive: the one writer of the slot's mark file at a time.
// Every sharer holds the slot file's lock shared, so no exclusive claimant can take the
// slot while any sharer lives, and none is left holding it when the last one goes. Mark
// writes only raise the mark, so each process's keeper covers what it mints and the
// others find the mark written ahead already. This file is the join; the lease a sharer
// then holds is local_share_lease.cc, the file's layout local_share_file.hpp. Nothing here
// runs per id.
#include "local_share.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "base/quote.hpp"
#include "local_claim.hpp"
#include "local_registry.hpp"
#include "local_share_file.hpp"

namespace snowfleet {
namespace detail {
namespace {

using namespace share;

// One attempt to join, under the join lock. Returns null when the slot the live sharers
// named could not be locked (they left meanwhile, killed): the caller tries again.
class Join {
 public:
  Join(const LocalSpec& spec, int dir_fd, const Layout& layout, const SlotFilter& usable,
       const std::string& quoted)
      : spec_(spec), dir_fd_(dir_fd), layout_(layout), usable_(usable), quoted_(quoted) {
    path_ = spec.dir + "/share-" + spec.share;
  }

  std::shared_ptr<NodeLease> attempt(int share_fd) {
    int err = 0;
    if (!lock_within(share_fd, kJoinByte, kJoinWaitMs, &err))
      unavailable(quoted_ + ": " +
                  (registry::is_held_errno(err)
                       ? "another process has been joining share " + quote(spec_.share) +
                             " for " + std::to_string(kJoinWaitMs) + " ms (" + path_ +
                             "): is it stopped?"
                       : "cannot lock " + path_ + ": " + errno_text(err) +
                             (err == EINVAL ? " (a host-shared node id needs Linux 3.15's open "
                                              "file description locks)"
                                            : "")));
    try {
      std::shared_ptr<NodeLease> lease = join_locked(share_fd);
      unlock_byte(share_fd, kJoinByte);
      return lease;
    } catch (...) {
      unlock_byte(share_fd, kJoinByte);
      throw;
    }
  }

 private:
  std::shared_ptr<NodeLease> join_locked(int share_fd) {
    int err = 0;
    const bool alone = registry::lock_range(share_fd, F_WRLCK, kMemberByte, 1, &err);
    if (!alone && !registry::is_held_errno(err))
      unavailable(quoted_ + ": cannot lock " + path_ + ": " + errno_text(err));
    Parts parts;
    parts.share_fd = share_fd;
    parts.dir = spec_.dir;
    parts.share = spec_.share;
    parts.last_ms = layout_.max_timestamp_ms();
    try {
      if (alone ? !claim_first(&parts) : !join_live(&parts)) {
        if (alone) unlock_byte(share_fd, kMemberByte);
        if (parts.file) munmap(parts.file, kFileSize);
        return nullptr;
      }
      registry::lock_range(share_fd, F_RDLCK, kMemberByte, 1, &err);  // converts: no gap
    } catch (...) {
      if (alone) unlock_byte(share_fd, kMemberByte);
      if (parts.file) munmap(parts.file, kFileSize);
      close_fd(parts.slot_fd);
      close_fd(parts.sock);
      close_fd(parts.sock2);
      throw;
    }
    parts.dir_fd = dup_dir();
    return hold(std::move(parts));
  }

  // Nobody shares: claim a slot as an exclusive claimant would, hold its lock shared, and
  // start the word after the slot's mark.
  bool claim_first(Parts* parts) {
    if (!map(parts, true)) return false;
    LocalClaim claim(spec_.dir, dir_fd_, layout_);
    SlotHold hold;
    const int64_t slot = claim_walk(claim, spec_.pinned, layout_, usable_, &hold);
    if (slot < 0)
      unavailable(local_refusal(quoted_, spec_.dir, spec_.pinned,
                                claim_probes(spec_.pinned, layout_), claim.tally));
    parts->slot = slot;
    parts->slot_fd = hold.fd;
    parts->sock = hold.sock;
    parts->sock2 = hold.sock2;
    int err = 0;
    if (!registry::lock_range(hold.fd, F_RDLCK, 0, 0, &err))
      unavailable(quoted_ + ": cannot share the lock of " + spec_.dir + "/" +
                  registry::slot_name(slot) + ": " + errno_text(err) +
                  " (a host-shared node id needs Linux 3.15's open file description locks)");
    ShareFile* f = parts->file;
    f->epoch_ms = layout_.epoch_ms();
    f->timestamp_bits = layout_.timestamp_bits();
    f->node_bits = layout_.node_bits();
    f->sequence_bits = layout_.sequence_bits();
    f->slot = slot;
    f->claimed_mark_ms = hold.mark;
    f->mark_ms.store(hold.mark, std::memory_order_relaxed);
    f->state.store(last_packed_of_ms(layout_, hold.mark), std::memory_order_relaxed);
    f->magic = kMagic;
    return true;
  }

  // Live sharers: take the slot they hold (shared), after checking they mint what we
  // would.
  bool join_live(Parts* parts) {
    if (!map(parts, false)) return false;
    const ShareFile& f = *parts->file;
    if (f.magic != kMagic || f.slot < 0 || f.slot > layout_.max_node_id() ||
        !same_layout(f, layout_)) {
      std::string theirs = "an unknown layout";
      if (f.magic == kMagic)
        theirs = "layout " + std::to_string(f.timestamp_bits) + "." + std::to_string(f.node_bits) +
                 "." + std::to_string(f.sequence_bits) + "@" + std::to_string(f.epoch_ms);
      unavailable(quoted_ + ": share " + quote(spec_.share) + " in " + spec_.dir +
                  " is used by live processes with " + theirs + ", not " + layout_.to_string() +
                  ": give this layout a share of its own");
    }
    if (spec_.pinned >= 0 && f.slot != spec_.pinned)
      unavailable(quoted_ + ": share " + quote(spec_.share) + " in " + spec_.dir +
                  " holds node " + std::to_string(f.slot) + ", not the node " +
                  std::to_string(spec_.pinned) + " asked for");
    if (usable_ && !usable_(f.slot))
      unavailable(quoted_ + ": share " + quote(spec_.share) + " holds node " +
                  std::to_string(f.slot) + ", which an open generator of this process uses");
    parts->slot = f.slot;
    const std::string name = registry::slot_name(f.slot), path = spec_.dir + "/" + name;
    std::string why;
    int err = 0;
    parts->slot_fd = registry::open_regular(dir_fd_, name, O_RDWR | O_CREAT, path, &err, &why);
    if (parts->slot_fd < 0) unavailable(quoted_ + ": " + why);
    if (registry::lock_range(parts->slot_fd, F_RDLCK, 0, 0, &err)) {
      catch_up(parts, name, path);
      return true;
    }
    close_fd(parts->slot_fd);
    if (registry::is_held_errno(err)) return false;  // the sharers left; someone took it
    unavailable(quoted_ + ": cannot lock " + path + ": " + errno_text(err));
  }

  // The slot's mark file above the share's mark: the slot was free for a moment (its
  // sharers gone while this process counted them) and another claimant minted on it.
  // Continue after what it recorded, as a claimant does. An unreadable mark is refused.
  // Read under the writer's lock: a sharer's write puts the file's mark above the share's
  // until it is done.
  void catch_up(Parts* parts, const std::string& name, const std::string& path) {
    ShareFile& f = *parts->file;
    int err = 0;
    if (!lock_within(parts->share_fd, kWriterByte, kWriterWaitMs, &err))
      unavailable(quoted_ + ": cannot lock " + path_ + " to read the slot's mark: " +
                  (registry::is_held_errno(err) ? "held by a sharer for " +
                                                      std::to_string(kWriterWaitMs) + " ms"
                                                : errno_text(err)));
    struct Unlock {
      int fd;
      ~Unlock() { unlock_byte(fd, kWriterByte); }
    } unlock{parts->share_fd};
    int64_t mark = -1;
    std::string why;
    const registry::MarkFile found = registry::read_mark(dir_fd_, name, spec_.dir, &mark, &why);
    const std::string problem = local_mark_problem(found, mark, why, path, layout_);
    if (!problem.empty()) unavailable(quoted_ + ": " + problem);
    if (found != registry::MarkFile::kValue || mark <= f.mark_ms.load(std::memory_order_acquire))
      return;
    const int64_t packed = last_packed_of_ms(layout_, mark);
    int64_t seen = f.state.load(std::memory_order_acquire);
    while (seen < packed && !f.state.compare_exchange_weak(seen, packed)) {
    }
    int64_t had = f.mark_ms.load(std::memory_order_acquire);
    while (had < mark && !f.mark_ms.compare_exchange_weak(had, mark)) {
    }
  }

  // Maps the share's page. `fresh`: nobody shares, so the file may be sized and written.
  bool map(Parts* parts, bool fresh) {
    struct stat st;
    if (fstat(parts->share_fd, &st) != 0)
      unavailable(quoted_ + ": " + path_ + ": " + errno_text(errno));
    if (static_cast<size_t>(st.st_size) < kFileSize) {
      if (!fresh) return false;  // live sharers always leave it full size: treat as gone
      if (ftruncate(parts->share_fd, kFileSize) != 0)
        unavailable(quoted_ + ": cannot size " + path_ + ": " + errno_text(errno));
    }
    void* at = mmap(nullptr, kFileSize, PROT_READ | PROT_WRITE, MAP_SHARED, parts->share_fd, 0);
    if (at == MAP_FAILED) unavailable(quoted_ + ": cannot map " + path_ + ": " + errno_text(errno));
    parts->file = static_cast<ShareFile*>(at);
    return true;
  }

  int dup_dir() {
    const int fd = fcntl(dir_fd_, F_DUPFD_CLOEXEC, 0);
    if (fd < 0) unavailable(quoted_ + ": " + errno_text(errno));
    return fd;
  }

  const LocalSpec& spec_;
  const int dir_fd_;
  const Layout& layout_;
  const SlotFilter& usable_;
  const std::string& quoted_;
  std::string path_;
};

}  // namespace

std::shared_ptr<NodeLease> claim_shared(const LocalSpec& spec, int dir_fd,
                                        const Layout& layout, const SlotFilter& usable,
                                        const std::string& quoted) {
  struct DirFd {
    int fd;
    ~DirFd() { close(fd); }
  } dir{dir_fd};
  Join join(spec, dir_fd, layout, usable, quoted);
  // A retry follows sharers that all left between the count and the slot's lock.
  for (int attempt = 0; attempt < 3; ++attempt) {
    const std::string name = "share-" + spec.share, path = spec.dir + "/" + name;
    std::string why;
    int err = 0;
    int fd = registry::open_regular(dir_fd, name, O_RDWR | O_CREAT, path, &err, &why);
    if (fd < 0) unavailable(quoted + ": " + why);
    std::shared_ptr<NodeLease> lease;
    try {
      lease = join.attempt(fd);
    } catch (...) {
      close_fd(fd);
      throw;
    }
    if (lease) return lease;
    close_fd(fd);
  }
  unavailable(quoted + ": the sharers of " + quote(spec.share) +
              " kept leaving while this process joined; try again");
}

}  // namespace detail
}  // namespace snowfleet
