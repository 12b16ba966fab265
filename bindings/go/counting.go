package seen

import (
	"fmt"
	"io"
	"unsafe"
)

// CountingFilter is a blocked Bloom filter whose bits are 4-bit saturating counters, so keys
// can be removed (docs/counting.md). It has the blocks, k, answers and false-positive rate of
// the BloomFilter of the same n and fpr, in 5 times the memory.
//
// The remove rule: remove only keys that were added. A remove of a key that is certainly
// absent (a counter at zero) changes nothing and returns ErrNotFound. A remove of a
// never-added key that looks present (a false positive) cannot be told apart from a real
// one and may make another key a false negative. A saturated counter never changes again,
// so adds and removes of added keys never cause a false negative. A key added twice must be
// removed twice.
//
// Concurrency differs from BloomFilter: adds, removes, Clear, Sync, UnmarshalBinary and Close
// need exclusive access (one writer at a time). Tests may run from any number of goroutines,
// also while that one writer works. Stats, MarshalBinary, WriteTo and Save read the counters:
// call them with no writer active.
//
// Its memory lives in C (or in a mapped file). Call Close when done; a finalizer frees a
// forgotten CountingFilter as a backstop.
//
// Its key, batch and file methods are those every filter shares (filter_base.go); an add
// counts the key once more, if it is already there.
type CountingFilter struct {
	filter[*cCounting, countingFacts]
	key []byte // a keyed filter's key, for Copy (its bytes do not hold it); else nil
}

type countingHandle = owned[*cCounting, countingFacts]

// countingFacts are what a CountingFilter reads once: its parameters, and the probe of its
// presence blocks that answers single-key tests in Go (nil for a keyed filter), as a
// BloomFilter's does.
type countingFacts struct {
	CountingParams
	probe *blockProbe
}

var countingCalls = filterCalls[*cCounting, countingFacts]{cCountingPutU64, cCountingPutKey,
	func(h *countingHandle, id uint64) bool {
		return testU64Or(h.meta.probe, h.c, id, cTestU64Of[*cCounting])
	},
	func(h *countingHandle, key unsafe.Pointer, n int) bool {
		return testKeyOr(h.meta.probe, h.c, key, n, cTestKeyOf[*cCounting])
	},
	cAddU64sOf[*cCounting], cContainsU64sOf[*cCounting], cAddKeysOf[*cCounting],
	cContainsKeysOf[*cCounting], cMarshalOf[*cCounting], cSaveOf[*cCounting]}

// CountingParams are a counting filter's fixed parameters, read once when it is made.
type CountingParams struct {
	Bytes         uint64  // payload size: Blocks * 320 (64 bytes of presence bits, 256 of counters)
	Blocks        uint64  // as many as the BloomFilter of the same n and fpr has
	K             uint32  // counters per key
	ReadOnly      bool    // opened read-only
	Seed          uint64  // the hash seed
	ExpectedItems uint64  // as given at creation
	TargetFPR     float64 // as given at creation
	CounterBits   uint32  // 4
	Keyed         bool    // made with a key (NewCountingKeyed); Seed is then 0
}

// CountingStats describe how full a counting filter is now.
type CountingStats struct {
	ApproxItems  float64 // sum of the counters / k: exact while nothing has saturated
	Saturated    uint64  // counters stuck at 15; they never decrement
	FillRatio    float64 // non-zero counters / all counters
	PredictedFPR float64 // the false-positive rate as the filter is now
}

// NewCounting is an empty counting filter for n expected items at false-positive rate fpr,
// in (0, 1), with DefaultSeed.
func NewCounting(n uint64, fpr float64) (*CountingFilter, error) {
	return NewCountingWithSeed(n, fpr, DefaultSeed)
}

// NewCountingWithSeed is NewCounting with the hash seed given; the seed is stored in the filter.
func NewCountingWithSeed(n uint64, fpr float64, seed uint64) (*CountingFilter, error) {
	return adoptCounting(cCountingCreate(n, fpr, seed, nil))
}

// OpenCounting maps a file written by CountingFilter.Save. readOnly maps it for queries only
// (a query role reads only the presence bits, a fifth of the file): every add, remove and
// Clear then fails with ErrReadOnly. Otherwise the mapping is shared and changes reach the
// file on Sync and Close.
func OpenCounting(path string, readOnly bool) (*CountingFilter, error) {
	return adoptCounting(cOpenAs[*cCounting](path, readOnly, nil))
}

// NewCountingKeyed is an empty keyed counting filter (docs/SECURITY.md), as NewKeyed is for
// a BloomFilter: its keys hash with SipHash-1-3 under the secret key, 16 to 64 bytes. No file
// holds the key: a keyed filter's file and bytes open only with it (OpenCountingKeyed,
// UnmarshalCountingKeyed); a missing or wrong key is ErrIncompatible. The filter keeps a
// copy of the key in Go memory for Copy.
func NewCountingKeyed(n uint64, fpr float64, key []byte) (*CountingFilter, error) {
	return keepKey(key, adoptCounting)(cCountingCreate(n, fpr, 0, secret(key)))
}

// OpenCountingKeyed is OpenCounting for a keyed filter's file, with its key.
func OpenCountingKeyed(path string, readOnly bool, key []byte) (*CountingFilter, error) {
	return keepKey(key, adoptCounting)(cOpenAs[*cCounting](path, readOnly, secret(key)))
}

// UnmarshalCountingKeyed is a keyed counting filter copied from its serialized bytes, with
// its key.
func UnmarshalCountingKeyed(data, key []byte) (*CountingFilter, error) {
	return unmarshalCounting(data, secret(key))
}

