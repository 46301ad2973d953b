// snowfleet._snowfleet.Generator: the core generator as a CPython type of our own.
#pragma once

#include <pybind11/pybind11.h>

#include "snowfleet/snowfleet.hpp"

namespace snowfleet_python {

/// Adds the Generator type to the module `m`.
void add_generator_type(pybind11::module_& m);

/// A Stats / Status record's values in the core's field order (the lists of lists.h), as the
/// Python records (snowfleet.Stats, snowfleet.Status) take them; Uuid7Generator's too.
pybind11::tuple stats_values(const snowfleet::Stats& record);
pybind11::tuple status_values(const snowfleet::Status& record);

}  // namespace snowfleet_python
