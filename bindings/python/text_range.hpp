// The time-range helpers and the id text forms in snowfleet._snowfleet (text_range.cc).
#pragma once

#include <pybind11/pybind11.h>

namespace snowfleet_python {

/// Adds min_id, max_id, id_range, format_id_as and parse_id_as to the module.
void add_text_range(pybind11::module_& m);

}  // namespace snowfleet_python
