// The error mapping of snowfleet._snowfleet: snowfleet::Error -> the Python class registered
// for its kind by snowfleet/_errors.py (which builds the classes from error_kinds(), so
// nothing drifts).
#pragma once

#include <pybind11/pybind11.h>

#include "snowfleet/snowfleet.hpp"

namespace snowfleet_python {

/// Raises the registered class for e.kind() (RuntimeError if snowfleet/_errors.py has not
/// registered yet, i.e. only when _snowfleet is imported on its own). Needs the GIL.
void set_python_error(const snowfleet::Error& e);

/// Installs {code: exception class}; every core kind must have an Exception subclass.
void register_error_classes(const pybind11::dict& by_code);

}  // namespace snowfleet_python
