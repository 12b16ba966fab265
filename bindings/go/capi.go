package seen

// With capi_counting.go, capi_kinds.go and capi_minhash.go, the only files that speak C. They
// call seen.h directly: a failed call on a handle is followed by seen_<kind>_last_error on it,
// and a call without one gets a seen_error to fill (docs/errors.md). Neither depends on the
// OS thread, so a goroutine that moves between threads, or another goroutine failing on the
// same thread, cannot mix up messages. Go memory is only lent for the duration of one call.
//
// Where cgo finds <seen/seen.h> and libseen: pkg-config's seen.pc, installed by
// `meson install` (set PKG_CONFIG_PATH for a custom prefix). meson test points it at the
// build tree's seen-uninstalled.pc, and CGO_CFLAGS at include/ for the header.

/*
#cgo pkg-config: seen
#include <stdlib.h>
#include <seen/seen.h>
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

// The open modes of seen.h: a BloomFilter's and a CountingFilter's writes go to the file in place,
// a ScalableFilter's and an ExposureStore's to a private copy (they grow), saved only by Save.
const (
	writeInPlace C.uint32_t = C.SEEN_OPEN_WRITE_IN_PLACE
	privateCopy  C.uint32_t = C.SEEN_OPEN_PRIVATE_COPY
)

// openFlags is SEEN_OPEN_READ_ONLY, or the kind's writable mode.
func openFlags(readOnly bool, writable C.uint32_t) C.uint32_t {
	if readOnly {
		return C.SEEN_OPEN_READ_ONLY
	}
	return writable
}

// withPath lends call a C copy of path, freed once the call returns.
func withPath(path string, call func(cpath *C.char) error) error {
	cpath := C.CString(path)
	defer C.free(unsafe.Pointer(cpath))
	return call(cpath)
}

// madeAt is made for a call on a file: path is lent to it as a C string.
func madeAt(path string, call func(cpath *C.char, e *C.seen_error) C.seen_status) error {
	return withPath(path, func(p *C.char) error {
		return made(func(e *C.seen_error) C.seen_status { return call(p, e) })
	})
}

// serialized is a handle's serialized form in a Go slice of its exact size. serialize, a
// seen_*_serialize call bound to the handle, is asked for the size first (no buffer), then
// to write.
func serialized(serialize func(buf *C.uint8_t, n C.size_t, written *C.size_t) error) ([]byte, error) {
	var n C.size_t
	if err := serialize(nil, 0, &n); err != nil {
		return nil, err
	}
	if n == 0 {
		return nil, &Error{Status: ErrInternal, Message: "serialized size 0"}
	}
	b := make([]byte, int(n))
	var written C.size_t
	if err := serialize((*C.uint8_t)(unsafe.Pointer(&b[0])), n, &written); err != nil {
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

// cCreate: a nil key is no key, and seed hashes; with a key, seed is 0.
func cCreate(n uint64, fpr float64, seed uint64, key []byte) (c *cFilter, err error) {
	err = made(func(e *C.seen_error) C.seen_status {
		if key == nil {
			return C.seen_bloom_create(C.uint64_t(n), C.double(fpr), C.uint64_t(seed), &c, e)
		}
		return C.seen_bloom_create_keyed(C.uint64_t(n), C.double(fpr), cKey(key), C.size_t(len(key)), &c, e)
	})
	return c, err
}

func cCreateBytes(n, bytes, seed uint64) (c *cFilter, err error) {
	err = made(func(e *C.seen_error) C.seen_status {
		return C.seen_bloom_create_bytes(C.uint64_t(n), C.uint64_t(bytes), C.uint64_t(seed), &c, e)
	})
	return c, err
}

// cSerializedSize and cSerialize stage the serialized filter in C memory (WriteTo).
func cSerializedSize(c *cFilter) (int, error) {
	var n C.size_t
	err := checkOn(c, C.seen_bloom_serialize(c, nil, 0, &n))
	return int(n), err
}

func cSerialize(c *cFilter, buf unsafe.Pointer, n int) error {
	var written C.size_t
	return checkOn(c, C.seen_bloom_serialize(c, (*C.uint8_t)(buf), C.size_t(n), &written))
}

func cMalloc(n int) unsafe.Pointer { return C.malloc(C.size_t(n)) }
func cFreeBytes(p unsafe.Pointer)  { C.free(p) }

func cFree(c *cFilter)               { C.seen_bloom_free(c) }
func cSync(c *cFilter) error         { return checkOn(c, C.seen_bloom_sync(c)) }
func cClear(c *cFilter) error        { return checkOn(c, C.seen_bloom_clear(c)) }
func cMerge(dst, src *cFilter) error { return checkOn(dst, C.seen_bloom_merge(dst, src)) }

func cIntersect(dst, src *cFilter) error { return checkOn(dst, C.seen_bloom_intersect(dst, src)) }

func cCovers(a, b *cFilter) (bool, error) {
	var covers C.int
	err := checkOn(a, C.seen_bloom_covers(a, b, &covers))
	return covers == 1, err
}

// cCopy copies with seen_bloom_copy, not through bytes: a keyed filter's bytes do not hold
// its key, so they would not open again.
func cCopy(c *cFilter) (out *cFilter, err error) {
	err = checkOn(c, C.seen_bloom_copy(c, &out))
	return out, err
}

// cFacts reads what a BloomFilter caches: its parameters and, unless it is keyed, the probe
// over its blocks.
func cFacts(c *cFilter) (bloomFacts, error) {
	p := C.seen_bloom_info{size: C.sizeof_seen_bloom_info}
	if err := checkOn(c, C.seen_bloom_get_info(c, &p)); err != nil {
		return bloomFacts{}, err
	}
	facts := bloomFacts{BloomParams: BloomParams{
		Bytes:         uint64(p.bytes),
		Blocks:        uint64(p.blocks),
		K:             uint32(p.k),
		ReadOnly:      p.read_only != 0,
		Seed:          uint64(p.seed),
		ExpectedItems: uint64(p.expected_items),
		TargetFPR:     float64(p.target_fpr),
		Keyed:         p.keyed != 0,
	}}
	var err error
	facts.probe, err = lentProbe(c, facts.Keyed, facts.Blocks, facts.K, facts.Seed,
		func(c *cFilter, blocks **C.uint8_t) C.seen_status { return C.seen_bloom_get_blocks(c, blocks) })
	return facts, err
}

// lentProbe is the Go probe over the blocks that lend lends (probe.go), or nil for a keyed
// filter: its hash is SipHash under a key Go never holds.
func lentProbe[H cHandle](c H, keyed bool, blocks uint64, k uint32, seed uint64,
	lend func(H, **C.uint8_t) C.seen_status) (*blockProbe, error) {
	if keyed {
		return nil, nil
	}
	var at *C.uint8_t
	if err := checkOn(c, lend(c, &at)); err != nil {
		return nil, err
	}
	return newBlockProbe(unsafe.Pointer(at), blocks, k, seed), nil
}

func cStats(c *cFilter) (BloomStats, error) {
	s := C.seen_bloom_stats{size: C.sizeof_seen_bloom_stats}
	if err := checkOn(c, C.seen_bloom_get_stats(c, &s)); err != nil {
		return BloomStats{}, err
	}
	return BloomStats{
		FillRatio:    float64(s.fill_ratio),
		ApproxItems:  float64(s.approx_items),
		PredictedFPR: float64(s.predicted_fpr),
	}, nil
}

func cPutU64(c *cFilter, id uint64) (bool, error) {
	var present C.uint8_t
	err := checkOn(c, C.seen_bloom_add_one_u64(c, C.uint64_t(id), &present))
	return present != 0, err
}

func cPutKey(c *cFilter, key unsafe.Pointer, n int) (bool, error) {
	var present C.uint8_t
	err := checkOn(c, C.seen_bloom_add_one_key(c, key, C.size_t(n), &present))
	return present != 0, err
}

// Windows. now is a uint32 on the Go side, so the C API's "at most 2^32 - 1" always holds.

func cWindowOptions(o WindowOptions) C.seen_window_options {
	return C.seen_window_options{
		size:           C.sizeof_seen_window_options,
		mode:           C.uint32_t(o.Mode),
		span:           C.uint32_t(o.Span),
		expected_items: C.uint32_t(o.ExpectedItems),
		fpr:            C.double(o.FPR),
		max_slack:      C.double(o.MaxSlack),
		seed:           C.uint64_t(o.Seed),
		max_bytes:      C.uint64_t(o.MaxBytes),
	}
}

// windowInfoBy is the WindowInfo that get fills in on c: a window's own, or a store's
// windows'.
func windowInfoBy[H cHandle](c H, get func(H, *C.seen_window_info) C.seen_status) (WindowInfo, error) {
	i := C.seen_window_info{size: C.sizeof_seen_window_info}
	if err := checkOn(c, get(c, &i)); err != nil {
		return WindowInfo{}, err
	}
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
	}, nil
}

// cWindowCreate: a nil key is no key.
func cWindowCreate(o WindowOptions, now uint32, key []byte) (c *cWindow, err error) {
	opts := cWindowOptions(o)
	var free func()
	opts.key, opts.key_len, free = keyInC(key)
	defer free()
	err = made(func(e *C.seen_error) C.seen_status { return C.seen_window_create(&opts, C.uint64_t(now), &c, e) })
	return c, err
}

func cWindowFree(c *cWindow) { C.seen_window_free(c) }

func cWindowInfo(c *cWindow) (WindowInfo, error) {
	return windowInfoBy(c, func(c *cWindow, i *C.seen_window_info) C.seen_status { return C.seen_window_get_info(c, i) })
}

func cWindowAddOneU64(c *cWindow, id uint64, now uint32) error {
	one := C.uint64_t(id)
	return checkOn(c, C.seen_window_add_u64(c, &one, 1, C.uint64_t(now)))
}

// A single-key window test fails only for NULL arguments or now past 2^32 - 1, which the
// callers rule out: a failure is a bug in this binding, so it panics.
func cWindowTestOneU64(c *cWindow, id uint64, now uint32) bool {
	one := C.uint64_t(id)
	var present C.uint8_t
	if err := checkOn(c, C.seen_window_contains_u64(c, &one, 1, C.uint64_t(now), &present)); err != nil {
		panic(err)
	}
	return present != 0
}

// oneKey is the offsets of a batch of one key of n bytes.
func oneKey(n int) [2]C.uint64_t { return [2]C.uint64_t{0, C.uint64_t(n)} }

func cWindowAddOneKey(c *cWindow, key unsafe.Pointer, n int, now uint32) error {
	offsets := oneKey(n)
	return checkOn(c, C.seen_window_add_keys(c, (*C.uint8_t)(key), &offsets[0], 1, C.uint64_t(now)))
}

func cWindowTestOneKey(c *cWindow, key unsafe.Pointer, n int, now uint32) bool {
	offsets := oneKey(n)
	var present C.uint8_t
	if err := checkOn(c, C.seen_window_contains_keys(c, (*C.uint8_t)(key), &offsets[0], 1, C.uint64_t(now), &present)); err != nil {
		panic(err)
	}
	return present != 0
}

func cWindowAddU64(c *cWindow, ids []uint64, now uint32) error {
	return checkOn(c, C.seen_window_add_u64(c, (*C.uint64_t)(u64Ptr(ids)), C.size_t(len(ids)), C.uint64_t(now)))
}

func cWindowContainsU64(c *cWindow, ids []uint64, now uint32, out unsafe.Pointer) error {
	return checkOn(c, C.seen_window_contains_u64(c, (*C.uint64_t)(u64Ptr(ids)), C.size_t(len(ids)),
		C.uint64_t(now), (*C.uint8_t)(out)))
}

func cWindowAddKeys(c *cWindow, data []byte, offsets []uint64, now uint32) error {
	return checkOn(c, C.seen_window_add_keys(c, (*C.uint8_t)(keyData(data)), (*C.uint64_t)(u64Ptr(offsets)),
		C.size_t(len(offsets)-1), C.uint64_t(now)))
}

func cWindowContainsKeys(c *cWindow, data []byte, offsets []uint64, now uint32, out unsafe.Pointer) error {
	return checkOn(c, C.seen_window_contains_keys(c, (*C.uint8_t)(keyData(data)), (*C.uint64_t)(u64Ptr(offsets)),
		C.size_t(len(offsets)-1), C.uint64_t(now), (*C.uint8_t)(out)))
}

// Stores.

// cStoreCreate: a nil key is no key.
func cStoreCreate(o StoreOptions, idleTimeout uint32, key []byte) (c *cStore, err error) {
	// seen_store_options points at the window's options, and cgo may not pass C a Go
	// struct that holds a Go pointer: both live in C memory for the call.
	w := (*C.seen_window_options)(C.malloc(C.sizeof_seen_window_options))
	defer C.free(unsafe.Pointer(w))
	*w = cWindowOptions(o.Window)
	var free func()
	w.key, w.key_len, free = keyInC(key)
	defer free()
	opts := (*C.seen_store_options)(C.malloc(C.sizeof_seen_store_options))
	defer C.free(unsafe.Pointer(opts))
	*opts = C.seen_store_options{
		size:           C.sizeof_seen_store_options,
		window:         w,
		idle_timeout:   C.uint32_t(idleTimeout),
		max_bytes:      C.uint64_t(o.MaxBytes),
		expected_users: C.uint64_t(o.ExpectedUsers),
	}
	err = made(func(e *C.seen_error) C.seen_status { return C.seen_store_create(opts, &c, e) })
	return c, err
}

// cStoreOpen: a nil key is no key.
func cStoreOpen(path string, readOnly, verify bool, key []byte) (c *cStore, err error) {
	flags := openFlags(readOnly, privateCopy)
	if !verify {
		flags |= C.SEEN_OPEN_NO_VERIFY
	}
	err = madeAt(path, func(p *C.char, e *C.seen_error) C.seen_status {
		return C.seen_store_open_keyed(p, flags, cKey(key), C.size_t(len(key)), &c, e)
	})
	return c, err
}

func cStoreFree(c *cStore) { C.seen_store_free(c) }

func cStoreWindowInfo(c *cStore) (WindowInfo, error) {
	return windowInfoBy(c, func(c *cStore, i *C.seen_window_info) C.seen_status { return C.seen_store_get_window_info(c, i) })
}

func cStoreStats(c *cStore) (StoreStats, error) {
	s := C.seen_store_stats{size: C.sizeof_seen_store_stats}
	if err := checkOn(c, C.seen_store_get_stats(c, &s)); err != nil {
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
	return checkOn(c, C.seen_store_filter(c, C.uint64_t(user), (*C.uint64_t)(u64Ptr(candidates)),
		C.size_t(len(candidates)), C.uint64_t(now), (*C.uint8_t)(out)))
}

func cStoreMark(c *cStore, user uint64, items []uint64, now uint32) error {
	return checkOn(c, C.seen_store_mark(c, C.uint64_t(user), (*C.uint64_t)(u64Ptr(items)),
		C.size_t(len(items)), C.uint64_t(now)))
}

// cStoreTake takes up to len(taken) candidates into taken and returns how many.
func cStoreTake(c *cStore, user uint64, candidates []uint64, now uint32, taken []uint64) (int, error) {
	var count C.size_t
	err := checkOn(c, C.seen_store_take(c, C.uint64_t(user), (*C.uint64_t)(u64Ptr(candidates)),
		C.size_t(len(candidates)), C.size_t(len(taken)), C.uint64_t(now),
		(*C.uint64_t)(u64Ptr(taken)), &count))
	return int(count), err
}

func cStoreExpire(c *cStore, now uint32) (uint64, error) {
	var dropped C.uint64_t
	err := checkOn(c, C.seen_store_expire(c, C.uint64_t(now), &dropped))
	return uint64(dropped), err
}

func cStoreSave(c *cStore, path string) error {
	return withPath(path, func(p *C.char) error { return checkOn(c, C.seen_store_save(c, p)) })
}

// SimHash. Text options travel as plain values (ngram, seed) and the IDF table's C pointer,
// which the caller keeps alive across the call.

// cSimHashOptions holds plain values and the IDF table's C pointer, so Go may lend it to C.
func cSimHashOptions(o textOptions) C.seen_simhash_options {
	return C.seen_simhash_options{
		size:  C.sizeof_seen_simhash_options,
		ngram: C.uint32_t(o.cNgram()),
		seed:  C.uint64_t(o.seed),
		idf:   o.idfC(),
	}
}

func cSimHashText(text unsafe.Pointer, n int, o textOptions) (TextFingerprint, error) {
	f := C.seen_simhash_fingerprint{size: C.sizeof_seen_simhash_fingerprint}
	opts := cSimHashOptions(o)
	err := made(func(e *C.seen_error) C.seen_status {
		return C.seen_simhash_text((*C.char)(text), C.size_t(n), &opts, &f, e)
	})
	return TextFingerprint{
		SimHash:  uint64(f.simhash),
		Exact:    ExactFingerprint{High: uint64(f.exact_high), Low: uint64(f.exact_low)},
		Features: uint64(f.features),
	}, err
}

// cSimHashTexts fingerprints a batch of at least one text (offsets checked against data);
// exact is nil or room for 2n values.
func cSimHashTexts(data []byte, offsets []uint64, o textOptions, simhashes []uint64, exact unsafe.Pointer) error {
	opts := cSimHashOptions(o)
	return made(func(e *C.seen_error) C.seen_status {
		return C.seen_simhash_text_batch((*C.uint8_t)(keyData(data)), (*C.uint64_t)(u64Ptr(offsets)),
			C.size_t(len(offsets)-1), &opts, (*C.uint64_t)(u64Ptr(simhashes)), (*C.uint64_t)(exact), e)
	})
}

// cSimHashHashes: weights is nil or as long as hashes.
func cSimHashHashes(hashes []uint64, weights []float32) (uint64, error) {
	var out C.uint64_t
	err := made(func(e *C.seen_error) C.seen_status {
		return C.seen_simhash_hashes((*C.uint64_t)(u64Ptr(hashes)), (*C.float)(f32Ptr(weights)),
			C.size_t(len(hashes)), &out, e)
	})
	return uint64(out), err
}

// cSimHashStrings: n features (n+1 offsets checked against data, or none for n = 0);
// weights nil or one per feature; a nil key is no key.
func cSimHashStrings(data []byte, offsets []uint64, n int, weights []float32, seed uint64, key []byte) (uint64, error) {
	var out C.uint64_t
	err := made(func(e *C.seen_error) C.seen_status {
		d, o, w := (*C.uint8_t)(keyData(data)), (*C.uint64_t)(u64Ptr(offsets)), (*C.float)(f32Ptr(weights))
		if key == nil {
			return C.seen_simhash_strings(d, o, w, C.size_t(n), C.uint64_t(seed), &out, e)
		}
		return C.seen_simhash_strings_keyed(d, o, w, C.size_t(n), C.uint64_t(seed), cKey(key), C.size_t(len(key)), &out, e)
	})
	return uint64(out), err
}

func cDistance(a, b uint64) int { return int(C.seen_simhash_distance(C.uint64_t(a), C.uint64_t(b))) }

// cIDFCreate: offsets has n+1 entries checked against data (or is empty), weights n.
func cIDFCreate(data []byte, offsets []uint64, weights []float32, defaultWeight float32) (c *cIDF, err error) {
	n := 0
	if len(offsets) > 0 {
		n = len(offsets) - 1
	}
	err = made(func(e *C.seen_error) C.seen_status {
		return C.seen_simhash_idf_create((*C.uint8_t)(keyData(data)), (*C.uint64_t)(u64Ptr(offsets)),
			(*C.float)(f32Ptr(weights)), C.size_t(n), C.float(defaultWeight), &c, e)
	})
	return c, err
}

func cIDFFree(c *cIDF) { C.seen_simhash_idf_free(c) }

func cIndexCreate(maxK uint32) (c *cIndex, err error) {
	err = made(func(e *C.seen_error) C.seen_status { return C.seen_simhash_index_create(C.uint32_t(maxK), &c, e) })
	return c, err
}

func cIndexFree(c *cIndex) { C.seen_simhash_index_free(c) }

// cIndexAdd: fps and ids of equal length.
func cIndexAdd(c *cIndex, fps, ids []uint64) error {
	return checkOn(c, C.seen_simhash_index_add(c, (*C.uint64_t)(u64Ptr(fps)), (*C.uint64_t)(u64Ptr(ids)),
		C.size_t(len(ids))))
}

func cIndexAddOne(c *cIndex, fp, id uint64) error {
	oneFp, oneID := C.uint64_t(fp), C.uint64_t(id)
	return checkOn(c, C.seen_simhash_index_add(c, &oneFp, &oneID, 1))
}

func cIndexRemove(c *cIndex, ids []uint64) (uint64, error) {
	var removed C.uint64_t
	err := checkOn(c, C.seen_simhash_index_remove(c, (*C.uint64_t)(u64Ptr(ids)), C.size_t(len(ids)), &removed))
	return uint64(removed), err
}

func cIndexBuild(c *cIndex) error { return checkOn(c, C.seen_simhash_index_build(c)) }

// cIndexQuery writes up to len(ids) matches (distances as long as ids) and returns how many
// there are; more than len(ids) comes with ErrBufferTooSmall.
func cIndexQuery(c *cIndex, fp uint64, k uint32, ids []uint64, distances []uint32) (int, error) {
	var found C.size_t
	err := checkOn(c, C.seen_simhash_index_query(c, C.uint64_t(fp), C.uint32_t(k), (*C.uint64_t)(u64Ptr(ids)),
		(*C.uint32_t)(u32Ptr(distances)), C.size_t(len(ids)), &found))
	return int(found), err
}

func cIndexAnyOne(c *cIndex, fp uint64, k uint32) (bool, error) {
	one := C.uint64_t(fp)
	var present C.uint8_t
	err := checkOn(c, C.seen_simhash_index_any(c, &one, 1, C.uint32_t(k), &present))
	return present != 0, err
}

// cIndexAny writes len(fps) answers to out, whose length the caller has checked.
func cIndexAny(c *cIndex, fps []uint64, k uint32, out unsafe.Pointer) error {
	return checkOn(c, C.seen_simhash_index_any(c, (*C.uint64_t)(u64Ptr(fps)), C.size_t(len(fps)), C.uint32_t(k),
		(*C.uint8_t)(out)))
}

// cIndexQueryBatch: offsets has room for len(fps)+1, distances as long as ids.
func cIndexQueryBatch(c *cIndex, fps []uint64, k uint32, offsets, ids []uint64, distances []uint32) error {
	return checkOn(c, C.seen_simhash_index_query_batch(c, (*C.uint64_t)(u64Ptr(fps)), C.size_t(len(fps)),
		C.uint32_t(k), (*C.uint64_t)(u64Ptr(offsets)), (*C.uint64_t)(u64Ptr(ids)),
		(*C.uint32_t)(u32Ptr(distances)), C.size_t(len(ids))))
}

// cIndexClusters: groups as long as ids; returns the index size.
func cIndexClusters(c *cIndex, k uint32, ids []uint64, groups []uint32) (int, error) {
	var count C.size_t
	err := checkOn(c, C.seen_simhash_index_clusters(c, C.uint32_t(k), (*C.uint64_t)(u64Ptr(ids)),
		(*C.uint32_t)(u32Ptr(groups)), C.size_t(len(ids)), &count))
	return int(count), err
}

func cIndexInfo(c *cIndex) (SimHashIndexInfo, error) {
	i := C.seen_simhash_index_info{size: C.sizeof_seen_simhash_index_info}
	if err := checkOn(c, C.seen_simhash_index_get_info(c, &i)); err != nil {
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
	return serialized(func(buf *C.uint8_t, n C.size_t, written *C.size_t) error {
		return checkOn(c, C.seen_simhash_index_serialize(c, buf, n, written))
	})
}

func cIndexDeserialize(b []byte) (c *cIndex, err error) {
	err = made(func(e *C.seen_error) C.seen_status {
		return C.seen_simhash_index_deserialize(cBytes(b), C.size_t(len(b)), &c, e)
	})
	return c, err
}

func cIndexSave(c *cIndex, path string) error {
	return withPath(path, func(p *C.char) error { return checkOn(c, C.seen_simhash_index_save(c, p)) })
}

func cIndexOpen(path string, verify bool) (c *cIndex, err error) {
	flags := C.uint32_t(C.SEEN_OPEN_READ_ONLY)
	if !verify {
		flags |= C.SEEN_OPEN_NO_VERIFY
	}
	err = madeAt(path, func(p *C.char, e *C.seen_error) C.seen_status { return C.seen_simhash_index_open(p, flags, &c, e) })
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

// cKey is a key argument of seen.h: NULL for no key (nil), else the key's bytes, never NULL
// even for an empty key, which C then refuses as too short rather than take it for none.
func cKey(key []byte) *C.uint8_t {
	if key == nil {
		return nil
	}
	return (*C.uint8_t)(keyData(key))
}

// keyInC is cKey for an options struct that points at the key: a copy in C memory, since cgo
// may not pass C a Go struct that holds a Go pointer (C.CBytes of no bytes is still not
// NULL). free releases it.
func keyInC(key []byte) (p *C.uint8_t, n C.size_t, free func()) {
	if key == nil {
		return nil, 0, func() {}
	}
	p = (*C.uint8_t)(C.CBytes(key))
	return p, C.size_t(len(key)), func() { C.free(unsafe.Pointer(p)) }
}

// firstOf is the first element of v, or nil for an empty slice (seen.h accepts NULL with
// n == 0). bytesPtr, u64Ptr, u32Ptr and f32Ptr name it for each element type.
func firstOf[T any](v []T) unsafe.Pointer {
	if len(v) == 0 {
		return nil
	}
	return unsafe.Pointer(&v[0])
}

func bytesPtr(b []byte) unsafe.Pointer  { return firstOf(b) }
func u64Ptr(v []uint64) unsafe.Pointer  { return firstOf(v) }
func u32Ptr(v []uint32) unsafe.Pointer  { return firstOf(v) }
func f32Ptr(v []float32) unsafe.Pointer { return firstOf(v) }
func boolsPtr(b []bool) unsafe.Pointer  { return firstOf(b) }

// cBytes is a serialized form lent to C.
func cBytes(b []byte) *C.uint8_t { return (*C.uint8_t)(bytesPtr(b)) }
