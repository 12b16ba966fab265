package seen

// With capi_counting.go (the counting and scalable filters, by the same rules), the only
// file that speaks C. Every fallible C call goes through a small wrapper defined below
// that returns its status together with a malloc'd copy of seen_last_error() taken in the
// same C call: seen_last_error() is thread-local, and a goroutine may move to another
// OS thread (or another goroutine may fail on this one) between two separate cgo calls.
//
// Where cgo finds <seen/seen.h> and libseen: pkg-config's seen.pc, installed by
// `meson install` (set PKG_CONFIG_PATH for a custom prefix). meson test points it at the
// build tree's seen-uninstalled.pc, and CGO_CFLAGS at include/ for the header.

/*
#cgo pkg-config: seen
#include "go_result.h"

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
static go_result go_create_keyed(uint64_t n, double fpr, const uint8_t* key, size_t key_len,
                                 seen_bloom** out) {
	return go_result_of(seen_bloom_create_keyed(n, fpr, key, key_len, out));
}
static go_result go_open_keyed(const char* path, uint32_t flags, const uint8_t* key,
                               size_t key_len, seen_bloom** out) {
	return go_result_of(seen_bloom_open_keyed(path, flags, key, key_len, out));
}
static go_result go_deserialize_keyed(const uint8_t* buf, size_t len, const uint8_t* key,
                                      size_t key_len, seen_bloom** out) {
	return go_result_of(seen_bloom_deserialize_keyed(buf, len, key, key_len, out));
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

// Exposure windows. The options struct is Go memory without pointers, lent for one call;
// the single-key calls build their one-element batch here, on the C stack.
static go_result go_window_create(seen_window_options* o, uint64_t now, seen_window** out) {
	o->size = sizeof *o;
	return go_result_of(seen_window_create(o, now, out));
}
static go_result go_window_info(const seen_window* w, seen_window_info* info) {
	info->size = sizeof *info;
	return go_result_of(seen_window_get_info(w, info));
}
static go_result go_window_add_u64(seen_window* w, const uint64_t* ids, size_t n, uint64_t now) {
	return go_result_of(seen_window_add_u64(w, ids, n, now));
}
static go_result go_window_contains_u64(const seen_window* w, const uint64_t* ids, size_t n,
                                        uint64_t now, uint8_t* out) {
	return go_result_of(seen_window_contains_u64(w, ids, n, now, out));
}
static go_result go_window_add_keys(seen_window* w, const uint8_t* data, const uint64_t* offsets,
                                    size_t n, uint64_t now) {
	return go_result_of(seen_window_add_keys(w, data, offsets, n, now));
}
static go_result go_window_contains_keys(const seen_window* w, const uint8_t* data,
                                         const uint64_t* offsets, size_t n, uint64_t now,
                                         uint8_t* out) {
	return go_result_of(seen_window_contains_keys(w, data, offsets, n, now, out));
}
static go_result go_window_add_one_u64(seen_window* w, uint64_t id, uint64_t now) {
	return go_result_of(seen_window_add_u64(w, &id, 1, now));
}
static go_result go_window_test_one_u64(const seen_window* w, uint64_t id, uint64_t now) {
	uint8_t present = 0;
	go_result r = go_result_of(seen_window_contains_u64(w, &id, 1, now, &present));
	r.present = present;
	return r;
}
static go_result go_window_add_one_key(seen_window* w, const void* key, size_t len, uint64_t now) {
	const uint64_t offsets[2] = {0, len};
	return go_result_of(seen_window_add_keys(w, (const uint8_t*)key, offsets, 1, now));
}
static go_result go_window_test_one_key(const seen_window* w, const void* key, size_t len,
                                        uint64_t now) {
	const uint64_t offsets[2] = {0, len};
	uint8_t present = 0;
	go_result r = go_result_of(seen_window_contains_keys(w, (const uint8_t*)key, offsets, 1, now,
	                                                     &present));
	r.present = present;
	return r;
}
static go_result go_window_serialize(const seen_window* w, uint8_t* buf, size_t cap, size_t* written) {
	return go_result_of(seen_window_serialize(w, buf, cap, written));
}
static go_result go_window_deserialize(const uint8_t* buf, size_t len, seen_window** out) {
	return go_result_of(seen_window_deserialize(buf, len, out));
}

// The exposure store. seen_store_options points at the window options, so it is put
// together here: cgo may not pass C a Go struct that holds a Go pointer.
static go_result go_store_create(seen_window_options* w, uint32_t idle_timeout, uint64_t max_bytes,
                                 uint64_t expected_users, seen_store** out) {
	seen_store_options o;
	memset(&o, 0, sizeof o);
	o.size = sizeof o;
	w->size = sizeof *w;
	o.window = w;
	o.idle_timeout = idle_timeout;
	o.max_bytes = max_bytes;
	o.expected_users = expected_users;
	return go_result_of(seen_store_create(&o, out));
}
static go_result go_store_open(const char* path, uint32_t flags, seen_store** out) {
	return go_result_of(seen_store_open(path, flags, out));
}
static go_result go_store_window_info(const seen_store* s, seen_window_info* info) {
	info->size = sizeof *info;
	return go_result_of(seen_store_get_window_info(s, info));
}
static go_result go_store_stats(const seen_store* s, seen_store_stats* stats) {
	stats->size = sizeof *stats;
	return go_result_of(seen_store_get_stats(s, stats));
}
static go_result go_store_filter(const seen_store* s, uint64_t user, const uint64_t* candidates,
                                 size_t n, uint64_t now, uint8_t* out_unseen) {
	return go_result_of(seen_store_filter(s, user, candidates, n, now, out_unseen));
}
static go_result go_store_mark(seen_store* s, uint64_t user, const uint64_t* items, size_t n,
                               uint64_t now) {
	return go_result_of(seen_store_mark(s, user, items, n, now));
}
static go_result go_store_take(seen_store* s, uint64_t user, const uint64_t* candidates, size_t n,
                               size_t want, uint64_t now, uint64_t* out_taken, size_t* out_count) {
	return go_result_of(seen_store_take(s, user, candidates, n, want, now, out_taken, out_count));
}
static go_result go_store_expire(seen_store* s, uint64_t now, uint64_t* dropped) {
	return go_result_of(seen_store_expire(s, now, dropped));
}
static go_result go_store_save(const seen_store* s, const char* path) {
	return go_result_of(seen_store_save(s, path));
}

// SimHash. The options struct is put together here from plain values and the IDF table's C
// pointer; the fingerprint and info structs are Go memory without pointers, lent for one call.
static seen_simhash_options go_simhash_options(uint32_t ngram, uint64_t seed, const seen_simhash_idf* idf) {
	seen_simhash_options o;
	memset(&o, 0, sizeof o);
	o.size = sizeof o;
	o.ngram = ngram;
	o.seed = seed;
	o.idf = idf;
	return o;
}
static go_result go_simhash_text(const char* text, size_t len, uint32_t ngram, uint64_t seed,
                                 const seen_simhash_idf* idf, seen_simhash_fingerprint* out) {
	seen_simhash_options o = go_simhash_options(ngram, seed, idf);
	out->size = sizeof *out;
	return go_result_of(seen_simhash_text(text, len, &o, out));
}
static go_result go_simhash_text_batch(const uint8_t* data, const uint64_t* offsets, size_t n,
                                       uint32_t ngram, uint64_t seed, const seen_simhash_idf* idf,
                                       uint64_t* simhashes, uint64_t* exact) {
	seen_simhash_options o = go_simhash_options(ngram, seed, idf);
	return go_result_of(seen_simhash_text_batch(data, offsets, n, &o, simhashes, exact));
}
static go_result go_simhash_hashes(const uint64_t* hashes, const float* weights, size_t n, uint64_t* out) {
	return go_result_of(seen_simhash_hashes(hashes, weights, n, out));
}
static go_result go_simhash_strings(const uint8_t* data, const uint64_t* offsets, const float* weights,
                                    size_t n, uint64_t seed, uint64_t* out) {
	return go_result_of(seen_simhash_strings(data, offsets, weights, n, seed, out));
}
static go_result go_simhash_idf_create(const uint8_t* data, const uint64_t* offsets, const float* weights,
                                       size_t n, float default_weight, seen_simhash_idf** out) {
	return go_result_of(seen_simhash_idf_create(data, offsets, weights, n, default_weight, out));
}
static go_result go_simhash_index_create(uint32_t max_k, seen_simhash_index** out) {
	return go_result_of(seen_simhash_index_create(max_k, out));
}
static go_result go_simhash_index_add(seen_simhash_index* x, const uint64_t* fps, const uint64_t* ids, size_t n) {
	return go_result_of(seen_simhash_index_add(x, fps, ids, n));
}
static go_result go_simhash_index_add_one(seen_simhash_index* x, uint64_t fp, uint64_t id) {
	return go_result_of(seen_simhash_index_add(x, &fp, &id, 1));
}
static go_result go_simhash_index_remove(seen_simhash_index* x, const uint64_t* ids, size_t n, uint64_t* removed) {
	return go_result_of(seen_simhash_index_remove(x, ids, n, removed));
}
static go_result go_simhash_index_build(seen_simhash_index* x) {
	return go_result_of(seen_simhash_index_build(x));
}
static go_result go_simhash_index_query(const seen_simhash_index* x, uint64_t fp, uint32_t k, uint64_t* ids,
                                        uint32_t* distances, size_t cap, size_t* found) {
	return go_result_of(seen_simhash_index_query(x, fp, k, ids, distances, cap, found));
}
static go_result go_simhash_index_any_one(const seen_simhash_index* x, uint64_t fp, uint32_t k) {
	uint8_t present = 0;
	go_result r = go_result_of(seen_simhash_index_any(x, &fp, 1, k, &present));
	r.present = present;
	return r;
}
static go_result go_simhash_index_any(const seen_simhash_index* x, const uint64_t* fps, size_t n, uint32_t k,
                                      uint8_t* out) {
	return go_result_of(seen_simhash_index_any(x, fps, n, k, out));
}
static go_result go_simhash_index_query_batch(const seen_simhash_index* x, const uint64_t* fps, size_t n,
                                              uint32_t k, uint64_t* offsets, uint64_t* ids,
                                              uint32_t* distances, size_t cap) {
	return go_result_of(seen_simhash_index_query_batch(x, fps, n, k, offsets, ids, distances, cap));
}
static go_result go_simhash_index_clusters(const seen_simhash_index* x, uint32_t k, uint64_t* ids,
                                           uint32_t* groups, size_t cap, size_t* count) {
	return go_result_of(seen_simhash_index_clusters(x, k, ids, groups, cap, count));
}
static go_result go_simhash_index_info(const seen_simhash_index* x, seen_simhash_index_info* info) {
	info->size = sizeof *info;
	return go_result_of(seen_simhash_index_get_info(x, info));
}
static go_result go_simhash_index_serialize(const seen_simhash_index* x, uint8_t* buf, size_t cap,
                                            size_t* written) {
	return go_result_of(seen_simhash_index_serialize(x, buf, cap, written));
}
static go_result go_simhash_index_deserialize(const uint8_t* buf, size_t len, seen_simhash_index** out) {
	return go_result_of(seen_simhash_index_deserialize(buf, len, out));
}
static go_result go_simhash_index_save(const seen_simhash_index* x, const char* path) {
	return go_result_of(seen_simhash_index_save(x, path));
}
static go_result go_simhash_index_open(const char* path, uint32_t flags, seen_simhash_index** out) {
	return go_result_of(seen_simhash_index_open(path, flags, out));
}
*/
import "C"

