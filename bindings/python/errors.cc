// The error mapping (see errors.hpp).
#include "errors.hpp"

#include <string>
#include <string_view>
#include <vector>

namespace py = pybind11;
namespace sf = snowfleet;

namespace snowfleet_python {
namespace {

// Python class per ErrorKind (index = enumerator value), set once by snowfleet/_errors.py.
// Leaked on purpose: it must outlive every translator call, including at interpreter exit.
std::vector<PyObject*>& error_classes() {
  static auto* classes = new std::vector<PyObject*>();
  return *classes;
}

// "drift_ms", interned by register_error_classes (leaked, like the classes).
PyObject* g_drift_ms_name = nullptr;

PyTypeObject* base_exception_type() { return reinterpret_cast<PyTypeObject*>(PyExc_BaseException); }

}  // namespace

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
  // No Python code may run here: this runs under C++ frames, possibly on a daemon thread at
  // interpreter exit, and bytecode may give up the GIL; re-taking it once finalization has
  // started ends the thread with pthread_exit, whose forced unwind through these frames
  // crashes the zig-built wheels (two unwinders, docs/dist.md). So the instance is built
  // from C slots, the way ClockMovedBackwards.__init__ (Python, for users) would build it:
  // the class's tp_new (BaseException's: register_error_classes checks), BaseException's
  // tp_init for args = (message,), and drift_ms in the instance dict (pickling keeps it).
  auto* type = reinterpret_cast<PyTypeObject*>(cls);
  py::object args = py::reinterpret_steal<py::object>(PyTuple_Pack(1, message.ptr()));
  if (!args) return;
  py::object exc = py::reinterpret_steal<py::object>(type->tp_new(type, args.ptr(), nullptr));
  if (!exc) return;  // constructing the exception failed: that error propagates
  if (base_exception_type()->tp_init(exc.ptr(), args.ptr(), nullptr) != 0) return;
  if (e.kind() == sf::ErrorKind::kClockMovedBackwards) {
    py::object drift = py::reinterpret_steal<py::object>(PyLong_FromLongLong(e.drift_ms()));
    if (!drift || PyObject_GenericSetAttr(exc.ptr(), g_drift_ms_name, drift.ptr()) != 0) return;
  }
  PyErr_SetObject(cls, exc.ptr());
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
    // set_python_error builds instances with it, and a __new__ written in Python runs bytecode.
    if (reinterpret_cast<PyTypeObject*>(cls.ptr())->tp_new != base_exception_type()->tp_new)
      throw py::type_error(std::string("class for ") + info.code +
                           " must not override __new__ (instances are built with BaseException's)");
    classes.push_back(cls.release().ptr());  // kept alive for the process's life
  }
  if (g_drift_ms_name == nullptr) g_drift_ms_name = py::str("drift_ms").release().ptr();
  for (PyObject* old : error_classes()) Py_DECREF(old);
  error_classes() = std::move(classes);
}

}  // namespace snowfleet_python
