// snowfleet._snowfleet.Generator: the core generator as a CPython type of our own.
#pragma once

#include <pybind11/pybind11.h>

namespace snowfleet_python {

/// Adds the Generator type to the module `m`.
void add_generator_type(pybind11::module_& m);

}  // namespace snowfleet_python
