package seen

// The C calls of the counting and scalable filters (seen_counting_*, seen_scalable_*) that
// are theirs alone (the ones every filter has are capi_kinds.go's), kept apart from capi.go
// so that each family of handles has its own small cgo file, by capi.go's rules
// (seen_counting_view, which would keep Go memory, is not used).

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

// cCountingRemoveU64 writes len(ids) flags to removed, or none if removed is nil.
func cCountingRemoveU64(c *cCounting, ids []uint64, removed unsafe.Pointer) error {
	return checkOn(c, C.seen_counting_remove_u64(c, (*C.uint64_t)(u64Ptr(ids)), C.size_t(len(ids)),
		(*C.uint8_t)(removed)))
}

func cCountingRemoveKeys(c *cCounting, data []byte, offsets []uint64, removed unsafe.Pointer) error {
	return checkOn(c, C.seen_counting_remove_keys(c, (*C.uint8_t)(keyData(data)),
		(*C.uint64_t)(u64Ptr(offsets)), C.size_t(len(offsets)-1), (*C.uint8_t)(removed)))
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
