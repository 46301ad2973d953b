// snowfleet._snowfleet.Generator, defined with CPython's documented type API rather than as a
// pybind11 class, so the hot path can find the core generator without reaching into
// pybind11's instance layout (which is not public API and changes between major versions):
//   * the instance struct is ours: PyObject_HEAD plus the generator pointer;
//   * next_id() is a METH_NOARGS method in the type's method table, so CPython's vectorcall
//     reaches it directly (pybind11's generic dispatcher costs more than the id itself, see
//     python/bench/bench.py); the method descriptor has already checked that `self` is a
//     Generator or a subclass of it;
//   * every other member is a pybind11 function taking `self` as a handle, which reads the
//     pointer through generator_of(): type conversion and error mapping stay pybind11's.
// Construction fills a GeneratorArgs with the arguments the caller gave (None = absent) and
// lets the core's resolve_options() apply every rule.
#include "generator_type.hpp"

#include <pybind11/stl.h>

#include <memory>
#include <optional>
#include <string>
#include <utility>

#include "errors.hpp"
#include "gil.hpp"
#include "snowfleet/snowfleet.hpp"

namespace py = pybind11;
namespace sf = snowfleet;

namespace snowfleet_python {
namespace {

// The instance layout. `gen` is null until __init__ succeeds and owned from then on
// (released by GeneratorDelete when the object dies). Read and written with the GIL held.
struct GeneratorObject {
  PyObject ob_base;  // PyObject_HEAD
  sf::Generator* gen;
};

PyTypeObject* g_type = nullptr;  // set once by add_generator_type, kept for the process

GeneratorObject* object_of(py::handle self) {
  if (!PyObject_TypeCheck(self.ptr(), g_type))
    throw py::type_error("expected a snowfleet Generator, got " +
                         std::string(Py_TYPE(self.ptr())->tp_name));
  return reinterpret_cast<GeneratorObject*>(self.ptr());
}

sf::Generator& generator_of(py::handle self) {
  sf::Generator* gen = object_of(self)->gen;
  if (gen == nullptr) throw py::type_error("Generator.__init__() was not called");
  return *gen;
}

// ---- the hot path -------------------------------------------------------------------------

PyObject* next_id_fast(PyObject* self, PyObject*) {
  sf::Generator* gen = reinterpret_cast<GeneratorObject*>(self)->gen;
  if (gen == nullptr) {
    PyErr_SetString(PyExc_TypeError, "Generator.__init__() was not called");
    return nullptr;
  }
  return guarded([gen] { return PyLong_FromLongLong(gen->next_id()); }, "next_id()");
}

PyMethodDef g_methods[] = {
    {"next_id", next_id_fast, METH_NOARGS,
     "next_id($self, /)\n--\n\nThe next id (an int). Never releases the GIL unless it has to "
     "wait (a clock rewind inside the wait budget, a spent millisecond). Raises "
     "ClockMovedBackwards, TimestampOutOfRange, ForkDetected, GeneratorClosed, LeaseLost."},
    {nullptr, nullptr, 0, nullptr}};

void dealloc(PyObject* self) {
  PyTypeObject* type = Py_TYPE(self);
  auto* obj = reinterpret_cast<GeneratorObject*>(self);
  if (obj->gen != nullptr) GeneratorDelete()(std::exchange(obj->gen, nullptr));
  type->tp_free(self);
  Py_DECREF(type);  // instances of a heap type own a reference to it
}

// ---- construction -------------------------------------------------------------------------

// Each kind of SNOWFLEET_GENERATOR_ARGS as Python gives it (None: not given).
#define SNOWFLEET_PY_ARG_LAYOUT std::optional<sf::Layout>
#define SNOWFLEET_PY_ARG_I64 std::optional<int64_t>
#define SNOWFLEET_PY_ARG_F64 std::optional<double>
#define SNOWFLEET_PY_ARG_TEXT std::optional<std::string>
#define SNOWFLEET_PY_ARG_MODE std::optional<std::string>
#define SNOWFLEET_PY_ARG_CLOCK std::shared_ptr<sf::ScriptedClock>
#define SNOWFLEET_PY_PARAM(name, camel, kind, doc) , SNOWFLEET_PY_ARG_##kind name
#define SNOWFLEET_PY_SET(name, camel, kind, doc) args.name = std::move(name);

// Generator.__init__(self, every argument of SNOWFLEET_GENERATOR_ARGS by its name).
void init(py::handle self SNOWFLEET_GENERATOR_ARGS(SNOWFLEET_PY_PARAM)) {
  GeneratorObject* obj = object_of(self);
  if (obj->gen != nullptr) throw py::type_error("Generator.__init__() may run only once");
  sf::GeneratorArgs args;
  SNOWFLEET_GENERATOR_ARGS(SNOWFLEET_PY_SET)
  args.wait_hooks = gil_wait_hooks();
  GeneratorHolder made;
  {
    // A node source may block (a lease store): construct without the GIL.
    GilReleased unlocked;
    made.reset(new sf::Generator(sf::resolve_options(std::move(args))));
  }
  // Another thread may have run __init__ on the same object meanwhile.
  if (obj->gen != nullptr) throw py::type_error("Generator.__init__() may run only once");
  obj->gen = made.release();
}
#undef SNOWFLEET_PY_SET
#undef SNOWFLEET_PY_PARAM

// ---- batches, records ---------------------------------------------------------------------

// Batches at least this long run without the GIL: below it the release/re-acquire pair
// (~0.2 us) would cost more than the batch. Shorter batches still release it in the hooks.
constexpr int64_t kReleaseGilBatch = 512;

// array('q', [0]): multiplied by n to allocate a batch's result (a memcpy-doubling fill).
PyObject* g_array_template = nullptr;

// next_ids(n) -> array('q') of n ids, filled in place without a copy. The core answers for
// a closed generator and for n before the array is allocated.
py::object next_ids(py::handle self, int64_t n) {
  sf::Generator& gen = generator_of(self);
  const size_t count = gen.batch_size(n);
  py::object out =
      py::reinterpret_steal<py::object>(PyNumber_Multiply(g_array_template, py::int_(count).ptr()));
  if (!out) throw py::error_already_set();
  if (count == 0) return out;
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
    gen.next_ids(ids, count);
  } else {
    gen.next_ids(ids, count);
  }
  return out;
}

}  // namespace

