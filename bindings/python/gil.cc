// The GIL policy and the exit gate (see gil.hpp).
#include "gil.hpp"

#include <pthread.h>

#include <atomic>
#include <chrono>
#include <thread>

namespace py = pybind11;
namespace sf = snowfleet;

namespace snowfleet_python {
namespace {

// True while this thread runs core code with the GIL released by a GilReleased scope, so the
// wait hooks must not release it a second time.
thread_local bool t_gil_released = false;

// ---- the exit gate --------------------------------------------------------------------------
//
// Closed by before_exit(), an atexit callback. CPython runs atexit callbacks with the
// interpreter intact, after joining the non-daemon threads and before it marks the runtime
// as finalizing (from which point take_gil() ends a daemon thread on 3.8 - 3.13). Checking
// Py_IsFinalizing() before re-taking the GIL would leave a race: finalization may start
// while the thread waits for the GIL. The gate has none:
//   * a returning thread counts itself in g_returning, then reads the gate;
//   * before_exit() closes the gate, then waits (without the GIL) until g_returning is 0.
// All four accesses are sequentially consistent, so either the thread sees the gate closed
// (and parks), or before_exit() sees the thread and lets it take the GIL before going on.
//
// The cost: a thread coming back after before_exit() parks even though finalization has not
// started yet, so an atexit callback that runs after it (one registered before snowfleet was
// imported) must not wait for a thread that is inside a snowfleet wait.
std::atomic<bool> g_gate_closed{false};
// Threads between deciding to re-take the GIL and having it.
std::atomic<int> g_returning{0};
// Threads running core code without the GIL (released and not back, parked ones included).
std::atomic<int> g_away{0};
// Set on the thread that ran before_exit(): it finalizes the interpreter and never parks.
thread_local bool t_exit_thread = false;

// What CPython 3.14 does with such a thread (PyThread_hang_thread): it never runs again,
// touches nothing, and ends with the process.
[[noreturn]] void park_forever() {
  for (;;) std::this_thread::sleep_for(std::chrono::hours(24));
}

PyThreadState* release_gil() {
  g_away.fetch_add(1);
  return PyEval_SaveThread();
}

void retake_gil(PyThreadState* state) {
  g_returning.fetch_add(1);
  if (g_gate_closed.load() && !t_exit_thread) {
    g_returning.fetch_sub(1);
    park_forever();  // stays counted in g_away
  }
  PyEval_RestoreThread(state);
  g_returning.fetch_sub(1);
  g_away.fetch_sub(1);
}

void before_exit() {
  t_exit_thread = true;
  g_gate_closed.store(true);
  if (g_returning.load() == 0) return;
  PyThreadState* self = PyEval_SaveThread();
  while (g_returning.load() != 0) std::this_thread::sleep_for(std::chrono::microseconds(100));
  PyEval_RestoreThread(self);
}

// In a forked child only the forking thread exists, and it holds the GIL.
void after_fork_child() {
  g_returning.store(0);
  g_away.store(0);
}

// The core calls these around every blocking sleep, never on the fast path.
void* wait_enter(void*) {
  if (t_gil_released) return nullptr;
  return release_gil();
}
void wait_leave(void*, void* token) {
  if (token != nullptr) retake_gil(static_cast<PyThreadState*>(token));
}

}  // namespace

sf::WaitHooks gil_wait_hooks() {
  sf::WaitHooks hooks;
  hooks.enter = wait_enter;
  hooks.leave = wait_leave;
  return hooks;
}

GilReleased::GilReleased() : state_(release_gil()) { t_gil_released = true; }

GilReleased::~GilReleased() {
  t_gil_released = false;
  retake_gil(state_);
}

void GeneratorDelete::operator()(sf::Generator* gen) const noexcept {
  if (g_gate_closed.load() && g_away.load() > 0) return;  // leaked on purpose (see gil.hpp)
  delete gen;
}

void install_exit_gate() {
  py::module_::import("atexit").attr("register")(py::cpp_function(&before_exit));
  pthread_atfork(nullptr, nullptr, after_fork_child);
}

}  // namespace snowfleet_python
