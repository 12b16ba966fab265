/* What _probe.c and _minhash_query.c share as C base types of Python classes under the limited
 * API: their types are made from specs, so they are heap types, which every instance holds a
 * reference to. The base's dealloc gives it back, as a heap type's Python subclasses expect
 * (their own dealloc leaves that to the heap base). */
#ifndef SEEN_PY_HEAP_TYPE_H
#define SEEN_PY_HEAP_TYPE_H

#include <Python.h>

static void heap_type_dealloc(PyObject* self) {
  PyTypeObject* type = Py_TYPE(self);
  freefunc free_self = (freefunc)PyType_GetSlot(type, Py_tp_free);
  free_self(self);
  Py_DECREF(type);
}

#endif
