// snowfleet._snowfleet: the time-range helpers and the base32 / base62 text forms. Each
// function forwards to one core call; the Python layer (python/snowfleet/_ranges.py,
// _text.py) converts host types (datetimes, ints) before calling these.
#include "text_range.hpp"

#include <pybind11/pybind11.h>

#include <string>

#include "snowfleet/snowfleet.hpp"

namespace py = pybind11;
namespace sf = snowfleet;

namespace snowfleet_python {

void add_text_range(py::module_& m) {
  m.def("min_id", &sf::min_id, py::arg("layout"), py::arg("timestamp_ms"));
  m.def("max_id", &sf::max_id, py::arg("layout"), py::arg("timestamp_ms"));
  m.def("whole_ms", &sf::whole_ms, py::arg("name"), py::arg("seconds"), py::arg("nanos"),
        "Unix ms of seconds + nanos after the Unix epoch; refuses a sub-millisecond part.");
  m.def(
      "id_range",
      [](const sf::Layout& layout, int64_t start_ms, int64_t end_ms, int64_t slack_ms) {
        const sf::IdRange r = sf::id_range(layout, start_ms, end_ms, slack_ms);
        return py::make_tuple(r.first, r.last);
      },
      py::arg("layout"), py::arg("start_ms"), py::arg("end_ms"), py::arg("slack_ms"),
      "(first, last): inclusive bounds of the ids stamped in [start_ms, end_ms).");
  m.def(
      "format_id_as",
      [](int64_t id, const std::string& format) {
        return sf::format_id_as(id, sf::parse_id_format(format));
      },
      py::arg("id"), py::arg("format"));
  m.def(
      "parse_id_as",
      [](const std::string& text, const std::string& format) {
        return sf::parse_id_as(text, sf::parse_id_format(format));
      },
      py::arg("text"), py::arg("format"));
}

}  // namespace snowfleet_python
