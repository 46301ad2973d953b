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
// others find the mark written ahead already. Nothing here runs per id.
#include "local_share.hpp"

#include <fcntl.h>
#include <pthread.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <mutex>
#include <thread>
#include <vector>

#include "base/quote.hpp"
#include "local_claim.hpp"
#include "local_registry.hpp"
#include "mint/mark_keeper.hpp"

namespace snowfleet {
namespace detail {
namespace {

constexpr uint64_t kMagic = 0x31687366776f6e73ULL;  // "snowfsh1"
constexpr int64_t kJoinByte = 0, kMemberByte = 1, kWriterByte = 2;
constexpr size_t kFileSize = 4096;
constexpr int kJoinWaitMs = 5000, kWriterWaitMs = 2000, kLeaveWaitMs = 200;

struct ShareFile {
  uint64_t magic;
  int64_t epoch_ms;
  int32_t timestamp_bits, node_bits, sequence_bits, unused;
  int64_t slot;
  int64_t claimed_mark_ms;       // the slot's mark when the share claimed it (-1: none)
  std::atomic<int64_t> mark_ms;  // the mark persisted last by any sharer (Unix ms)
  alignas(64) std::atomic<int64_t> state;
};
static_assert(sizeof(ShareFile) <= kFileSize, "the share's header fits its page");

bool same_layout(const ShareFile& f, const Layout& l) {
  return f.epoch_ms == l.epoch_ms() && f.timestamp_bits == l.timestamp_bits() &&
         f.node_bits == l.node_bits() && f.sequence_bits == l.sequence_bits();
}

// Takes an exclusive byte lock, trying every millisecond for at most `wait_ms`: a holder
// stopped (SIGSTOP) in the middle must not hang this process. False with *err.
bool lock_within(int fd, int64_t byte, int wait_ms, int* err) {
  for (int i = 0;; ++i) {
    if (registry::lock_range(fd, F_WRLCK, byte, 1, err)) return true;
    if (!registry::is_held_errno(*err) || i >= wait_ms) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
}

void unlock_byte(int fd, int64_t byte) {
  int err = 0;
  registry::lock_range(fd, F_UNLCK, byte, 1, &err);
}

class SharedLease final : public NodeLease, ForkDropped {
 public:
  struct Parts {
    int64_t slot = -1;
    ShareFile* file = nullptr;
    int share_fd = -1, slot_fd = -1, dir_fd = -1, sock = -1, sock2 = -1;
    std::string dir, share;
    int64_t last_ms = 0;  // the layout's last millisecond (Unix ms): no mark beyond it
  };

  explicit SharedLease(Parts p) : p_(std::move(p)) {
    node_id_ = p_.slot;
    claimed_mark_ms_ = p_.file->claimed_mark_ms;
    mark_ms_.store(p_.file->mark_ms.load(std::memory_order_acquire), std::memory_order_relaxed);
    name_ = registry::slot_name(p_.slot);
    where_ = "local:" + p_.dir + " share " + p_.share + " slot " + std::to_string(p_.slot);
    track();
  }
  ~SharedLease() override {
    release();
    untrack();
    // Unmapped only here: a call of this process still minting on the word after close()
    // keeps a valid address until the generator itself is gone.
    if (!forked_.load(std::memory_order_acquire)) munmap(p_.file, kFileSize);
  }

  std::atomic<int64_t>* shared_state() noexcept override { return &p_.file->state; }

  // Raises the slot's mark to at least `mark_ms`. Another sharer's write that covers it
  // already is enough (it is durable: the file's mark moves only after the fsync). A write
  // goes half a keeper's lead further than asked: every sharer's keeper asks for about
  // the same mark (the clock plus its lead), so one write covers them all for that long,
  // and the sharers together write about twice a second however many they are.
  void write_mark(int64_t mark_ms) override {
    std::lock_guard<std::mutex> lock(mu_);
    if (p_.share_fd < 0) throw Error(ErrorKind::kLeaseLost, where_ + " was released");
    if (lost()) throw Error(ErrorKind::kLeaseLost, problem());
    if (p_.file->mark_ms.load(std::memory_order_acquire) < mark_ms) persist(mark_ms);
    const int64_t now = p_.file->mark_ms.load(std::memory_order_acquire);
    mark_ms_.store(std::max(now, mark_ms), std::memory_order_release);
  }

  // The slot file deleted or replaced: lock the new one too, so an exclusive claimant
  // cannot take the slot through it. The sockets: bound by whichever sharer can, so the
  // name outlives the sharer that claimed the slot. The mark file: put back when lower.
  void maintain() override {
    std::lock_guard<std::mutex> lock(mu_);
    if (p_.share_fd < 0 || lost()) return;
    std::string why;
    check_slot(&why);
    if (lost()) return;  // check_slot said why
    rebind_sockets();
    if (why.empty()) check_mark(&why);
    set_problem(why.empty() ? why : where_ + ": " + why);
  }

  void release() noexcept override {
    if (forked_.load(std::memory_order_acquire)) return;
    std::lock_guard<std::mutex> lock(mu_);
    if (p_.share_fd < 0) return;
    // Under the join lock when it comes within kLeaveWaitMs, so a joiner rarely counts this
    // sharer alive and then finds the slot gone (it then tries again). Without it (another
    // process stopped while joining) close() does not wait: a joiner that locks the slot
    // after it was free reads the slot's mark and continues after it.
    int err = 0;
    const bool joined =
        leaving_ || lock_within(p_.share_fd, kJoinByte, kLeaveWaitMs, &err);
    unlock_byte(p_.share_fd, kMemberByte);
    for (int* fd : extra_slot_fds_ptrs()) registry::unlock(*fd), close_fd(*fd);
    registry::unlock(p_.slot_fd);
    close_fd(p_.slot_fd);
    if (joined) unlock_byte(p_.share_fd, kJoinByte);
    close_all();
  }

  // Under the join lock (kept until release()): whether another sharer still counts.
  bool leaving_last() noexcept override {
    std::lock_guard<std::mutex> lock(mu_);
    int err = 0;
    if (p_.share_fd < 0 || leaving_ || lost() ||
        !lock_within(p_.share_fd, kJoinByte, kLeaveWaitMs, &err))
      return false;
    leaving_ = true;
    unlock_byte(p_.share_fd, kMemberByte);
    return registry::lock_range(p_.share_fd, F_WRLCK, kMemberByte, 1, &err);
  }

  bool write_final_mark(int64_t mark_ms) noexcept override {
    std::lock_guard<std::mutex> lock(mu_);
    int err = 0;
    if (p_.share_fd < 0 || !leaving_ ||
        !lock_within(p_.share_fd, kWriterByte, kLeaveWaitMs, &err))
      return false;
    bool ok = true;
    if (mark_ms < p_.file->mark_ms.load(std::memory_order_acquire)) {
      std::string why;
      try {
        ok = registry::write_mark(p_.dir_fd, name_, p_.dir, mark_ms, &why);
      } catch (...) {
        ok = false;
      }
      if (ok) p_.file->mark_ms.store(mark_ms, std::memory_order_release);
    }
    unlock_byte(p_.share_fd, kWriterByte);
    return ok;
  }

  void abandon_after_fork() noexcept override { drop_inherited(); }

  void drop_inherited() noexcept override {
    forked_.store(true, std::memory_order_release);
    for (int* fd : extra_slot_fds_ptrs()) close_fd(*fd);
    close_fd(p_.slot_fd);
    close_all();
  }

 private:
  std::vector<int*> extra_slot_fds_ptrs() {
    std::vector<int*> out;
    for (int& fd : extra_slot_fds_) out.push_back(&fd);
    return out;
  }
  void close_all() noexcept {
    close_fd(p_.share_fd);
    close_fd(p_.dir_fd);
    close_fd(p_.sock);
    close_fd(p_.sock2);
  }

  void persist(int64_t mark_ms) {
    int err = 0;
    if (!lock_within(p_.share_fd, kWriterByte, kWriterWaitMs, &err)) {
      const std::string why = where_ + ": could not persist the high-water mark: " +
                              (registry::is_held_errno(err)
                                   ? "other sharers held the mark writer's lock for " +
                                         std::to_string(kWriterWaitMs) +
                                         " ms (one stopped, or a disk that slow)"
                                   : "cannot lock " + p_.dir + "/share-" + p_.share + ": " +
                                         errno_text(err));
      set_problem(why);
      throw Error(ErrorKind::kLeaseLost, why);
    }
    std::string why;
    const int64_t ahead =
        std::max(mark_ms, std::min(mark_ms + MarkKeeper::kAheadMs / 2, p_.last_ms));
    const bool ok = p_.file->mark_ms.load(std::memory_order_acquire) >= mark_ms ||
                    registry::write_mark(p_.dir_fd, name_, p_.dir, ahead, &why);
    if (ok && p_.file->mark_ms.load(std::memory_order_acquire) < ahead)
      p_.file->mark_ms.store(ahead, std::memory_order_release);
    unlock_byte(p_.share_fd, kWriterByte);
    if (!ok) {
      why = where_ + ": could not persist the high-water mark: " + why;
      set_problem(why);
      throw Error(ErrorKind::kLeaseLost, why);
    }
  }

  void check_slot(std::string* why) {
    struct stat mine, now;
    const std::string path = p_.dir + "/" + name_;
    if (fstat(p_.slot_fd, &mine) == 0 &&
        fstatat(p_.dir_fd, name_.c_str(), &now, AT_SYMLINK_NOFOLLOW) == 0 &&
        registry::same_file(mine, now))
      return;
    for (int fd : extra_slot_fds_)
      if (fstat(fd, &mine) == 0 && fstatat(p_.dir_fd, name_.c_str(), &now, AT_SYMLINK_NOFOLLOW) == 0 &&
          registry::same_file(mine, now))
        return;
    int err = 0;
    const int fd = registry::open_regular(p_.dir_fd, name_, O_RDWR | O_CREAT, path, &err, why);
    if (fd < 0) return;
    if (!registry::lock_range(fd, F_RDLCK, 0, 0, &err)) {
      close(fd);
      if (registry::is_held_errno(err)) {
        set_lost(where_ + ": the slot file " + path +
                 " was deleted or replaced while shared, and the new one is locked by another "
                 "process; it may issue ids with this node id now");
        // No longer a sharer: a joiner must not count this process and mint on the word.
        unlock_byte(p_.share_fd, kMemberByte);
      } else
        *why = path + ": cannot lock: " + errno_text(err);
      return;
    }
    extra_slot_fds_.push_back(fd);
  }

  void rebind_sockets() {
    if (p_.sock >= 0) return;
    int err = 0;
    p_.sock = registry::bind_socket(registry::socket_key(p_.dir) + "/" + std::to_string(p_.slot),
                                    &err);
  }

  void check_mark(std::string* why) {
    const int64_t want = p_.file->mark_ms.load(std::memory_order_acquire);
    int64_t found = -1;
    std::string ignored;
    if (want < 0 || (registry::read_mark(p_.dir_fd, name_, p_.dir, &found, &ignored) ==
                         registry::MarkFile::kValue &&
                     found >= want))
      return;
    int err = 0;
    if (!registry::lock_range(p_.share_fd, F_WRLCK, kWriterByte, 1, &err)) return;  // next time
    if (!registry::write_mark(p_.dir_fd, name_, p_.dir, want, why))
      *why = "could not put back the high-water mark " + std::to_string(want) + ": " + *why;
    unlock_byte(p_.share_fd, kWriterByte);
  }

  Parts p_;
  std::string name_;
  std::vector<int> extra_slot_fds_;  // slot files put back while shared, locked too
  bool leaving_ = false;             // leaving_last() took the join lock
  std::mutex mu_;
  std::atomic<bool> forked_{false};
};


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
    SharedLease::Parts parts;
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
    return std::make_shared<SharedLease>(std::move(parts));
  }

  // Nobody shares: claim a slot as an exclusive claimant would, hold its lock shared, and
  // start the word after the slot's mark.
  bool claim_first(SharedLease::Parts* parts) {
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
  bool join_live(SharedLease::Parts* parts) {
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
  void catch_up(SharedLease::Parts* parts, const std::string& name, const std::string& path) {
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
  bool map(SharedLease::Parts* parts, bool fresh) {
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

std::shared_ptr<NodeLease> claim_shared(const LocalSpec& spec, int dir_fd, bool private_dir,
                                        const Layout& layout, const SlotFilter& usable,
                                        const std::string& quoted) {
  (void)private_dir;
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
