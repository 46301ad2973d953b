// The files and names of a "local:DIR" registry, and how they are touched: nothing is
// opened through a symbolic link, nothing can block (a FIFO in place of a file), nothing
// but a regular file is used. The lease logic is in node_source_local.cc. Internal.
#pragma once

#include <sys/stat.h>

#include <cstdint>
#include <string>

namespace snowfleet {
namespace detail {
namespace registry {

/// "slot-0007": the slot's lock file; the mark is "<name>.mark", its temporary
/// "<name>.mark.tmp".
std::string slot_name(int64_t slot);

/// The directory `local` without a directory uses: $XDG_STATE_HOME/snowfleet (when set
/// to an absolute path), else /var/lib/snowfleet for root, else
/// ~/.local/state/snowfleet. Throws kNodeIdUnavailable when a user has no home.
std::string default_dir(const std::string& quoted);

/// mkdir -p `dir`. With `private_dir` (the default registry) the directories created are
/// 0700 and `dir` must be a real directory owned by this user. Throws kNodeIdUnavailable.
void make_dirs(const std::string& dir, bool private_dir, const std::string& quoted);

/// Opens `name` in `dir_fd` with `flags` plus O_CLOEXEC|O_NOFOLLOW|O_NONBLOCK|O_NOCTTY and
/// checks with fstat that it is a regular file. Returns the descriptor, or -1 with *err
/// the errno (0 when the file exists but is not a regular file) and *why naming `path`
/// and what is wrong ("/run/ids/slot-0007 is a FIFO, not a regular file").
int open_regular(int dir_fd, const std::string& name, int flags, const std::string& path, int* err,
                 std::string* why);

/// statfs f_type of every FUSE filesystem (virtiofs included).
constexpr int64_t kFuseMagic = 0x65735546;

/// The name of the network, cluster or shared-folder filesystem whose statfs f_type is
/// `type` ("NFS", "SMB/CIFS", "vboxsf (a VirtualBox shared folder)", ...), or nullptr for
/// any other (local) filesystem. FUSE filesystems share one f_type: for them `mount_type`,
/// the mount's type in /proc/self/mountinfo ("virtiofs", "fuse.sshfs"), decides. A
/// registry on such a filesystem is refused: its locks guard one kernel (the abstract
/// sockets, a shared folder's locks) or can be broken by the server without the holder
/// being told (NFS lock leases, a partitioned client), and a hung mount blocks. See
/// docs/fleet.md.
const char* network_fs_name(int64_t type, const std::string& mount_type = std::string());
/// statfs f_type of the filesystem holding `fd`, or -1 when it cannot be read (then the
/// registry is not refused). Tests point it elsewhere, as no network filesystem can be
/// mounted there.
extern int64_t (*fs_type_of)(int fd);
/// The type /proc/self/mountinfo gives the mount holding `fd` ("virtiofs", "fuse.sshfs"),
/// or "" when none is found. Asked only for FUSE filesystems; tests point it elsewhere.
extern std::string (*mount_type_of)(int fd);
/// network_fs_name() of the filesystem holding `fd`, through the two functions above.
const char* network_fs_of(int fd);

/// Whether two stat results name one file.
bool same_file(const struct stat& a, const struct stat& b);

enum class MarkFile {
  kAbsent,    ///< no file: no recorded history
  kValue,     ///< *mark holds the mark (Unix ms >= 0)
  kUnusable,  ///< anything else: the history is unknown; *why names the file
};
/// Reads the mark "<slot>.mark": one plain decimal (digits only, at most one trailing
/// newline), parsed with the strict parser.
MarkFile read_mark(int dir_fd, const std::string& slot, const std::string& dir, int64_t* mark,
                   std::string* why);

/// Replaces "<slot>.mark" with `mark_ms` durably: removes a stale temporary file (never a
/// directory), creates it exclusively, writes, fsyncs, renames over the mark, fsyncs the
/// directory. Returns false with *why naming the file on any failure.
bool write_mark(int dir_fd, const std::string& slot, const std::string& dir, int64_t mark_ms,
                std::string* why);

/// Takes the slot file's lock: an open-file-description lock (two opens never share it,
/// even in one process), flock where OFD locks are missing. False with *err on failure.
bool try_lock(int fd, int* err);
void unlock(int fd);
/// An open-file-description lock of `type` (F_RDLCK, F_WRLCK, F_UNLCK) on `len` bytes at
/// `start` (len 0: to the end of any file), never waiting: a held lock converts in one step
/// (no moment without it). False with *err on failure, EINVAL where OFD locks are missing.
bool lock_range(int fd, short type, int64_t start, int64_t len, int* err);
/// Writes who holds the slot ("pid 41 host web-3") into its file, for people reading the
/// directory (never read by snowfleet).
void write_holder(int fd);
/// The errno of a lock some other open file description holds.
bool is_held_errno(int err);

/// What a file is ("a FIFO", "a directory", ...), for messages.
const char* file_kind(mode_t mode);

/// The registry's prefix in the abstract Unix-socket namespace:
/// "snowfleet/<16 hex digits: FNV-1a 64 of the directory>". Slot N's holder binds
/// "<key>/N". With `resolve`, of realpath(dir), so every spelling of the directory gives
/// one name; without, of `dir` as written (absolute), so a symbolic link re-pointed under
/// live holders still names their slots. A holder binds both.
std::string socket_key(const std::string& dir, bool resolve = true);
/// Binds `name` in the abstract namespace (Linux). Returns the socket, or -1 with *err:
/// EADDRINUSE when a live process of this network namespace holds the name, ENOSYS where
/// there is no abstract namespace (the file lock is then the only guard).
int bind_socket(const std::string& name, int* err);

}  // namespace registry
}  // namespace detail
}  // namespace snowfleet
