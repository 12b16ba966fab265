/* seen._probe.SingleKeyProbe: the C base of BloomFilter and CountingFilter that answers
 * `key in filter`, and BloomFilter's `add(key)`.
 *
 * A Python __contains__ calling the filter through cffi cost 2.2x rbloom's lookup: the
 * method's frame, cffi's generic argument conversion, and the GIL released and retaken around
 * a probe of a few nanoseconds, whose atomic instructions also keep the next lookup's memory
 * read from starting early (bench/results/python.md). As a C type's sq_contains slot, `in`
 * reaches the probe with none of these. The probe keeps the GIL: it is shorter than the
 * handover, and other threads' adds release it and may run beside it, as libseen allows.
 *
 * Keys of type int, str and bytes are probed here; any other key, and any key of a filter
 * not bound (closed), goes to the subclass's _contains_other(key), the general path.
 *
 * `add` is here for the same reasons: through cffi it cost 4x rbloom's add, the most of it in
 * the call and in the per-thread slot that received was_present, which this returns directly.
 * The add keeps the GIL too. Its stripe lock may wait for a batch add in another thread, which
 * runs in C without the GIL, so the wait is short and cannot deadlock. A failed add (a
 * read-only filter) raises through the subclass's _raise_status(status), with the handle's
 * message; other keys and an unbound filter go to _add_other(key), the general path. Keyed
 * filters are served too: the library hashes as the handle says. Counting filters define
 * their own add.
 *
 * Only the limited API of Python 3.10 (meson.build's limited_api), so that one abi3 wheel serves
 * every later Python: the type is made from a spec, and bytes are read through functions. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "_heap_type.h"
#include "seen.h"

/* One kind's single-key calls, over its handle; put_* is NULL for a kind whose add is not
 * answered here. */
typedef struct {
  int (*test_u64)(const void* filter, uint64_t id);
  int (*test_key)(const void* filter, const void* key, size_t len);
  seen_status (*put_u64)(void* filter, uint64_t id, uint8_t* was_present);
  seen_status (*put_key)(void* filter, const void* key, size_t len, uint8_t* was_present);
} KindTests;

static int bloom_u64(const void* f, uint64_t id) { return seen_bloom_contains_one_u64(f, id); }
static int bloom_key(const void* f, const void* key, size_t len) { return seen_bloom_contains_one_key(f, key, len); }
static int counting_u64(const void* f, uint64_t id) { return seen_counting_contains_one_u64(f, id); }
static int counting_key(const void* f, const void* key, size_t len) {
  return seen_counting_contains_one_key(f, key, len);
}

static seen_status bloom_put_u64(void* f, uint64_t id, uint8_t* was_present) {
  return seen_bloom_add_one_u64(f, id, was_present);
}
static seen_status bloom_put_key(void* f, const void* key, size_t len, uint8_t* was_present) {
  return seen_bloom_add_one_key(f, key, len, was_present);
}

static const KindTests bloom_tests = {bloom_u64, bloom_key, bloom_put_u64, bloom_put_key};
static const KindTests counting_tests = {counting_u64, counting_key, NULL, NULL};

typedef struct {
  PyObject_HEAD
  const void* filter; /* NULL when not bound */
  const KindTests* tests;
} SingleKeyProbe;

static int contains(PyObject* self, PyObject* key) {
  const void* filter = ((SingleKeyProbe*)self)->filter;
  const KindTests* tests = ((SingleKeyProbe*)self)->tests;
  int found = -1;
  if (filter != NULL && PyLong_CheckExact(key)) {
    const unsigned long long id = PyLong_AsUnsignedLongLong(key);
    if (id == (unsigned long long)-1 && PyErr_Occurred()) return -1; /* OverflowError */
    found = tests->test_u64(filter, id);
  } else if (filter != NULL && PyUnicode_CheckExact(key)) {
    Py_ssize_t len;
    const char* utf8 = PyUnicode_AsUTF8AndSize(key, &len); /* cached in the str */
    if (utf8 == NULL) return -1;
    found = tests->test_key(filter, utf8, (size_t)len);
  } else if (filter != NULL && PyBytes_CheckExact(key)) {
    char* bytes;
    Py_ssize_t len;
    if (PyBytes_AsStringAndSize(key, &bytes, &len) < 0) return -1;
    found = tests->test_key(filter, bytes, (size_t)len);
  }
  if (found >= 0) return found;
  PyObject* answer = PyObject_CallMethod(self, "_contains_other", "O", key);
  if (answer == NULL) return -1;
  found = PyObject_IsTrue(answer);
  Py_DECREF(answer);
  return found;
}

