/* What _probe.c and _minhash_query.c share as C base types of Python classes under the limited
 * API: their types are made from specs, so they are heap types, which every instance holds a
 * reference to. The base's dealloc gives it back, as a heap type's Python subclasses expect
 * (their own dealloc leaves that to the heap base). Each module holds its one type. */
#ifndef SEEN_PY_HEAP_TYPE_H
#define SEEN_PY_HEAP_TYPE_H

#include <Python.h>

static void heap_type_dealloc(PyObject* self) {
  PyTypeObject* type = Py_TYPE(self);
  freefunc free_self = (freefunc)PyType_GetSlot(type, Py_tp_free);
  free_self(self);
  Py_DECREF(type);
}

/* The PyInit_ of a module (module, e.g. "seen._probe") whose one attribute is the base type
 * qualified ("seen._probe.SingleKeyProbe", kept as the type's name) under name: subclassable,
 * its instances basicsize bytes, with methods, doc, generic new, heap_type_dealloc and, unless
 * it is NULL, contains as `in`. */
static PyObject* module_of_type(const char* module, const char* qualified, const char* name,
                                int basicsize, PyMethodDef* methods, const char* doc,
                                objobjproc contains) {
  static PyModuleDef def = {PyModuleDef_HEAD_INIT, NULL, NULL, 0, NULL, NULL, NULL, NULL, NULL};
  def.m_name = module;
  PyType_Slot slots[] = {
      {Py_tp_methods, methods},
      {Py_tp_doc, (void*)doc},
      {Py_tp_new, (void*)PyType_GenericNew},
      {Py_tp_dealloc, (void*)heap_type_dealloc},
      {contains == NULL ? 0 : Py_sq_contains, (void*)contains}, /* slot 0 ends the list */
      {0, NULL},
  };
  PyType_Spec spec = {qualified, basicsize, 0, Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE, slots};
  PyObject* m = PyModule_Create(&def);
  if (m == NULL) return NULL;
  PyObject* type = PyType_FromSpec(&spec);
  if (type == NULL || PyModule_AddObject(m, name, type) < 0) {
    Py_XDECREF(type);
    Py_DECREF(m);
    return NULL;
  }
  return m;
}

#endif
