// Files and names of a local registry; see local_registry.hpp and docs/fleet.md.
#include "local_registry.hpp"

#include <fcntl.h>
#include <pwd.h>
#include <sys/file.h>
#include <sys/socket.h>
#include <sys/sysmacros.h>
#include <sys/un.h>
#include <sys/vfs.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "base/strict_int.hpp"
#include "snowfleet/snowfleet.hpp"

namespace snowfleet {
namespace detail {
namespace registry {
namespace {

constexpr int kSafe = O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY;
// A mark is at most 19 digits and a newline; anything longer is not one.
constexpr off_t kMaxMarkBytes = 32;

std::string errno_text(int err) { return std::strerror(err); }

[[noreturn]] void unavailable(const std::string& what) {
  throw Error(ErrorKind::kNodeIdUnavailable, what);
}

// The bytes of a bad mark, for a message: printable ASCII as is, the rest escaped.
std::string shown(const char* p, size_t n) {
  std::string out;
  for (size_t i = 0; i < n && out.size() < 32; ++i) {
    const unsigned char c = static_cast<unsigned char>(p[i]);
    if (c == '\n') {
      out += "\\n";
    } else if (c >= 0x20 && c < 0x7f && c != '\\') {
      out += static_cast<char>(c);
    } else {
      static const char hex[] = "0123456789abcdef";
      out += "\\x";
      out += hex[c >> 4];
      out += hex[c & 15];
    }
  }
  return out;
}

}  // namespace

const char* file_kind(mode_t mode) {
  if (S_ISREG(mode)) return "a regular file";
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISLNK(mode)) return "a symbolic link";
  if (S_ISSOCK(mode)) return "a socket";
  if (S_ISCHR(mode) || S_ISBLK(mode)) return "a device";
  return "an unknown kind of file";
}

std::string slot_name(int64_t slot) {
  std::string n = std::to_string(slot);
  if (n.size() < 4) n.insert(0, 4 - n.size(), '0');
  return "slot-" + n;
}

namespace {
// An absolute $HOME, else the passwd entry's absolute home; "" when neither.
std::string home_dir() {
  if (const char* h = std::getenv("HOME"); h && h[0] == '/') return h;
  struct passwd pw, *found = nullptr;
  std::vector<char> buf(16384);
  if (getpwuid_r(geteuid(), &pw, buf.data(), buf.size(), &found) == 0 && found && found->pw_dir &&
      found->pw_dir[0] == '/')
    return found->pw_dir;
  return "";
}
}  // namespace

std::string default_dir(const std::string& quoted) {
  // XDG: a relative $XDG_STATE_HOME is invalid and must be ignored.
  const char* xdg = std::getenv("XDG_STATE_HOME");
  if (xdg && xdg[0] == '/') {
    std::string base = xdg;
    while (base.size() > 1 && base.back() == '/') base.pop_back();
    return (base == "/" ? "" : base) + "/snowfleet";
  }
  if (geteuid() == 0) return "/var/lib/snowfleet";
  std::string home = home_dir();
  while (home.size() > 1 && home.back() == '/') home.pop_back();
  if (home.empty())
    unavailable(quoted + ": no home directory for the default registry ($HOME unset or " +
                "relative, no passwd entry); pass local:<dir>");
  return (home == "/" ? "" : home) + "/.local/state/snowfleet";
}

void make_dirs(const std::string& dir, bool private_dir, const std::string& quoted) {
  std::string path;
  size_t pos = 0;
  while (pos != std::string::npos) {
    pos = dir.find('/', pos + 1);
    path = dir.substr(0, pos);
    if (path.empty() || path.back() == '/') continue;
    if (mkdir(path.c_str(), private_dir ? 0700 : 0777) != 0 && errno != EEXIST)
      unavailable(quoted + ": cannot create the registry directory " + path + ": " +
                  errno_text(errno));
  }
  struct stat st;
  if (lstat(dir.c_str(), &st) != 0)
    unavailable(quoted + ": cannot use the registry directory " + dir + ": " + errno_text(errno));
  // A default directory must be ours, or another user could hand us a registry they control.
  if (private_dir && (!S_ISDIR(st.st_mode) || st.st_uid != geteuid()))
    unavailable(quoted + ": the default registry directory " + dir +
                " is not a directory owned by this user; pass local:<dir> explicitly");
}

int open_regular(int dir_fd, const std::string& name, int flags, const std::string& path, int* err,
                 std::string* why) {
  const int fd = openat(dir_fd, name.c_str(), flags | kSafe, 0666);
  if (fd < 0) {
    *err = errno;
    if (errno == ELOOP) {
      *why = path + " is a symbolic link, not a regular file";
    } else if (errno == EISDIR) {
      *why = path + " is a directory, not a regular file";
    } else {
      *why = path + ": " + errno_text(errno);
    }
    return -1;
  }
  struct stat st;
  if (fstat(fd, &st) != 0) {
    *err = errno;
    *why = path + ": " + errno_text(errno);
    close(fd);
    return -1;
  }
  if (!S_ISREG(st.st_mode)) {
    *err = 0;
    *why = path + " is " + file_kind(st.st_mode) + ", not a regular file";
    close(fd);
    return -1;
  }
  return fd;
}

namespace {

struct FsName {
  int64_t type;
  const char* name;
};
// f_type values from <linux/magic.h> and the filesystems' own sources (not all of them are
// in that header). Shared folders of a hypervisor count: the host and every guest that
// mounts one are separate kernels, each with its own locks and sockets.
constexpr FsName kNetworkFs[] = {
    {0x6969, "NFS"},
    {0x517b, "SMB"},
    {0xff534d42, "SMB/CIFS"},
    {0xfe534d42, "SMB2"},
    {0x564c, "NCP"},
    {0x5346414f, "AFS"},
    {0x6b414653, "AFS"},
    {0x73757245, "Coda"},
    {0x00c36400, "Ceph"},
    {0x01021997, "9P"},
    {0x0bd00bd0, "Lustre"},
    {0x01161970, "GFS2"},
    {0x7461636f, "OCFS2"},
    {0x47504653, "GPFS"},
    {0x19830326, "BeeGFS"},
    {0x786f4256, "vboxsf (a VirtualBox shared folder)"},
    {0x7c7c6673, "prl_fs (a Parallels shared folder)"},
    {0xbacbacbc, "vmhgfs (a VMware shared folder)"},
};

// Every FUSE filesystem, virtiofs included, reports FUSE's f_type: the mount's type tells
// them apart. Local ones (lxcfs, an encrypted directory) stay allowed.
constexpr std::pair<const char*, const char*> kNetworkFuse[] = {
    {"virtiofs", "virtiofs (a folder shared by the VM's host)"},
    {"fuse.vmhgfs-fuse", "vmhgfs-fuse (a VMware shared folder)"},
    {"fuse.sshfs", "sshfs"},
    {"fuse.glusterfs", "GlusterFS"},
    {"fuse.ceph-fuse", "Ceph (ceph-fuse)"},
};

}  // namespace

const char* network_fs_name(int64_t type, const std::string& mount_type) {
  if (type == kFuseMagic) {
    for (const auto& [mount, name] : kNetworkFuse)
      if (mount_type == mount) return name;
    return nullptr;
  }
  for (const FsName& fs : kNetworkFs)
    if (fs.type == type) return fs.name;
  return nullptr;
}

namespace {
int64_t statfs_type(int fd) {
  struct statfs st;
  if (fstatfs(fd, &st) != 0) return -1;
  // f_type is a signed word on some ABIs: keep the 32-bit magic as the headers write it.
  return static_cast<int64_t>(static_cast<uint32_t>(st.f_type));
}

// The fstype field of the /proc/self/mountinfo line whose device is fd's (the last such
// line: a later mount covers an earlier one). Line format: "36 35 98:0 /root /mnt opts
// [optional fields...] - fstype source superopts".
std::string mountinfo_type(int fd) {
  struct stat st;
  if (fstat(fd, &st) != 0) return "";
  const std::string dev = std::to_string(major(st.st_dev)) + ":" + std::to_string(minor(st.st_dev));
  std::ifstream in("/proc/self/mountinfo");
  std::string line, type;
  while (std::getline(in, line)) {
    std::istringstream fields(line);
    std::string id, parent, device, word;
    if (!(fields >> id >> parent >> device) || device != dev) continue;
    while (fields >> word && word != "-") {
    }
    if (word == "-") fields >> type;
  }
  return type;
}
}  // namespace

int64_t (*fs_type_of)(int fd) = statfs_type;
std::string (*mount_type_of)(int fd) = mountinfo_type;

const char* network_fs_of(int fd) {
  const int64_t type = fs_type_of(fd);
  return network_fs_name(type, type == kFuseMagic ? mount_type_of(fd) : std::string());
}

bool same_file(const struct stat& a, const struct stat& b) {
  return a.st_ino == b.st_ino && a.st_dev == b.st_dev;
}

MarkFile read_mark(int dir_fd, const std::string& slot, const std::string& dir, int64_t* mark,
                   std::string* why) {
  const std::string name = slot + ".mark", path = dir + "/" + name;
  int err = 0;
  const int fd = open_regular(dir_fd, name, O_RDONLY, path, &err, why);
  if (fd < 0) return err == ENOENT ? MarkFile::kAbsent : MarkFile::kUnusable;
  struct stat st;
  if (fstat(fd, &st) != 0 || st.st_size > kMaxMarkBytes) {
    *why =
        path + ": not a mark (" +
        (st.st_size > kMaxMarkBytes ? std::to_string(st.st_size) + " bytes" : errno_text(errno)) +
        ")";
    close(fd);
    return MarkFile::kUnusable;
  }
  char buf[kMaxMarkBytes + 1];
  const ssize_t n = pread(fd, buf, sizeof buf, 0);
  const int read_err = errno;
  close(fd);
  if (n < 0 || n > kMaxMarkBytes) {
    *why = path + ": not a mark (" + (n < 0 ? errno_text(read_err) : "it grew while read") + ")";
    return MarkFile::kUnusable;
  }
  std::string_view text(buf, static_cast<size_t>(n));
  if (!text.empty() && text.back() == '\n') text.remove_suffix(1);
  // Digits only: marks are Unix ms, never negative; no sign, space or second newline.
  if (!parse_uint(text, mark)) {
    *why = path + ": not a mark ('" + shown(buf, static_cast<size_t>(n)) + "')";
    return MarkFile::kUnusable;
  }
  return MarkFile::kValue;
}

namespace {
// Writes `text` to the open temporary file `t` (closed here), syncs it and renames it over
// `mark`, then syncs the directory. False, with `*err` the errno of the first step that
// failed, when one did (a short write fails even when it set no errno).
bool persist(int dir_fd, int t, const std::string& tmp, const std::string& mark,
             const std::string& text, int* err) {
  bool ok = write(t, text.data(), text.size()) == static_cast<ssize_t>(text.size());
  *err = ok ? 0 : errno;
  if (ok && fsync(t) != 0) ok = false, *err = errno;
  if (close(t) != 0 && ok) ok = false, *err = errno;
  if (ok && renameat(dir_fd, tmp.c_str(), dir_fd, mark.c_str()) != 0) ok = false, *err = errno;
  if (ok && fsync(dir_fd) != 0) ok = false, *err = errno;
  return ok;
}
}  // namespace

bool write_mark(int dir_fd, const std::string& slot, const std::string& dir, int64_t mark_ms,
                std::string* why) {
  const std::string tmp = slot + ".mark.tmp", mark = slot + ".mark";
  // Only the slot's holder writes its temporary file: whatever is there is stale. Remove
  // it (a link, not its target; a FIFO without opening it) and create ours exclusively,
  // so nothing already at that name is ever opened or written through.
  if (unlinkat(dir_fd, tmp.c_str(), 0) != 0 && errno != ENOENT) {
    *why = dir + "/" + tmp +
           (errno == EISDIR || errno == EPERM
                ? std::string(" is a directory, not a regular file")
                : ": cannot remove the stale file: " + errno_text(errno));
    return false;
  }
  int err = 0;
  const int t = open_regular(dir_fd, tmp, O_WRONLY | O_CREAT | O_EXCL, dir + "/" + tmp, &err, why);
  if (t < 0) return false;
  const bool ok = persist(dir_fd, t, tmp, mark, std::to_string(mark_ms) + "\n", &err);
  if (!ok) {
    unlinkat(dir_fd, tmp.c_str(), 0);
    *why = dir + "/" + mark + ": " + errno_text(err);
  }
  return ok;
}

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

bool lock_range(int fd, short type, int64_t start, int64_t len, int* err) {
#ifdef F_OFD_SETLK
  struct flock fl;
  std::memset(&fl, 0, sizeof fl);
  fl.l_type = type;
  fl.l_whence = SEEK_SET;
  fl.l_start = static_cast<off_t>(start);
  fl.l_len = static_cast<off_t>(len);
  if (fcntl(fd, F_OFD_SETLK, &fl) == 0) return true;
  *err = errno;
#else
  (void)fd, (void)type, (void)start, (void)len;
  *err = EINVAL;
#endif
  return false;
}

void write_holder(int fd) {
  char host[256] = {0};
  gethostname(host, sizeof host - 1);
  const std::string holder = "pid " + std::to_string(getpid()) + " host " + host + "\n";
  if (ftruncate(fd, 0) == 0 && pwrite(fd, holder.data(), holder.size(), 0) < 0) {
    // Informational only.
  }
}

bool is_held_errno(int err) { return err == EAGAIN || err == EACCES || err == EWOULDBLOCK; }

std::string socket_key(const std::string& dir, bool resolve) {
  std::string real = dir;
  if (char* r = resolve ? realpath(dir.c_str(), nullptr) : nullptr) {
    real = r;
    std::free(r);
  }
  uint64_t h = 0xcbf29ce484222325ULL;  // FNV-1a 64
  for (unsigned char c : real) h = (h ^ c) * 0x100000001b3ULL;
  static const char hex[] = "0123456789abcdef";
  std::string key(16, '0');
  for (int i = 15; i >= 0; --i, h >>= 4) key[static_cast<size_t>(i)] = hex[h & 15];
  return "snowfleet/" + key;
}

int bind_socket(const std::string& name, int* err) {
#ifdef __linux__
  // A stream socket that never listens: nothing can connect to it or queue data in it;
  // it only holds the name, until the last descriptor of it closes (process exit).
  const int s = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (s < 0) {
    *err = errno;
    return -1;
  }
  struct sockaddr_un a;
  std::memset(&a, 0, sizeof a);
  a.sun_family = AF_UNIX;
  std::memcpy(a.sun_path + 1, name.data(), name.size());  // sun_path[0] = 0: abstract
  const auto len = static_cast<socklen_t>(offsetof(struct sockaddr_un, sun_path) + 1 + name.size());
  if (bind(s, reinterpret_cast<struct sockaddr*>(&a), len) != 0) {
    *err = errno;
    close(s);
    return -1;
  }
  return s;
#else
  (void)name;
  *err = ENOSYS;
  return -1;
#endif
}

}  // namespace registry
}  // namespace detail
}  // namespace snowfleet
