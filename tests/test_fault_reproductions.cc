// Fault reproductions in one process: id spaces shared across layouts and closes, a registry
// directory swapped for a symbolic link, a fork while a generator closes, a clock whose
// monotonic time stands still. Each test states the promise it checks and failed on the code
// it was written against. (The multi-process ones are in tests/faults/.)
#include <catch2/catch.hpp>

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <filesystem>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "lease/node_source.hpp"  // internal: probe_start
#include "local_util.hpp"
#include "mint/id_space.hpp"
#include "snowfleet/snowfleet.hpp"
#include "test_util.hpp"

using namespace snowfleet;
using snowfleet_test::error_of;
using snowfleet_test::temp_dir;

namespace {
constexpr int64_t E = 1704067200000;

// A scripted clock (a time of its own, shared by the generators given this object) whose
// wall reading can be held up for one chosen thread: it stands for a minting thread that
// the OS (or a GIL, a page fault, a profiler) deschedules between its usability check and
// its compare-and-swap.
class GatedClock final : public ScriptedClock {
 public:
  explicit GatedClock(int64_t ms) : ScriptedClock(ms) {}
  // The next wall reading by the calling thread blocks until open() is called.
  void arm_for_this_thread() {
    std::lock_guard<std::mutex> lock(mu_);
    gated_ = std::this_thread::get_id();
    open_ = false;
  }
  bool someone_waiting() {
    std::lock_guard<std::mutex> lock(mu_);
    return waiting_;
  }
  void open() {
    {
      std::lock_guard<std::mutex> lock(mu_);
      open_ = true;
    }
    cv_.notify_all();
  }
  int64_t wall_ns() override {
    {
      std::unique_lock<std::mutex> lock(mu_);
      if (gated_ == std::this_thread::get_id()) {
        waiting_ = true;
        cv_.wait(lock, [this] { return open_; });
        waiting_ = false;
        gated_ = std::thread::id();
      }
    }
    return ScriptedClock::wall_ns();
  }

 private:
  std::mutex mu_;
  std::condition_variable cv_;
  std::thread::id gated_;
  bool open_ = true, waiting_ = false;
};
}  // namespace

TEST_CASE("fault: a refused open must not forget a closed space's history",
          "[faults][id-space]") {
  // 41.9.13 node 2 covers the low bits of 41.10.12 nodes 4 and 5. Node 4 minted and closed;
  // node 5 is open, so 41.9.13 node 2 is refused. The refusal must change nothing: a new
  // generator for node 4 must continue after the closed one's ids.
  auto clock = std::make_shared<ScriptedClock>(E + 1000);
  GeneratorOptions n4;
  n4.node_id = 4;
  n4.clock = clock;
  std::set<int64_t> ids;
  {
    Generator g4(n4);
    for (int i = 0; i < 10; ++i) ids.insert(g4.next_id());
  }
  GeneratorOptions n5 = n4;
  n5.node_id = 5;
  Generator g5(n5);
  GeneratorOptions wide;
  wide.layout = Layout::parse("41.9.13@" + std::to_string(E));
  wide.node_id = 2;
  wide.clock = clock;
  CHECK(error_of([&] { Generator gw(wide); }).kind() == ErrorKind::kNodeIdUnavailable);
  Generator again(n4);  // same clock, same node, same layout: must continue
  size_t duplicates = 0;
  for (int i = 0; i < 10; ++i) {
    try {
      duplicates += ids.insert(again.next_id()).second ? 0 : 1;
    } catch (const Error& e) {
      CHECK(e.kind() == ErrorKind::kClockMovedBackwards);  // waiting the ms out is fine
    }
  }
  CHECK(duplicates == 0);
}

TEST_CASE("fault: a static generator closed mid-call cannot mint over a new overlapping shape",
          "[faults][id-space]") {
  // Thread A is inside next_id() of a static 41.10.12 node 5 generator, past its usability
  // check, when the generator is closed and 41.11.11 node 10 (the same bits 12..21) opens.
  // The new shape starts "after the closed space's last millisecond", read at open; A's
  // compare-and-swap then lands on the old word, which nobody watches any more.
  auto clock = std::make_shared<GatedClock>(E + 1000);
  GeneratorOptions a;
  a.node_id = 5;
  a.clock = clock;
  auto ga = std::make_unique<Generator>(a);
  int64_t from_a = -1;
  std::string a_error;
  std::thread t([&] {
    clock->arm_for_this_thread();
    try {
      from_a = ga->next_id();
    } catch (const Error& e) {
      a_error = e.what();
    }
  });
  while (!clock->someone_waiting()) std::this_thread::yield();
  ga->close();
  GeneratorOptions b;
  b.layout = Layout::parse("41.11.11@" + std::to_string(E));
  b.node_id = 10;
  b.clock = clock;
  Generator gb(b);
  const int64_t from_b = gb.next_id();
  clock->open();
  t.join();
  INFO("A: " << (from_a >= 0 ? std::to_string(from_a) : "refused: " + a_error)
             << ", B: " << from_b);
  CHECK(from_a != from_b);
}

