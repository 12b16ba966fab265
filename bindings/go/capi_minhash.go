package seen

// The C calls of MinHash (seen_minhash_*), by capi.go's rules.

/*
#include <stdlib.h>
#include <seen/seen.h>
*/
import "C"

import "unsafe"

type cMinhash = C.seen_minhash_index

// cMinhashCreate: a nil key is no key; a key's bytes are lent for the call only.
func cMinhashCreate(threshold float64, key []byte) (c *cMinhash, err error) {
	// The options would hold a Go pointer to the key, which cgo may not pass: the key is
	// copied to C memory for the call.
	o := C.seen_minhash_options{size: C.sizeof_seen_minhash_options, threshold: C.double(threshold)}
	if len(key) > 0 {
		o.key = (*C.uint8_t)(C.CBytes(key))
		o.key_len = C.size_t(len(key))
		defer C.free(unsafe.Pointer(o.key))
	}
	err = made(func(e *C.seen_error) C.seen_status { return C.seen_minhash_index_create(&o, &c, e) })
	return c, err
}

func cMinhashFree(c *cMinhash) { C.seen_minhash_index_free(c) }

func cMinhashAdd(c *cMinhash, id uint64, text string) error {
	return checkOn(c, C.seen_minhash_index_add_text(c, C.uint64_t(id), (*C.char)(stringPtr(text)), C.size_t(len(text))))
}

func cMinhashRemove(c *cMinhash, id uint64) (bool, error) {
	var removed C.int
	err := checkOn(c, C.seen_minhash_index_remove(c, C.uint64_t(id), &removed))
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
	err := checkOn(c, C.seen_minhash_index_query_text(c, (*C.char)(stringPtr(text)), C.size_t(len(text)),
		(*C.uint64_t)(u64Ptr(ids)), sims, C.size_t(len(ids)), &found))
	return int(found), err
}

func cMinhashSize(c *cMinhash) (texts, bytes uint64, err error) {
	var t, b C.uint64_t
	err = checkOn(c, C.seen_minhash_index_size(c, &t, &b))
	return uint64(t), uint64(b), err
}

func cMinhashMarshal(c *cMinhash) ([]byte, error) {
	return serialized(func(buf *C.uint8_t, n C.size_t, written *C.size_t) error {
		return checkOn(c, C.seen_minhash_index_serialize(c, buf, n, written))
	})
}

func cMinhashDeserialize(b, key []byte) (c *cMinhash, err error) {
	err = made(func(e *C.seen_error) C.seen_status {
		return C.seen_minhash_index_deserialize((*C.uint8_t)(bytesPtr(b)), C.size_t(len(b)),
			(*C.uint8_t)(bytesPtr(key)), C.size_t(len(key)), &c, e)
	})
	return c, err
}

func cMinhashSave(c *cMinhash, path string) error {
	return withPath(path, func(p *C.char) error { return checkOn(c, C.seen_minhash_index_save(c, p)) })
}

func cMinhashOpen(path string, key []byte) (c *cMinhash, err error) {
	err = withPath(path, func(p *C.char) error {
		return made(func(e *C.seen_error) C.seen_status {
			return C.seen_minhash_index_open(p, C.SEEN_OPEN_PRIVATE_COPY, (*C.uint8_t)(bytesPtr(key)), C.size_t(len(key)), &c, e)
		})
	})
	return c, err
}
