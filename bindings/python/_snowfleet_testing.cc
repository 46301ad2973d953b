// snowfleet._snowfleet_testing: the benchmark's reference rows, built only with
// -DSNOWFLEET_PYTHON_TEST_HOOKS=ON (scripts/test/python.sh turns it on; a plain
// `pip install .` leaves it out, so no wheel ships it). It links its own copy of the core,
// so nothing in the shipped module exists for its sake.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <memory>
#include <string>

#include "snowfleet/snowfleet.hpp"

namespace py = pybind11;
namespace sf = snowfleet;

PYBIND11_MODULE(_snowfleet_testing, m) {
  m.doc() = "Test and benchmark hooks of snowfleet (never part of a release wheel).";
  m.def(
      "noop", [] { return int64_t{0}; },
      "Does nothing through pybind11's dispatcher: the benchmark's bare-call row.");
  py::class_<sf::Generator, std::unique_ptr<sf::Generator>>(
      m, "PybindGenerator", "A core generator bound the ordinary pybind11 way (reference row).")
      .def(py::init([](int64_t node_id, std::string mode, int64_t max_drift_ms) {
             sf::GeneratorArgs args;
             args.node_id = node_id;
             args.mode = std::move(mode);
             args.max_drift_ms = max_drift_ms;
             return std::make_unique<sf::Generator>(sf::resolve_options(std::move(args)));
           }),
           py::arg("node_id"), py::arg("mode"), py::arg("max_drift_ms"))
      .def("next_id", &sf::Generator::next_id,
           "next_id() through pybind11's dispatcher: the benchmark's reference row.");
}
