// The first thread to mint on an id space's word owns it and stores without a
// compare-and-swap, until another thread, another generator, a close or a fork takes it
// away (core/src/registry/abi.h). Each test makes the taking happen while the owner is
// minting flat out, many times over, and checks that no id is issued twice. Successive
// generators of one static node continue after each other, so every id of a test is
// unique across its rounds too.
#include <catch2/catch.hpp>

#if defined(__linux__) && defined(__x86_64__)
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#endif

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <string>
#include <thread>
#include <vector>

#include "registry/abi.h"
#include "snowfleet/snowfleet.hpp"
#include "test_util.hpp"

using namespace snowfleet;
using snowfleet_test::run_child;

namespace {

GeneratorOptions monotonic_node(int64_t node) {
  GeneratorOptions o;
  o.node_id = node;
  o.mode = Mode::kMonotonic;
  return o;
}

void require_unique(std::vector<int64_t> all, size_t expected) {
  CHECK(all.size() == expected);
  std::sort(all.begin(), all.end());
  REQUIRE(std::adjacent_find(all.begin(), all.end()) == all.end());
}

// Mints `n` ids on `g` into `out`, then returns; sets `started` after the first 100, by
// when this thread owns the word if nobody took it before.
void mint(Generator& g, size_t n, std::vector<int64_t>& out, std::atomic<bool>* started) {
  out.reserve(out.size() + n);
  for (size_t i = 0; i < n; ++i) {
    out.push_back(g.next_id());
    if (i == 100 && started) started->store(true, std::memory_order_release);
  }
}

void wait_for(const std::atomic<bool>& flag) {
  while (!flag.load(std::memory_order_acquire)) std::this_thread::yield();
}

// The registry's key of `node`'s id space under the default layout, in real time.
snowfleet_space space_of(int64_t node) {
  const Layout layout;
  snowfleet_space key{};
  key.epoch_ms = layout.epoch_ms();
  key.timestamp_shift = layout.timestamp_shift();
  key.sequence_bits = layout.sequence_bits();
  key.low_first = node << layout.node_shift();
  key.low_last = key.low_first | layout.max_sequence();
  return key;
}

}  // namespace

TEST_CASE("threads that join a minting thread take its word without a duplicate",
          "[concurrency][owned-word]") {
  std::vector<int64_t> all;
  size_t expected = 0;
  // Many short rounds: the race is at the moment of taking, once per round.
  for (int round = 0; round < 1500; ++round) {
    Generator g(monotonic_node(619));  // the last round's generator is gone: a fresh owner
    std::atomic<bool> started{false};
    std::vector<std::vector<int64_t>> got(3);
    std::thread owner([&] { mint(g, 600, got[0], &started); });
    std::vector<std::thread> joiners;
    for (size_t t = 1; t < got.size(); ++t)
      joiners.emplace_back([&, t] {
        wait_for(started);
        mint(g, 200, got[t], nullptr);
      });
    owner.join();
    for (auto& th : joiners) th.join();
    for (const auto& mine : got) {
      for (size_t i = 1; i < mine.size(); ++i) REQUIRE(mine[i] > mine[i - 1]);
      all.insert(all.end(), mine.begin(), mine.end());
    }
    expected += 600 + 2 * 200;
    CHECK(g.stats().ids_issued == 600 + 2 * 200);
  }
  require_unique(all, expected);
}

TEST_CASE("a second generator of the id space takes the word from the first one's thread",
          "[concurrency][owned-word]") {
  std::vector<int64_t> all;
  size_t expected = 0;
  for (int round = 0; round < 500; ++round) {
    Generator first(monotonic_node(621));
    std::atomic<bool> started{false};
    std::vector<int64_t> a, b;
    std::thread owner([&] { mint(first, 2000, a, &started); });
    wait_for(started);
    Generator second(monotonic_node(621));  // opens the word the owner is minting on
    std::thread other([&] { mint(second, 500, b, nullptr); });
    owner.join();
    other.join();
    all.insert(all.end(), a.begin(), a.end());
    all.insert(all.end(), b.begin(), b.end());
    expected += 2500;
  }
  require_unique(all, expected);
}

TEST_CASE("a copy of the core that knows no owner shares the word by compare-and-swap",
          "[concurrency][owned-word]") {
  // An older release's copy in the same process opens the space through the registry and
  // mints with compare-and-swap only, ignoring `bias`: its open must take the word from
  // the thread that owns it.
  const Layout layout;
  const int64_t node = 627;
  const snowfleet_space key = space_of(node);
  const snowfleet_registry_api* api = snowfleet_registry_v1();
  std::vector<int64_t> all;  // packed values
  for (int round = 0; round < 300; ++round) {
    Generator g(monotonic_node(node));
    std::atomic<bool> started{false};
    std::vector<int64_t> ids, old_copy;
    std::thread owner([&] { mint(g, 2000, ids, &started); });
    wait_for(started);
    snowfleet_slot* slot = nullptr;
    snowfleet_word* word = nullptr;
    char why[192];
    REQUIRE(api->open(&key, "an older copy", &slot, &word, why, sizeof why) == 0);
    for (int i = 0; i < 300; ++i) {
      int64_t s = __atomic_load_n(&word->value, __ATOMIC_ACQUIRE);
      while (!__atomic_compare_exchange_n(&word->value, &s, s + 1, false, __ATOMIC_ACQ_REL,
                                          __ATOMIC_ACQUIRE)) {
      }
      old_copy.push_back(s + 1);
    }
    owner.join();
    api->close(slot, 0, 0);
    api->release_word(word);
    for (const int64_t id : ids)
      all.push_back(((id >> layout.timestamp_shift()) << layout.sequence_bits()) |
                    (id & layout.max_sequence()));
    all.insert(all.end(), old_copy.begin(), old_copy.end());
  }
  require_unique(all, all.size());
}

