package seen

import (
	"unsafe"
)

// Single keys: one cgo call each, about the cost of a cache miss. For many keys at once use
// the batch methods, which cross into C once per batch.
//
// A byte key and the same bytes as a string are the same key; an id is the key of its 8
// little-endian bytes. The empty key is valid.

// Add adds a byte key.
func (f *BloomFilter) Add(key []byte) error {
	_, err := f.TestAndAdd(key)
	return err
}

// AddString adds the UTF-8 bytes of key.
func (f *BloomFilter) AddString(key string) error {
	_, err := f.TestAndAddString(key)
	return err
}

// AddUint64 adds an integer id.
func (f *BloomFilter) AddUint64(id uint64) error {
	_, err := f.TestAndAddUint64(id)
	return err
}

// TestAndAdd adds key and reports whether it may have been present before.
func (f *BloomFilter) TestAndAdd(key []byte) (bool, error) {
	return f.putBytes(bytesPtr(key), len(key))
}

// TestAndAddString is TestAndAdd for a string key.
func (f *BloomFilter) TestAndAddString(key string) (bool, error) {
	return f.putBytes(stringPtr(key), len(key))
}

// TestAndAddUint64 is TestAndAdd for an integer id.
func (f *BloomFilter) TestAndAddUint64(id uint64) (bool, error) {
	return withLiveValue(f.live, func(h *handle) (bool, error) {
		return cPutU64(h.c, id)
	})
}

// TestOrAdd reports whether key may have been added, and adds it if not. Unlike TestAndAdd
// it writes nothing for a key already present, so it succeeds on a read-only filter then.
func (f *BloomFilter) TestOrAdd(key []byte) (bool, error) {
	if f.Test(key) {
		return true, nil
	}
	return f.TestAndAdd(key)
}

// TestOrAddString is TestOrAdd for a string key.
func (f *BloomFilter) TestOrAddString(key string) (bool, error) {
	if f.TestString(key) {
		return true, nil
	}
	return f.TestAndAddString(key)
}

// TestOrAddUint64 is TestOrAdd for an integer id.
func (f *BloomFilter) TestOrAddUint64(id uint64) (bool, error) {
	if f.TestUint64(id) {
		return true, nil
	}
	return f.TestAndAddUint64(id)
}

// Test reports whether key may have been added: false is certain, true is right but for
// the false-positive rate. It panics on a closed BloomFilter.
func (f *BloomFilter) Test(key []byte) bool { return f.testBytes(bytesPtr(key), len(key)) }

// TestString is Test for a string key.
func (f *BloomFilter) TestString(key string) bool { return f.testBytes(stringPtr(key), len(key)) }

// TestUint64 is Test for an integer id.
func (f *BloomFilter) TestUint64(id uint64) bool {
	return testOn(f.live, func(h *handle) bool {
		if h.meta.probe != nil {
			return h.meta.probe.testU64(id)
		}
		return cTestU64(h.c, id)
	})
}

// putBytes and testBytes lend the key's bytes to C for one call, without a copy.
func (f *BloomFilter) putBytes(key unsafe.Pointer, n int) (bool, error) {
	return withLiveValue(f.live, func(h *handle) (bool, error) {
		return cPutKey(h.c, key, n)
	})
}

func (f *BloomFilter) testBytes(key unsafe.Pointer, n int) bool {
	return testOn(f.live, func(h *handle) bool { return cTestKey(h.c, key, n) })
}

func stringPtr(s string) unsafe.Pointer {
	if len(s) == 0 {
		return nil
	}
	return unsafe.Pointer(unsafe.StringData(s))
}
