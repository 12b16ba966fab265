package seen

import (
	"runtime"
	"unsafe"
)

// BloomFilter is a blocked Bloom filter owned by libseen. Its memory lives in C (or in a mapped
// file), never in the Go heap, so a BloomFilter costs the garbage collector nothing.
//
// Adds and tests may run concurrently from many goroutines. Merge, Clear, ReadFrom,
// UnmarshalBinary, Sync and Close need exclusive access, as in the C API.
//
// Call Close when done; a finalizer frees a forgotten BloomFilter, but only when the garbage
// collector gets round to it, and it cannot report a failed sync of a mapped file.
//
// Its key, batch and file methods are those every filter shares (filter_base.go).
type BloomFilter struct {
	filter[*cFilter, bloomFacts]
}

// handle owns the C filter and caches its facts (handle.go).
type handle = owned[*cFilter, bloomFacts]

// bloomFacts are what a BloomFilter reads once: its parameters, and the probe that answers
// TestUint64 in Go (nil for a keyed filter: its hash is SipHash under a key Go never holds).
type bloomFacts struct {
	BloomParams
	probe *blockProbe
}

var bloomCalls = filterCalls[*cFilter, bloomFacts]{cPutU64, cPutKey, testU64InGo, testKeyInGo, cAddU64sOf[*cFilter], cContainsU64sOf[*cFilter],
	cAddKeysOf[*cFilter], cContainsKeysOf[*cFilter], cMarshalOf[*cFilter], cSaveOf[*cFilter]}

// TestUint64 is Test for an integer id. The filter's own method, not the shared one: the
// single-key path users take most goes straight to the Go probe, with no call through the
// kind's table of calls.
func (f *BloomFilter) TestUint64(id uint64) bool {
	h, err := f.live()
	if err != nil {
		panic(err)
	}
	found := testU64InGo(h, id)
	runtime.KeepAlive(h) // the probe reads memory that h's finalizer frees
	return found
}

// Test reports whether key may have been added: false is certain, true is right but for the
// false-positive rate. It panics on a closed filter. Keys of up to 128 bytes in an unkeyed
// filter are answered in Go, as TestUint64's are.
func (f *BloomFilter) Test(key []byte) bool {
	h, err := f.live()
	if err != nil {
		panic(err)
	}
	found := testKeyInGo(h, bytesPtr(key), len(key))
	runtime.KeepAlive(h) // the probe reads memory that h's finalizer frees
	return found
}

// TestString is Test for a string key: its bytes are read in place, not copied.
func (f *BloomFilter) TestString(key string) bool {
	return f.Test(unsafe.Slice(unsafe.StringData(key), len(key)))
}

// testU64InGo and testKeyInGo probe an unkeyed filter's blocks from Go, without a cgo call
// (probe.go).
func testU64InGo(h *handle, id uint64) bool {
	return testU64Or(h.meta.probe, h.c, id, cTestU64Of[*cFilter])
}

func testKeyInGo(h *handle, key unsafe.Pointer, n int) bool {
	return testKeyOr(h.meta.probe, h.c, key, n, cTestKeyOf[*cFilter])
}

// DefaultSeed is the seed of New: the same as the seen CLI's, so files built by either
// agree byte for byte. Pass a secret seed to NewWithSeed if adversaries choose the keys.
const DefaultSeed uint64 = 0

// DefaultFPR is the rate to pass where a caller has no reason to choose, seen.New(n,
// seen.DefaultFPR): the C library's SEEN_DEFAULT_FPR and the seen CLI's default.
const DefaultFPR = 0.01

// New is an empty filter for n expected items at false-positive rate fpr, in (0, 1).
func New(n uint64, fpr float64) (*BloomFilter, error) { return NewWithSeed(n, fpr, DefaultSeed) }

// NewWithSeed is New with the hash seed given; the seed is stored in the filter.
func NewWithSeed(n uint64, fpr float64, seed uint64) (*BloomFilter, error) {
	return adopt(cCreate(n, fpr, seed, nil))
}

// NewWithBytes is an empty filter of a memory budget (rounded up to 64-byte blocks), with
// the k that suits n items best.
func NewWithBytes(n uint64, bytes uint64, seed uint64) (*BloomFilter, error) {
	return adopt(cCreateBytes(n, bytes, seed))
}

// NewKeyed is an empty keyed filter (docs/SECURITY.md): its keys hash with SipHash-1-3
// under the secret key (16 to 64 bytes), so whoever chooses them cannot aim them at the
// filter without it. No file holds the key: a keyed filter's file and bytes open only with
// it (OpenKeyed, UnmarshalKeyed); a missing or wrong key is ErrIncompatible.
func NewKeyed(n uint64, fpr float64, key []byte) (*BloomFilter, error) {
	return adopt(cCreate(n, fpr, 0, secret(key)))
}

// OpenKeyed is Open for a keyed filter's file, with its key.
func OpenKeyed(path string, readOnly bool, key []byte) (*BloomFilter, error) {
	return adopt(cOpenAs[*cFilter](path, readOnly, secret(key)))
}

// UnmarshalKeyed is a keyed filter copied from its serialized bytes, with its key.
func UnmarshalKeyed(data, key []byte) (*BloomFilter, error) {
	return adopt(cDeserializeAs[*cFilter](data, secret(key)))
}

// Open maps a file written by Save (or the seen CLI). readOnly maps it for queries only:
// every add then fails with ErrReadOnly. Otherwise the mapping is shared and changes reach
// the file on Sync and Close.
func Open(path string, readOnly bool) (*BloomFilter, error) {
	return adopt(cOpenAs[*cFilter](path, readOnly, nil))
}

// adopt wraps a freshly made C filter (or passes its error on), caching its fixed parameters.
func adopt(c *cFilter, err error) (*BloomFilter, error) {
	wrap := func(h *handle) *BloomFilter { return &BloomFilter{filter[*cFilter, bloomFacts]{h, &bloomCalls}} }
	return adoptAs(wrap, c, err, cFacts, cFree)
}

// Sync writes a read-write mapped filter back to its file (checksums, then msync). For any
// other filter it does nothing.
func (f *BloomFilter) Sync() error {
	return withC(f.live, cSync)
}

// Close syncs a read-write mapped filter, then frees the filter. Closing twice is a no-op;
// any other use after Close returns ErrClosed. (C's sync does nothing for any other filter.)
func (f *BloomFilter) Close() error {
	if f == nil {
		return nil
	}
	return closeOwned(&f.h, cSync)
}