import "unsafe"

type (
	cFilter = C.seen_bloom
	cWindow = C.seen_window
	cStore  = C.seen_store
	cIDF    = C.seen_simhash_idf
	cIndex  = C.seen_simhash_index
)

// check turns a wrapper's result into nil or an *Error, freeing the message copy.
func check(r C.go_result) error {
	if r.status == C.SEEN_OK {
		return nil
	}
	msg := C.GoString(r.message)
	C.free(unsafe.Pointer(r.message))
	return &Error{Status: Status(r.status), Message: msg}
}

func openFlags(readOnly bool) C.uint32_t {
	if readOnly {
		return C.SEEN_OPEN_READ_ONLY
	}
	return C.SEEN_OPEN_READ_WRITE
}

// withPath lends call a C copy of path, freed once the call returns.
func withPath(path string, call func(cpath *C.char) C.go_result) error {
	cpath := C.CString(path)
	defer C.free(unsafe.Pointer(cpath))
	return check(call(cpath))
}

// serialized is a handle's serialized form in a Go slice of its exact size. serialize, a
// seen_*_serialize wrapper bound to the handle, is asked for the size first (no buffer),
// then to write.
func serialized(serialize func(buf *C.uint8_t, n C.size_t, written *C.size_t) C.go_result) ([]byte, error) {
	var n C.size_t
	if err := check(serialize(nil, 0, &n)); err != nil {
		return nil, err
	}
	if n == 0 {
		return nil, &Error{Status: ErrInternal, Message: "serialized size 0"}
	}
	b := make([]byte, int(n))
	var written C.size_t
	if err := check(serialize((*C.uint8_t)(unsafe.Pointer(&b[0])), n, &written)); err != nil {
		return nil, err
	}
	return b[:int(written)], nil
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
	err = withPath(path, func(p *C.char) C.go_result { return C.go_open(p, openFlags(readOnly), &c) })
	return c, err
}

