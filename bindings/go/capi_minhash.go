package seen

// The C calls of MinHash (seen_minhash_*), by capi.go's rules: every fallible call goes
// through a wrapper that returns its status with a copy of seen_last_error() taken in the
// same C call, and Go memory is only lent for one call.

/*
#include "go_result.h"

// The key is its own argument: a Go struct that held a Go pointer could not be passed.
static go_result go_minhash_index_create(seen_minhash_options* o, const uint8_t* key, size_t key_len,
                                         seen_minhash_index** out) {
	o->size = sizeof *o;
	o->key = key;
	o->key_len = key_len;
	return go_result_of(seen_minhash_index_create(o, out));
}
static go_result go_minhash_index_add_text(seen_minhash_index* x, uint64_t id, const char* text, size_t len) {
	return go_result_of(seen_minhash_index_add_text(x, id, text, len));
}
static go_result go_minhash_index_remove(seen_minhash_index* x, uint64_t id, int* removed) {
	return go_result_of(seen_minhash_index_remove(x, id, removed));
}
static go_result go_minhash_index_query_text(const seen_minhash_index* x, const char* text, size_t len,
                                             uint64_t* ids, double* similarities, size_t cap, size_t* found) {
	return go_result_of(seen_minhash_index_query_text(x, text, len, ids, similarities, cap, found));
}
static go_result go_minhash_index_size(const seen_minhash_index* x, uint64_t* texts, uint64_t* bytes) {
	return go_result_of(seen_minhash_index_size(x, texts, bytes));
}
static go_result go_minhash_index_serialize(const seen_minhash_index* x, uint8_t* buf, size_t cap, size_t* written) {
	return go_result_of(seen_minhash_index_serialize(x, buf, cap, written));
}
static go_result go_minhash_index_deserialize(const uint8_t* buf, size_t len, const uint8_t* key, size_t key_len,
                                              seen_minhash_index** out) {
	return go_result_of(seen_minhash_index_deserialize(buf, len, key, key_len, out));
}
static go_result go_minhash_index_save(const seen_minhash_index* x, const char* path) {
	return go_result_of(seen_minhash_index_save(x, path));
}
static go_result go_minhash_index_open(const char* path, const uint8_t* key, size_t key_len, seen_minhash_index** out) {
	return go_result_of(seen_minhash_index_open(path, key, key_len, out));
}
*/
import "C"

import "unsafe"

type cMinhash = C.seen_minhash_index

// cMinhashCreate: a nil key is no key; a key's bytes are lent for the call only.
func cMinhashCreate(threshold float64, key []byte) (c *cMinhash, err error) {
	o := C.seen_minhash_options{threshold: C.double(threshold)}
	err = check(C.go_minhash_index_create(&o, (*C.uint8_t)(bytesPtr(key)), C.size_t(len(key)), &c))
	return c, err
}

func cMinhashFree(c *cMinhash) { C.seen_minhash_index_free(c) }

func cMinhashAdd(c *cMinhash, id uint64, text string) error {
	return check(C.go_minhash_index_add_text(c, C.uint64_t(id), (*C.char)(stringPtr(text)), C.size_t(len(text))))
}

func cMinhashRemove(c *cMinhash, id uint64) (bool, error) {
	var removed C.int
	err := check(C.go_minhash_index_remove(c, C.uint64_t(id), &removed))
	return removed != 0, err
}

// cMinhashQuery writes up to len(ids) matches (similarities as long as ids) and returns how
// many there are; more than len(ids) comes with ErrBufferTooSmall.
func cMinhashQuery(c *cMinhash, text string, ids []uint64, similarities []float64) (int, error) {
	var found C.size_t
	var sims *C.double
	if len(similarities) > 0 {
		sims = (*C.double)(unsafe.Pointer(&similarities[0]))
	}
	err := check(C.go_minhash_index_query_text(c, (*C.char)(stringPtr(text)), C.size_t(len(text)),
		(*C.uint64_t)(u64Ptr(ids)), sims, C.size_t(len(ids)), &found))
	return int(found), err
}

func cMinhashSize(c *cMinhash) (texts, bytes uint64, err error) {
	var t, b C.uint64_t
	err = check(C.go_minhash_index_size(c, &t, &b))
	return uint64(t), uint64(b), err
}

func cMinhashMarshal(c *cMinhash) ([]byte, error) {
	return serialized(func(buf *C.uint8_t, n C.size_t, written *C.size_t) C.go_result {
		return C.go_minhash_index_serialize(c, buf, n, written)
	})
}

func cMinhashDeserialize(b, key []byte) (c *cMinhash, err error) {
	err = check(C.go_minhash_index_deserialize((*C.uint8_t)(bytesPtr(b)), C.size_t(len(b)),
		(*C.uint8_t)(bytesPtr(key)), C.size_t(len(key)), &c))
	return c, err
}

func cMinhashSave(c *cMinhash, path string) error {
	return withPath(path, func(p *C.char) C.go_result { return C.go_minhash_index_save(c, p) })
}

func cMinhashOpen(path string, key []byte) (c *cMinhash, err error) {
	err = withPath(path, func(p *C.char) C.go_result {
		return C.go_minhash_index_open(p, (*C.uint8_t)(bytesPtr(key)), C.size_t(len(key)), &c)
	})
	return c, err
}