TEST_CASE("a leased generator closed while its thread mints leaves the next holder nothing",
          "[concurrency][owned-word]") {
  // close() seals the word from another thread while the owner is inside calls; the next
  // holder of the slot continues after the sealed state. An id the owner stored after the
  // seal would be issued again by the next holder.
  const std::string source = "local:" + snowfleet_test::temp_dir() + "?node=629";
  std::vector<int64_t> all;
  for (int round = 0; round < 300; ++round) {
    GeneratorOptions o;
    o.node_source = source;
    o.mode = Mode::kMonotonic;
    Generator g(o);
    std::atomic<bool> started{false};
    std::vector<int64_t> a;
    std::thread owner([&] {
      try {
        for (;;) {
          a.push_back(g.next_id());
          if (a.size() == 100) started.store(true, std::memory_order_release);
        }
      } catch (const Error& e) {
        CHECK(e.kind() == ErrorKind::kGeneratorClosed);
      }
    });
    wait_for(started);
    g.close();
    owner.join();
    Generator next(o);
    CHECK(next.node_id() == g.node_id());
    std::vector<int64_t> b;
    mint(next, 200, b, nullptr);
    all.insert(all.end(), a.begin(), a.end());
    all.insert(all.end(), b.begin(), b.end());
  }
  require_unique(all, all.size());
}

TEST_CASE("a child forked while another thread owns the word mints on that id space at once",
          "[concurrency][owned-word][fork]") {
  SKIP_FORK_OF_THREADED_PROCESS_UNDER_SANITIZER();
  // The owner may be inside a call at the fork: in the child its thread is gone for good,
  // and taking the word from it must not wait for that call to end.
  for (int round = 0; round < 5; ++round) {
    Generator g(monotonic_node(623));
    std::atomic<bool> started{false}, stop{false};
    std::thread owner([&] {
      std::vector<int64_t> sink;
      mint(g, 1001, sink, &started);
      while (!stop.load(std::memory_order_relaxed)) g.next_id();
    });
    wait_for(started);
    const auto [out, code] = run_child(
        [] {
          Generator child(monotonic_node(623));
          std::vector<int64_t> ids;
          mint(child, 1000, ids, nullptr);
          return std::to_string(ids.size());
        },
        10);
    stop.store(true);
    owner.join();
    CHECK(code == 0);
    CHECK(out == "1000");
  }
}

TEST_CASE("a word a closing generator retires is owned by nobody", "[owned-word]") {
  // The registry forgets a retired word (the closed generator keeps it): a forked child
  // frees only the words the registry lists of the parent's owners, so one that leaves it
  // must leave unowned, or a child would wait for ever on a parent thread's call.
  const snowfleet_registry_api* api = snowfleet_registry_v1();
  const snowfleet_space key = space_of(631);
  snowfleet_slot* slot = nullptr;
  snowfleet_word* word = nullptr;
  char why[192];
  REQUIRE(api->open(&key, "a closing generator", &slot, &word, why, sizeof why) == 0);
  const uint64_t some_thread = 0x7f0000001000;  // as if that thread had minted on it
  __atomic_store_n(&word->bias, some_thread, __ATOMIC_RELEASE);
  api->close(slot, 1, 5);
  CHECK(__atomic_load_n(&word->bias, __ATOMIC_ACQUIRE) == SNOWFLEET_BIAS_REVOKED);
  api->release_word(word);
}

#if defined(__linux__) && defined(__x86_64__)
TEST_CASE("a word is taken from its owner without a hang when membarrier is refused later",
          "[concurrency][owned-word][fork]") {
  SKIP_FORK_OF_THREADED_PROCESS_UNDER_SANITIZER();
  // A process that sandboxes itself after start-up (a seccomp filter answering EPERM):
  // the registry registered the barrier at load, a thread owns a word, then the barrier
  // is refused when another thread takes the word.
  const auto [out, code] = run_child(
      [] {
        Generator g(monotonic_node(633));
        std::vector<int64_t> a, b;
        std::thread owner([&] { mint(g, 2000, a, nullptr); });
        owner.join();
        sock_filter filter[] = {
            BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(seccomp_data, nr)),
            BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_membarrier, 0, 1),
            BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EPERM),
            BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
        };
        sock_fprog program{static_cast<unsigned short>(sizeof filter / sizeof filter[0]), filter};
        if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 ||
            prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &program) != 0)
          return std::string("seccomp refused");
        mint(g, 2000, b, nullptr);  // takes the word from the exited owner
        Generator other(monotonic_node(635));
        std::vector<int64_t> c, d;
        std::thread t1([&] { mint(other, 2000, c, nullptr); });
        std::thread t2([&] { mint(other, 2000, d, nullptr); });
        t1.join();
        t2.join();
        std::vector<int64_t> all(a);
        all.insert(all.end(), b.begin(), b.end());
        std::sort(all.begin(), all.end());
        const bool unique = std::adjacent_find(all.begin(), all.end()) == all.end();
        return std::string(unique ? "unique " : "duplicates ") +
               std::to_string(all.size() + c.size() + d.size());
      },
      10);
  CHECK(code == 0);
  CHECK(out == "unique 8000");
}
#endif
