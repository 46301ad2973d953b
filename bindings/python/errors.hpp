// The error mapping of snowfleet._snowfleet: snowfleet::Error -> the Python class registered
// for its kind by snowfleet/_errors.py (which builds the classes from error_kinds(), so
// nothing drifts).
#pragma once

#include <pybind11/pybind11.h>

#if defined(__GLIBCXX__)
#include <cxxabi.h>
#endif

#include <exception>

#include "snowfleet/snowfleet.hpp"

namespace snowfleet_python {

/// Raises the registered class for e.kind() (RuntimeError if snowfleet/_errors.py has not
/// registered yet, i.e. only when _snowfleet is imported on its own). Needs the GIL. Runs
/// no Python code: the instance is built by BaseException's C slots (args = (message,)),
/// never by the class's __init__; ClockMovedBackwards gets drift_ms in its instance dict.
void set_python_error(const snowfleet::Error& e);

/// Installs {code: exception class}; every core kind must have an Exception subclass that
/// keeps BaseException's __new__.
void register_error_classes(const pybind11::dict& by_code);

/// Runs `body` (which returns a new reference) for a raw CPython method, where nothing may
/// unwind into CPython: a core error becomes its Python class, any other C++ exception a
/// RuntimeError or SystemError, and the result is then nullptr. Thread cancellation
/// (pthread_exit's forced unwind) passes through: swallowing it aborts the process.
template <class Body>
PyObject* guarded(Body&& body, const char* what) {
  try {
    return body();
  } catch (const snowfleet::Error& e) {
    set_python_error(e);
  } catch (const std::exception& e) {
    PyErr_SetString(PyExc_RuntimeError, e.what());
#if defined(__GLIBCXX__)
  } catch (abi::__forced_unwind&) {
    throw;
#endif
  } catch (...) {
    PyErr_Format(PyExc_SystemError, "unknown C++ exception in %s", what);
  }
  return nullptr;
}

}  // namespace snowfleet_python
