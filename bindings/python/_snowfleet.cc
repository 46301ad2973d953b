// snowfleet._snowfleet: the pybind11 shim over the core (snowfleet/snowfleet.hpp).
//
// Mechanical by design: every function forwards to one core call. The Python layer
// (python/snowfleet/) only converts host types (rejecting bool/float where an int is
// required, int64 overflow); every rule (ranges, combinations, defaults, layouts, clocks) is
// decided by the core. What this module adds:
//   * the GIL policy: never released on next_id() (a release costs more than an id), released
//     by the core's wait hooks around every blocking sleep, and for a whole large batch
//     (gil.hpp, which also keeps daemon threads from crashing the interpreter's exit);
//   * the error mapping (errors.hpp);
//   * the Generator type with next_id() as a METH_NOARGS method (generator_type.cc).
// Test and benchmark hooks live in the test-only module _snowfleet_testing, never here.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <array>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "errors.hpp"
#include "generator_type.hpp"
#include "gil.hpp"
#include "text_range.hpp"
#include "uuid7_type.hpp"
#include "snowfleet/snowfleet.hpp"

namespace py = pybind11;
namespace sf = snowfleet;

namespace {

using Segment4 = std::array<int64_t, 4>;  // (ms, count, step_ms, every)

std::vector<sf::ScriptedClock::Segment> segments(const std::vector<Segment4>& in) {
  std::vector<sf::ScriptedClock::Segment> out;
  out.reserve(in.size());
  for (const Segment4& s : in) out.push_back({s[0], s[1], s[2], s[3]});
  return out;
}

py::tuple decoded(const sf::Decoded& d) {
  return py::make_tuple(d.timestamp_ms, d.node_id, d.datacenter_id, d.machine_id, d.sequence);
}

py::list fields(const std::vector<sf::FieldInfo>& list) {
  py::list out;
  for (const sf::FieldInfo& f : list) out.append(py::make_tuple(f.name, f.doc));
  return out;
}

void add_layout(py::module_& m) {
  py::class_<sf::Layout> layout(m, "Layout", "A validated bit layout (core snowfleet::Layout).");
  layout.attr("DEFAULT") = sf::Layout::kDefault;
  layout.attr("TWITTER") = sf::Layout::kTwitter;
  layout.attr("DISCORD") = sf::Layout::kDiscord;
  layout.def_static("parse", &sf::Layout::parse, py::arg("text"))
      .def_static(
          "create",
          [](std::optional<int64_t> epoch_ms, std::optional<int64_t> timestamp_bits,
             std::optional<int64_t> node_bits, std::optional<int64_t> datacenter_bits,
             std::optional<int64_t> machine_bits, std::optional<int64_t> sequence_bits) {
            return sf::Layout::create(sf::LayoutArgs{epoch_ms, timestamp_bits, node_bits,
                                                     datacenter_bits, machine_bits, sequence_bits});
          },
          py::arg("epoch_ms"), py::arg("timestamp_bits"), py::arg("node_bits"),
          py::arg("datacenter_bits"), py::arg("machine_bits"), py::arg("sequence_bits"),
          "Layout::create(LayoutArgs): each field as given (None: not given); the core decides "
          "which go together.")
      .def("to_string", &sf::Layout::to_string)
      .def_property_readonly("preset_name", &sf::Layout::preset_name)
      .def_property_readonly("split", &sf::Layout::split)
#define SNOWFLEET_PY_LAYOUT_FIELD(name, camel, kind, doc) \
  .def_property_readonly(#name, &sf::Layout::name, doc)
      SNOWFLEET_LAYOUT_FIELDS(SNOWFLEET_PY_LAYOUT_FIELD)
#undef SNOWFLEET_PY_LAYOUT_FIELD
      .def(
          "__eq__", [](const sf::Layout& a, const sf::Layout& b) { return a == b; },
          py::is_operator());
}

void add_codec(py::module_& m) {
  m.def(
      "compose",
      [](const sf::Layout& layout, int64_t timestamp_ms, std::optional<int64_t> node_id,
         std::optional<int64_t> datacenter_id, std::optional<int64_t> machine_id,
         std::optional<int64_t> sequence) {
        return sf::compose(layout, timestamp_ms, sf::NodeArgs{node_id, datacenter_id, machine_id},
                           sequence);
      },
      py::arg("layout"), py::arg("timestamp_ms"), py::arg("node_id"), py::arg("datacenter_id"),
      py::arg("machine_id"), py::arg("sequence"),
      "The node as node_id or datacenter_id + machine_id (None: not given); the core checks "
      "which form was given. A sequence of None is the core's default (0).");
  m.def(
      "decode",
      [](const sf::Layout& layout, int64_t id) { return decoded(sf::decode(layout, id)); },
      py::arg("layout"), py::arg("id"),
      "(timestamp_ms, node_id, datacenter_id, machine_id, sequence)");
  m.def(
      "decode_text",
      [](const sf::Layout& layout, const std::string& text) {
        return decoded(sf::decode(layout, text));
      },
      py::arg("layout"), py::arg("text"), "decode() of an id given as decimal text.");
  m.def(
      "parse_id", [](const std::string& text) { return sf::parse_id(text); }, py::arg("text"));
  m.def(
      "parse_iso8601", [](const std::string& text) { return sf::parse_iso8601(text); },
      py::arg("text"));
  m.def("format_iso8601", &sf::format_iso8601, py::arg("unix_ms"));
}

void add_scripted_clock(py::module_& m) {
  py::class_<sf::ScriptedClock, std::shared_ptr<sf::ScriptedClock>>(
      m, "ScriptedClock", "The core's scripted clock (see snowfleet.testing.ScriptedClock).")
      .def(py::init([](const std::vector<Segment4>& script) {
             return std::make_shared<sf::ScriptedClock>(segments(script));
           }),
           py::arg("script"))
      .def(
          "set_script",
          [](sf::ScriptedClock& c, const std::vector<Segment4>& script) {
            c.set_script(segments(script));
          },
          py::arg("script"))
      // Every method takes the clock by reference: on an instance whose __init__ raised
      // (a script out of range) pybind11 then refuses the call instead of reaching a clock
      // that was never constructed (a repr() of it in a traceback used to hang).
      .def(
          "append",
          [](sf::ScriptedClock& c, int64_t ms, int64_t count, int64_t step_ms, int64_t every) {
            c.append(ms, count, step_ms, every);
          },
          py::arg("ms"), py::arg("count"), py::arg("step_ms"), py::arg("every"))
      .def(
          "set_wall_ms", [](sf::ScriptedClock& c, int64_t ms) { c.set_wall_ms(ms); }, py::arg("ms"))
      .def(
          "advance_wall_ms", [](sf::ScriptedClock& c, int64_t d) { c.advance_wall_ms(d); },
          py::arg("delta_ms"))
      .def(
          "peek_wall_ms", [](const sf::ScriptedClock& c) { return c.peek_wall_ms(); },
          "The reading the next wall_ns() call would return, in ms (does not consume it).")
      .def(
          "set_ticking", [](sf::ScriptedClock& c, bool on) { c.set_ticking(on); },
          py::arg("on").noconvert(),
          "While on, time slept on this clock passes on the wall too (a test of a wait sees "
          "the clock move).")
      .def_property_readonly(
          "ticking", [](const sf::ScriptedClock& c) { return c.ticking(); },
          "Whether time slept passes on the wall (set_ticking).")
      .def(
          "wall_ns", [](sf::ScriptedClock& c) { return c.wall_ns(); },
          "Consumes the next scripted reading: wall-clock ns since the Unix epoch.")
      .def(
          "monotonic_ns", [](sf::ScriptedClock& c) { return c.monotonic_ns(); },
          "Virtual monotonic time in ns: the total slept so far.")
      .def(
          "sleep_ns", [](sf::ScriptedClock& c, int64_t ns) { c.sleep_ns(ns); }, py::arg("ns"),
          "Advances virtual monotonic time by ns (no real sleep).")
      .def_property_readonly(
          "reads", [](const sf::ScriptedClock& c) { return c.reads(); },
          "Wall readings consumed so far.")
      .def_property_readonly(
          "sleep_count", [](const sf::ScriptedClock& c) { return c.sleep_count(); },
          "sleep_ns calls so far.")
      .def_property_readonly(
          "slept_ns", [](const sf::ScriptedClock& c) { return c.slept_ns(); },
          "Total virtual time slept (== monotonic_ns()).")
      .def_property_readonly(
          "max_sleep_ns", [](const sf::ScriptedClock& c) { return c.max_sleep_ns(); },
          "Longest single sleep (0 when none).")
      .def_property_readonly(
          "min_sleep_ns", [](const sf::ScriptedClock& c) { return c.min_sleep_ns(); },
          "Shortest single sleep (0 when none).");
}

}  // namespace

PYBIND11_MODULE(_snowfleet, m) {
  m.doc() = "Native core of snowfleet (use the `snowfleet` package, not this module).";

  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const sf::Error& e) {
      snowfleet_python::set_python_error(e);
    }
  });
  snowfleet_python::install_exit_gate();

  // snowfleet/__init__.py compares it with the Python layer's version on import.
  m.attr("__version__") = sf::version();
  m.attr("MAX_BATCH") = py::int_(sf::Generator::kMaxBatch);
  m.attr("MAX_EPOCH_MS") = py::int_(sf::Layout::kMaxEpochMs);

  m.def(
      "run_cli",
      [](const std::vector<std::string>& args) {
        std::ostringstream out, err;
        const int code = sf::run_cli(args, out, err);
        return py::make_tuple(code, out.str(), err.str());
      },
      py::arg("args"),
      "The core's snowfleet CLI: (exit status, stdout text, stderr text) for args.");
  m.def(
      "run_cli_stdio", [](const std::vector<std::string>& args) { return sf::run_cli_stdio(args); },
      py::arg("args"), py::call_guard<py::gil_scoped_release>(),
      "The core's snowfleet CLI writing the process's stdout and stderr (file descriptors 1 and "
      "2) a chunk at a time; returns the exit status.");
  m.def(
      "error_kinds",
      [] {
        py::list out;
        for (const auto& k : sf::error_kinds())
          out.append(py::make_tuple(k.code, k.name, k.category, k.summary));
        return out;
      },
      "[(code, name, category, summary)] for every core error kind, in declaration order.");
  m.def("_register_error_classes", &snowfleet_python::register_error_classes, py::arg("by_code"),
        "Installs {code: exception class}; called once by snowfleet._errors.");
  m.def(
      "stats_fields", [] { return fields(sf::stats_fields()); },
      "[(name, doc)] of the core's Stats fields, in order (SNOWFLEET_STATS_FIELDS).");
  m.def(
      "status_fields", [] { return fields(sf::status_fields()); },
      "[(name, doc)] of the core's Status fields, in order (SNOWFLEET_STATUS_FIELDS).");

  m.def(
      "layout_fields", [] { return fields(sf::layout_fields()); },
      "[(name, doc)] of a layout's properties, in order (SNOWFLEET_LAYOUT_FIELDS).");
  m.def(
      "generator_args", [] { return fields(sf::generator_arg_fields()); },
      "[(name, doc)] of a generator's arguments, in order (SNOWFLEET_GENERATOR_ARGS).");

  add_layout(m);
  add_codec(m);
  snowfleet_python::add_text_range(m);
  add_scripted_clock(m);
  snowfleet_python::add_generator_type(m);
  snowfleet_python::add_uuid7(m);
}