/* _add_one(key), which BloomFilter binds as its add: True if the key looked present already
 * (test-and-add), False if certainly new. */
static PyObject* add_one(PyObject* self, PyObject* key) {
  void* filter = (void*)((SingleKeyProbe*)self)->filter;
  const KindTests* tests = ((SingleKeyProbe*)self)->tests;
  uint8_t was_present = 0;
  seen_status status;
  if (filter == NULL || tests->put_u64 == NULL) {
    return PyObject_CallMethod(self, "_add_other", "O", key);
  } else if (PyLong_CheckExact(key)) {
    const unsigned long long id = PyLong_AsUnsignedLongLong(key);
    if (id == (unsigned long long)-1 && PyErr_Occurred()) {
      /* Outside u64: cffi raises the OverflowError, worded as for every other call. */
      PyErr_Clear();
      return PyObject_CallMethod(self, "_add_other", "O", key);
    }
    status = tests->put_u64(filter, id, &was_present);
  } else if (PyUnicode_CheckExact(key)) {
    Py_ssize_t len;
    const char* utf8 = PyUnicode_AsUTF8AndSize(key, &len);
    if (utf8 == NULL) return NULL;
    status = tests->put_key(filter, utf8, (size_t)len, &was_present);
  } else if (PyBytes_CheckExact(key)) {
    char* bytes;
    Py_ssize_t len;
    if (PyBytes_AsStringAndSize(key, &bytes, &len) < 0) return NULL;
    status = tests->put_key(filter, bytes, (size_t)len, &was_present);
  } else {
    return PyObject_CallMethod(self, "_add_other", "O", key);
  }
  if (status != SEEN_OK) return PyObject_CallMethod(self, "_raise_status", "i", (int)status);
  return PyBool_FromLong(was_present);
}

/* _bind_probe(address, counting=False): the seen_bloom* (or, if counting, the
 * seen_counting*), as an int, that `in` probes; 0 unbinds. */
static PyObject* bind_probe(PyObject* self, PyObject* args) {
  PyObject* address;
  int counting = 0;
  if (!PyArg_ParseTuple(args, "O|p", &address, &counting)) return NULL;
  void* filter = PyLong_AsVoidPtr(address);
  if (filter == NULL && PyErr_Occurred()) return NULL;
  ((SingleKeyProbe*)self)->filter = filter;
  ((SingleKeyProbe*)self)->tests = counting ? &counting_tests : &bloom_tests;
  Py_RETURN_NONE;
}

static PyMethodDef methods[] = {
    {"_add_one", add_one, METH_O,
     "add(key): adds one key; returns True if it looked present already (test-and-add, as\n"
     "pybloom-live's add does): False means certainly new."},
    {"_bind_probe", bind_probe, METH_VARARGS,
     "_bind_probe(address, counting=False): the seen_bloom* (seen_counting*) `in` probes; 0 unbinds"},
    {NULL, NULL, 0, NULL},
};

PyMODINIT_FUNC PyInit__probe(void) {
  return module_of_type("seen._probe", "seen._probe.SingleKeyProbe", "SingleKeyProbe",
                        sizeof(SingleKeyProbe), methods,
                        "The C base of BloomFilter and CountingFilter: `key in filter`, and "
                        "BloomFilter.add (_add_one).",
                        contains);
}
