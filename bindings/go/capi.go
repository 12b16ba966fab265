package seen

// The only file that speaks C. Every fallible C call goes through a small wrapper defined
// below that returns its status together with a malloc'd copy of seen_last_error() taken
// in the same C call: seen_last_error() is thread-local, and a goroutine may move to another
// OS thread (or another goroutine may fail on this one) between two separate cgo calls.
//
// Where cgo finds seen.h and libseen: CGO_CFLAGS and CGO_LDFLAGS (meson test sets them to
// capi/ and the build directory), or `pkg-config --cflags --libs seen` after an install.

/*
#cgo LDFLAGS: -lseen
#include <stdlib.h>
#include <string.h>
#include <seen.h>

typedef struct {
	seen_status status;
	uint8_t present;  // was_present of the put calls
	char* message;    // malloc'd; NULL on success; the Go side frees it
} go_result;

static go_result go_result_of(seen_status s) {
	go_result r = {s, 0, NULL};
	if (s != SEEN_OK) r.message = strdup(seen_last_error());
	return r;
}

static go_result go_create(uint64_t n, double fpr, uint64_t seed, seen_bloom** out) {
	return go_result_of(seen_bloom_create(n, fpr, seed, out));
}
static go_result go_create_bytes(uint64_t n, uint64_t bytes, uint64_t seed, seen_bloom** out) {
	return go_result_of(seen_bloom_create_bytes(n, bytes, seed, out));
}
static go_result go_open(const char* path, uint32_t flags, seen_bloom** out) {
	return go_result_of(seen_bloom_open(path, flags, out));
}
static go_result go_deserialize(const uint8_t* buf, size_t len, seen_bloom** out) {
	return go_result_of(seen_bloom_deserialize(buf, len, out));
}
static go_result go_serialize(const seen_bloom* f, uint8_t* buf, size_t cap, size_t* written) {
	return go_result_of(seen_bloom_serialize(f, buf, cap, written));
}
static go_result go_save(const seen_bloom* f, const char* path) {
	return go_result_of(seen_bloom_save(f, path));
}
static go_result go_sync(seen_bloom* f) { return go_result_of(seen_bloom_sync(f)); }
static go_result go_clear(seen_bloom* f) { return go_result_of(seen_bloom_clear(f)); }
static go_result go_merge(seen_bloom* dst, const seen_bloom* src) {
	return go_result_of(seen_bloom_merge(dst, src));
}
static go_result go_params(const seen_bloom* f, seen_bloom_params* p) {
	p->size = sizeof *p;
	return go_result_of(seen_bloom_get_params(f, p));
}
static go_result go_stats(const seen_bloom* f, seen_bloom_stats* s) {
	s->size = sizeof *s;
	return go_result_of(seen_bloom_get_stats(f, s));
}
static go_result go_put_u64(seen_bloom* f, uint64_t id) {
	uint8_t present = 0;
	go_result r = go_result_of(seen_bloom_put_u64(f, id, &present));
	r.present = present;
	return r;
}
static go_result go_put_key(seen_bloom* f, const void* key, size_t len) {
	uint8_t present = 0;
	go_result r = go_result_of(seen_bloom_put_key(f, key, len, &present));
	r.present = present;
	return r;
}
static go_result go_add_u64(seen_bloom* f, const uint64_t* ids, size_t n) {
	return go_result_of(seen_bloom_add_u64(f, ids, n));
}
static go_result go_contains_u64(const seen_bloom* f, const uint64_t* ids, size_t n, uint8_t* out) {
	return go_result_of(seen_bloom_contains_u64(f, ids, n, out));
}
static go_result go_add_keys(seen_bloom* f, const uint8_t* data, const uint64_t* offsets, size_t n) {
	return go_result_of(seen_bloom_add_keys(f, data, offsets, n));
}
static go_result go_contains_keys(const seen_bloom* f, const uint8_t* data, const uint64_t* offsets,
                                  size_t n, uint8_t* out) {
	return go_result_of(seen_bloom_contains_keys(f, data, offsets, n, out));
}
*/
import "C"

import "unsafe"

type cFilter = C.seen_bloom

// check turns a wrapper's result into nil or an *Error, freeing the message copy.
func check(r C.go_result) error {
	if r.status == C.SEEN_OK {
		return nil
	}
	msg := C.GoString(r.message)
	C.free(unsafe.Pointer(r.message))
	return &Error{Status: Status(r.status), Message: msg}
}

// statusName is seen_status_string: the library names its own statuses.
func statusName(s Status) string {
	return C.GoString(C.seen_status_string(C.seen_status(s)))
}

// LibraryVersion is seen_version_number() of the libseen actually loaded:
// major*10000 + minor*100 + patch.
func LibraryVersion() uint32 { return uint32(C.seen_version_number()) }

// The Go face of each C call: Go types in, Go errors out. Pointers into Go memory are only
// lent for the duration of one call; libseen keeps none of them (seen_bloom_view, the one
// call that would, is not used).

func cCreate(n uint64, fpr float64, seed uint64) (c *cFilter, err error) {
	err = check(C.go_create(C.uint64_t(n), C.double(fpr), C.uint64_t(seed), &c))
	return c, err
}

func cCreateBytes(n, bytes, seed uint64) (c *cFilter, err error) {
	err = check(C.go_create_bytes(C.uint64_t(n), C.uint64_t(bytes), C.uint64_t(seed), &c))
	return c, err
}

