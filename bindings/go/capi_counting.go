package seen

// The C calls of the counting and scalable filters (seen_counting_*, seen_scalable_*), kept
// apart from capi.go so that each family of handles has its own small cgo file, by capi.go's
// rules (seen_counting_view, which would keep Go memory, is not used).

/*
#include <stdlib.h>
#include <seen/seen.h>
*/
import "C"

import "unsafe"

type (
	cCounting = C.seen_counting
	cScalable = C.seen_scalable
)

// Counting filters.

// cCountingCreate: a nil key is no key, and seed hashes; with a key, seed is 0.
func cCountingCreate(n uint64, fpr float64, seed uint64, key []byte) (c *cCounting, err error) {
	err = made(func(e *C.seen_error) C.seen_status {
		if key == nil {
			return C.seen_counting_create(C.uint64_t(n), C.double(fpr), C.uint64_t(seed), &c, e)
		}
		return C.seen_counting_create_keyed(C.uint64_t(n), C.double(fpr), cKey(key), C.size_t(len(key)), &c, e)
	})
	return c, err
}

// cCountingOpen: a nil key is no key.
func cCountingOpen(path string, readOnly bool, key []byte) (c *cCounting, err error) {
	err = madeAt(path, func(p *C.char, e *C.seen_error) C.seen_status {
		return C.seen_counting_open_keyed(p, openFlags(readOnly, writeInPlace), cKey(key), C.size_t(len(key)), &c, e)
	})
	return c, err
}

// cCountingDeserialize: a nil key is no key.
func cCountingDeserialize(b, key []byte) (c *cCounting, err error) {
	err = made(func(e *C.seen_error) C.seen_status {
		if key == nil {
			return C.seen_counting_deserialize(cBytes(b), C.size_t(len(b)), &c, e)
		}
		return C.seen_counting_deserialize_keyed(cBytes(b), C.size_t(len(b)), cKey(key), C.size_t(len(key)), &c, e)
	})
	return c, err
}

func cCountingMarshal(c *cCounting) ([]byte, error) {
	return serialized(func(buf *C.uint8_t, n C.size_t, written *C.size_t) error {
		return checkOn(c, C.seen_counting_serialize(c, buf, n, written))
	})
}

func cCountingSave(c *cCounting, path string) error {
	return withPath(path, func(p *C.char) error { return checkOn(c, C.seen_counting_save(c, p)) })
}

func cCountingFree(c *cCounting)        { C.seen_counting_free(c) }
func cCountingSync(c *cCounting) error  { return checkOn(c, C.seen_counting_sync(c)) }
func cCountingClear(c *cCounting) error { return checkOn(c, C.seen_counting_clear(c)) }

// cCountingFacts reads what a CountingFilter caches: its parameters and, unless it is keyed,
// the probe over its presence blocks.
func cCountingFacts(c *cCounting) (countingFacts, error) {
	p := C.seen_counting_info{size: C.sizeof_seen_counting_info}
	if err := checkOn(c, C.seen_counting_get_info(c, &p)); err != nil {
		return countingFacts{}, err
	}
	facts := countingFacts{CountingParams: CountingParams{
		Bytes:         uint64(p.bytes),
		Blocks:        uint64(p.blocks),
		K:             uint32(p.k),
		ReadOnly:      p.read_only != 0,
		Seed:          uint64(p.seed),
		ExpectedItems: uint64(p.expected_items),
		TargetFPR:     float64(p.target_fpr),
		CounterBits:   uint32(p.counter_bits),
		Keyed:         p.keyed != 0,
	}}
	var err error
	facts.probe, err = lentProbe(c, facts.Keyed, facts.Blocks, facts.K, facts.Seed,
		func(c *cCounting, presence **C.uint8_t) C.seen_status {
			return C.seen_counting_get_presence_blocks(c, presence)
		})
	return facts, err
}

func cCountingStats(c *cCounting) (CountingStats, error) {
	s := C.seen_counting_stats{size: C.sizeof_seen_counting_stats}
	if err := checkOn(c, C.seen_counting_get_stats(c, &s)); err != nil {
		return CountingStats{}, err
	}
	return CountingStats{
		ApproxItems:  float64(s.approx_items),
		Saturated:    uint64(s.saturated),
		FillRatio:    float64(s.fill_ratio),
		PredictedFPR: float64(s.predicted_fpr),
	}, nil
}

