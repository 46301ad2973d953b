// "local[:DIR]": node ids leased from a registry directory shared by one host's processes,
// whatever their language. One file per slot (DIR/slot-0007) is held with an
// open-file-description lock (flock where OFD locks are missing): the kernel drops it when
// the last descriptor of the holder goes away, so a crashed process never leaks a slot,
// and two opens, even inside one process, never share one. The slot's high-water mark
// lives next to it (DIR/slot-0007.mark, one decimal Unix ms), replaced atomically: write a
// temporary file, fsync, rename, fsync the directory. Nothing here runs per id.
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <string>

#include "node_source.hpp"
#include "strict_int.hpp"

namespace snowfleet {
namespace detail {
namespace {

// Probing stops after this many slots, so a layout with a huge node field does not
// create millions of files before failing.
constexpr int64_t kMaxProbes = 65536;

std::string errno_text(int err) { return std::strerror(err); }

[[noreturn]] void unavailable(const std::string& what) {
  throw Error(ErrorKind::kNodeIdUnavailable, what);
}

// The OFD lock is the default (per open file description, so not shared by two opens in
// one process, unlike classic POSIX locks); flock has the same ownership rules and serves
// where OFD locks are missing or refused.
bool try_lock(int fd, int* err) {
#ifdef F_OFD_SETLK
  struct flock fl;
  std::memset(&fl, 0, sizeof fl);
  fl.l_type = F_WRLCK;
  fl.l_whence = SEEK_SET;
  if (fcntl(fd, F_OFD_SETLK, &fl) == 0) return true;
  if (errno != EINVAL) {
    *err = errno;
    return false;
  }
#endif
  if (flock(fd, LOCK_EX | LOCK_NB) == 0) return true;
  *err = errno;
  return false;
}

void unlock(int fd) {
#ifdef F_OFD_SETLK
  struct flock fl;
  std::memset(&fl, 0, sizeof fl);
  fl.l_type = F_UNLCK;
  fl.l_whence = SEEK_SET;
  if (fcntl(fd, F_OFD_SETLK, &fl) == 0) return;
#endif
  flock(fd, LOCK_UN);
}

bool is_held_errno(int err) { return err == EAGAIN || err == EACCES || err == EWOULDBLOCK; }

std::string default_dir() {
  const char* xdg = std::getenv("XDG_RUNTIME_DIR");
  if (xdg && *xdg) return std::string(xdg) + "/snowfleet";
  return "/tmp/snowfleet-" + std::to_string(geteuid());
}

// mkdir -p. A default directory in a shared place (/tmp) must be a real directory owned by
// us, or another user could hand us a registry they control.
void make_dirs(const std::string& dir, bool private_dir, const std::string& quoted) {
  std::string path;
  size_t pos = 0;
  while (pos != std::string::npos) {
    pos = dir.find('/', pos + 1);
    path = dir.substr(0, pos);
    if (path.empty()) continue;
    const bool last = pos == std::string::npos;
    if (mkdir(path.c_str(), last && private_dir ? 0700 : 0777) != 0 && errno != EEXIST)
      unavailable(quoted + ": cannot create the registry directory " + path + ": " +
                  errno_text(errno));
  }
  struct stat st;
  if (lstat(dir.c_str(), &st) != 0)
    unavailable(quoted + ": cannot use the registry directory " + dir + ": " + errno_text(errno));
  if (private_dir && (!S_ISDIR(st.st_mode) || st.st_uid != geteuid()))
    unavailable(quoted + ": the default registry directory " + dir +
                " is not a directory owned by this user; pass local:<dir> explicitly");
}

std::string slot_name(int64_t slot) {
  std::string n = std::to_string(slot);
  if (n.size() < 4) n.insert(0, 4 - n.size(), '0');
  return "slot-" + n;
}

// Reads DIR/slot-N.mark. Returns false (with *why) when the file exists but is unreadable
// or not a mark: such a slot is skipped rather than reused with an unknown mark.
bool read_mark(const std::string& path, int64_t* mark, std::string* why) {
  *mark = -1;
  const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
  if (fd < 0) {
    if (errno == ENOENT) return true;
    *why = path + ": " + errno_text(errno);
    return false;
  }
  char buf[64];
  const ssize_t n = read(fd, buf, sizeof buf - 1);
  close(fd);
  if (n <= 0) {
    *why = path + ": empty or unreadable mark file";
    return false;
  }
  std::string_view text(buf, static_cast<size_t>(n));
  if (!text.empty() && text.back() == '\n') text.remove_suffix(1);
  int64_t v;
  if (!parse_int64(text, &v, true) || v < -1) {
    *why = path + ": not a mark ('" + std::string(buf, static_cast<size_t>(n)).substr(0, 20) + "')";
    return false;
  }
  *mark = v;
  return true;
}

class LocalLease final : public NodeLease {
 public:
  LocalLease(int64_t slot, int fd, int dir_fd, const std::string& dir, int64_t mark)
      : fd_(fd), dir_fd_(dir_fd) {
    node_id_ = slot;
    claimed_mark_ms_ = mark;
    mark_ms_.store(mark, std::memory_order_relaxed);
    lock_path_ = dir + "/" + slot_name(slot);
    mark_path_ = lock_path_ + ".mark";
    tmp_path_ = lock_path_ + ".mark.tmp";
    where_ = "local:" + dir + " slot " + std::to_string(slot);
  }
  ~LocalLease() override { release(); }

