// snowfleet._snowfleet: the pybind11 shim over the core (snowfleet/snowfleet.hpp).
//
// Mechanical by design: every function forwards to one core call. Argument checking that is
// Python-specific (rejecting bool/float, int64 overflow) lives in python/snowfleet/, the
// idiomatic layer; everything else (ranges, layouts, clocks) is decided by the core. What
// this file adds:
//   * the GIL policy: never released on next_id() (a release costs more than an id), released
//     by the core's wait hooks around every blocking sleep, and for a whole large batch
//     (gil.hpp, which also keeps daemon threads from crashing the interpreter's exit);
//   * the error mapping: snowfleet::Error -> the Python class registered for its kind by
//     snowfleet/_errors.py (which builds the classes from error_kinds(), so nothing drifts);
//   * next_id() as a METH_NOARGS method on the Generator type, skipping pybind11's generic
//     dispatcher, which costs more than the id itself (see python/bench/bench.py).
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#if defined(__GLIBCXX__)
#include <cxxabi.h>
#endif

#include <array>
#include <string>
#include <string_view>
#include <vector>

#include "gil.hpp"
#include "snowfleet/snowfleet.hpp"

namespace py = pybind11;
namespace sf = snowfleet;
using snowfleet_python::GeneratorHolder;
using snowfleet_python::GilReleased;