// A counting add counts the key whatever it held, so it never says the key was present.
func cCountingPutU64(c *cCounting, id uint64) (bool, error) {
	return false, checkOn(c, C.seen_counting_add_one_u64(c, C.uint64_t(id)))
}

func cCountingPutKey(c *cCounting, key unsafe.Pointer, n int) (bool, error) {
	return false, checkOn(c, C.seen_counting_add_one_key(c, key, C.size_t(n)))
}

func cCountingDeleteU64(c *cCounting, id uint64) error {
	return checkOn(c, C.seen_counting_remove_one_u64(c, C.uint64_t(id)))
}

func cCountingDeleteKey(c *cCounting, key unsafe.Pointer, n int) error {
	return checkOn(c, C.seen_counting_remove_one_key(c, key, C.size_t(n)))
}

// The single-key tests return -1 only for a NULL filter or key, which the callers rule out.
func cCountingTestU64(c *cCounting, id uint64) bool {
	return C.seen_counting_contains_one_u64(c, C.uint64_t(id)) == 1
}

func cCountingTestKey(c *cCounting, key unsafe.Pointer, n int) bool {
	return C.seen_counting_contains_one_key(c, key, C.size_t(n)) == 1
}

func cCountingAddU64(c *cCounting, ids []uint64) error {
	return checkOn(c, C.seen_counting_add_u64(c, (*C.uint64_t)(u64Ptr(ids)), C.size_t(len(ids))))
}

// cCountingRemoveU64 writes len(ids) flags to removed, or none if removed is nil.
func cCountingRemoveU64(c *cCounting, ids []uint64, removed unsafe.Pointer) error {
	return checkOn(c, C.seen_counting_remove_u64(c, (*C.uint64_t)(u64Ptr(ids)), C.size_t(len(ids)),
		(*C.uint8_t)(removed)))
}

func cCountingContainsU64(c *cCounting, ids []uint64, out unsafe.Pointer) error {
	return checkOn(c, C.seen_counting_contains_u64(c, (*C.uint64_t)(u64Ptr(ids)), C.size_t(len(ids)),
		(*C.uint8_t)(out)))
}

// The key batches take at least one key, with offsets already checked (Keys.validate).
func cCountingAddKeys(c *cCounting, data []byte, offsets []uint64) error {
	return checkOn(c, C.seen_counting_add_keys(c, (*C.uint8_t)(keyData(data)),
		(*C.uint64_t)(u64Ptr(offsets)), C.size_t(len(offsets)-1)))
}

func cCountingRemoveKeys(c *cCounting, data []byte, offsets []uint64, removed unsafe.Pointer) error {
	return checkOn(c, C.seen_counting_remove_keys(c, (*C.uint8_t)(keyData(data)),
		(*C.uint64_t)(u64Ptr(offsets)), C.size_t(len(offsets)-1), (*C.uint8_t)(removed)))
}

func cCountingContainsKeys(c *cCounting, data []byte, offsets []uint64, out unsafe.Pointer) error {
	return checkOn(c, C.seen_counting_contains_keys(c, (*C.uint8_t)(keyData(data)),
		(*C.uint64_t)(u64Ptr(offsets)), C.size_t(len(offsets)-1), (*C.uint8_t)(out)))
}

// Scalable filters.

// cScalableCreate: a nil key is no key (opts.Seed then hashes); any other key, even an empty
// one, is lent for the call only, and C checks its length.
func cScalableCreate(o ScalableOptions, key []byte) (c *cScalable, err error) {
	opts := C.seen_scalable_options{
		initial_capacity: C.uint64_t(o.InitialCapacity),
		fpr:              C.double(o.FPR),
		growth:           C.double(o.Growth),
		tightening:       C.double(o.Tightening),
		seed:             C.uint64_t(o.Seed),
	}
	opts.size = C.sizeof_seen_scalable_options
	var free func()
	opts.key, opts.key_len, free = keyInC(key)
	defer free()
	err = made(func(e *C.seen_error) C.seen_status { return C.seen_scalable_create(&opts, &c, e) })
	return c, err
}

