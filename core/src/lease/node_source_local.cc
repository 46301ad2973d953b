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
#include "local_claim_pick.hpp"
#include "local_registry.hpp"
#include "node_source.hpp"

namespace snowfleet {
namespace detail {
namespace {

using registry::MarkFile;

// Probing stops after this many slots, so a layout with a huge node field does not
// create millions of files before failing.
constexpr int64_t kMaxProbes = 65536;

std::string errno_text(int err) { return std::strerror(err); }

[[noreturn]] void unavailable(const std::string& what) {
  throw Error(ErrorKind::kNodeIdUnavailable, what);
}

// Who holds the slot, for people reading the directory (never read by snowfleet).
void write_holder(int fd) {
  char host[256] = {0};
  gethostname(host, sizeof host - 1);
  const std::string holder = "pid " + std::to_string(getpid()) + " host " + host + "\n";
  if (ftruncate(fd, 0) == 0 && pwrite(fd, holder.data(), holder.size(), 0) < 0) {
    // Informational only.
  }
}

void close_fd(int& fd) noexcept {
  if (fd >= 0) close(fd);
  fd = -1;
}

class LocalLease;

// The live leases of this process, so that a forked child drops its copies of their
// descriptors at once (pthread_atfork). The slot then stays the parent's alone: it is
// freed when the parent releases it or dies, whatever its children do. Never destroyed:
// a lease may outlive static destruction.
std::mutex& live_mu() {
  static std::mutex* mu = new std::mutex;
  return *mu;
}
std::vector<LocalLease*>& live() {
  static auto* v = new std::vector<LocalLease*>;
  return *v;
}

class LocalLease final : public NodeLease {
 public:
  LocalLease(int64_t slot, int fd, int dir_fd, int sock, int sock2, const std::string& dir,
             bool private_dir, int64_t mark)
      : fd_(fd), dir_fd_(dir_fd), sock_(sock), sock2_(sock2), dir_(dir), private_dir_(private_dir) {
    node_id_ = slot;
    claimed_mark_ms_ = mark;
    mark_ms_.store(mark, std::memory_order_relaxed);
    name_ = registry::slot_name(slot);
    slot_path_ = dir + "/" + name_;
    where_ = "local:" + dir + " slot " + std::to_string(slot);
    std::lock_guard<std::mutex> lock(live_mu());
    live().push_back(this);
  }
  ~LocalLease() override {
    release();
    std::lock_guard<std::mutex> lock(live_mu());
    auto& v = live();
    v.erase(std::remove(v.begin(), v.end(), this), v.end());
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
  void drop_inherited() noexcept {
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
    write_holder(fd);
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

void before_fork() { live_mu().lock(); }
void after_fork_parent() { live_mu().unlock(); }
void after_fork_child() {
  for (LocalLease* lease : live()) lease->drop_inherited();
  live_mu().unlock();
}

}  // namespace

namespace {

// One claim walk over the registry directory `dir` (open as `dir_fd`).
class LocalClaim {
 public:
  LocalClaim(std::string dir, int dir_fd, bool private_dir, const Layout& layout)
      : dir_(std::move(dir)),
        dir_fd_(dir_fd),
        private_dir_(private_dir),
        layout_(layout),
        key_(registry::socket_key(dir_)),
        // The directory as written, too (when it differs): a symbolic link re-pointed under
        // live holders then still names their slots for every claimant that spells the
        // registry so.
        key2_(registry::socket_key(dir_, false)) {}

  LocalTally tally;

  // The slot's lease, or null when it is held or unusable (counted in `tally`).
  std::shared_ptr<NodeLease> try_slot(int64_t slot) {
    const std::string name = registry::slot_name(slot), path = dir_ + "/" + name;
    // The socket first: a live holder of this network namespace keeps it whatever became
    // of the registry's files.
    int sock = -1, sock2 = -1;
    if (!bind_sockets(slot, &sock, &sock2)) return nullptr;
    const int fd = lock_slot_file(name, path);
    int64_t mark = -1;
    if (fd < 0 || !usable_mark(fd, name, path, &mark)) {
      close_fd(sock);
      close_fd(sock2);
      return nullptr;
    }
    write_holder(fd);
    return std::make_shared<LocalLease>(slot, fd, dir_fd_, sock, sock2, dir_, private_dir_, mark);
  }

 private:
  // Binds the slot's abstract socket under both names; false (nothing bound) when one is
  // held or cannot be bound.
  bool bind_sockets(int64_t slot, int* sock, int* sock2) {
    for (const std::string* k : {&key_, &key2_}) {
      if (k == &key2_ && key2_ == key_) break;
      const std::string sock_name = *k + "/" + std::to_string(slot);
      int err = 0;
      int& s = k == &key_ ? *sock : *sock2;
      s = registry::bind_socket(sock_name, &err);
      if (s >= 0 || err == ENOSYS) continue;
      if (err == EADDRINUSE)
        ++tally.held;
      else
        tally.note("cannot bind the abstract socket @" + sock_name + ": " + errno_text(err));
      close_fd(*sock);
      close_fd(*sock2);
      return false;
    }
    return true;
  }

  // The slot file, opened and locked, still the inode its path names (a concurrent cleanup
  // could have unlinked it between open and lock); -1 when not.
  int lock_slot_file(const std::string& name, const std::string& path) {
    std::string why;
    int err = 0;
    const int fd = registry::open_regular(dir_fd_, name, O_RDWR | O_CREAT, path, &err, &why);
    if (fd < 0) {
      tally.note(why);
      return -1;
    }
    if (!registry::try_lock(fd, &err)) {
      if (registry::is_held_errno(err))
        ++tally.held;
      else
        tally.note(path + ": cannot lock: " + errno_text(err));
      close(fd);
      return -1;
    }
    struct stat mine, now;
    if (fstat(fd, &mine) != 0 || fstatat(dir_fd_, name.c_str(), &now, AT_SYMLINK_NOFOLLOW) != 0 ||
        !registry::same_file(mine, now)) {
      registry::unlock(fd);
      close(fd);
      return -1;
    }
    return fd;
  }

  // An absent mark is no history: no live holder can be behind it (both locks were free;
  // a live holder puts back what was deleted), see docs/fleet.md for the limits. Anything
  // unreadable is an unknown history: the slot is skipped (`fd` unlocked and closed).
  bool usable_mark(int fd, const std::string& name, const std::string& path, int64_t* mark) {
    std::string why;
    const MarkFile found = registry::read_mark(dir_fd_, name, dir_, mark, &why);
    const std::string problem = local_mark_problem(found, *mark, why, path, layout_);
    if (!problem.empty()) {
      tally.note(problem);
      registry::unlock(fd);
      close(fd);
      return false;
    }
    if (found == MarkFile::kAbsent) *mark = -1;
    return true;
  }

  const std::string dir_;
  const int dir_fd_;
  const bool private_dir_;
  const Layout& layout_;
  const std::string key_, key2_;
};

// The registry directory (absolute: every process of the fleet must name the same one),
// created and opened; refused on a network or shared filesystem.
int open_registry_dir(std::string* dir, bool private_dir, const std::string& quoted) {
  if (private_dir) *dir = registry::default_dir(quoted);
  while (dir->size() > 1 && dir->back() == '/') dir->pop_back();
  if ((*dir)[0] != '/') {
    char cwd[4096];
    if (getcwd(cwd, sizeof cwd) == nullptr)
      unavailable(quoted + ": cannot resolve the relative directory: " + errno_text(errno));
    *dir = std::string(cwd) + "/" + *dir;
  }
  registry::make_dirs(*dir, private_dir, quoted);
  const int dir_fd = open(dir->c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dir_fd < 0)
    unavailable(quoted + ": cannot open the registry directory " + *dir + ": " + errno_text(errno));
  if (const char* fs = registry::network_fs_of(dir_fd)) {
    close(dir_fd);
    unavailable(
        quoted + ": the registry directory " + *dir + " is on " + fs +
        ", a network or shared filesystem; a local registry must be on a local filesystem (its "
        "slots are guarded for one host only, and a network filesystem can drop a "
        "lock without telling its holder or hang a claim): use a local directory, or "
        "etcd:// to lease node ids across hosts");
  }
  return dir_fd;
}

}  // namespace

std::shared_ptr<NodeLease> claim_local(const std::string& spec, const Layout& layout,
                                       const SlotFilter& usable) {
  static std::once_flag atfork;
  std::call_once(atfork, [] { pthread_atfork(before_fork, after_fork_parent, after_fork_child); });
  const std::string quoted = "node source " + quote(spec);
  // local[:DIR][?node=N]: "node" pins the slot (a node id of your choosing, kept exclusive
  // and with a persisted mark, as etcd's node=N).
  LocalSpec parsed = parse_local_spec(spec, layout, quoted);
  const bool private_dir = parsed.dir.empty();
  const int dir_fd = open_registry_dir(&parsed.dir, private_dir, quoted);
  LocalClaim claim(parsed.dir, dir_fd, private_dir, layout);
  const int64_t slots = layout.max_node_id() + 1, pinned = parsed.pinned;
  const Probe order = pinned >= 0 ? Probe{pinned, 1} : probe_order(slots);
  const int64_t probes = pinned >= 0 ? 1 : std::min(slots, kMaxProbes);
  for (int64_t i = 0; i < probes; ++i) {
    const int64_t slot = static_cast<int64_t>(
        (static_cast<uint64_t>(order.start) + static_cast<uint64_t>(i) * order.stride) %
        static_cast<uint64_t>(slots));
    if (usable && !usable(slot)) {  // this process mints that node's ids already
      ++claim.tally.used_here;
      continue;
    }
    if (auto lease = claim.try_slot(slot)) return lease;
  }
  close(dir_fd);
  unavailable(local_refusal(quoted, parsed.dir, pinned, probes, claim.tally));
}

}  // namespace detail
}  // namespace snowfleet