namespace {

// ---- errors -------------------------------------------------------------------------------

// Python class per ErrorKind (index = enumerator value), set once by snowfleet/_errors.py.
// Leaked on purpose: it must outlive every translator call, including at interpreter exit.
std::vector<PyObject*>& error_classes() {
  static auto* classes = new std::vector<PyObject*>();
  return *classes;
}

// Raises the registered class for e.kind() (RuntimeError if snowfleet/_errors.py has not
// registered yet, i.e. only when _snowfleet is imported on its own). Needs the GIL.
void set_python_error(const sf::Error& e) {
  const auto index = static_cast<size_t>(e.kind());
  if (index >= error_classes().size()) {
    PyErr_SetString(PyExc_RuntimeError, e.what());
    return;
  }
  PyObject* cls = error_classes()[index];
  // "replace": a message quoting user text cut at a byte limit may end inside a UTF-8 sequence.
  const std::string_view what = e.what();
  py::object message = py::reinterpret_steal<py::object>(
      PyUnicode_DecodeUTF8(what.data(), static_cast<Py_ssize_t>(what.size()), "replace"));
  if (!message) return;
  PyObject* exc = e.kind() == sf::ErrorKind::kClockMovedBackwards
                      ? PyObject_CallFunction(cls, "OL", message.ptr(), (long long)e.drift_ms())
                      : PyObject_CallFunction(cls, "O", message.ptr());
  if (exc == nullptr) return;  // constructing the exception failed: that error propagates
  PyErr_SetObject(cls, exc);
  Py_DECREF(exc);
}

void register_error_classes(const py::dict& by_code) {
  std::vector<PyObject*> classes;
  for (const sf::ErrorKindInfo& info : sf::error_kinds()) {
    if (!by_code.contains(info.code))
      throw py::key_error(std::string("no Python class registered for ") + info.code);
    py::object cls = by_code[info.code];
    if (!PyType_Check(cls.ptr()) ||
        !PyType_IsSubtype(reinterpret_cast<PyTypeObject*>(cls.ptr()),
                          reinterpret_cast<PyTypeObject*>(PyExc_Exception)))
      throw py::type_error(std::string("class for ") + info.code + " must be an Exception");
    classes.push_back(cls.release().ptr());  // kept alive for the process's life
  }
  for (PyObject* old : error_classes()) Py_DECREF(old);
  error_classes() = std::move(classes);
}

// Batches at least this long run without the GIL: below it the release/re-acquire pair
// (~0.2 us) would cost more than the batch. Shorter batches still release it in the hooks.
constexpr int64_t kReleaseGilBatch = 512;

// ---- generator ----------------------------------------------------------------------------

// array('q', [0]): multiplied by n to allocate a batch's result (a memcpy-doubling fill).
PyObject* g_array_template = nullptr;

// next_ids(n) -> array('q') of n ids, filled in place without a copy. The core checks n
// before the array is allocated.
py::object next_ids(sf::Generator& gen, int64_t n) {
  gen.batch_size(n);
  py::object count = py::int_(n);
  py::object out =
      py::reinterpret_steal<py::object>(PyNumber_Multiply(g_array_template, count.ptr()));
  if (!out) throw py::error_already_set();
  if (n == 0) return out;
  Py_buffer view;
  if (PyObject_GetBuffer(out.ptr(), &view, PyBUF_WRITABLE) != 0) throw py::error_already_set();
  // While the buffer is exported the array cannot be resized, so filling it without the GIL
  // is safe; nobody else holds a reference to it yet anyway.
  struct Release {
    Py_buffer* v;
    ~Release() { PyBuffer_Release(v); }
  } release{&view};
  auto* ids = static_cast<int64_t*>(view.buf);
  if (n >= kReleaseGilBatch) {
    GilReleased unlocked;
    gen.next_ids(ids, static_cast<size_t>(n));
  } else {
    gen.next_ids(ids, static_cast<size_t>(n));
  }
  return out;
}

// next_id() as a plain METH_NOARGS C function. Installed on the pybind11 Generator type, so
// CPython's vectorcall reaches it directly; the descriptor has already checked that `self` is
// a Generator (or a subclass of it).
PyObject* next_id_fast(PyObject* self, PyObject*) {
  auto* inst = reinterpret_cast<py::detail::instance*>(self);
  // snowfleet.Generator is a single-inheritance subclass: simple layout, one value pointer,
  // set once __init__ has run. (pybind11's own cast would hand out uninitialised storage for
  // an instance made by __new__ alone, hence the flag check.) A class mixing Generator with
  // another native class (non-simple layout) is not supported.
  if (!inst->simple_layout || !inst->simple_holder_constructed) {
    PyErr_SetString(PyExc_TypeError,
                    inst->simple_layout ? "Generator.__init__() was not called"
                                        : "Generator cannot be combined with another native class");
    return nullptr;
  }
  auto* gen = static_cast<sf::Generator*>(inst->simple_value_holder[0]);
  try {
    return PyLong_FromLongLong(gen->next_id());
  } catch (const sf::Error& e) {
    set_python_error(e);
  } catch (const std::exception& e) {
    PyErr_SetString(PyExc_RuntimeError, e.what());
#if defined(__GLIBCXX__)
  } catch (abi::__forced_unwind&) {
    throw;  // thread cancellation (pthread_exit): swallowing it aborts the process
#endif
  } catch (...) {  // nothing else may unwind into CPython
    PyErr_SetString(PyExc_SystemError, "unknown C++ exception in next_id()");
  }
  return nullptr;
}

PyMethodDef g_next_id_def = {
    "next_id", next_id_fast, METH_NOARGS,
    "next_id($self, /)\n--\n\nThe next id (an int). Never releases the GIL unless it has to "
    "wait (a clock rewind inside the wait budget, a spent millisecond). Raises "
    "ClockMovedBackwards, TimestampOutOfRange, ForkDetected, GeneratorClosed."};

GeneratorHolder make_generator(const sf::Layout& layout, int64_t node_id,
                               const std::string& node_source, const std::string& mode,
                               double max_wait_ms, int64_t max_drift_ms,
                               std::shared_ptr<sf::ScriptedClock> clock) {
  sf::GeneratorOptions o;
  o.layout = layout;
  o.node_id = node_id;
  o.node_source = node_source;
  o.mode = sf::parse_mode(mode);
  o.max_wait_ms = max_wait_ms;
  o.max_drift_ms = max_drift_ms;
  o.clock = std::move(clock);
  o.wait_hooks = snowfleet_python::gil_wait_hooks();
  // A node source may block (a lease store): construct without the GIL.
  GilReleased unlocked;
  return GeneratorHolder(new sf::Generator(std::move(o)));
}

using Segment4 = std::array<int64_t, 4>;  // (ms, count, step_ms, every)

std::vector<sf::ScriptedClock::Segment> segments(const std::vector<Segment4>& in) {
  std::vector<sf::ScriptedClock::Segment> out;
  out.reserve(in.size());
  for (const Segment4& s : in) out.push_back({s[0], s[1], s[2], s[3]});
  return out;
}

}  // namespace