// unmarshalCounting is a filter copied from data; a nil key is no key.
func unmarshalCounting(data, key []byte) (*CountingFilter, error) {
	return keepKey(key, adoptCounting)(cDeserializeAs[*cCounting](data, key))
}

func adoptCounting(c *cCounting, err error) (*CountingFilter, error) {
	wrap := func(h *countingHandle) *CountingFilter {
		return &CountingFilter{filter: filter[*cCounting, countingFacts]{h, &countingCalls}}
	}
	return adoptAs(wrap, c, err, cCountingFacts, cCountingFree)
}

func (f *CountingFilter) keep(key []byte) { f.key = key }

// Params of the filter; the zero CountingParams once closed.
func (f *CountingFilter) Params() CountingParams { return factsOf(f.live).CountingParams }

// Stats reads every counter: O(size), not for hot paths.
func (f *CountingFilter) Stats() (CountingStats, error) {
	return withCValue(f.live, cCountingStats)
}

// ApproximatedSize is the number of keys in (adds minus removes), from the counters: exact
// while no counter saturated (O(size)). It rounds as BloomFilter's does, as every binding does.
func (f *CountingFilter) ApproximatedSize() (uint64, error) {
	s, err := f.Stats()
	return roundedCount(s.ApproxItems), err
}

// Sync writes a read-write mapped filter back to its file (checksums, then msync). For any
// other filter it does nothing.
func (f *CountingFilter) Sync() error {
	return withC(f.live, cCountingSync)
}

// Close syncs a read-write mapped filter, then frees the filter. Closing twice is a no-op;
// any other use after Close returns ErrClosed. (C's sync does nothing for any other filter.)
func (f *CountingFilter) Close() error {
	if f == nil {
		return nil
	}
	return closeOwned(&f.h, cCountingSync)
}

// Clear resets every counter to zero.
func (f *CountingFilter) Clear() error {
	return withC(f.live, cCountingClear)
}

// Remove removes one occurrence of a byte key. A key that is certainly absent is left alone
// and the error is ErrNotFound (errors.Is(err, seen.ErrNotFound)). See the remove rule on
// CountingFilter.
func (f *CountingFilter) Remove(key []byte) error { return f.deleteBytes(bytesPtr(key), len(key)) }

// RemoveString is Remove for a string key.
func (f *CountingFilter) RemoveString(key string) error {
	return f.deleteBytes(stringPtr(key), len(key))
}

// RemoveUint64 is Remove for an integer id.
func (f *CountingFilter) RemoveUint64(id uint64) error {
	return withLive(f.live, func(h *countingHandle) error {
		return cCountingDeleteU64(h.c, id)
	})
}

func (f *CountingFilter) deleteBytes(key unsafe.Pointer, n int) error {
	return withLive(f.live, func(h *countingHandle) error {
		return cCountingDeleteKey(h.c, key, n)
	})
}

// Batches cross into C once, in key order; a key repeated in a batch counts each time.

// RemoveUint64s removes every id that is not certainly absent. It processes all of them,
// then returns ErrNotFound if any was certainly absent (nothing changed for those). removed
// may be nil; otherwise it must be at least as long as ids, and removed[i] says whether
// ids[i] was removed.
func (f *CountingFilter) RemoveUint64s(ids []uint64, removed []bool) error {
	return withLive(f.live, func(h *countingHandle) error {
		if removed != nil && len(removed) < len(ids) {
			return invalid(fmt.Sprintf("removed has %d elements for %d ids", len(removed), len(ids)))
		}
		return cCountingRemoveU64(h.c, ids, boolsPtr(removed))
	})
}

// RemoveKeys is RemoveUint64s for a batch of byte keys: removed may be nil, or at least
// keys.Len() long.
func (f *CountingFilter) RemoveKeys(keys Keys, removed []bool) error {
	flags := "removed"
	if removed == nil {
		flags = "" // no flags wanted
	}
	return withKeys(f.live, keys, removed, flags, func(h *countingHandle) error {
		return cCountingRemoveKeys(h.c, keys.Data, keys.Offsets, boolsPtr(removed))
	})
}

// RemoveStrings removes every string, through one Keys batch (see RemoveKeys).
func (f *CountingFilter) RemoveStrings(keys []string, removed []bool) error {
	return f.RemoveKeys(PackStrings(keys), removed)
}

// Serialized form: kind 2 of docs/FORMAT.md, the same bytes in every language, counters
// included.

// UnmarshalBinary replaces the filter with a validated, writable copy of data
// (encoding.BinaryUnmarshaler); a zero CountingFilter may be the receiver. On error the
// filter is unchanged.
func (f *CountingFilter) UnmarshalBinary(data []byte) error {
	g, err := unmarshalCounting(data, nil)
	return replaceBy(f, g, err)
}

// Copy is a writable copy in C memory, counters included, also of a read-only or mapped
// filter, and of a keyed filter with its key. libseen has no copy call for counting
// filters, so this is a serialize and deserialize round trip, with the key the filter kept
// when it is keyed (its bytes alone would not open). Like MarshalBinary it reads every
// counter, so no writer may be active.
func (f *CountingFilter) Copy() (*CountingFilter, error) {
	return copyThrough(f.MarshalBinary, unmarshalCounting, f.key)
}

// Equal reports whether both filters have the same parameters and the same counters, so
// that they answer every test alike, now and after the same removes. It compares the
// serialized forms (libseen has no equality call): O(size), with no writer active.
func (f *CountingFilter) Equal(other *CountingFilter) (bool, error) {
	return equalMarshaled(f, other)
}

// ReadFrom replaces the filter with the one serialized in r, read to EOF (io.ReaderFrom).
func (f *CountingFilter) ReadFrom(r io.Reader) (int64, error) {
	return readAllInto(r, f.UnmarshalBinary)
}
