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

}  // namespace snowfleet_python
