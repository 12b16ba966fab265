package seen

import (
	"fmt"
	"io"
	"unsafe"
)

// filter is what BloomFilter, CountingFilter and ScalableFilter share: their handle, and the
// methods that take keys, batches and files alike in all three. Each kind brings its C calls
// as a filterCalls; its own methods (Remove, Merge, Info, ...) stay with it.
//
// Keys are the same in every kind: a byte key and the same bytes as a string are one key, an
// id is the key of its 8 little-endian bytes, and the empty key is valid. Single-key tests of
// unkeyed Bloom and counting filters run in Go (probe.go); other single keys cross into C
// once each (about the cost of a cache miss); batches once per batch, and libseen
// hashes a chunk, prefetches its blocks, then probes, so a batch runs near memory speed.
type filter[P cHandle, M any] struct {
	h     *owned[P, M]       // nil once closed
	calls *filterCalls[P, M] // the kind's calls
}

// filterCalls are one kind's calls on keys and files, in this order (the kinds' tables are
// positional). put reports whether the key looked present before; a counting filter counts it
// whatever it held, and always says false. The tests take the handle, not its C pointer alone,
// as the Bloom and counting filters answer them in Go from the handle's facts (probe.go).
type filterCalls[P cHandle, M any] struct {
	putU64       func(c P, id uint64) (bool, error)
	putKey       func(c P, key unsafe.Pointer, n int) (bool, error)
	testU64      func(h *owned[P, M], id uint64) bool
	testKey      func(h *owned[P, M], key unsafe.Pointer, n int) bool
	addU64s      func(c P, ids []uint64) error
	containsU64s func(c P, ids []uint64, out unsafe.Pointer) error
	addKeys      func(c P, data []byte, offsets []uint64) error
	containsKeys func(c P, data []byte, offsets []uint64, out unsafe.Pointer) error
	marshal      func(c P) ([]byte, error)
	save         func(c P, path string) error
}

// testInC and testKeyInC are the tests of a kind that asks C for every key.
func testInC[P cHandle, M any](test func(c P, id uint64) bool) func(h *owned[P, M], id uint64) bool {
	return func(h *owned[P, M], id uint64) bool { return test(h.c, id) }
}

func testKeyInC[P cHandle, M any](test func(c P, key unsafe.Pointer, n int) bool) func(h *owned[P, M], key unsafe.Pointer, n int) bool {
	return func(h *owned[P, M], key unsafe.Pointer, n int) bool { return test(h.c, key, n) }
}

// live is the open handle, or ErrClosed (also for a copy of a closed filter).
func (f *filter[P, M]) live() (*owned[P, M], error) { return f.h.open() }

// Add adds a byte key.
func (f *filter[P, M]) Add(key []byte) error {
	_, err := f.putBytes(bytesPtr(key), len(key))
	return err
}

// AddString adds the UTF-8 bytes of key.
func (f *filter[P, M]) AddString(key string) error {
	_, err := f.putBytes(stringPtr(key), len(key))
	return err
}

// AddUint64 adds an integer id.
func (f *filter[P, M]) AddUint64(id uint64) error {
	_, err := f.putUint64(id)
	return err
}

// TestOrAdd reports whether key may have been added, and adds it if not. Unlike an add it
// writes nothing for a key that looks present, so it succeeds on a read-only filter then,
// and a counting filter does not count it again (one Remove undoes it). The test and the add
// are two steps: two goroutines adding the same new key at once may both add it.
func (f *filter[P, M]) TestOrAdd(key []byte) (bool, error) {
	if f.Test(key) {
		return true, nil
	}
	return f.putBytes(bytesPtr(key), len(key))
}

// TestOrAddString is TestOrAdd for a string key.
func (f *filter[P, M]) TestOrAddString(key string) (bool, error) {
	if f.TestString(key) {
		return true, nil
	}
	return f.putBytes(stringPtr(key), len(key))
}

// TestOrAddUint64 is TestOrAdd for an integer id.
func (f *filter[P, M]) TestOrAddUint64(id uint64) (bool, error) {
	if f.TestUint64(id) {
		return true, nil
	}
	return f.putUint64(id)
}

// Test reports whether key may have been added: false is certain, true is right but for the
// false-positive rate. It panics on a closed filter.
func (f *filter[P, M]) Test(key []byte) bool { return f.testBytes(bytesPtr(key), len(key)) }

