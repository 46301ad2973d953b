// Random sources for UUIDs: the process's CSPRNG behind a per-thread buffer, and the
// scripted splitmix64 sequence tests use.
#include <errno.h>
#include <sys/random.h>

#include <cstring>
#include <string>

#include "internal.hpp"
#include "random_internal.hpp"
#include "snowfleet/snowfleet.hpp"

namespace snowfleet {
namespace detail {
namespace {

// Fills [p, p + bytes) from getrandom(2), retrying short reads and EINTR.
void getrandom_all(void* p, size_t bytes) {
  auto* out = static_cast<unsigned char*>(p);
  while (bytes > 0) {
    const ssize_t got = getrandom(out, bytes, 0);
    if (got < 0) {
      if (errno == EINTR) continue;
      throw Error(ErrorKind::kInternal,
                  std::string("getrandom failed: ") + std::strerror(errno));
    }
    out += got;
    bytes -= static_cast<size_t>(got);
  }
}

// 64 words = one 512-byte getrandom per 64 UUIDs. Tagged with the fork generation it was
// filled in: a forked child inherits the parent's unread words and must not use them.
constexpr size_t kBufferWords = 64;
struct RandomBuffer {
  uint64_t generation = 0;
  size_t pos = kBufferWords;
  uint64_t words[kBufferWords];
};
thread_local RandomBuffer t_buffer;

class SystemRandom final : public RandomSource {
 public:
  void fill(uint64_t* out, size_t n) override {
    if (n >= kBufferWords) {
      getrandom_all(out, n * sizeof(uint64_t));
      return;
    }
    for (size_t i = 0; i < n; ++i) out[i] = system_random_u64();
  }
};

}  // namespace

uint64_t system_random_refill() {
  RandomBuffer& b = t_buffer;
  getrandom_all(b.words, sizeof b.words);
  b.generation = fork_generation();
  b.pos = 1;
  return b.words[0];
}

uint64_t system_random_u64() {
  RandomBuffer& b = t_buffer;
  if (b.pos == kBufferWords || b.generation != fork_generation()) return system_random_refill();
  return b.words[b.pos++];
}

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
