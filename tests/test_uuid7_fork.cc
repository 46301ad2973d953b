// UUIDv7 generators across fork() while another thread of the parent uses them: the child
// inherits the generator's locks in whatever state the parent's threads left them.
#include <catch2/catch.hpp>

#include <atomic>
#include <string>
#include <thread>

#include "snowfleet/snowfleet.hpp"
#include "test_util.hpp"

using namespace snowfleet;
using snowfleet_test::run_child;

TEST_CASE("uuid7: a child forked while a parent thread reads stats() mints without hanging",
          "[uuid7][fork]") {
  Uuid7Generator g(Uuid7Options{});
  g.next();
  std::atomic<bool> stop{false};
  std::atomic<int64_t> reads{0};
  // stats() holds the generator's lock most of the time it runs: a fork often lands there.
  std::thread reader([&] {
    while (!stop.load(std::memory_order_relaxed)) {
      (void)g.stats();
      reads.fetch_add(1, std::memory_order_relaxed);
    }
  });
  while (reads.load() == 0) std::this_thread::yield();
  int hung = 0, failed = 0;
  for (int i = 0; i < 20; ++i) {
    const auto r = run_child(
        [&] {
          (void)g.stats();
          return format_uuid(g.next());
        },
        2);
    hung += r.second == 128 + SIGALRM;
    failed += r.second != 0;
  }
  stop = true;
  reader.join();
  CHECK(hung == 0);
  CHECK(failed == 0);
}