PYBIND11_MODULE(_snowfleet, m) {
  m.doc() = "Native core of snowfleet (use the `snowfleet` package, not this module).";

  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const sf::Error& e) {
      set_python_error(e);
    }
  });

  snowfleet_python::install_exit_gate();

  g_array_template =
      py::module_::import("array").attr("array")("q", py::make_tuple(0)).release().ptr();

  m.attr("MAX_BATCH") = py::int_(sf::Generator::kMaxBatch);
  m.attr("MAX_EPOCH_MS") = py::int_(sf::Layout::kMaxEpochMs);

  m.def(
      "error_kinds",
      [] {
        py::list out;
        for (const auto& k : sf::error_kinds())
          out.append(py::make_tuple(k.code, k.name, k.category, k.summary));
        return out;
      },
      "[(code, name, category, summary)] for every core error kind, in declaration order.");
  m.def("_register_error_classes", &register_error_classes, py::arg("by_code"),
        "Installs {code: exception class}; called once by snowfleet._errors.");

  py::class_<sf::Layout>(m, "Layout", "A validated bit layout (core snowfleet::Layout).")
      .def_static("standard", [] { return sf::Layout::kDefault; })
      .def_static("twitter", [] { return sf::Layout::kTwitter; })
      .def_static("discord", [] { return sf::Layout::kDiscord; })
      .def_static("parse", &sf::Layout::parse, py::arg("text"))
      .def_static("create", &sf::Layout::create, py::arg("epoch_ms"), py::arg("timestamp_bits"),
                  py::arg("node_bits"), py::arg("sequence_bits"))
      .def_static("create_split", &sf::Layout::create_split, py::arg("epoch_ms"),
                  py::arg("timestamp_bits"), py::arg("datacenter_bits"), py::arg("machine_bits"),
                  py::arg("sequence_bits"))
      .def("to_string", &sf::Layout::to_string)
      .def_property_readonly("preset_name", &sf::Layout::preset_name)
      .def_property_readonly("epoch_ms", &sf::Layout::epoch_ms)
      .def_property_readonly("timestamp_bits", &sf::Layout::timestamp_bits)
      .def_property_readonly("node_bits", &sf::Layout::node_bits)
      .def_property_readonly("datacenter_bits", &sf::Layout::datacenter_bits)
      .def_property_readonly("machine_bits", &sf::Layout::machine_bits)
      .def_property_readonly("sequence_bits", &sf::Layout::sequence_bits)
      .def_property_readonly("split", &sf::Layout::split)
      .def_property_readonly("node_shift", &sf::Layout::node_shift)
      .def_property_readonly("timestamp_shift", &sf::Layout::timestamp_shift)
      .def_property_readonly("max_node_id", &sf::Layout::max_node_id)
      .def_property_readonly("max_datacenter_id", &sf::Layout::max_datacenter_id)
      .def_property_readonly("max_machine_id", &sf::Layout::max_machine_id)
      .def_property_readonly("max_sequence", &sf::Layout::max_sequence)
      .def_property_readonly("max_elapsed_ms", &sf::Layout::max_elapsed_ms)
      .def_property_readonly("max_timestamp_ms", &sf::Layout::max_timestamp_ms)
      .def(
          "__eq__", [](const sf::Layout& a, const sf::Layout& b) { return a == b; },
          py::is_operator());

  m.def("compose", &sf::compose, py::arg("layout"), py::arg("timestamp_ms"), py::arg("node_id"),
        py::arg("sequence"));
  m.def("compose_split", &sf::compose_split, py::arg("layout"), py::arg("timestamp_ms"),
        py::arg("datacenter_id"), py::arg("machine_id"), py::arg("sequence"));
  m.def(
      "decode",
      [](const sf::Layout& layout, int64_t id) {
        const sf::Decoded d = sf::decode(layout, id);
        return py::make_tuple(d.timestamp_ms, d.node_id, d.datacenter_id, d.machine_id, d.sequence);
      },
      py::arg("layout"), py::arg("id"),
      "(timestamp_ms, node_id, datacenter_id, machine_id, sequence)");
  m.def(
      "parse_id", [](const std::string& text) { return sf::parse_id(text); }, py::arg("text"));
  m.def(
      "parse_iso8601", [](const std::string& text) { return sf::parse_iso8601(text); },
      py::arg("text"));
  m.def("format_iso8601", &sf::format_iso8601, py::arg("unix_ms"));
  m.def("_gil_releases", &snowfleet_python::gil_releases,
        "How many waits released the GIL through the core's wait hooks (for the tests).");
  m.def(
      "_noop", [] { return int64_t{0}; },
      "Does nothing through pybind11's dispatcher: the benchmark's reference row.");

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
          "set_wall_ms", [](sf::ScriptedClock& c, int64_t ms) { c.set_wall_ms(ms); },
          py::arg("ms"))
      .def(
          "advance_wall_ms", [](sf::ScriptedClock& c, int64_t d) { c.advance_wall_ms(d); },
          py::arg("delta_ms"))
      .def(
          "peek_wall_ms", [](const sf::ScriptedClock& c) { return c.peek_wall_ms(); },
          "The reading the next wall_ns() call would return, in ms (does not consume it).")
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

  py::class_<sf::Generator, GeneratorHolder> gen(m, "Generator",
                                                 "The core generator (see snowfleet.Generator).");
  gen.def(py::init(&make_generator), py::arg("layout"), py::arg("node_id"), py::arg("node_source"),
          py::arg("mode"), py::arg("max_wait_ms"), py::arg("max_drift_ms"), py::arg("clock"))
      .def("_next_ids", &next_ids, py::arg("n"))
      .def("_stats",
           [](const sf::Generator& g) {
             const sf::Stats s = g.stats();
             return py::make_tuple(s.ids_issued, s.rewinds_seen, s.waits, s.waited_ns_total,
                                   s.waited_ns_max, s.refusals, s.ms_borrowed, s.mark_writes,
                                   s.lease_refusals);
           })
      .def("_status",
           [](sf::Generator& g) {
             const sf::Status s = g.status();
             return py::make_tuple(s.healthy, s.reason, s.wall_ms, s.last_ms, s.drift_ms, s.node_id,
                                   sf::mode_name(s.mode), sf::lease_state_name(s.lease_state),
                                   s.mark_ms, s.lease_expires_in_ms);
           })
      .def_property_readonly("drift_ms", &sf::Generator::drift_ms,
                             "max(0, last issued ms - wall clock now); reads the clock once.")
      .def("close", &sf::Generator::close,
           "Stops the generator (and releases a leased node id); later calls raise "
           "GeneratorClosed. Idempotent.")
      .def_property_readonly("closed", &sf::Generator::closed, "True once close() was called.")
      .def_property_readonly("_layout", &sf::Generator::layout)
      .def_property_readonly("node_id", &sf::Generator::node_id, "The node id in every id.")
      .def_property_readonly(
          "mode", [](const sf::Generator& g) { return sf::mode_name(g.mode()); },
          "'strict' or 'monotonic'.")
      .def_property_readonly("max_wait_ms", &sf::Generator::max_wait_ms,
                             "Rewinds up to this many ms are waited out, larger ones refused.")
      .def_property_readonly("max_drift_ms", &sf::Generator::max_drift_ms,
                             "Monotonic mode: how far ahead of the wall clock it may run.")
      .def("_next_id_pybind11", &sf::Generator::next_id,
           "next_id() through pybind11's dispatcher: the benchmark's reference row.");
  // The hot path, bound as a CPython method descriptor (see next_id_fast).
  py::object descr = py::reinterpret_steal<py::object>(
      PyDescr_NewMethod(reinterpret_cast<PyTypeObject*>(gen.ptr()), &g_next_id_def));
  if (!descr) throw py::error_already_set();
  gen.attr("next_id") = descr;
}