// cScalableOpen: a nil key is no key.
func cScalableOpen(path string, readOnly bool, key []byte) (c *cScalable, err error) {
	err = madeAt(path, func(p *C.char, e *C.seen_error) C.seen_status {
		return C.seen_scalable_open_keyed(p, openFlags(readOnly, privateCopy), cKey(key), C.size_t(len(key)), &c, e)
	})
	return c, err
}

// cScalableDeserialize: a nil key is no key.
func cScalableDeserialize(b, key []byte) (c *cScalable, err error) {
	err = made(func(e *C.seen_error) C.seen_status {
		if key == nil {
			return C.seen_scalable_deserialize(cBytes(b), C.size_t(len(b)), &c, e)
		}
		return C.seen_scalable_deserialize_keyed(cBytes(b), C.size_t(len(b)), cKey(key), C.size_t(len(key)), &c, e)
	})
	return c, err
}

func cScalableMarshal(c *cScalable) ([]byte, error) {
	return serialized(func(buf *C.uint8_t, n C.size_t, written *C.size_t) error {
		return checkOn(c, C.seen_scalable_serialize(c, buf, n, written))
	})
}

func cScalableSave(c *cScalable, path string) error {
	return withPath(path, func(p *C.char) error { return checkOn(c, C.seen_scalable_save(c, p)) })
}

func cScalableFree(c *cScalable) { C.seen_scalable_free(c) }

func cScalableInfo(c *cScalable) (ScalableInfo, error) {
	i := C.seen_scalable_info{size: C.sizeof_seen_scalable_info}
	if err := checkOn(c, C.seen_scalable_get_info(c, &i)); err != nil {
		return ScalableInfo{}, err
	}
	return ScalableInfo{
		Items:        uint64(i.items),
		SubFilters:   int(i.subfilters),
		ReadOnly:     i.read_only != 0,
		Bytes:        uint64(i.bytes),
		PredictedFPR: float64(i.predicted_fpr),
		Options: ScalableOptions{
			InitialCapacity: uint64(i.initial_capacity),
			FPR:             float64(i.fpr),
			Growth:          float64(i.growth),
			Tightening:      float64(i.tightening),
			Seed:            uint64(i.seed),
		},
	}, nil
}

func cScalablePutU64(c *cScalable, id uint64) (bool, error) {
	var present C.uint8_t
	err := checkOn(c, C.seen_scalable_add_one_u64(c, C.uint64_t(id), &present))
	return present != 0, err
}

func cScalablePutKey(c *cScalable, key unsafe.Pointer, n int) (bool, error) {
	var present C.uint8_t
	err := checkOn(c, C.seen_scalable_add_one_key(c, key, C.size_t(n), &present))
	return present != 0, err
}

func cScalableTestU64(c *cScalable, id uint64) bool {
	return C.seen_scalable_contains_one_u64(c, C.uint64_t(id)) == 1
}

func cScalableTestKey(c *cScalable, key unsafe.Pointer, n int) bool {
	return C.seen_scalable_contains_one_key(c, key, C.size_t(n)) == 1
}

func cScalableAddU64(c *cScalable, ids []uint64) error {
	return checkOn(c, C.seen_scalable_add_u64(c, (*C.uint64_t)(u64Ptr(ids)), C.size_t(len(ids))))
}

func cScalableContainsU64(c *cScalable, ids []uint64, out unsafe.Pointer) error {
	return checkOn(c, C.seen_scalable_contains_u64(c, (*C.uint64_t)(u64Ptr(ids)), C.size_t(len(ids)),
		(*C.uint8_t)(out)))
}

func cScalableAddKeys(c *cScalable, data []byte, offsets []uint64) error {
	return checkOn(c, C.seen_scalable_add_keys(c, (*C.uint8_t)(keyData(data)),
		(*C.uint64_t)(u64Ptr(offsets)), C.size_t(len(offsets)-1)))
}

func cScalableContainsKeys(c *cScalable, data []byte, offsets []uint64, out unsafe.Pointer) error {
	return checkOn(c, C.seen_scalable_contains_keys(c, (*C.uint8_t)(keyData(data)),
		(*C.uint64_t)(u64Ptr(offsets)), C.size_t(len(offsets)-1), (*C.uint8_t)(out)))
}
