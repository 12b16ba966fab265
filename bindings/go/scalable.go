package seen

import (
	"bytes"
	"fmt"
	"io"
	"unsafe"
)

// ScalableFilter is a filter that grows (the classic scalable Bloom filter, over blocked
// sub-filters; docs/counting.md). When its newest sub-filter holds its capacity, it adds one
// Growth times larger at Tightening times the false-positive rate, so the total rate stays
// within the FPR it was created with, at any size. A query asks every sub-filter, so its
// cost grows with SubFilters (about log_Growth(size / InitialCapacity) + 1): start near the
// expected size. An add of a key that already looks present changes nothing and does not
// count.
//
// Adds, UnmarshalBinary and Close need exclusive access; tests, Info, MarshalBinary and
// Save may run concurrently with each other, not with an add.
//
// Its memory lives in C (or, read-only, in a mapped file). Call Close when done; a finalizer
// frees a forgotten ScalableFilter as a backstop.
type ScalableFilter struct {
	h   *scalableHandle // nil once closed
	key []byte          // a keyed filter's key, for Copy (its bytes do not hold it); else nil
}

type scalableHandle = owned[*cScalable, struct{}]

// ScalableOptions describe a scalable filter; the fields mirror seen_scalable_options.
type ScalableOptions struct {
	InitialCapacity uint64  // keys the first sub-filter holds, at least 1
	FPR             float64 // the bound on the total false-positive rate, in (0, 1)
	Growth          float64 // capacity ratio of consecutive sub-filters, in [1, 64]; 0 means 2
	Tightening      float64 // fpr ratio of consecutive sub-filters, in (0, 1); 0 means 0.5
	Seed            uint64  // the hash seed, stored in the filter
}

// ScalableInfo is what a scalable filter holds now.
type ScalableInfo struct {
	Items        uint64  // distinct keys added (those that changed the filter)
	SubFilters   int     // 1 to 64
	ReadOnly     bool    // opened read-only
	Bytes        uint64  // the blocks of every sub-filter
	PredictedFPR float64 // the sub-filters' rates at their loads, summed; at most Options.FPR
	Options      ScalableOptions
}

// NewScalable is a scalable filter with one empty sub-filter. An option out of range is
// ErrInvalidArgument, naming it.
func NewScalable(opts ScalableOptions) (*ScalableFilter, error) {
	return adoptScalable(cScalableCreate(opts, nil))
}

// OpenScalable opens a file written by ScalableFilter.Save. readOnly maps it and queries in
// place; every add then fails with ErrReadOnly. Otherwise it reads a private copy that may
// grow; the file changes only on the next Save.
func OpenScalable(path string, readOnly bool) (*ScalableFilter, error) {
	return adoptScalable(cScalableOpen(path, readOnly))
}

// NewScalableKeyed is a keyed scalable filter (docs/SECURITY.md), as NewKeyed is for a
// BloomFilter: the keys of every sub-filter hash with SipHash-1-3 under the secret key, 16
// to 64 bytes, which replaces opts.Seed (ignored). No file holds the key: a keyed filter's
// file and bytes open only with it (OpenScalableKeyed, UnmarshalScalableKeyed); a missing or
// wrong key is ErrIncompatible. The filter keeps a copy of the key in Go memory for Copy.
func NewScalableKeyed(opts ScalableOptions, key []byte) (*ScalableFilter, error) {
	if key == nil {
		key = []byte{} // nil would mean no key below; C refuses an empty key as too short
	}
	opts.Seed = 0
	return adoptKeyedScalable(key)(cScalableCreate(opts, key))
}

// OpenScalableKeyed is OpenScalable for a keyed filter's file, with its key.
func OpenScalableKeyed(path string, readOnly bool, key []byte) (*ScalableFilter, error) {
	return adoptKeyedScalable(key)(cScalableOpenKeyed(path, readOnly, key))
}

// UnmarshalScalableKeyed is a keyed scalable filter copied from its serialized bytes, with
// its key.
func UnmarshalScalableKeyed(data, key []byte) (*ScalableFilter, error) {
	return adoptKeyedScalable(key)(cScalableDeserializeKeyed(data, key))
}

// adoptKeyedScalable adopts a keyed filter's handle and keeps its own copy of the key, so
// that a caller reusing the key's slice cannot change what Copy uses.
func adoptKeyedScalable(key []byte) func(*cScalable, error) (*ScalableFilter, error) {
	return func(c *cScalable, err error) (*ScalableFilter, error) {
		f, err := adoptScalable(c, err)
		if err == nil {
			f.key = bytes.Clone(key)
		}
		return f, err
	}
}