  void write_mark(int64_t mark_ms) override {
    if (fd_ < 0) throw Error(ErrorKind::kLeaseLost, where_ + " was released");
    if (lost()) throw Error(ErrorKind::kLeaseLost, problem());
    // The lock protects the inode we opened. If someone removed or replaced the slot file,
    // a newcomer may lock the new one: stop rather than share the slot.
    struct stat mine, now;
    if (fstat(fd_, &mine) != 0 || stat(lock_path_.c_str(), &now) != 0 ||
        mine.st_ino != now.st_ino || mine.st_dev != now.st_dev) {
      set_lost(where_ + ": the slot file " + lock_path_ +
               " was removed or replaced while held; another process may hold the slot now");
      throw Error(ErrorKind::kLeaseLost, problem());
    }
    const std::string text = std::to_string(mark_ms) + "\n";
    const int t =
        open(tmp_path_.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0666);
    bool ok = t >= 0;
    int err = ok ? 0 : errno;
    if (ok && write(t, text.data(), text.size()) != static_cast<ssize_t>(text.size()))
      ok = false, err = errno;
    if (ok && fsync(t) != 0) ok = false, err = errno;
    if (t >= 0 && close(t) != 0 && ok) ok = false, err = errno;
    if (ok && rename(tmp_path_.c_str(), mark_path_.c_str()) != 0) ok = false, err = errno;
    if (ok && fsync(dir_fd_) != 0) ok = false, err = errno;
    if (!ok) {
      const std::string why = where_ + ": could not persist the high-water mark to " + mark_path_ +
                              ": " + errno_text(err);
      set_problem(why);
      throw Error(ErrorKind::kLeaseLost, why);
    }
    mark_ms_.store(mark_ms, std::memory_order_release);
  }

  void release() noexcept override {
    if (fd_ < 0) return;
    unlock(fd_);  // explicit: a forked child may still hold a descriptor of this file
    close(fd_);
    close(dir_fd_);
    fd_ = dir_fd_ = -1;
  }

  void abandon_after_fork() noexcept override {
    if (fd_ < 0) return;
    close(fd_);  // the parent's descriptor keeps the lock
    close(dir_fd_);
    fd_ = dir_fd_ = -1;
  }

 private:
  int fd_, dir_fd_;
  std::string lock_path_, mark_path_, tmp_path_;
};

}  // namespace

std::shared_ptr<NodeLease> claim_local(const std::string& spec, const Layout& layout) {
  const std::string quoted = "node source '" + spec.substr(0, 200) + "'";
  std::string dir = spec.size() > 6 ? spec.substr(6) : "";
  const bool private_dir = dir.empty();
  if (private_dir) dir = default_dir();
  while (dir.size() > 1 && dir.back() == '/') dir.pop_back();
  if (dir[0] != '/') {
    // Every process of the fleet must name the same directory: make it absolute now.
    char cwd[4096];
    if (getcwd(cwd, sizeof cwd) == nullptr)
      unavailable(quoted + ": cannot resolve the relative directory: " + errno_text(errno));
    dir = std::string(cwd) + "/" + dir;
  }
  make_dirs(dir, private_dir, quoted);
  const int dir_fd = open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dir_fd < 0)
    unavailable(quoted + ": cannot open the registry directory " + dir + ": " + errno_text(errno));

  const int64_t slots = layout.max_node_id() + 1;
  const int64_t start = probe_start(slots);
  const int64_t probes = std::min(slots, kMaxProbes);
  std::string problem;  // the first reason a free-looking slot was unusable
  int64_t held = 0;
  for (int64_t i = 0; i < probes; ++i) {
    const int64_t slot = (start + i) % slots;
    const std::string path = dir + "/" + slot_name(slot);
    const int fd = open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0666);
    if (fd < 0) {
      if (problem.empty()) problem = path + ": " + errno_text(errno);
      continue;
    }
    int err = 0;
    if (!try_lock(fd, &err)) {
      if (is_held_errno(err)) {
        ++held;
      } else if (problem.empty()) {
        problem = path + ": cannot lock: " + errno_text(err);
      }
      close(fd);
      continue;
    }
    // Locked. Make sure the path still names the inode we locked (a concurrent cleanup
    // could have unlinked it between open and lock).
    struct stat mine, now;
    if (fstat(fd, &mine) != 0 || stat(path.c_str(), &now) != 0 || mine.st_ino != now.st_ino ||
        mine.st_dev != now.st_dev) {
      unlock(fd);
      close(fd);
      continue;
    }
    int64_t mark;
    std::string why;
    if (!read_mark(path + ".mark", &mark, &why)) {
      if (problem.empty()) problem = why;
      unlock(fd);
      close(fd);
      continue;
    }
    // Who holds it, for people reading the directory (not used by snowfleet).
    char host[256] = {0};
    gethostname(host, sizeof host - 1);
    const std::string holder = "pid " + std::to_string(getpid()) + " host " + host + "\n";
    if (ftruncate(fd, 0) == 0 && pwrite(fd, holder.data(), holder.size(), 0) < 0) {
      // Informational only.
    }
    return std::make_shared<LocalLease>(slot, fd, dir_fd, dir, mark);
  }
  close(dir_fd);
  std::string msg = quoted + ": no free node id in registry directory " + dir + " (" +
                    std::to_string(held) + " of " + std::to_string(probes) +
                    " slots probed are held by live processes";
  if (!problem.empty()) msg += "; unusable: " + problem;
  unavailable(msg + ")");
}

}  // namespace detail
}  // namespace snowfleet
