// The GIL policy of snowfleet._snowfleet, and what keeps it safe while the interpreter exits.
//
// The GIL is released around every blocking wait (the core's wait hooks) and for a scope
// (construction, a large batch). Re-taking it is the dangerous step: before CPython 3.14, a
// thread that asks for the GIL once finalization has started is ended with pthread_exit(),
// which unwinds through the C++ frames below it; a catch(...) or a noexcept destructor there
// aborts the process, and destructors that drop Python references run without the GIL.
// (3.14 parks such a thread instead: PyThread_hang_thread.) So every re-take goes through
// one gate, closed by an atexit callback before finalization starts: a thread that comes
// back after that parks for good, without returning into Python or unwinding.
#pragma once

#include <pybind11/pybind11.h>

#include <cstdint>
#include <memory>

#include "snowfleet/snowfleet.hpp"

namespace snowfleet_python {

/// Hooks for GeneratorOptions::wait_hooks: release the GIL for each blocking wait and take
/// it back through the exit gate. Inside a GilReleased scope they do nothing.
snowfleet::WaitHooks gil_wait_hooks();

/// Releases the GIL for a scope and tells the wait hooks so; takes it back through the exit
/// gate (so the destructor may never return, see the file comment).
class GilReleased {
 public:
  GilReleased();
  ~GilReleased();
  GilReleased(const GilReleased&) = delete;
  GilReleased& operator=(const GilReleased&) = delete;

 private:
  PyThreadState* state_;
};

/// The holder's deleter for a Python Generator. Once the exit gate is closed and a thread
/// may be parked inside core code (possibly holding a lock the destructor needs, such as a
/// lease's), a generator freed by finalization is leaked instead of destroyed: the process
/// is ending, and its node id lease ends with it.
struct GeneratorDelete {
  void operator()(snowfleet::Generator* gen) const noexcept;
};
using GeneratorHolder = std::unique_ptr<snowfleet::Generator, GeneratorDelete>;

/// Registers the atexit callback that closes the exit gate, and the fork handler. Called
/// once, from the module's init (with the GIL).
void install_exit_gate();

}  // namespace snowfleet_python
