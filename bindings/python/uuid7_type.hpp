// snowfleet._snowfleet.Uuid7Generator, ScriptedRandom and the UUID codec functions.
#pragma once

#include <pybind11/pybind11.h>

namespace snowfleet_python {

/// Adds Uuid7Generator, ScriptedRandom, parse_uuid and decode_uuid7 to the module `m`.
void add_uuid7(pybind11::module_& m);

}  // namespace snowfleet_python