func adoptScalable(c *cScalable, err error) (*ScalableFilter, error) {
	wrap := func(h *scalableHandle) *ScalableFilter { return &ScalableFilter{h: h} }
	return adoptAs(wrap, c, err, noFacts[*cScalable], cScalableFree)
}

func (f *ScalableFilter) live() (*scalableHandle, error) {
	if f == nil {
		return nil, ErrClosed
	}
	return f.h.open()
}

// Close frees the filter. Closing twice is a no-op; any other use after Close returns
// ErrClosed.
func (f *ScalableFilter) Close() error {
	if f == nil {
		return nil
	}
	return closeOwned(&f.h, nil)
}

// Info says what the filter holds now, O(sub-filters).
func (f *ScalableFilter) Info() (ScalableInfo, error) {
	return withLiveValue(f.live, func(h *scalableHandle) (ScalableInfo, error) {
		return cScalableInfo(h.c)
	})
}

// Len is the number of distinct keys added (Info().Items: low by the false positives met
// while adding), 0 once closed.
func (f *ScalableFilter) Len() int {
	i, _ := f.Info()
	return int(i.Items)
}

// SubFilters is the number of sub-filters a query asks, 0 once closed.
func (f *ScalableFilter) SubFilters() int {
	i, _ := f.Info()
	return i.SubFilters
}

// Add adds a byte key. Past 64 sub-filters it fails with ErrTooLarge.
func (f *ScalableFilter) Add(key []byte) error {
	_, err := f.TestAndAdd(key)
	return err
}

// AddString adds the UTF-8 bytes of key.
func (f *ScalableFilter) AddString(key string) error {
	_, err := f.TestAndAddString(key)
	return err
}

// AddUint64 adds an integer id.
func (f *ScalableFilter) AddUint64(id uint64) error {
	_, err := f.TestAndAddUint64(id)
	return err
}

// TestAndAdd adds key and reports whether it already looked present (then nothing changed).
func (f *ScalableFilter) TestAndAdd(key []byte) (bool, error) {
	return f.putBytes(bytesPtr(key), len(key))
}

// TestAndAddString is TestAndAdd for a string key.
func (f *ScalableFilter) TestAndAddString(key string) (bool, error) {
	return f.putBytes(stringPtr(key), len(key))
}

// TestAndAddUint64 is TestAndAdd for an integer id.
func (f *ScalableFilter) TestAndAddUint64(id uint64) (bool, error) {
	return withLiveValue(f.live, func(h *scalableHandle) (bool, error) {
		return cScalablePutU64(h.c, id)
	})
}

// TestOrAdd reports whether key may have been added, and adds it if not. It counts and
// grows as TestAndAdd does, but tests first, so a present key succeeds on a read-only filter.
func (f *ScalableFilter) TestOrAdd(key []byte) (bool, error) {
	if f.Test(key) {
		return true, nil
	}
	return f.TestAndAdd(key)
}

// TestOrAddString is TestOrAdd for a string key.
func (f *ScalableFilter) TestOrAddString(key string) (bool, error) {
	if f.TestString(key) {
		return true, nil
	}
	return f.TestAndAddString(key)
}

// TestOrAddUint64 is TestOrAdd for an integer id.
func (f *ScalableFilter) TestOrAddUint64(id uint64) (bool, error) {
	if f.TestUint64(id) {
		return true, nil
	}
	return f.TestAndAddUint64(id)
}

// Test reports whether key may have been added: false is certain, true is right but for
// the false-positive rate. It panics on a closed ScalableFilter.
func (f *ScalableFilter) Test(key []byte) bool { return f.testBytes(bytesPtr(key), len(key)) }

// TestString is Test for a string key.
func (f *ScalableFilter) TestString(key string) bool { return f.testBytes(stringPtr(key), len(key)) }

// TestUint64 is Test for an integer id.
func (f *ScalableFilter) TestUint64(id uint64) bool {
	return testOn(f.live, func(h *scalableHandle) bool { return cScalableTestU64(h.c, id) })
}

func (f *ScalableFilter) putBytes(key unsafe.Pointer, n int) (bool, error) {
	return withLiveValue(f.live, func(h *scalableHandle) (bool, error) {
		return cScalablePutKey(h.c, key, n)
	})
}

func (f *ScalableFilter) testBytes(key unsafe.Pointer, n int) bool {
	return testOn(f.live, func(h *scalableHandle) bool { return cScalableTestKey(h.c, key, n) })
}

