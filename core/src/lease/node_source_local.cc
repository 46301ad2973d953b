// "local[:DIR]": node ids leased from a registry directory shared by one host's processes,
// whatever their language. A slot is held by two locks that die with their holder:
//  - an open-file-description lock on DIR/slot-0007 (flock where OFD locks are missing):
//    per open, so two generators of one process never share a slot either;
//  - on Linux, an abstract Unix socket bound to "snowfleet/<hash of DIR>/7": no file
//    cleaner can remove it, so deleting the registry under a live holder cannot free its
//    slot for a process of the same network namespace.
// A slot is free only when both can be taken. Its high-water mark is DIR/slot-0007.mark;
// while the slot is held, maintain() (and every mark write) puts back whatever was
// deleted or replaced, so that later claimants find the history. Files are touched
// through local_registry.cc (no links followed, nothing that can block). Nothing here
// runs per id.
#include <fcntl.h>
#include <pthread.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <mutex>
#include <string>
#include <vector>

#include "base/quote.hpp"
#include "local_claim.hpp"
#include "local_claim_pick.hpp"
#include "local_share.hpp"
#include "local_registry.hpp"
#include "node_source.hpp"

namespace snowfleet {
namespace detail {
namespace {

using registry::MarkFile;

class LocalLease final : public NodeLease, ForkDropped {
 public:
  LocalLease(int64_t slot, const SlotHold& hold, int dir_fd, const std::string& dir,
             bool private_dir)
      : fd_(hold.fd),
        dir_fd_(dir_fd),
        sock_(hold.sock),
        sock2_(hold.sock2),
        dir_(dir),
        private_dir_(private_dir) {
    node_id_ = slot;
    claimed_mark_ms_ = hold.mark;
    mark_ms_.store(hold.mark, std::memory_order_relaxed);
    name_ = registry::slot_name(slot);
    slot_path_ = dir + "/" + name_;
    where_ = "local:" + dir + " slot " + std::to_string(slot);
    track();
  }
  ~LocalLease() override {
    release();
    untrack();
  }

  void write_mark(int64_t mark_ms) override {
    std::lock_guard<std::mutex> lock(mu_);
    if (fd_ < 0) throw Error(ErrorKind::kLeaseLost, where_ + " was released");
    if (lost()) throw Error(ErrorKind::kLeaseLost, problem());
    // The mark must land where claimants look, next to a slot file we hold: put back a
    // deleted directory or slot file first. A slot file that cannot be put back (say, a
    // FIFO in its place) does not stop the write: no claimant can take the slot through it.
    std::string why, trouble;
    const bool dir_ok = check_dir(&why);
    if (dir_ok && check_slot(&trouble) == Slot::kLost)
      throw Error(ErrorKind::kLeaseLost, problem());
    if (!dir_ok || !registry::write_mark(dir_fd_, name_, dir_, mark_ms, &why)) {
      why = where_ + ": could not persist the high-water mark: " + why;
      set_problem(why);
      throw Error(ErrorKind::kLeaseLost, why);
    }
    mark_ms_.store(mark_ms, std::memory_order_release);
    set_problem(trouble.empty() ? trouble : where_ + ": " + trouble);
  }

  void maintain() override {
    std::lock_guard<std::mutex> lock(mu_);
    if (fd_ < 0 || lost()) return;
    std::string why;
    if (check_dir(&why)) {
      if (check_slot(&why) == Slot::kLost) return;
      std::string mark_why;
      check_mark(&mark_why);
      if (why.empty()) why = mark_why;
    }
    set_problem(why.empty() ? why : where_ + ": " + why);
  }

  void release() noexcept override {
    if (forked_.load(std::memory_order_acquire)) return;  // mu_ may be copied locked
    std::lock_guard<std::mutex> lock(mu_);
    if (fd_ < 0) return;
    registry::unlock(fd_);  // explicit: a descriptor of this file may survive elsewhere
    close_fd(fd_);
    close_fd(dir_fd_);
    close_fd(sock_);  // unbinds the names once no other descriptor of them is left
    close_fd(sock2_);
  }

  void abandon_after_fork() noexcept override { drop_inherited(); }

  // In a forked child: close this process's copies without touching the parent's lock
  // (it belongs to the open file description, which the parent's descriptor keeps) or its
  // socket. Never takes mu_: a parent thread may have held it at fork time.
  void drop_inherited() noexcept override {
    forked_.store(true, std::memory_order_release);
    close_fd(fd_);
    close_fd(dir_fd_);
    close_fd(sock_);
    close_fd(sock2_);
  }

 private:
  enum class Slot { kOurs, kLost, kTrouble };

  // The registry directory is still the one we opened; else (deleted, replaced)
  // re-creates it and opens the new one.
  bool check_dir(std::string* why) {
    struct stat want, have;
    if (stat(dir_.c_str(), &want) == 0 && fstat(dir_fd_, &have) == 0 &&
        registry::same_file(want, have))
      return true;
    try {
      registry::make_dirs(dir_, private_dir_, where_);
    } catch (const Error& e) {
      *why = e.what();
      if (why->rfind(where_ + ": ", 0) == 0) why->erase(0, where_.size() + 2);  // said by callers
      return false;
    }
    const int fd = open(dir_.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) {
      *why = "cannot open the re-created registry directory " + dir_ + ": " + errno_text(errno);
      return false;
    }
    close_fd(dir_fd_);
    dir_fd_ = fd;
    return true;
  }

