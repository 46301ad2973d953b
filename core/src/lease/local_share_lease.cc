// The held side of a host-shared node id (local_share.hpp): the lease every sharer holds
// once it joined. It keeps the slot file's shared lock (and puts it back when the file is
// replaced), writes marks for the share under the writer's byte, and leaves: the last
// sharer out is told so (leaving_last) and may write back the millisecond reached.
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "local_claim.hpp"
#include "local_registry.hpp"
#include "local_share_file.hpp"
#include "mint/mark_keeper.hpp"

namespace snowfleet {
namespace detail {
namespace share {

bool same_layout(const ShareFile& f, const Layout& l) {
  return f.epoch_ms == l.epoch_ms() && f.timestamp_bits == l.timestamp_bits() &&
         f.node_bits == l.node_bits() && f.sequence_bits == l.sequence_bits();
}

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

namespace {

class SharedLease final : public NodeLease, ForkDropped {
 public:
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
    for (int& fd : extra_slot_fds_) registry::unlock(fd), close_fd(fd);
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
    for (int& fd : extra_slot_fds_) close_fd(fd);
    close_fd(p_.slot_fd);
    close_all();
  }

 private:
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


}  // namespace

std::shared_ptr<NodeLease> hold(Parts parts) { return std::make_shared<SharedLease>(std::move(parts)); }

}  // namespace share
}  // namespace detail
}  // namespace snowfleet
