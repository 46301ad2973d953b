// Random sources for UUIDs: the process's CSPRNG behind a per-thread buffer, and the
// scripted splitmix64 sequence tests use.
#include <errno.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cstring>
#include <string>

#include "internal.hpp"
#include "random_internal.hpp"
#include "snowfleet/snowfleet.hpp"

namespace snowfleet {
namespace detail {
namespace {

// Fills [p, p + bytes) from getrandom(2), retrying short reads and EINTR. Through
// syscall(): glibc's getrandom() wrapper is 2.25+, and the release artifacts are built
// against the manylinux_2_17 baseline (glibc 2.17), where it would be an undefined symbol.
void getrandom_all(void* p, size_t bytes) {
  auto* out = static_cast<unsigned char*>(p);
  while (bytes > 0) {
    const long got = syscall(SYS_getrandom, out, bytes, 0);
    if (got < 0) {
      if (errno == EINTR) continue;
      throw Error(ErrorKind::kInternal,
                  std::string("getrandom failed: ") + std::strerror(errno) +
                      (errno == ENOSYS ? " (UUIDs need Linux 3.17 or later)" : ""));
    }
    out += got;
    bytes -= static_cast<size_t>(got);
  }
}

// One getrandom of about 4 KiB per 682 UUIDs (6 bytes each): the syscall's own cost is then
// small beside the kernel's per-byte cost, which is why a UUID takes 48 bits, not 64. Tagged
// with the fork generation it was filled in: a forked child inherits the parent's unread
// bytes and must not use them.
constexpr size_t kBufferBytes = 6 * 682;
struct RandomBuffer {
  uint64_t generation = 0;
  size_t pos = kBufferBytes;
  unsigned char bytes[kBufferBytes];
};
thread_local RandomBuffer t_buffer;

// The next `width` (<= 8) bytes of the calling thread's buffer, refilled when too few are
// left or the process forked since it was filled.
inline uint64_t take(size_t width) {
  RandomBuffer& b = t_buffer;
  if (b.pos + width > kBufferBytes || b.generation != fork_generation()) {
    getrandom_all(b.bytes, sizeof b.bytes);
    b.generation = fork_generation();
    b.pos = 0;
  }
  uint64_t v = 0;
  std::memcpy(&v, b.bytes + b.pos, width);
  b.pos += width;
  return v;
}

class SystemRandom final : public RandomSource {
 public:
  void fill(uint64_t* out, size_t n) override {
    if (n * sizeof(uint64_t) >= kBufferBytes) {
      getrandom_all(out, n * sizeof(uint64_t));
      return;
    }
    for (size_t i = 0; i < n; ++i) out[i] = take(sizeof(uint64_t));
  }
};

}  // namespace

uint64_t system_random_u48() { return take(6); }

uint64_t splitmix64_next(uint64_t* state) noexcept {
  uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

}  // namespace detail

std::shared_ptr<RandomSource> system_random() {
  // The fork generation must move in a child for the buffers to notice the fork.
  detail::register_fork_handlers();
  static const std::shared_ptr<RandomSource> source = std::make_shared<detail::SystemRandom>();
  return source;
}

void ScriptedRandom::fill(uint64_t* out, size_t n) {
  const std::lock_guard<std::mutex> lock(mu_);
  for (size_t i = 0; i < n; ++i) out[i] = detail::splitmix64_next(&state_);
  draws_ += static_cast<int64_t>(n);
}

int64_t ScriptedRandom::draws() const {
  const std::lock_guard<std::mutex> lock(mu_);
  return draws_;
}

}  // namespace snowfleet
