package seen

// The C calls that the Bloom, counting and scalable filters (and, for their bytes, windows)
// have alike, written once: the preamble dispatches on the kind to that kind's seen.h function,
// and each Go function finds the kind from its handle's type (kindOf), by capi.go's rules.

/*
#include <seen/seen.h>

enum { KIND_BLOOM, KIND_COUNTING, KIND_SCALABLE, KIND_WINDOW };

// The cases of a switch on a filter kind, each doing WITH(its seen.h prefix).
#define EACH_FILTER(WITH)                    \
  case KIND_BLOOM: WITH(seen_bloom)          \
  case KIND_COUNTING: WITH(seen_counting)    \
  case KIND_SCALABLE: WITH(seen_scalable)

// In a function with parameters kind and fallback: returns seen_<kind>_<call>(...) of the
// filter kind, or fallback for another kind (which Go never passes).
#define BY_FILTER_KIND(call, ...)                                  \
  switch (kind) {                                                 \
    case KIND_BLOOM: return seen_bloom_##call(__VA_ARGS__);       \
    case KIND_COUNTING: return seen_counting_##call(__VA_ARGS__); \
    case KIND_SCALABLE: return seen_scalable_##call(__VA_ARGS__); \
  }                                                               \
  return fallback

// The handle that a seen_<name>_* maker (the expression made_by, writing to made) puts in *out.
#define MADE(name, made_by)   \
  {                           \
    name* made = NULL;        \
    seen_status s = made_by;  \
    *out = made;              \
    return s;                 \
  }

static seen_status kind_serialize(int kind, void* h, uint8_t* buf, size_t cap, size_t* written) {
  seen_status fallback = SEEN_ERR_INTERNAL;
  if (kind == KIND_WINDOW) return seen_window_serialize(h, buf, cap, written);
  BY_FILTER_KIND(serialize, h, buf, cap, written);
}

// key NULL: the unkeyed form.
#define DESERIALIZED(name)                                                             \
  MADE(name, key == NULL ? name##_deserialize(buf, len, &made, err)                    \
                         : name##_deserialize_keyed(buf, len, key, key_len, &made, err))

static seen_status kind_deserialize(int kind, const uint8_t* buf, size_t len, const uint8_t* key,
                                    size_t key_len, void** out, seen_error* err) {
  switch (kind) {
    EACH_FILTER(DESERIALIZED)
    case KIND_WINDOW: DESERIALIZED(seen_window)
  }
  return SEEN_ERR_INTERNAL;
}

// The keyed open without a key (NULL) is the plain open.
#define OPENED(name) MADE(name, name##_open_keyed(path, flags, key, key_len, &made, err))

static seen_status kind_open(int kind, const char* path, uint32_t flags, const uint8_t* key,
                             size_t key_len, void** out, seen_error* err) {
  switch (kind) { EACH_FILTER(OPENED) }
  return SEEN_ERR_INTERNAL;
}

static seen_status kind_save(int kind, void* h, const char* path) {
  seen_status fallback = SEEN_ERR_INTERNAL;
  BY_FILTER_KIND(save, h, path);
}

static int kind_contains_one_u64(int kind, void* h, uint64_t id) {
  int fallback = -1;
  BY_FILTER_KIND(contains_one_u64, h, id);
}

static int kind_contains_one_key(int kind, void* h, void* key, size_t len) {
  int fallback = -1;
  BY_FILTER_KIND(contains_one_key, h, key, len);
}

static seen_status kind_add_u64(int kind, void* h, uint64_t* ids, size_t n) {
  seen_status fallback = SEEN_ERR_INTERNAL;
  BY_FILTER_KIND(add_u64, h, ids, n);
}

static seen_status kind_contains_u64(int kind, void* h, uint64_t* ids, size_t n, void* out) {
  seen_status fallback = SEEN_ERR_INTERNAL;
  BY_FILTER_KIND(contains_u64, h, ids, n, out);
}

static seen_status kind_add_keys(int kind, void* h, void* data, uint64_t* offsets, size_t n) {
  seen_status fallback = SEEN_ERR_INTERNAL;
  BY_FILTER_KIND(add_keys, h, data, offsets, n);
}

static seen_status kind_contains_keys(int kind, void* h, void* data, uint64_t* offsets, size_t n,
                                      void* out) {
  seen_status fallback = SEEN_ERR_INTERNAL;
  BY_FILTER_KIND(contains_keys, h, data, offsets, n, out);
}
*/
import "C"