// One field value as Python sees it: Mode and LeaseState cross as their names.
template <class T>
py::object field_value(const T& v) {
  return py::cast(v);
}
py::object field_value(sf::Mode v) { return py::str(sf::mode_name(v)); }
py::object field_value(sf::LeaseState v) { return py::str(sf::lease_state_name(v)); }

// The records' values in the core's field order, by expanding its field lists.
#define SNOWFLEET_PY_VALUE(name, camel, kind, init, doc) values.append(field_value(record.name));

py::tuple stats_values(const sf::Stats& record) {
  py::list values;
  SNOWFLEET_STATS_FIELDS(SNOWFLEET_PY_VALUE)
  return py::tuple(values);
}

py::tuple status_values(const sf::Status& record) {
  py::list values;
  SNOWFLEET_STATUS_FIELDS(SNOWFLEET_PY_VALUE)
  return py::tuple(values);
}
#undef SNOWFLEET_PY_VALUE

namespace {

// ---- installing members -------------------------------------------------------------------

template <class F, class... Extra>
void method(py::handle type, const char* name, F&& f, const Extra&... extra) {
  type.attr(name) =
      py::cpp_function(std::forward<F>(f), py::name(name), py::is_method(type), extra...);
}

template <class F>
void property(py::handle type, const char* name, F&& f, const char* doc) {
  type.attr(name) =
      py::module_::import("builtins")
          .attr("property")(py::cpp_function(std::forward<F>(f)), py::none(), py::none(), doc);
}

}  // namespace

void add_generator_type(py::module_& m) {
  g_array_template =
      py::module_::import("array").attr("array")("q", py::make_tuple(0)).release().ptr();

  static PyType_Slot slots[] = {
      {Py_tp_dealloc, reinterpret_cast<void*>(&dealloc)},
      {Py_tp_new, reinterpret_cast<void*>(&PyType_GenericNew)},
      {Py_tp_methods, g_methods},
      {Py_tp_doc, const_cast<char*>("The core generator (see snowfleet.Generator).")},
      {0, nullptr}};
  static PyType_Spec spec = {"snowfleet._snowfleet.Generator", sizeof(GeneratorObject), 0,
                             Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE, slots};
  py::object type = py::reinterpret_steal<py::object>(PyType_FromSpec(&spec));
  if (!type) throw py::error_already_set();
  g_type = reinterpret_cast<PyTypeObject*>(type.inc_ref().ptr());  // kept for the process

  // Named "Generator", not "__init__": pybind11 treats a function named __init__ as a
  // constructor of one of its own classes.
  type.attr("__init__") = py::cpp_function(
#define SNOWFLEET_PY_KWARG(name, camel, kind, doc) py::arg(#name),
      &init, py::name("Generator"), py::is_method(type),
      SNOWFLEET_GENERATOR_ARGS(SNOWFLEET_PY_KWARG)
#undef SNOWFLEET_PY_KWARG
      "Every argument may be None (not given); the core applies the rules and defaults.");
  method(type, "_next_ids", &next_ids, py::arg("n"));
  method(
      type, "_stats", [](py::handle self) { return stats_values(generator_of(self).stats()); },
      "The Stats values in the core's field order (stats_fields()).");
  method(
      type, "_status", [](py::handle self) { return status_values(generator_of(self).status()); },
      "The Status values in the core's field order (status_fields()).");
  method(
      type, "close", [](py::handle self) { generator_of(self).close(); },
      "Stops the generator (and releases a leased node id); later calls raise "
      "GeneratorClosed. Idempotent.");
  property(
      type, "drift_ms", [](py::handle self) { return generator_of(self).drift_ms(); },
      "max(0, last issued ms - wall clock now); reads the clock once.");
  property(
      type, "closed", [](py::handle self) { return generator_of(self).closed(); },
      "True once close() was called.");
  property(
      type, "_layout", [](py::handle self) { return generator_of(self).layout(); },
      "The core layout.");
  property(
      type, "node_id", [](py::handle self) { return generator_of(self).node_id(); },
      "The node id in every id.");
  property(
      type, "mode", [](py::handle self) { return sf::mode_name(generator_of(self).mode()); },
      "'strict' or 'monotonic'.");
  property(
      type, "max_wait_ms", [](py::handle self) { return generator_of(self).max_wait_ms(); },
      "Rewinds up to this many ms are waited out, larger ones refused.");
  property(
      type, "max_drift_ms", [](py::handle self) { return generator_of(self).max_drift_ms(); },
      "Monotonic mode: how far ahead of the wall clock it may run.");
  m.attr("Generator") = type;
}

}  // namespace snowfleet_python