// Batches cross into C once. A batch add ends exactly as the same keys added one by one, in
// order, growing where they would; on ErrTooLarge the keys before the failing one stay added.

// AddUint64s adds every id.
func (f *ScalableFilter) AddUint64s(ids []uint64) error {
	return withLive(f.live, func(h *scalableHandle) error {
		return cScalableAddU64(h.c, ids)
	})
}

// TestUint64s sets out[i] to TestUint64 of ids[i], asking every sub-filter. out must be at
// least as long as ids.
func (f *ScalableFilter) TestUint64s(ids []uint64, out []bool) error {
	return withLive(f.live, func(h *scalableHandle) error {
		if len(out) < len(ids) {
			return invalid(fmt.Sprintf("out has %d elements for %d ids", len(out), len(ids)))
		}
		return cScalableContainsU64(h.c, ids, boolsPtr(out))
	})
}

// AddKeys adds every key of a batch.
func (f *ScalableFilter) AddKeys(keys Keys) error {
	return withLive(f.live, func(h *scalableHandle) error {
		if err := keys.validate(); err != nil || keys.Len() == 0 {
			return err
		}
		return cScalableAddKeys(h.c, keys.Data, keys.Offsets)
	})
}

// TestKeys sets out[i] to Test of key i. out must be at least keys.Len() long.
func (f *ScalableFilter) TestKeys(keys Keys, out []bool) error {
	return withLive(f.live, func(h *scalableHandle) error {
		if err := keys.validate(); err != nil || keys.Len() == 0 {
			return err
		}
		if len(out) < keys.Len() {
			return invalid(fmt.Sprintf("out has %d elements for %d keys", len(out), keys.Len()))
		}
		return cScalableContainsKeys(h.c, keys.Data, keys.Offsets, boolsPtr(out))
	})
}

// AddStrings adds every string, through one Keys batch.
func (f *ScalableFilter) AddStrings(keys []string) error { return f.AddKeys(PackStrings(keys)) }

// TestStrings sets out[i] to TestString of keys[i], through one Keys batch.
func (f *ScalableFilter) TestStrings(keys []string, out []bool) error {
	return f.TestKeys(PackStrings(keys), out)
}

// Serialized form: kind 3 of docs/FORMAT.md, the same bytes in every language.

// MarshalBinary is the filter's serialized form, every sub-filter included
// (encoding.BinaryMarshaler).
func (f *ScalableFilter) MarshalBinary() ([]byte, error) {
	return withLiveValue(f.live, func(h *scalableHandle) ([]byte, error) {
		return cScalableMarshal(h.c)
	})
}

// UnmarshalBinary replaces the filter with a validated, writable copy of data
// (encoding.BinaryUnmarshaler); a zero ScalableFilter may be the receiver. On error the
// filter is unchanged.
func (f *ScalableFilter) UnmarshalBinary(data []byte) error {
	g, err := adoptScalable(cScalableDeserialize(data))
	return replaceBy(f, g, err)
}

// Copy is a writable copy in C memory, every sub-filter included, also of a read-only
// filter, and of a keyed filter with its key; the copy grows on its own. libseen has no copy
// call for scalable filters, so this is a serialize and deserialize round trip, with the key
// the filter kept when it is keyed (its bytes alone would not open).
func (f *ScalableFilter) Copy() (*ScalableFilter, error) {
	data, err := f.MarshalBinary()
	if err != nil {
		return nil, err
	}
	if f.key != nil {
		return UnmarshalScalableKeyed(data, f.key)
	}
	return adoptScalable(cScalableDeserialize(data))
}

// Equal reports whether both filters have the same options, the same sub-filters and the
// same bits in each, so that they answer alike and grow alike. It compares the serialized
// forms (libseen has no equality call): O(size).
func (f *ScalableFilter) Equal(other *ScalableFilter) (bool, error) {
	return equalMarshaled(f, other)
}

// WriteTo writes the serialized filter to w (io.WriterTo).
func (f *ScalableFilter) WriteTo(w io.Writer) (int64, error) {
	return writeMarshaled(w, f.MarshalBinary)
}

// ReadFrom replaces the filter with the one serialized in r, read to EOF (io.ReaderFrom).
func (f *ScalableFilter) ReadFrom(r io.Reader) (int64, error) {
	return readAllInto(r, f.UnmarshalBinary)
}

// Save writes the filter to path crash-safely (temporary file, fsync, rename). OpenScalable
// reads the result.
func (f *ScalableFilter) Save(path string) error {
	return withLive(f.live, func(h *scalableHandle) error {
		return cScalableSave(h.c, path)
	})
}