import "unsafe"

// kindHandle is the handle of a kind the preamble dispatches.
type kindHandle interface {
	*cFilter | *cCounting | *cScalable | *cWindow
}

// kindOf is the preamble's code for the kind of c (which may be nil: only its type counts).
func kindOf[P kindHandle](c P) C.int {
	switch any(c).(type) {
	case *cFilter:
		return C.KIND_BLOOM
	case *cCounting:
		return C.KIND_COUNTING
	case *cScalable:
		return C.KIND_SCALABLE
	}
	return C.KIND_WINDOW
}

// cOpenAs opens a filter's file; a nil key is no key. Writable, a Bloom or counting filter
// maps the file and writes to it in place, a scalable filter reads a private copy (it grows).
func cOpenAs[P kindHandle](path string, readOnly bool, key []byte) (c P, err error) {
	kind, writable := kindOf(c), writeInPlace
	if kind == C.KIND_SCALABLE {
		writable = privateCopy
	}
	var out unsafe.Pointer
	err = madeAt(path, func(p *C.char, e *C.seen_error) C.seen_status {
		return C.kind_open(kind, p, openFlags(readOnly, writable), cKey(key), C.size_t(len(key)), &out, e)
	})
	return P(out), err
}

// cDeserializeAs is a writable copy of serialized bytes; a nil key is no key.
func cDeserializeAs[P kindHandle](b, key []byte) (c P, err error) {
	var out unsafe.Pointer
	err = made(func(e *C.seen_error) C.seen_status {
		return C.kind_deserialize(kindOf(c), cBytes(b), C.size_t(len(b)), cKey(key), C.size_t(len(key)), &out, e)
	})
	return P(out), err
}

func cMarshalOf[P kindHandle](c P) ([]byte, error) {
	return serialized(func(buf *C.uint8_t, n C.size_t, written *C.size_t) error {
		return checkOn(c, C.kind_serialize(kindOf(c), unsafe.Pointer(c), buf, n, written))
	})
}

func cSaveOf[P kindHandle](c P, path string) error {
	return withPath(path, func(p *C.char) error { return checkOn(c, C.kind_save(kindOf(c), unsafe.Pointer(c), p)) })
}

// The single-key tests return -1 only for a NULL filter or key, which the callers rule out.
func cTestU64Of[P kindHandle](c P, id uint64) bool {
	return C.kind_contains_one_u64(kindOf(c), unsafe.Pointer(c), C.uint64_t(id)) == 1
}

func cTestKeyOf[P kindHandle](c P, key unsafe.Pointer, n int) bool {
	return C.kind_contains_one_key(kindOf(c), unsafe.Pointer(c), key, C.size_t(n)) == 1
}

func cAddU64sOf[P kindHandle](c P, ids []uint64) error {
	return checkOn(c, C.kind_add_u64(kindOf(c), unsafe.Pointer(c), (*C.uint64_t)(u64Ptr(ids)), C.size_t(len(ids))))
}

// cContainsU64sOf writes len(ids) answers to out, whose length the caller has checked.
func cContainsU64sOf[P kindHandle](c P, ids []uint64, out unsafe.Pointer) error {
	return checkOn(c, C.kind_contains_u64(kindOf(c), unsafe.Pointer(c), (*C.uint64_t)(u64Ptr(ids)), C.size_t(len(ids)), out))
}

// The key batches take at least one key, with offsets already checked against data (see
// Keys.validate).
func cAddKeysOf[P kindHandle](c P, data []byte, offsets []uint64) error {
	return checkOn(c, C.kind_add_keys(kindOf(c), unsafe.Pointer(c), keyData(data), (*C.uint64_t)(u64Ptr(offsets)),
		C.size_t(len(offsets)-1)))
}

func cContainsKeysOf[P kindHandle](c P, data []byte, offsets []uint64, out unsafe.Pointer) error {
	return checkOn(c, C.kind_contains_keys(kindOf(c), unsafe.Pointer(c), keyData(data), (*C.uint64_t)(u64Ptr(offsets)),
		C.size_t(len(offsets)-1), out))
}
