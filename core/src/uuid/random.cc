// Random sources for UUIDs: the system source (a per-thread ChaCha20 keyed from
// getrandom(2)), and the scripted splitmix64 sequence tests use.
#include <errno.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cstring>
#include <string>

#include "base/internal.hpp"
#include "random_chacha.hpp"
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

// ChaCha20 rather than the 8- or 12-round variants: the RFC 8439 test vectors check it, and
// it is what Linux's random driver (and its vDSO getrandom) and OpenBSD's arc4random run.
// Its cost per UUID is docs/uuid7.md's "The random bits".
//
// Every kReseedRefills refills (about 1 MiB of output) the key comes from getrandom(2)
// again, as arc4random does: one system call per ~170,000 UUIDs.
constexpr uint32_t kReseedRefills = 1024;
constexpr unsigned char kNonce[12] = {};  // every key makes one refill only

thread_local ThreadState t_state;

class SystemRandom final : public RandomSource {
 public:
  void fill(uint64_t* out, size_t n) override {
    if (n * sizeof(uint64_t) >= kRandomBufferBytes) {
      getrandom_all(out, n * sizeof(uint64_t));
      return;
    }
    RandomBuffer& b = t_state.random;
    for (size_t i = 0; i < n; ++i) out[i] = take(b, sizeof(uint64_t));
  }
};

}  // namespace

ThreadState& thread_state() noexcept { return t_state; }

void refill(RandomBuffer& b) {
  const uint64_t generation = fork_generation();
  if (b.generation != generation || b.refills >= kReseedRefills) {
    getrandom_all(b.key, sizeof b.key);
    b.generation = generation;
    b.refills = 0;
  }
  static_assert(kRandomBufferBytes % (64 * kChachaLanes) == 0 &&
                    kRandomBufferBytes % (64 * kChachaWideLanes) == 0,
                "whole passes of either width");
  chacha20_blocks(b.key, kNonce, 0, b.bytes, kRandomBufferBytes / 64);
  // Fast key erasure: the output's first bytes are the next key, and no copy of them or of
  // the old key is left, so this buffer's bytes cannot be recomputed from a later state.
  std::memcpy(b.key, b.bytes, sizeof b.key);
  std::memset(b.bytes, 0, sizeof b.key);
  b.pos = kRandomKeyBytes;
  ++b.refills;
}

uint64_t system_random_u48() { return system_random_u48(t_state.random); }

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
