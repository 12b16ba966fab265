package seen

import (
	"fmt"
	"unsafe"
)

// Batches cross into C once for any number of keys; libseen hashes a chunk, prefetches its
// blocks, then probes, so a batch runs near memory speed.
//
// Answers go straight into the caller's []bool: libseen writes one byte per key, 0 or 1,
// and a Go bool is one byte holding 0 or 1, so no conversion pass is needed. The line
// below stops the build if a compiler ever gave bool another size.
var _ [1]struct{} = [unsafe.Sizeof(false)]struct{}{}

// AddUint64s adds every id.
func (f *BloomFilter) AddUint64s(ids []uint64) error {
	return withLive(f.live, func(h *handle) error {
		return cAddU64(h.c, ids)
	})
}

// TestUint64s sets out[i] to Test of ids[i], for every i < len(ids). out must be at least as
// long as ids.
func (f *BloomFilter) TestUint64s(ids []uint64, out []bool) error {
	return withLive(f.live, func(h *handle) error {
		if len(out) < len(ids) {
			return invalid(fmt.Sprintf("out has %d elements for %d ids", len(out), len(ids)))
		}
		return cContainsU64(h.c, ids, boolsPtr(out))
	})
}

// AddKeys adds every key of a batch.
func (f *BloomFilter) AddKeys(keys Keys) error {
	return withLive(f.live, func(h *handle) error {
		if err := keys.validate(); err != nil || keys.Len() == 0 {
			return err
		}
		return cAddKeys(h.c, keys.Data, keys.Offsets)
	})
}

// TestKeys sets out[i] to Test of key i, for every key of the batch. out must be at least
// keys.Len() long.
func (f *BloomFilter) TestKeys(keys Keys, out []bool) error {
	return withLive(f.live, func(h *handle) error {
		if err := keys.validate(); err != nil || keys.Len() == 0 {
			return err
		}
		if len(out) < keys.Len() {
			return invalid(fmt.Sprintf("out has %d elements for %d keys", len(out), keys.Len()))
		}
		return cContainsKeys(h.c, keys.Data, keys.Offsets, boolsPtr(out))
	})
}

// AddStrings adds every string, packed into one Keys batch. To pack without allocating,
// reuse a Keys and call AddKeys.
func (f *BloomFilter) AddStrings(keys []string) error { return f.AddKeys(PackStrings(keys)) }

// TestStrings sets out[i] to TestString of keys[i], through one Keys batch.
func (f *BloomFilter) TestStrings(keys []string, out []bool) error {
	return f.TestKeys(PackStrings(keys), out)
}

func boolsPtr(b []bool) unsafe.Pointer {
	if len(b) == 0 {
		return nil
	}
	return unsafe.Pointer(&b[0])
}
