package seen

import (
	"io"
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
//
// Its key, batch and file methods are those every filter shares (filter_base.go). A batch add
// ends exactly as the same keys added one by one, in order, growing where they would; on
// ErrTooLarge the keys before the failing one stay added.
type ScalableFilter struct {
	filter[*cScalable, struct{}]
	key []byte // a keyed filter's key, for Copy (its bytes do not hold it); else nil
}

type scalableHandle = owned[*cScalable, struct{}]

var scalableCalls = filterCalls[*cScalable, struct{}]{cScalablePutU64, cScalablePutKey,
	testInC[*cScalable, struct{}](cTestU64Of[*cScalable]), testKeyInC[*cScalable, struct{}](cTestKeyOf[*cScalable]),
	cAddU64sOf[*cScalable], cContainsU64sOf[*cScalable], cAddKeysOf[*cScalable],
	cContainsKeysOf[*cScalable], cMarshalOf[*cScalable], cSaveOf[*cScalable]}

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
	return adoptScalable(cOpenAs[*cScalable](path, readOnly, nil))
}

// NewScalableKeyed is a keyed scalable filter (docs/SECURITY.md), as NewKeyed is for a
// BloomFilter: the keys of every sub-filter hash with SipHash-1-3 under the secret key, 16
// to 64 bytes, which replaces opts.Seed (ignored). No file holds the key: a keyed filter's
// file and bytes open only with it (OpenScalableKeyed, UnmarshalScalableKeyed); a missing or
// wrong key is ErrIncompatible. The filter keeps a copy of the key in Go memory for Copy.
func NewScalableKeyed(opts ScalableOptions, key []byte) (*ScalableFilter, error) {
	opts.Seed = 0
	key = secret(key)
	return keepKey(key, adoptScalable)(cScalableCreate(opts, key))
}

// OpenScalableKeyed is OpenScalable for a keyed filter's file, with its key.
func OpenScalableKeyed(path string, readOnly bool, key []byte) (*ScalableFilter, error) {
	return keepKey(key, adoptScalable)(cOpenAs[*cScalable](path, readOnly, secret(key)))
}

// UnmarshalScalableKeyed is a keyed scalable filter copied from its serialized bytes, with
// its key.
func UnmarshalScalableKeyed(data, key []byte) (*ScalableFilter, error) {
	return unmarshalScalable(data, secret(key))
}

// unmarshalScalable is a filter copied from data; a nil key is no key.
func unmarshalScalable(data, key []byte) (*ScalableFilter, error) {
	return keepKey(key, adoptScalable)(cDeserializeAs[*cScalable](data, key))
}

func adoptScalable(c *cScalable, err error) (*ScalableFilter, error) {
	wrap := func(h *scalableHandle) *ScalableFilter {
		return &ScalableFilter{filter: filter[*cScalable, struct{}]{h, &scalableCalls}}
	}
	return adoptAs(wrap, c, err, noFacts[*cScalable], cScalableFree)
}

func (f *ScalableFilter) keep(key []byte) { f.key = key }

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
	return withCValue(f.live, cScalableInfo)
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

// TestAndAdd adds key and reports whether it already looked present (then nothing changed).
func (f *ScalableFilter) TestAndAdd(key []byte) (bool, error) {
	return f.putBytes(bytesPtr(key), len(key))
}

// TestAndAddString is TestAndAdd for a string key.
func (f *ScalableFilter) TestAndAddString(key string) (bool, error) {
	return f.putBytes(stringPtr(key), len(key))
}

// TestAndAddUint64 is TestAndAdd for an integer id.
func (f *ScalableFilter) TestAndAddUint64(id uint64) (bool, error) { return f.putUint64(id) }

// Serialized form: kind 3 of docs/FORMAT.md, the same bytes in every language.

// UnmarshalBinary replaces the filter with a validated, writable copy of data
// (encoding.BinaryUnmarshaler); a zero ScalableFilter may be the receiver. On error the
// filter is unchanged.
func (f *ScalableFilter) UnmarshalBinary(data []byte) error {
	g, err := unmarshalScalable(data, nil)
	return replaceBy(f, g, err)
}

// Copy is a writable copy in C memory, every sub-filter included, also of a read-only
// filter, and of a keyed filter with its key; the copy grows on its own. libseen has no copy
// call for scalable filters, so this is a serialize and deserialize round trip, with the key
// the filter kept when it is keyed (its bytes alone would not open).
func (f *ScalableFilter) Copy() (*ScalableFilter, error) {
	return copyThrough(f.MarshalBinary, unmarshalScalable, f.key)
}

// Equal reports whether both filters have the same options, the same sub-filters and the
// same bits in each, so that they answer alike and grow alike. It compares the serialized
// forms (libseen has no equality call): O(size).
func (f *ScalableFilter) Equal(other *ScalableFilter) (bool, error) {
	return equalMarshaled(f, other)
}

// ReadFrom replaces the filter with the one serialized in r, read to EOF (io.ReaderFrom).
func (f *ScalableFilter) ReadFrom(r io.Reader) (int64, error) {
	return readAllInto(r, f.UnmarshalBinary)
}