// TestString is Test for a string key.
func (f *filter[P, M]) TestString(key string) bool { return f.testBytes(stringPtr(key), len(key)) }

// TestUint64 is Test for an integer id.
func (f *filter[P, M]) TestUint64(id uint64) bool {
	return testOn(f.live, func(h *owned[P, M]) bool { return f.calls.testU64(h, id) })
}

// putBytes and testBytes lend the key's bytes to C for one call, without a copy.
func (f *filter[P, M]) putBytes(key unsafe.Pointer, n int) (bool, error) {
	return withLiveValue(f.live, func(h *owned[P, M]) (bool, error) { return f.calls.putKey(h.c, key, n) })
}

func (f *filter[P, M]) putUint64(id uint64) (bool, error) {
	return withLiveValue(f.live, func(h *owned[P, M]) (bool, error) { return f.calls.putU64(h.c, id) })
}

func (f *filter[P, M]) testBytes(key unsafe.Pointer, n int) bool {
	return testOn(f.live, func(h *owned[P, M]) bool { return f.calls.testKey(h, key, n) })
}

// AddUint64s adds every id, in order.
func (f *filter[P, M]) AddUint64s(ids []uint64) error {
	return withLive(f.live, func(h *owned[P, M]) error { return f.calls.addU64s(h.c, ids) })
}

// TestUint64s sets out[i] to TestUint64 of ids[i], for every i < len(ids). out must be at
// least as long as ids.
func (f *filter[P, M]) TestUint64s(ids []uint64, out []bool) error {
	return withLive(f.live, func(h *owned[P, M]) error {
		if len(out) < len(ids) {
			return invalid(fmt.Sprintf("out has %d elements for %d ids", len(out), len(ids)))
		}
		return f.calls.containsU64s(h.c, ids, boolsPtr(out))
	})
}

// AddKeys adds every key of a batch, in order.
func (f *filter[P, M]) AddKeys(keys Keys) error {
	return withKeys(f.live, keys, nil, "", func(h *owned[P, M]) error {
		return f.calls.addKeys(h.c, keys.Data, keys.Offsets)
	})
}

// TestKeys sets out[i] to Test of key i, for every key of the batch. out must be at least
// keys.Len() long.
func (f *filter[P, M]) TestKeys(keys Keys, out []bool) error {
	return withKeys(f.live, keys, out, "out", func(h *owned[P, M]) error {
		return f.calls.containsKeys(h.c, keys.Data, keys.Offsets, boolsPtr(out))
	})
}

// AddStrings adds every string, packed into one Keys batch. To pack without allocating,
// reuse a Keys and call AddKeys.
func (f *filter[P, M]) AddStrings(keys []string) error { return f.AddKeys(PackStrings(keys)) }

// TestStrings sets out[i] to TestString of keys[i], through one Keys batch.
func (f *filter[P, M]) TestStrings(keys []string, out []bool) error {
	return f.TestKeys(PackStrings(keys), out)
}

// MarshalBinary is the filter's serialized form (encoding.BinaryMarshaler): the container
// format of docs/FORMAT.md, the same bytes in every language and in the files of Save.
func (f *filter[P, M]) MarshalBinary() ([]byte, error) {
	return withLiveValue(f.live, func(h *owned[P, M]) ([]byte, error) { return f.calls.marshal(h.c) })
}

// WriteTo writes the serialized filter to w (io.WriterTo). BloomFilter's own WriteTo stages
// the bytes in C memory instead of the Go heap.
func (f *filter[P, M]) WriteTo(w io.Writer) (int64, error) { return writeMarshaled(w, f.MarshalBinary) }

// Save writes the filter to path crash-safely: a temporary file, fsync, then rename, so the
// previous file survives a failure.
func (f *filter[P, M]) Save(path string) error {
	return withLive(f.live, func(h *owned[P, M]) error { return f.calls.save(h.c, path) })
}

// withKeys is withLive for a batch of keys: it checks the batch's offsets and, unless
// answersName is "" (no answers wanted), that answers has room for one per key; an empty
// batch skips C.
func withKeys[H any](live func() (*H, error), keys Keys, answers []bool, answersName string, call func(h *H) error) error {
	return withLive(live, func(h *H) error {
		if err := keys.validate(); err != nil || keys.Len() == 0 {
			return err
		}
		if answersName != "" && len(answers) < keys.Len() {
			return invalid(fmt.Sprintf("%s has %d elements for %d keys", answersName, len(answers), keys.Len()))
		}
		return call(h)
	})
}