TEST_CASE("fault: a registry directory replaced by a symbolic link gives a held slot away",
          "[faults][local]") {
  // local:DIR where DIR is (or becomes) a symbolic link: the abstract socket is named after
  // realpath(DIR), so re-pointing the link (an admin moving the registry to an empty disk,
  // a deploy swapping a symlinked state directory) changes the name a newcomer binds, and
  // for up to ~100 ms (until the holder's maintain()) only the file lock guards the slot:
  // the newcomer finds a fresh slot file with no mark and takes the slot.
  const std::string base = temp_dir();
  namespace fs = std::filesystem;
  fs::create_directory(base + "/a");
  fs::create_directory(base + "/b");
  fs::create_directory_symlink(base + "/a", base + "/reg");
  const std::string src = "local:" + base + "/reg";
  snowfleet_test::Opts h(src, local_test::T, Mode::kStrict, local_test::kTwoSlots);
  Generator h0(h.o), h1(h.o);  // every slot held
  std::set<int64_t> ids = {h0.next_id(), h1.next_id()};
  fs::remove(base + "/reg");
  fs::create_directory_symlink(base + "/b", base + "/reg");
  // A newcomer with the holders' clock reading.
  size_t duplicates = 0;
  std::string verdict = "refused";
  try {
    snowfleet_test::Opts n(src, local_test::T, Mode::kStrict, local_test::kTwoSlots);
    Generator g(n.o);
    verdict = "claimed slot " + std::to_string(g.node_id()) + " with no history";
    for (int i = 0; i < 10; ++i) duplicates += ids.insert(g.next_id()).second ? 0 : 1;
  } catch (const Error& e) {
    verdict = std::string("refused ") + e.code() + ": " + e.what();
  }
  INFO(verdict);
  CHECK(duplicates == 0);
  CHECK(verdict.rfind("refused NODE_ID_UNAVAILABLE", 0) == 0);
}

TEST_CASE("fault: a child forked while a static generator closes can close its copy",
          "[faults][fork]") {
  // Thread A creates and closes static generators in a loop (a service rebuilding a
  // generator per request or per config reload); the main thread forks. The registry's
  // prepare-fork handler holds its mutex across fork(), so A blocks there inside
  // Generator::close() holding the generator's close mutex, and the child gets that mutex
  // locked. The child then closes (or destroys, at exit) its copy of the generator: it
  // must not hang. (Leased generators try_lock in a child; static ones lock.)
  std::atomic<Generator*> current{nullptr};
  std::atomic<bool> stop{false};
  std::vector<std::unique_ptr<Generator>> made;  // kept until the end: a child may use any
  std::thread churn([&] {
    while (!stop.load()) {
      GeneratorOptions o;
      o.node_id = 900;
      made.push_back(std::make_unique<Generator>(o));
      current.store(made.back().get());
      made.back()->close();
    }
  });
  while (current.load() == nullptr) std::this_thread::yield();
  int hung = 0, tries = 0;
  std::string verdict;
  for (; tries < 200 && hung == 0; ++tries) {
    verdict = local_test::guarded(
        [&] {
          current.load()->close();
          return std::string("closed");
        },
        2);
    hung += verdict != "closed";
  }
  stop.store(true);
  churn.join();
  INFO("after " << tries << " forks: " << verdict);
  CHECK(hung == 0);
}

TEST_CASE("fault: a local claim skips slots whose id space an open static generator uses",
          "[faults][local][id-space]") {
  // Four slots; this process already mints with three static node ids (say, from an old
  // config), among them the slot where this process's probe starts (derived from host and
  // pid). Claiming `local:DIR` must lease the fourth slot, the only one whose ids nothing in
  // the process can mint; instead the constructor throws at the first slot it probes.
  const Layout four = Layout::parse("41.2.20@1704067200000");
  const int64_t start = detail::probe_start(4);
  std::vector<std::unique_ptr<Generator>> statics;
  for (int64_t i = 0; i < 3; ++i) {
    GeneratorOptions o;
    o.layout = four;
    o.node_id = (start + i) % 4;
    statics.push_back(std::make_unique<Generator>(o));
  }
  GeneratorOptions o;
  o.layout = four;
  o.node_source = "local:" + temp_dir();
  std::string verdict;
  try {
    Generator g(o);
    verdict = "claimed " + std::to_string(g.node_id());
  } catch (const Error& e) {
    verdict = std::string("refused ") + e.code() + ": " + e.what();
  }
  CHECK(verdict == "claimed " + std::to_string((start + 3) % 4));
}

namespace {
// A hand-written test double of the kind users write: a fixed wall reading, a monotonic
// clock that stands still, a sleep that returns at once. Clock's contract only says
// monotonic time "never decreases".
class NaiveFrozenClock final : public Clock {
 public:
  int64_t wall_ns() override { return (E + 5000) * 1'000'000; }
  int64_t monotonic_ns() override { return 0; }
  void sleep_ns(int64_t) override {}
};
}  // namespace

TEST_CASE("fault: a call on a clock whose monotonic time stands still still ends",
          "[faults][clock]") {
  // The 3rd id of a frozen millisecond (1 sequence bit: 2 ids per ms) must wait for the
  // next millisecond and, the clock never moving, raise CLOCK_MOVED_BACKWARDS ("a frozen
  // clock makes call 4,097 raise instead of block"). The wait's deadline is measured on
  // the clock's own monotonic time only, so here the call spins for ever.
  const std::string verdict = local_test::guarded(
      [] {
        GeneratorOptions o;
        // An epoch of its own: the clock is a real-time Clock frozen in 2024, so an id
        // space that another test already used on real time (node 6 of the default
        // layout overlaps node 12345 here) would rightly refuse it as a rewind.
        o.layout = Layout::parse("41.21.1@1704060012345");
        o.node_id = 12345;
        o.clock = std::make_shared<NaiveFrozenClock>();
        Generator g(o);
        g.next_id();
        g.next_id();
        try {
          g.next_id();
          return std::string("issued a third id in one frozen ms");
        } catch (const Error& e) {
          return std::string(e.code());
        }
      },
      5);
  CHECK(verdict == "CLOCK_MOVED_BACKWARDS");
}
