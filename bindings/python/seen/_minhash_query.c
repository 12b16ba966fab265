/* seen._minhash_query.TextQuery: the C base of MinHashIndex that answers query(text).
 *
 * Through cffi a query from Python paid about 1 us beside the library's 3-4: the str encoded
 * into new bytes, cffi's conversion of seven arguments, and the matches unpacked into lists
 * and zipped (bench/results/minhash.md). Here a str's UTF-8 form is read where CPython keeps
 * it (an ASCII str's own bytes) and the (id, similarity) tuples are made in C. The GIL is
 * released around the library call, as cffi releases it, so that queries in several threads
 * still run at once.
 *
 * A str without a UTF-8 form (lone surrogates), any other kind of text, a closed index and a
 * failed call answer None: MinHashIndex.query then takes its general path, which encodes with
 * surrogatepass and raises the library's error.
 *
 * Only the limited API of Python 3.10, as _probe.c says why. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "_heap_type.h"
#include "seen.h"

/* Room for this many matches before a query asks the library how many there are. */
#define ROOM 64

typedef struct {
  PyObject_HEAD
  const seen_minhash_index* index; /* NULL when not bound */
} TextQuery;

/* The text's bytes, or NULL (no error set) for a text the general path takes. */
static const char* text_bytes(PyObject* text, Py_ssize_t* len) {
  if (PyBytes_CheckExact(text)) {
    char* bytes = NULL;
    if (PyBytes_AsStringAndSize(text, &bytes, len) < 0) PyErr_Clear(); /* not for exact bytes */
    return bytes;
  }
  if (!PyUnicode_CheckExact(text)) return NULL;
  const char* utf8 = PyUnicode_AsUTF8AndSize(text, len);
  if (utf8 == NULL) PyErr_Clear(); /* lone surrogates: the general path keeps them */
  return utf8;
}

static PyObject* matches_list(const uint64_t* ids, const double* similarities, size_t found) {
  PyObject* list = PyList_New((Py_ssize_t)found);
  for (size_t i = 0; list != NULL && i < found; ++i) {
    PyObject* match = Py_BuildValue("(Kd)", (unsigned long long)ids[i], similarities[i]);
    if (match == NULL || PyList_SetItem(list, (Py_ssize_t)i, match) < 0) Py_CLEAR(list);
  }
  return list;
}

/* _query_text(text): [(id, similarity), ...], or None for the general path. */
static PyObject* query_text(PyObject* self, PyObject* text) {
  const seen_minhash_index* index = ((TextQuery*)self)->index;
  Py_ssize_t len = 0;
  const char* data = index == NULL ? NULL : text_bytes(text, &len);
  if (data == NULL) Py_RETURN_NONE;
  uint64_t ids_room[ROOM];
  double similarities_room[ROOM];
  uint64_t* ids = ids_room;
  double* similarities = similarities_room;
  size_t cap = ROOM, found = 0;
  seen_status status;
  for (;;) {
    Py_BEGIN_ALLOW_THREADS
    status = seen_minhash_index_query_text(index, data, (size_t)len, ids, similarities, cap, &found);
    Py_END_ALLOW_THREADS
    if (status != SEEN_ERR_BUFFER_TOO_SMALL) break;
    /* More matches than room: room for all of them, and ask again. */
    if (ids != ids_room) PyMem_Free(ids), PyMem_Free(similarities);
    cap = found;
    ids = PyMem_Malloc(cap * sizeof *ids);
    similarities = PyMem_Malloc(cap * sizeof *similarities);
    if (ids == NULL || similarities == NULL) {
      PyMem_Free(ids), PyMem_Free(similarities);
      return PyErr_NoMemory();
    }
  }
  PyObject* answer = status == SEEN_OK ? matches_list(ids, similarities, found) : Py_NewRef(Py_None);
  if (ids != ids_room) PyMem_Free(ids), PyMem_Free(similarities);
  return answer;
}

/* _bind_query(address): the seen_minhash_index* (as an int) that _query_text asks; 0 unbinds. */
static PyObject* bind_query(PyObject* self, PyObject* address) {
  void* index = PyLong_AsVoidPtr(address);
  if (index == NULL && PyErr_Occurred()) return NULL;
  ((TextQuery*)self)->index = index;
  Py_RETURN_NONE;
}

static PyMethodDef methods[] = {
    {"_bind_query", bind_query, METH_O, "_bind_query(address): the seen_minhash_index* queried; 0 unbinds"},
    {"_query_text", query_text, METH_O, "_query_text(text): the matches, or None for the general path"},
    {NULL, NULL, 0, NULL},
};

PyMODINIT_FUNC PyInit__minhash_query(void) {
  return module_of_type("seen._minhash_query", "seen._minhash_query.TextQuery", "TextQuery",
                        sizeof(TextQuery), methods,
                        "The C base of MinHashIndex that answers query(text).", NULL);
}