func cOpen(path string, readOnly bool) (c *cFilter, err error) {
	flags := C.uint32_t(C.SEEN_OPEN_READ_WRITE)
	if readOnly {
		flags = C.SEEN_OPEN_READ_ONLY
	}
	cpath := C.CString(path)
	defer C.free(unsafe.Pointer(cpath))
	err = check(C.go_open(cpath, flags, &c))
	return c, err
}

func cDeserialize(b []byte) (c *cFilter, err error) {
	err = check(C.go_deserialize((*C.uint8_t)(bytesPtr(b)), C.size_t(len(b)), &c))
	return c, err
}

func cSerializedSize(c *cFilter) (int, error) {
	var n C.size_t
	err := check(C.go_serialize(c, nil, 0, &n))
	return int(n), err
}

// cSerialize writes into n bytes at buf, Go or C memory.
func cSerialize(c *cFilter, buf unsafe.Pointer, n int) error {
	var written C.size_t
	return check(C.go_serialize(c, (*C.uint8_t)(buf), C.size_t(n), &written))
}

func cMalloc(n int) unsafe.Pointer { return C.malloc(C.size_t(n)) }
func cFreeBytes(p unsafe.Pointer)  { C.free(p) }

func cSave(c *cFilter, path string) error {
	cpath := C.CString(path)
	defer C.free(unsafe.Pointer(cpath))
	return check(C.go_save(c, cpath))
}

func cFree(c *cFilter)               { C.seen_bloom_free(c) }
func cSync(c *cFilter) error         { return check(C.go_sync(c)) }
func cClear(c *cFilter) error        { return check(C.go_clear(c)) }
func cMerge(dst, src *cFilter) error { return check(C.go_merge(dst, src)) }

func cParams(c *cFilter) (Params, error) {
	var p C.seen_bloom_params
	if err := check(C.go_params(c, &p)); err != nil {
		return Params{}, err
	}
	return Params{
		Bytes:         uint64(p.bytes),
		Blocks:        uint64(p.blocks),
		K:             uint32(p.k),
		ReadOnly:      p.read_only != 0,
		Seed:          uint64(p.seed),
		ExpectedItems: uint64(p.expected_items),
		TargetFPR:     float64(p.target_fpr),
	}, nil
}

func cStats(c *cFilter) (Stats, error) {
	var s C.seen_bloom_stats
	if err := check(C.go_stats(c, &s)); err != nil {
		return Stats{}, err
	}
	return Stats{
		FillRatio:    float64(s.fill_ratio),
		ApproxItems:  float64(s.approx_items),
		PredictedFPR: float64(s.predicted_fpr),
	}, nil
}

func cPutU64(c *cFilter, id uint64) (bool, error) {
	r := C.go_put_u64(c, C.uint64_t(id))
	return r.present != 0, check(r)
}

func cPutKey(c *cFilter, key unsafe.Pointer, n int) (bool, error) {
	r := C.go_put_key(c, key, C.size_t(n))
	return r.present != 0, check(r)
}

// The single-key tests return -1 only for a NULL filter or key, which the callers rule out.
func cTestU64(c *cFilter, id uint64) bool { return C.seen_bloom_test_u64(c, C.uint64_t(id)) == 1 }
func cTestKey(c *cFilter, key unsafe.Pointer, n int) bool {
	return C.seen_bloom_test_key(c, key, C.size_t(n)) == 1
}

func cAddU64(c *cFilter, ids []uint64) error {
	return check(C.go_add_u64(c, (*C.uint64_t)(u64Ptr(ids)), C.size_t(len(ids))))
}

// cContainsU64 writes len(ids) answers to out, whose length the caller has checked.
func cContainsU64(c *cFilter, ids []uint64, out unsafe.Pointer) error {
	return check(C.go_contains_u64(c, (*C.uint64_t)(u64Ptr(ids)), C.size_t(len(ids)), (*C.uint8_t)(out)))
}

// The key batches take at least one key, with offsets already checked against data (see
// Keys.validate).
func cAddKeys(c *cFilter, data []byte, offsets []uint64) error {
	return check(C.go_add_keys(c, (*C.uint8_t)(keyData(data)), (*C.uint64_t)(u64Ptr(offsets)),
		C.size_t(len(offsets)-1)))
}

func cContainsKeys(c *cFilter, data []byte, offsets []uint64, out unsafe.Pointer) error {
	return check(C.go_contains_keys(c, (*C.uint8_t)(keyData(data)), (*C.uint64_t)(u64Ptr(offsets)),
		C.size_t(len(offsets)-1), (*C.uint8_t)(out)))
}

// noBytes stands in for the data of a batch whose keys are all empty: seen.h refuses a NULL
// data pointer whenever n > 0, even when no byte of it is read.
var noBytes [1]byte

func keyData(data []byte) unsafe.Pointer {
	if len(data) == 0 {
		return unsafe.Pointer(&noBytes[0])
	}
	return unsafe.Pointer(&data[0])
}

// bytesPtr and u64Ptr are the first element, or nil for an empty slice (seen.h accepts
// NULL with n == 0).
func bytesPtr(b []byte) unsafe.Pointer {
	if len(b) == 0 {
		return nil
	}
	return unsafe.Pointer(&b[0])
}

func u64Ptr(v []uint64) unsafe.Pointer {
	if len(v) == 0 {
		return nil
	}
	return unsafe.Pointer(&v[0])
}