func cDeserialize(b []byte) (c *cFilter, err error) {
	err = check(C.go_deserialize((*C.uint8_t)(bytesPtr(b)), C.size_t(len(b)), &c))
	return c, err
}

// Keyed mode: the key's bytes are lent to C for the call only.
func cCreateKeyed(n uint64, fpr float64, key []byte) (c *cFilter, err error) {
	err = check(C.go_create_keyed(C.uint64_t(n), C.double(fpr), (*C.uint8_t)(bytesPtr(key)), C.size_t(len(key)), &c))
	return c, err
}

func cOpenKeyed(path string, readOnly bool, key []byte) (c *cFilter, err error) {
	err = withPath(path, func(p *C.char) C.go_result {
		return C.go_open_keyed(p, openFlags(readOnly), (*C.uint8_t)(bytesPtr(key)), C.size_t(len(key)), &c)
	})
	return c, err
}

func cDeserializeKeyed(b, key []byte) (c *cFilter, err error) {
	err = check(C.go_deserialize_keyed((*C.uint8_t)(bytesPtr(b)), C.size_t(len(b)), (*C.uint8_t)(bytesPtr(key)),
		C.size_t(len(key)), &c))
	return c, err
}

func cMarshal(c *cFilter) ([]byte, error) {
	return serialized(func(buf *C.uint8_t, n C.size_t, written *C.size_t) C.go_result {
		return C.go_serialize(c, buf, n, written)
	})
}

