// snowfleet._snowfleet.Uuid7Generator: the core's UUIDv7 generator as a CPython type of our
// own, built like Generator (generator_type.cc): the three hot methods are METH_NOARGS
// entries of the type's method table, everything else goes through pybind11.
//
// uuid.UUID is made without running UUID.__init__ (which parses its arguments in Python
// and costs more than the UUID): allocated by its type's tp_alloc, as object.__new__(UUID)
// does, then its two slots `int` and `is_safe` filled, exactly the state UUID(int=...)
// leaves. The slots are written at the offsets their member descriptors publish (what
// object.__setattr__ would do after looking each descriptor up by name, a third of the
// UUID's cost); a uuid.UUID whose `int` and `is_safe` are not plain object slots gets
// object.__setattr__ instead.
#include "uuid7_type.hpp"

#include <pybind11/stl.h>
#include <structmember.h>
#if PY_VERSION_HEX < 0x030B0000
#include <longintrepr.h>
#endif

#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "errors.hpp"
#include "generator_type.hpp"
#include "gil.hpp"
#include "snowfleet/snowfleet.hpp"

namespace py = pybind11;
namespace sf = snowfleet;

namespace snowfleet_python {
namespace {

struct Uuid7Object {
  PyObject ob_base;  // PyObject_HEAD
  sf::Uuid7Generator* gen;
};

PyTypeObject* g_type = nullptr;
PyTypeObject* g_uuid_type = nullptr;  // uuid.UUID
PyObject* g_int_name = nullptr;       // "int"
PyObject* g_is_safe_name = nullptr;   // "is_safe"
PyObject* g_safe_unknown = nullptr;   // uuid.SafeUUID.unknown, as UUID(int=...) sets
PyObject* g_empty_tuple = nullptr;
Py_ssize_t g_int_offset = -1;      // of UUID's `int` slot in the object; -1: not a plain slot
Py_ssize_t g_is_safe_offset = -1;  // of its `is_safe` slot

sf::Uuid7Generator& generator_of(py::handle self) {
  if (!PyObject_TypeCheck(self.ptr(), g_type))
    throw py::type_error("expected a snowfleet Uuid7Generator, got " +
                         std::string(Py_TYPE(self.ptr())->tp_name));
  sf::Uuid7Generator* gen = reinterpret_cast<Uuid7Object*>(self.ptr())->gen;
  if (gen == nullptr) throw py::type_error("Uuid7Generator.__init__() was not called");
  return *gen;
}

PyObject* int_of(const sf::Uuid& u) {
#if PY_VERSION_HEX < 0x030C0000 && PyLong_SHIFT == 30
  // The int's 30-bit digits written directly (the layout of CPython up to 3.11), exactly as
  // many as the value needs, so it is normalized as built: a quarter of the call's cost
  // went to the generic byte-array conversion.
  const uint64_t d0 = u.lo & 0x3FFFFFFF, d1 = (u.lo >> 30) & 0x3FFFFFFF,
                 d2 = (u.lo >> 60) | ((u.hi & 0x3FFFFFF) << 4), d3 = (u.hi >> 26) & 0x3FFFFFFF,
                 d4 = u.hi >> 56;
  const uint64_t digits[5] = {d0, d1, d2, d3, d4};
  Py_ssize_t n = 5;
  while (n > 0 && digits[n - 1] == 0) --n;
  PyLongObject* v = _PyLong_New(n);
  if (v == nullptr) return nullptr;
  for (Py_ssize_t i = 0; i < n; ++i) v->ob_digit[i] = static_cast<digit>(digits[i]);
  return reinterpret_cast<PyObject*>(v);
#else
  const std::array<uint8_t, 16> b = u.bytes();
#if PY_VERSION_HEX >= 0x030D0000
  return PyLong_FromUnsignedNativeBytes(b.data(), 16, Py_ASNATIVEBYTES_BIG_ENDIAN);
#else
  return _PyLong_FromByteArray(b.data(), 16, /*little_endian=*/0, /*is_signed=*/0);
#endif
#endif
}

// The offset of a writable object slot named `name` of uuid.UUID, or -1.
Py_ssize_t slot_offset(PyObject* name) {
  PyObject* descr = PyDict_GetItemWithError(g_uuid_type->tp_dict, name);  // borrowed
  if (descr == nullptr || Py_TYPE(descr) != &PyMemberDescr_Type) return -1;
  const PyMemberDef* member = reinterpret_cast<PyMemberDescrObject*>(descr)->d_member;
  if (member->type != T_OBJECT_EX || (member->flags & READONLY) != 0) return -1;
  return member->offset;
}

// A UUID by its slots: the new object's slots are NULL (tp_alloc zeroes it), each takes a
// reference.
PyObject* uuid_by_slots(PyObject* value) {
  PyObject* obj = g_uuid_type->tp_alloc(g_uuid_type, 0);
  if (obj == nullptr) {
    Py_DECREF(value);
    return nullptr;
  }
  char* base = reinterpret_cast<char*>(obj);
  *reinterpret_cast<PyObject**>(base + g_int_offset) = value;
  Py_INCREF(g_safe_unknown);
  *reinterpret_cast<PyObject**>(base + g_is_safe_offset) = g_safe_unknown;
  return obj;
}

PyObject* uuid_object(const sf::Uuid& u) {
  PyObject* value = int_of(u);
  if (value == nullptr) return nullptr;
  if (g_int_offset >= 0 && g_is_safe_offset >= 0) return uuid_by_slots(value);
  PyObject* obj = PyBaseObject_Type.tp_new(g_uuid_type, g_empty_tuple, nullptr);
  if (obj == nullptr || PyObject_GenericSetAttr(obj, g_int_name, value) != 0 ||
      PyObject_GenericSetAttr(obj, g_is_safe_name, g_safe_unknown) != 0) {
    Py_XDECREF(obj);
    obj = nullptr;
  }
  Py_DECREF(value);
  return obj;
}

PyObject* str_object(const sf::Uuid& u) {
  PyObject* s = PyUnicode_New(36, 127);
  if (s != nullptr) sf::format_uuid(u, reinterpret_cast<char*>(PyUnicode_1BYTE_DATA(s)));
  return s;
}

PyObject* bytes_object(const sf::Uuid& u) {
  const std::array<uint8_t, 16> b = u.bytes();
  return PyBytes_FromStringAndSize(reinterpret_cast<const char*>(b.data()), 16);
}

// One UUID in one of the three forms, with the core's errors as Python exceptions.
template <PyObject* (*Form)(const sf::Uuid&)>
PyObject* next_fast(PyObject* self, PyObject*) {
  sf::Uuid7Generator* gen = reinterpret_cast<Uuid7Object*>(self)->gen;
  if (gen == nullptr) {
    PyErr_SetString(PyExc_TypeError, "Uuid7Generator.__init__() was not called");
    return nullptr;
  }
  return guarded([gen] { return Form(gen->next()); }, "a UUIDv7 method");
}

PyMethodDef g_methods[] = {
    {"next_uuid7", next_fast<uuid_object>, METH_NOARGS,
     "next_uuid7($self, /)\n--\n\nThe next UUIDv7 as a uuid.UUID."},
    {"next_uuid7_str", next_fast<str_object>, METH_NOARGS,
     "next_uuid7_str($self, /)\n--\n\nThe next UUIDv7 as its canonical 36-character text."},
    {"next_uuid7_bytes", next_fast<bytes_object>, METH_NOARGS,
     "next_uuid7_bytes($self, /)\n--\n\nThe next UUIDv7 as 16 bytes (network order)."},
    {nullptr, nullptr, 0, nullptr}};

void dealloc(PyObject* self) {
  PyTypeObject* type = Py_TYPE(self);
  auto* obj = reinterpret_cast<Uuid7Object*>(self);
  delete std::exchange(obj->gen, nullptr);
  type->tp_free(self);
  Py_DECREF(type);
}

void init(py::handle self, std::optional<std::string> mode, std::optional<double> max_wait_ms,
          std::optional<int64_t> max_drift_ms, std::shared_ptr<sf::ScriptedClock> clock,
          std::shared_ptr<sf::ScriptedRandom> random) {
  if (!PyObject_TypeCheck(self.ptr(), g_type)) throw py::type_error("expected a Uuid7Generator");
  auto* obj = reinterpret_cast<Uuid7Object*>(self.ptr());
  if (obj->gen != nullptr) throw py::type_error("Uuid7Generator.__init__() may run only once");
  sf::Uuid7Options o;
  if (mode) o.mode = sf::parse_mode(*mode);
  if (max_wait_ms) o.max_wait_ms = *max_wait_ms;
  if (max_drift_ms) o.max_drift_ms = *max_drift_ms;
  o.clock = std::move(clock);
  o.random = std::move(random);
  o.wait_hooks = gil_wait_hooks();
  obj->gen = new sf::Uuid7Generator(std::move(o));
}

// next_uuid7s(n, form): a list of n ascending UUIDs; form 0 uuid.UUID, 1 str, 2 bytes.
py::list next_batch(py::handle self, int64_t n, int form) {
  sf::Uuid7Generator& gen = generator_of(self);
  std::vector<sf::Uuid> uuids(gen.batch_size(n));
  if (uuids.size() >= 512) {  // as Generator's batches: below it a release costs more
    GilReleased unlocked;
    gen.next(uuids.data(), uuids.size());
  } else {
    gen.next(uuids.data(), uuids.size());
  }
  PyObject* (*make)(const sf::Uuid&) = form == 0   ? uuid_object
                                       : form == 1 ? str_object
                                                   : bytes_object;
  py::list out(uuids.size());
  for (size_t i = 0; i < uuids.size(); ++i) {
    PyObject* item = make(uuids[i]);
    if (item == nullptr) throw py::error_already_set();
    PyList_SET_ITEM(out.ptr(), static_cast<Py_ssize_t>(i), item);
  }
  return out;
}

sf::Uuid uuid_arg(const py::handle& value) {
  if (PyBytes_Check(value.ptr())) {
    const std::string b = py::cast<std::string>(value);
    if (b.size() != 16)
      throw sf::Error(sf::ErrorKind::kInvalidArgument,
                      "a UUID as bytes is 16 bytes, got " + std::to_string(b.size()));
    return sf::Uuid::from_bytes(reinterpret_cast<const uint8_t*>(b.data()));
  }
  return sf::parse_uuid(py::cast<std::string>(value));
}

}  // namespace

void add_uuid7(py::module_& m) {
  py::module_ uuid = py::module_::import("uuid");
  // Kept for the process, as the Generator type is.
  g_uuid_type = reinterpret_cast<PyTypeObject*>(py::object(uuid.attr("UUID")).release().ptr());
  g_safe_unknown = py::object(uuid.attr("SafeUUID").attr("unknown")).release().ptr();
  g_int_name = PyUnicode_InternFromString("int");
  g_is_safe_name = PyUnicode_InternFromString("is_safe");
  g_empty_tuple = PyTuple_New(0);
  g_int_offset = slot_offset(g_int_name);
  g_is_safe_offset = slot_offset(g_is_safe_name);
  PyErr_Clear();  // a lookup error only means the generic path

  py::class_<sf::ScriptedRandom, std::shared_ptr<sf::ScriptedRandom>>(
      m, "ScriptedRandom", "The core's scripted random source (splitmix64 from a seed).")
      .def(py::init([](uint64_t seed) { return std::make_shared<sf::ScriptedRandom>(seed); }),
           py::arg("seed"))
      .def_property_readonly("draws", &sf::ScriptedRandom::draws, "Words handed out so far.");

  static PyType_Slot slots[] = {
      {Py_tp_dealloc, reinterpret_cast<void*>(&dealloc)},
      {Py_tp_new, reinterpret_cast<void*>(&PyType_GenericNew)},
      {Py_tp_methods, g_methods},
      {Py_tp_doc, const_cast<char*>("The core UUIDv7 generator (see snowfleet.Uuid7Generator).")},
      {0, nullptr}};
  static PyType_Spec spec = {"snowfleet._snowfleet.Uuid7Generator", sizeof(Uuid7Object), 0,
                             Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE, slots};
  py::object type = py::reinterpret_steal<py::object>(PyType_FromSpec(&spec));
  if (!type) throw py::error_already_set();
  g_type = reinterpret_cast<PyTypeObject*>(type.inc_ref().ptr());

  type.attr("__init__") = py::cpp_function(
      &init, py::name("Uuid7Generator"), py::is_method(type), py::arg("mode"),
      py::arg("max_wait_ms"), py::arg("max_drift_ms"), py::arg("clock"), py::arg("random"),
      "Every argument may be None (not given); the core applies the rules and defaults.");
  type.attr("_next_batch") = py::cpp_function(&next_batch, py::name("_next_batch"),
                                              py::is_method(type), py::arg("n"), py::arg("form"));
  type.attr("close") = py::cpp_function([](py::handle self) { generator_of(self).close(); },
                                        py::name("close"), py::is_method(type),
                                        "Stops the generator; later calls raise GeneratorClosed. "
                                        "Idempotent.");
  type.attr("_closed") =
      py::cpp_function([](py::handle self) { return generator_of(self).closed(); },
                       py::name("_closed"), py::is_method(type));
  type.attr("_mode") =
      py::cpp_function([](py::handle self) { return sf::mode_name(generator_of(self).mode()); },
                       py::name("_mode"), py::is_method(type));
  // The same records and getters as Generator's.
  type.attr("_stats") = py::cpp_function(
      [](py::handle self) { return stats_values(generator_of(self).stats()); },
      py::name("_stats"), py::is_method(type));
  type.attr("_status") = py::cpp_function(
      [](py::handle self) { return status_values(generator_of(self).status()); },
      py::name("_status"), py::is_method(type));
  type.attr("_max_wait_ms") =
      py::cpp_function([](py::handle self) { return generator_of(self).max_wait_ms(); },
                       py::name("_max_wait_ms"), py::is_method(type));
  type.attr("_max_drift_ms") =
      py::cpp_function([](py::handle self) { return generator_of(self).max_drift_ms(); },
                       py::name("_max_drift_ms"), py::is_method(type));
  m.attr("Uuid7Generator") = type;

  m.def(
      "decode_uuid7",
      [](const py::handle& value) {
        const sf::Uuid u = uuid_arg(value);
        const sf::Uuid7Fields f = sf::decode_uuid7(u);
        return py::make_tuple(f.timestamp_ms, f.counter, f.random);
      },
      py::arg("value"), "(timestamp_ms, counter, random) of a UUIDv7 given as text or 16 bytes.");
  m.def(
      "parse_uuid",
      [](const py::handle& value) {
        const std::array<uint8_t, 16> b = uuid_arg(value).bytes();
        return py::bytes(reinterpret_cast<const char*>(b.data()), 16);
      },
      py::arg("value"), "The 16 bytes of a UUID given as text (any version).");
}

}  // namespace snowfleet_python
