// The file of a host-shared node id, DIR/share-NAME, and its byte locks: what the join
// (local_share.cc) and the held lease (local_share_lease.cc) both read. Internal.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "mint/node_lease.hpp"
#include "snowfleet/layout.hpp"

namespace snowfleet {
namespace detail {
namespace share {

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

bool same_layout(const ShareFile& f, const Layout& l);

/// Takes an exclusive byte lock, trying every millisecond for at most `wait_ms`: a holder
/// stopped (SIGSTOP) in the middle must not hang this process. False with *err.
bool lock_within(int fd, int64_t byte, int wait_ms, int* err);
void unlock_byte(int fd, int64_t byte);

/// What a join took, handed to the lease that holds it.
struct Parts {
  int64_t slot = -1;
  ShareFile* file = nullptr;
  int share_fd = -1, slot_fd = -1, dir_fd = -1, sock = -1, sock2 = -1;
  std::string dir, share;
  int64_t last_ms = 0;  // the layout's last millisecond (Unix ms): no mark beyond it
};

/// The lease holding what a join took (local_share_lease.cc); its shared_state() is the
/// share's word.
std::shared_ptr<NodeLease> hold(Parts parts);

}  // namespace share
}  // namespace detail
}  // namespace snowfleet