  // The slot file is still the inode we locked; else locks whatever the path names now,
  // creating it if it is gone. Lost when someone else holds that lock: a holder outside
  // this network namespace, which could not see our socket.
  Slot check_slot(std::string* why) {
    struct stat mine, now;
    if (fstat(fd_, &mine) != 0) {
      *why = slot_path_ + ": " + errno_text(errno);
      return Slot::kTrouble;
    }
    if (fstatat(dir_fd_, name_.c_str(), &now, AT_SYMLINK_NOFOLLOW) == 0) {
      if (registry::same_file(mine, now)) return Slot::kOurs;
      if (!S_ISREG(now.st_mode)) {
        *why = slot_path_ + " is " + registry::file_kind(now.st_mode) +
               " instead of the slot file; no claimant can take the slot through it, and the "
               "holder puts its file back once it is removed";
        return Slot::kTrouble;
      }
    } else if (errno != ENOENT) {
      *why = slot_path_ + ": " + errno_text(errno);
      return Slot::kTrouble;
    }
    int err = 0;
    const int fd = registry::open_regular(dir_fd_, name_, O_RDWR | O_CREAT, slot_path_, &err, why);
    if (fd < 0) return Slot::kTrouble;
    if (!registry::try_lock(fd, &err)) {
      close(fd);
      if (!registry::is_held_errno(err)) {
        *why = slot_path_ + ": cannot lock: " + errno_text(err);
        return Slot::kTrouble;
      }
      set_lost(where_ + ": the slot file " + slot_path_ +
               " was deleted or replaced while held, and the new one is locked by another "
               "process (one outside this network namespace, which cannot see this holder's "
               "socket); it may issue ids with this node id now");
      return Slot::kLost;
    }
    if (fstatat(dir_fd_, name_.c_str(), &now, AT_SYMLINK_NOFOLLOW) != 0 || fstat(fd, &mine) != 0 ||
        !registry::same_file(mine, now)) {
      registry::unlock(fd);
      close(fd);
      *why = slot_path_ + " changed while being put back; trying again";
      return Slot::kTrouble;
    }
    registry::write_holder(fd);
    registry::unlock(fd_);
    close_fd(fd_);
    fd_ = fd;
    return Slot::kOurs;
  }

  // The mark file holds at least the mark we persisted last; else (deleted, lowered,
  // garbage, not a regular file) writes it again. A higher mark is more cautious: kept.
  void check_mark(std::string* why) {
    const int64_t want = mark_ms_.load(std::memory_order_acquire);
    if (want < 0) return;
    int64_t found = -1;
    std::string ignored;
    if (registry::read_mark(dir_fd_, name_, dir_, &found, &ignored) == MarkFile::kValue &&
        found >= want)
      return;
    struct stat st;
    if (fstatat(dir_fd_, (name_ + ".mark").c_str(), &st, AT_SYMLINK_NOFOLLOW) == 0 &&
        S_ISDIR(st.st_mode)) {
      // A rename cannot replace it; claimants skip the slot meanwhile (unknown history).
      *why = slot_path_ + ".mark is a directory: cannot put back the high-water mark " +
             std::to_string(want);
      return;
    }
    if (!registry::write_mark(dir_fd_, name_, dir_, want, why))
      *why = "could not put back the high-water mark " + std::to_string(want) + ": " + *why;
  }

  std::mutex mu_;                   // write_mark, maintain and release: one at a time
  int fd_, dir_fd_, sock_, sock2_;  // sock2_: the name of dir as written, -1 if the same
  std::string dir_, name_, slot_path_;
  bool private_dir_;
  std::atomic<bool> forked_{false};
};


}  // namespace

std::shared_ptr<NodeLease> claim_local(const std::string& spec, const Layout& layout,
                                       const SlotFilter& usable) {
  const std::string quoted = "node source " + quote(spec);
  // local[:DIR][?node=N]: "node" pins the slot (a node id of your choosing, kept exclusive
  // and with a persisted mark, as etcd's node=N).
  LocalSpec parsed = parse_local_spec(spec, layout, quoted);
  const bool private_dir = parsed.dir.empty();
  const int dir_fd = open_registry_dir(&parsed.dir, private_dir, quoted);
  if (!parsed.share.empty())
    return claim_shared(parsed, dir_fd, layout, usable, quoted);
  LocalClaim claim(parsed.dir, dir_fd, layout);
  SlotHold hold;
  const int64_t slot = claim_walk(claim, parsed.pinned, layout, usable, &hold);
  if (slot >= 0)
    return std::make_shared<LocalLease>(slot, hold, dir_fd, parsed.dir, private_dir);
  close(dir_fd);
  unavailable(local_refusal(quoted, parsed.dir, parsed.pinned, claim_probes(parsed.pinned, layout),
                            claim.tally));
}

}  // namespace detail
}  // namespace snowfleet
