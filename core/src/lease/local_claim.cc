// The claim steps of a "local:DIR" registry (see local_claim.hpp). Nothing here runs per id.
#include "local_claim.hpp"

#include <fcntl.h>
#include <pthread.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <mutex>
#include <string>
#include <vector>

#include "local_registry.hpp"
#include "node_source.hpp"
#include "snowfleet/errors.hpp"

namespace snowfleet {
namespace detail {

using registry::MarkFile;

std::string errno_text(int err) { return std::strerror(err); }

void unavailable(const std::string& what) { throw Error(ErrorKind::kNodeIdUnavailable, what); }

namespace {

// The tracked leases. Never destroyed: a lease may outlive static destruction.
std::mutex& live_mu() {
  static std::mutex* mu = new std::mutex;
  return *mu;
}
std::vector<ForkDropped*>& live() {
  static auto* v = new std::vector<ForkDropped*>;
  return *v;
}

void before_fork() { live_mu().lock(); }
void after_fork_parent() { live_mu().unlock(); }
void after_fork_child() {
  for (ForkDropped* lease : live()) lease->drop_inherited();
  live_mu().unlock();
}

}  // namespace

void ForkDropped::track() {
  static std::once_flag atfork;
  std::call_once(atfork, [] { pthread_atfork(before_fork, after_fork_parent, after_fork_child); });
  std::lock_guard<std::mutex> lock(live_mu());
  live().push_back(this);
}

void ForkDropped::untrack() noexcept {
  std::lock_guard<std::mutex> lock(live_mu());
  auto& v = live();
  v.erase(std::remove(v.begin(), v.end(), this), v.end());
}

void close_fd(int& fd) noexcept {
  if (fd >= 0) close(fd);
  fd = -1;
}

LocalClaim::LocalClaim(std::string dir, int dir_fd, const Layout& layout)
    : dir_(std::move(dir)),
      dir_fd_(dir_fd),
      layout_(layout),
      key_(registry::socket_key(dir_)),
      // The directory as written, too (when it differs): a symbolic link re-pointed under
      // live holders then still names their slots for every claimant that spells the
      // registry so.
      key2_(registry::socket_key(dir_, false)) {}

bool LocalClaim::try_slot(int64_t slot, SlotHold* hold) {
  const std::string name = registry::slot_name(slot), path = dir_ + "/" + name;
  // The socket first: a live holder of this network namespace keeps it whatever became
  // of the registry's files.
  int sock = -1, sock2 = -1;
  if (!bind_sockets(slot, &sock, &sock2)) return false;
  const int fd = lock_slot_file(name, path);
  int64_t mark = -1;
  if (fd < 0 || !usable_mark(fd, name, path, &mark)) {
    close_fd(sock);
    close_fd(sock2);
    return false;
  }
  registry::write_holder(fd);
  *hold = SlotHold{fd, sock, sock2, mark};
  return true;
}

// Binds the slot's abstract socket under both names; false (nothing bound) when one is
// held or cannot be bound.
bool LocalClaim::bind_sockets(int64_t slot, int* sock, int* sock2) {
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
int LocalClaim::lock_slot_file(const std::string& name, const std::string& path) {
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
bool LocalClaim::usable_mark(int fd, const std::string& name, const std::string& path, int64_t* mark) {
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

int64_t claim_probes(int64_t pinned, const Layout& layout) {
  return pinned >= 0 ? 1 : std::min<int64_t>(layout.max_node_id() + 1, 65536);
}

int64_t claim_walk(LocalClaim& claim, int64_t pinned, const Layout& layout,
                   const SlotFilter& usable, SlotHold* hold) {
  const int64_t slots = layout.max_node_id() + 1;
  const Probe order = pinned >= 0 ? Probe{pinned, 1} : probe_order(slots);
  const int64_t probes = claim_probes(pinned, layout);
  for (int64_t i = 0; i < probes; ++i) {
    const int64_t slot = static_cast<int64_t>(
        (static_cast<uint64_t>(order.start) + static_cast<uint64_t>(i) * order.stride) %
        static_cast<uint64_t>(slots));
    if (usable && !usable(slot)) {  // this process mints that node's ids already
      ++claim.tally.used_here;
      continue;
    }
    if (claim.try_slot(slot, hold)) return slot;
  }
  return -1;
}

}  // namespace detail
}  // namespace snowfleet