// cSerializedSize and cSerialize stage the serialized filter in C memory (WriteTo).
func cSerializedSize(c *cFilter) (int, error) {
	var n C.size_t
	err := check(C.go_serialize(c, nil, 0, &n))
	return int(n), err
}

func cSerialize(c *cFilter, buf unsafe.Pointer, n int) error {
	var written C.size_t
	return check(C.go_serialize(c, (*C.uint8_t)(buf), C.size_t(n), &written))
}

func cMalloc(n int) unsafe.Pointer { return C.malloc(C.size_t(n)) }
func cFreeBytes(p unsafe.Pointer)  { C.free(p) }

func cSave(c *cFilter, path string) error {
	return withPath(path, func(p *C.char) C.go_result { return C.go_save(c, p) })
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

// Windows. now is a uint32 on the Go side, so the C API's "at most 2^32 - 1" always holds.

func cWindowOptions(o WindowOptions) C.seen_window_options {
	return C.seen_window_options{
		mode:           C.uint32_t(o.Mode),
		span:           C.uint32_t(o.Span),
		expected_items: C.uint32_t(o.ExpectedItems),
		fpr:            C.double(o.FPR),
		max_slack:      C.double(o.MaxSlack),
		seed:           C.uint64_t(o.Seed),
		max_bytes:      C.uint64_t(o.MaxBytes),
	}
}

func windowInfoOf(i *C.seen_window_info) WindowInfo {
	return WindowInfo{
		Mode:         WindowMode(i.mode),
		Layout:       WindowLayout(i.layout),
		Span:         uint32(i.span),
		Segments:     uint32(i.segments),
		StateBytes:   uint64(i.state_bytes),
		Slack:        float64(i.slack),
		PredictedFPR: float64(i.predicted_fpr),
		Seed:         uint64(i.seed),
		MaxBytes:     uint64(i.max_bytes),
	}
}

func cWindowCreate(o WindowOptions, now uint32) (c *cWindow, err error) {
	opts := cWindowOptions(o)
	err = check(C.go_window_create(&opts, C.uint64_t(now), &c))
	return c, err
}

func cWindowDeserialize(b []byte) (c *cWindow, err error) {
	err = check(C.go_window_deserialize((*C.uint8_t)(bytesPtr(b)), C.size_t(len(b)), &c))
	return c, err
}

func cWindowFree(c *cWindow) { C.seen_window_free(c) }

func cWindowInfo(c *cWindow) (WindowInfo, error) {
	var i C.seen_window_info
	if err := check(C.go_window_info(c, &i)); err != nil {
		return WindowInfo{}, err
	}
	return windowInfoOf(&i), nil
}

func cWindowMarshal(c *cWindow) ([]byte, error) {
	return serialized(func(buf *C.uint8_t, n C.size_t, written *C.size_t) C.go_result {
		return C.go_window_serialize(c, buf, n, written)
	})
}

func cWindowAddOneU64(c *cWindow, id uint64, now uint32) error {
	return check(C.go_window_add_one_u64(c, C.uint64_t(id), C.uint64_t(now)))
}

func cWindowTestOneU64(c *cWindow, id uint64, now uint32) (bool, error) {
	r := C.go_window_test_one_u64(c, C.uint64_t(id), C.uint64_t(now))
	return r.present != 0, check(r)
}

func cWindowAddOneKey(c *cWindow, key unsafe.Pointer, n int, now uint32) error {
	return check(C.go_window_add_one_key(c, key, C.size_t(n), C.uint64_t(now)))
}

func cWindowTestOneKey(c *cWindow, key unsafe.Pointer, n int, now uint32) (bool, error) {
	r := C.go_window_test_one_key(c, key, C.size_t(n), C.uint64_t(now))
	return r.present != 0, check(r)
}

func cWindowAddU64(c *cWindow, ids []uint64, now uint32) error {
	return check(C.go_window_add_u64(c, (*C.uint64_t)(u64Ptr(ids)), C.size_t(len(ids)), C.uint64_t(now)))
}

func cWindowContainsU64(c *cWindow, ids []uint64, now uint32, out unsafe.Pointer) error {
	return check(C.go_window_contains_u64(c, (*C.uint64_t)(u64Ptr(ids)), C.size_t(len(ids)),
		C.uint64_t(now), (*C.uint8_t)(out)))
}

func cWindowAddKeys(c *cWindow, data []byte, offsets []uint64, now uint32) error {
	return check(C.go_window_add_keys(c, (*C.uint8_t)(keyData(data)), (*C.uint64_t)(u64Ptr(offsets)),
		C.size_t(len(offsets)-1), C.uint64_t(now)))
}

func cWindowContainsKeys(c *cWindow, data []byte, offsets []uint64, now uint32, out unsafe.Pointer) error {
	return check(C.go_window_contains_keys(c, (*C.uint8_t)(keyData(data)), (*C.uint64_t)(u64Ptr(offsets)),
		C.size_t(len(offsets)-1), C.uint64_t(now), (*C.uint8_t)(out)))
}

// Stores.

func cStoreCreate(o StoreOptions, idleTimeout uint32) (c *cStore, err error) {
	w := cWindowOptions(o.Window)
	err = check(C.go_store_create(&w, C.uint32_t(idleTimeout), C.uint64_t(o.MaxBytes),
		C.uint64_t(o.ExpectedUsers), &c))
	return c, err
}

func cStoreOpen(path string, readOnly, verify bool) (c *cStore, err error) {
	flags := openFlags(readOnly)
	if !verify {
		flags |= C.SEEN_OPEN_NO_VERIFY
	}
	err = withPath(path, func(p *C.char) C.go_result { return C.go_store_open(p, flags, &c) })
	return c, err
}

func cStoreFree(c *cStore) { C.seen_store_free(c) }

func cStoreWindowInfo(c *cStore) (WindowInfo, error) {
	var i C.seen_window_info
	if err := check(C.go_store_window_info(c, &i)); err != nil {
		return WindowInfo{}, err
	}
	return windowInfoOf(&i), nil
}

func cStoreStats(c *cStore) (StoreStats, error) {
	var s C.seen_store_stats
	if err := check(C.go_store_stats(c, &s)); err != nil {
		return StoreStats{}, err
	}
	return StoreStats{
		Users:       uint64(s.users),
		Bytes:       uint64(s.bytes),
		Evictions:   uint64(s.evictions),
		Expirations: uint64(s.expirations),
	}, nil
}

// cStoreFilter writes len(candidates) answers to out, whose length the caller has checked.
func cStoreFilter(c *cStore, user uint64, candidates []uint64, now uint32, out unsafe.Pointer) error {
	return check(C.go_store_filter(c, C.uint64_t(user), (*C.uint64_t)(u64Ptr(candidates)),
		C.size_t(len(candidates)), C.uint64_t(now), (*C.uint8_t)(out)))
}

func cStoreMark(c *cStore, user uint64, items []uint64, now uint32) error {
	return check(C.go_store_mark(c, C.uint64_t(user), (*C.uint64_t)(u64Ptr(items)),
		C.size_t(len(items)), C.uint64_t(now)))
}

// cStoreTake takes up to len(taken) candidates into taken and returns how many.
func cStoreTake(c *cStore, user uint64, candidates []uint64, now uint32, taken []uint64) (int, error) {
	var count C.size_t
	err := check(C.go_store_take(c, C.uint64_t(user), (*C.uint64_t)(u64Ptr(candidates)),
		C.size_t(len(candidates)), C.size_t(len(taken)), C.uint64_t(now),
		(*C.uint64_t)(u64Ptr(taken)), &count))
	return int(count), err
}

func cStoreExpire(c *cStore, now uint32) (uint64, error) {
	var dropped C.uint64_t
	err := check(C.go_store_expire(c, C.uint64_t(now), &dropped))
	return uint64(dropped), err
}

func cStoreSave(c *cStore, path string) error {
	return withPath(path, func(p *C.char) C.go_result { return C.go_store_save(c, p) })
}

// SimHash. Text options travel as plain values (ngram, seed) and the IDF table's C pointer,
// which the caller keeps alive across the call.

func cSimHashText(text unsafe.Pointer, n int, o textOptions) (TextFingerprint, error) {
	var f C.seen_simhash_fingerprint
	err := check(C.go_simhash_text((*C.char)(text), C.size_t(n), C.uint32_t(o.cNgram()), C.uint64_t(o.seed),
		o.idfC(), &f))
	return TextFingerprint{
		SimHash:  uint64(f.simhash),
		Exact:    ExactFingerprint{High: uint64(f.exact_high), Low: uint64(f.exact_low)},
		Features: uint64(f.features),
	}, err
}

// cSimHashTexts fingerprints a batch of at least one text (offsets checked against data);
// exact is nil or room for 2n values.
func cSimHashTexts(data []byte, offsets []uint64, o textOptions, simhashes []uint64, exact unsafe.Pointer) error {
	return check(C.go_simhash_text_batch((*C.uint8_t)(keyData(data)), (*C.uint64_t)(u64Ptr(offsets)),
		C.size_t(len(offsets)-1), C.uint32_t(o.cNgram()), C.uint64_t(o.seed), o.idfC(),
		(*C.uint64_t)(u64Ptr(simhashes)), (*C.uint64_t)(exact)))
}

// cSimHashHashes: weights is nil or as long as hashes.
func cSimHashHashes(hashes []uint64, weights []float32) (uint64, error) {
	var out C.uint64_t
	err := check(C.go_simhash_hashes((*C.uint64_t)(u64Ptr(hashes)), (*C.float)(f32Ptr(weights)),
		C.size_t(len(hashes)), &out))
	return uint64(out), err
}

// cSimHashStrings: at least one feature, offsets checked; weights nil or one per feature.
func cSimHashStrings(data []byte, offsets []uint64, weights []float32, seed uint64) (uint64, error) {
	var out C.uint64_t
	err := check(C.go_simhash_strings((*C.uint8_t)(keyData(data)), (*C.uint64_t)(u64Ptr(offsets)),
		(*C.float)(f32Ptr(weights)), C.size_t(len(offsets)-1), C.uint64_t(seed), &out))
	return uint64(out), err
}

func cDistance(a, b uint64) int { return int(C.seen_simhash_distance(C.uint64_t(a), C.uint64_t(b))) }

// cIDFCreate: offsets has n+1 entries checked against data (or is empty), weights n.
func cIDFCreate(data []byte, offsets []uint64, weights []float32, defaultWeight float32) (c *cIDF, err error) {
	n := 0
	if len(offsets) > 0 {
		n = len(offsets) - 1
	}
	err = check(C.go_simhash_idf_create((*C.uint8_t)(keyData(data)), (*C.uint64_t)(u64Ptr(offsets)),
		(*C.float)(f32Ptr(weights)), C.size_t(n), C.float(defaultWeight), &c))
	return c, err
}

func cIDFFree(c *cIDF) { C.seen_simhash_idf_free(c) }

func cIndexCreate(maxK uint32) (c *cIndex, err error) {
	err = check(C.go_simhash_index_create(C.uint32_t(maxK), &c))
	return c, err
}

func cIndexFree(c *cIndex) { C.seen_simhash_index_free(c) }

// cIndexAdd: fps and ids of equal length.
func cIndexAdd(c *cIndex, fps, ids []uint64) error {
	return check(C.go_simhash_index_add(c, (*C.uint64_t)(u64Ptr(fps)), (*C.uint64_t)(u64Ptr(ids)),
		C.size_t(len(ids))))
}

func cIndexAddOne(c *cIndex, fp, id uint64) error {
	return check(C.go_simhash_index_add_one(c, C.uint64_t(fp), C.uint64_t(id)))
}

func cIndexRemove(c *cIndex, ids []uint64) (uint64, error) {
	var removed C.uint64_t
	err := check(C.go_simhash_index_remove(c, (*C.uint64_t)(u64Ptr(ids)), C.size_t(len(ids)), &removed))
	return uint64(removed), err
}

func cIndexBuild(c *cIndex) error { return check(C.go_simhash_index_build(c)) }

// cIndexQuery writes up to len(ids) matches (distances as long as ids) and returns how many
// there are; more than len(ids) comes with ErrBufferTooSmall.
func cIndexQuery(c *cIndex, fp uint64, k uint32, ids []uint64, distances []uint32) (int, error) {
	var found C.size_t
	err := check(C.go_simhash_index_query(c, C.uint64_t(fp), C.uint32_t(k), (*C.uint64_t)(u64Ptr(ids)),
		(*C.uint32_t)(u32Ptr(distances)), C.size_t(len(ids)), &found))
	return int(found), err
}

func cIndexAnyOne(c *cIndex, fp uint64, k uint32) (bool, error) {
	r := C.go_simhash_index_any_one(c, C.uint64_t(fp), C.uint32_t(k))
	return r.present != 0, check(r)
}

// cIndexAny writes len(fps) answers to out, whose length the caller has checked.
func cIndexAny(c *cIndex, fps []uint64, k uint32, out unsafe.Pointer) error {
	return check(C.go_simhash_index_any(c, (*C.uint64_t)(u64Ptr(fps)), C.size_t(len(fps)), C.uint32_t(k),
		(*C.uint8_t)(out)))
}

// cIndexQueryBatch: offsets has room for len(fps)+1, distances as long as ids.
func cIndexQueryBatch(c *cIndex, fps []uint64, k uint32, offsets, ids []uint64, distances []uint32) error {
	return check(C.go_simhash_index_query_batch(c, (*C.uint64_t)(u64Ptr(fps)), C.size_t(len(fps)),
		C.uint32_t(k), (*C.uint64_t)(u64Ptr(offsets)), (*C.uint64_t)(u64Ptr(ids)),
		(*C.uint32_t)(u32Ptr(distances)), C.size_t(len(ids))))
}

// cIndexClusters: groups as long as ids; returns the index size.
func cIndexClusters(c *cIndex, k uint32, ids []uint64, groups []uint32) (int, error) {
	var count C.size_t
	err := check(C.go_simhash_index_clusters(c, C.uint32_t(k), (*C.uint64_t)(u64Ptr(ids)),
		(*C.uint32_t)(u32Ptr(groups)), C.size_t(len(ids)), &count))
	return int(count), err
}

func cIndexInfo(c *cIndex) (SimHashIndexInfo, error) {
	var i C.seen_simhash_index_info
	if err := check(C.go_simhash_index_info(c, &i)); err != nil {
		return SimHashIndexInfo{}, err
	}
	return SimHashIndexInfo{
		Len:      int(i.count),
		K:        int(i.max_k),
		ReadOnly: i.read_only != 0,
		Bytes:    uint64(i.bytes),
	}, nil
}

func cIndexMarshal(c *cIndex) ([]byte, error) {
	return serialized(func(buf *C.uint8_t, n C.size_t, written *C.size_t) C.go_result {
		return C.go_simhash_index_serialize(c, buf, n, written)
	})
}

func cIndexDeserialize(b []byte) (c *cIndex, err error) {
	err = check(C.go_simhash_index_deserialize((*C.uint8_t)(bytesPtr(b)), C.size_t(len(b)), &c))
	return c, err
}

func cIndexSave(c *cIndex, path string) error {
	return withPath(path, func(p *C.char) C.go_result { return C.go_simhash_index_save(c, p) })
}

func cIndexOpen(path string, verify bool) (c *cIndex, err error) {
	flags := C.uint32_t(C.SEEN_OPEN_READ_ONLY)
	if !verify {
		flags |= C.SEEN_OPEN_NO_VERIFY
	}
	err = withPath(path, func(p *C.char) C.go_result { return C.go_simhash_index_open(p, flags, &c) })
	return c, err
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

func u32Ptr(v []uint32) unsafe.Pointer {
	if len(v) == 0 {
		return nil
	}
	return unsafe.Pointer(&v[0])
}

func f32Ptr(v []float32) unsafe.Pointer {
	if len(v) == 0 {
		return nil
	}
	return unsafe.Pointer(&v[0])
}
